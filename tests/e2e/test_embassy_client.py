"""The Embassies with the real mcp 2.3.0 client: embassy reads the software from the clientInfo the
client sent at initialize and the way it arrived (HTTP with a session, or stdio), and a visa's next
steps come as one more text block after the reply's first."""

import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Implementation, TextContent

from tests.support import PYTHON, ROOT, Town, make_town


@contextlib.asynccontextmanager
async def over_http(town: Town, name: str) -> AsyncIterator[ClientSession]:
    async with streamable_http_client(town.mcp) as (read, write):
        async with ClientSession(read, write, client_info=Implementation(name=name, version="1.0")) as s:
            await s.initialize()
            yield s


@pytest.fixture(scope="module")
def stdio_town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    t = make_town(tmp_path_factory.mktemp("embassy-stdio"))
    yield t
    t.close()


def texts(result: CallToolResult) -> list[str]:
    assert all(isinstance(c, TextContent) for c in result.content), result
    return [c.text for c in result.content if isinstance(c, TextContent)]


async def structured(session: ClientSession, tool: str, arguments: dict[str, Any] | None = None) -> Any:
    result = await session.call_tool(tool, arguments or {})
    assert result.is_error is False, result
    assert result.structured_content is not None
    return result.structured_content


@pytest.mark.parametrize(("name", "family"), [("claude-code", "claude-code"), ("some-new-agent", "unknown")])
async def test_the_embassy_reads_the_client_info_over_http(town: Town, name: str, family: str) -> None:
    async with over_http(town, name) as s:
        sc = await structured(s, "embassy")
    desks = sc["yourDesks"]
    assert desks["arrivedBy"]["id"] == "http"
    assert desks["software"]["id"] == family and desks["software"]["reported"] == name
    assert {"path": "yourDesks.software.reported", "label": "untrusted"} in sc["provenance"]["parts"]


async def test_the_python_sdks_default_name_is_known(town: Town) -> None:
    async with streamable_http_client(town.mcp) as (read, write):
        async with ClientSession(read, write) as s:  # no client_info: the SDK reports "mcp"
            await s.initialize()
            sc = await structured(s, "embassy")
    assert sc["yourDesks"]["software"]["id"] == "python-sdk"


async def test_a_visa_adds_a_text_block_to_the_next_refusals(town: Town) -> None:
    async with over_http(town, "visa-test") as s:
        sc = await structured(s, "embassy")
        assert sc["visa"]["refusalsLeft"] == 3
        refused = await s.call_tool("recall", {"key": "nothing-here"})
        assert refused.is_error is True and refused.structured_content is not None
        first, steps = texts(refused)
        assert first.splitlines()[0] == refused.structured_content["say"]
        assert steps.startswith("Visa, next steps (2 of 3 left on your visa): Read say")
        fine = await s.call_tool("look_around", {})
        assert fine.is_error is False and len(texts(fine)) == 1


async def test_the_embassy_knows_a_stdio_arrival(stdio_town: Town) -> None:
    params = StdioServerParameters(
        command=PYTHON, args=["-m", "clockford.face.stdio"], env=stdio_town.env, cwd=str(ROOT)
    )
    with open(stdio_town.var / "stdio-stderr.log", "a") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, client_info=Implementation(name="claude-ai", version="1")) as s:
                await s.initialize()
                sc = await structured(s, "embassy")
    assert sc["yourDesks"]["arrivedBy"]["id"] == "stdio"
    assert sc["yourDesks"]["software"]["id"] == "claude-desktop"
