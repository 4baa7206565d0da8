"""context_gauge over real HTTP with the real mcp 2.3.0 client: after 50 varied calls, the gauge's
counts equal the bytes that client received, to the byte (000 section 14).

The client's HTTP transport is tapped, so the test also holds the byte rule itself: each reply's
structuredContent stands in the raw response as `"structuredContent":` followed by its compact JSON
(the `data` the desk counts), and its text stands there as the JSON string whose decoded UTF-8 bytes
are the `text` the desk counts."""

import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pydantic_core
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import CallToolResult, Implementation, TextContent

from tests.support import Town


class Tap(httpx2.AsyncBaseTransport):
    """The client's own transport, keeping every byte of every POST response as it arrives."""

    def __init__(self) -> None:
        self.inner = httpx2.AsyncHTTPTransport()
        self.received = bytearray()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        if request.method != "POST":
            return response
        assert "content-encoding" not in response.headers  # the bytes on the wire are the message itself
        tap = self

        class Stream(httpx2.AsyncByteStream):
            async def __aiter__(self) -> AsyncIterator[bytes]:
                async for chunk in response.stream:  # type: ignore[union-attr]
                    tap.received.extend(chunk)
                    yield chunk

            async def aclose(self) -> None:
                await response.aclose()

        return httpx2.Response(
            response.status_code, headers=response.headers, stream=Stream(), extensions=response.extensions
        )

    async def aclose(self) -> None:
        await self.inner.aclose()


@contextlib.asynccontextmanager
async def tapped(town: Town) -> AsyncIterator[tuple[ClientSession, Tap]]:
    tap = Tap()
    base = create_mcp_http_client()
    async with httpx2.AsyncClient(transport=tap, timeout=base.timeout) as http:
        async with streamable_http_client(town.mcp, http_client=http) as (read, write):
            async with ClientSession(read, write, client_info=Implementation(name="gauge-test", version="2.3")) as s:
                await s.initialize()
                yield s, tap
    await base.aclose()


# 50 calls: reads and writes, refusals, a held notice, unicode and quotes in the words, and the gauge itself.
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("look_around", {}),
    ("show_passport", {}),
    ("walk_to", {"to": "Post Office"}),
    ("remember", {"key": "plan", "value": 'Straße, café, 東京 and "quotes" — 🙂'}),
    ("recall", {"key": "plan"}),
    ("recall", {}),
    ("recall", {"key": "nothing-here"}),
    ("walk_to", {"to": "The Tavern"}),
    ("read_notices", {"limit": 5}),
    ("post_notice", {"text": "The census lists many servers; ask the Directory for lots."}),
    ("context_gauge", {}),
    ("walk_to", {"to": "Nowhere Street"}),
    ("remember", {"key": "second", "value": "a backslash \\ and a slash /"}),
    ("recall", {"key": "second"}),
    ("forget", {"key": "second"}),
    ("forget", {"key": "second"}),
    ("look_around", {}),
    ("walk_to", {"to": "The General Store"}),
    ("context_gauge", {}),
    ("show_passport", {}),
] + [
    ("recall", {"key": "plan"}),
    ("look_around", {}),
    ("read_notices", {}),
    ("context_gauge", {}),
    ("show_passport", {}),
    ("recall", {"key": "nothing-here"}),
] * 5


def bytes_of(result: CallToolResult, wire: bytes) -> tuple[int, int]:
    """(text, data) of one reply as the client received it, each found as it stood on the wire."""
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent), result
    text = result.content[0].text
    assert b'"text":' + pydantic_core.to_json(text) in wire
    assert result.structured_content is not None
    data = pydantic_core.to_json(result.structured_content)
    assert b'"structuredContent":' + data in wire
    return len(text.encode("utf-8")), len(data)


async def test_the_gauge_counts_what_the_client_received(town: Town) -> None:
    assert len(CALLS) == 50
    by_tool: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    replies: list[tuple[str, int, int]] = []
    async with tapped(town) as (sdk, tap):
        for tool, arguments in CALLS:
            mark = len(tap.received)
            result = await sdk.call_tool(tool, arguments)
            text, data = bytes_of(result, bytes(tap.received[mark:]))
            by_tool[tool][0] += 1
            by_tool[tool][1] += text
            by_tool[tool][2] += data
            replies.append((tool, text, data))
        final = await sdk.call_tool("context_gauge", {})
        assert final.is_error is False and final.structured_content is not None
        gauge = final.structured_content["gauge"]

    today = gauge["today"]
    print(f"gauge: {today['calls']} calls, text {today['text']} bytes, data {today['data']} bytes")
    assert today["calls"] == 50
    assert today["text"] == sum(r[1] for r in replies)
    assert today["data"] == sum(r[2] for r in replies)
    assert {row["tool"]: [row["calls"], row["text"], row["data"]] for row in today["tools"]} == by_tool
    assert today["other"] == {"tools": 0, "calls": 0, "text": 0, "data": 0}
    recent = replies[-20:]
    assert gauge["recent"]["calls"] == 20
    assert gauge["recent"]["text"] == sum(r[1] for r in recent)
    assert gauge["recent"]["data"] == sum(r[2] for r in recent)
    assert gauge["run"]["calls"] == 50 and gauge["run"]["text"] == today["text"]
    assert gauge["run"]["data"] == today["data"]
    assert (gauge["last"]["tool"], gauge["last"]["text"], gauge["last"]["data"]) == replies[-1]
    # The repeated recall of a missing key gives the same refusal each time, footstep aside.
    assert gauge["recent"]["repeats"] >= 3
