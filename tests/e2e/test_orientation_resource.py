"""The town's orientation as an MCP resource, with the real mcp 2.3.0 client over HTTP: listed beside
the courses, and read through the desk as a call of embassy (a footstep, the visa of a passport's first
day), drawn as markdown in the town's words."""

from collections.abc import Callable

from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError

from tests.e2e.test_sdk_client import connect, ok
from tests.support import Town

URI = "clockford://embassies/orientation"
META = "town.clockford/"


async def read(s: ClientSession) -> tuple[str, dict]:  # type: ignore[type-arg]
    result = await s.read_resource(URI)
    (content,) = result.contents
    assert content.mime_type == "text/markdown" and str(content.uri) == URI
    return content.text, content.meta or {}  # type: ignore[union-attr]


async def test_the_orientation_is_listed_and_read_through_the_desk(town: Town) -> None:
    async with connect(town) as s:
        listed = {str(r.uri): r for r in (await s.list_resources()).resources}
        assert listed[URI].name == "orientation" and listed[URI].mime_type == "text/markdown"
        assert "clockford://university/ten-habits" in listed

        before = (await ok(s, "look_around"))["footstep"]
        text, meta = await read(s)
        reply = meta[f"{META}orientation"]
        # A footstep of its own, after the one before: the read was a call of embassy.
        assert meta[f"{META}footstep"] == reply["footstep"] > before
        assert meta[f"{META}say"].startswith("Welcome to the Embassies: the town's orientation, and your two desks (")
        assert reply["yourDesks"]["arrivedBy"]["id"] == "http"
        assert text.startswith(f"# Welcome to {reply['town']['name']}\n")
        assert "\n## House rules\n" in text and "\n### The way you arrived: " in text
        # The first read in a passport's first day was issued the visa, as embassy would be.
        assert reply["visa"] is not None and "A visa is issued to you" in meta[f"{META}say"]
        again = await ok(s, "embassy")
        assert again["footstep"] > reply["footstep"] and "A visa is issued to you" not in again["say"]
        assert again["visa"]["issuedAt"] == reply["visa"]["issuedAt"]


async def test_an_unknown_resource_is_a_protocol_error(town: Town) -> None:
    async with connect(town) as s:
        try:
            await s.read_resource("clockford://embassies/nowhere")
        except Exception as exc:  # the SDK raises the JSON-RPC error
            assert "No resource at clockford://embassies/nowhere. resources/list names every one." in str(exc)
        else:
            raise AssertionError("an unknown resource was read")


async def test_a_read_the_desk_refuses_is_a_server_error_with_its_footstep(town_factory: Callable[..., Town]) -> None:
    """The clerk's limit (three calls a minute here) refuses the fourth read: a JSON-RPC error whose
    message is the reply's say and whose data is the reply, its footstep among them. The code is
    -32000, JSON-RPC's server error, never -32603 (the server failed), which it once was."""
    town = town_factory(env={"CLOCKFORD_CALLS_PER_MINUTE": "3"}).start()
    async with connect(town) as s:
        for _ in range(3):
            await read(s)
        try:
            await s.read_resource(URI)
        except MCPError as refused:
            error = refused.error
        else:
            raise AssertionError("the fourth read in a minute was not refused")
    assert error.code == -32000, error
    assert error.message.startswith("The clerk is busy. Try again in ") and isinstance(error.data, dict), error
    assert error.data["say"] == error.message and isinstance(error.data["footstep"], int), error.data
    assert error.data["retryAfterSeconds"] >= 1, error.data
