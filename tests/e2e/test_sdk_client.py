"""The real mcp 2.3.0 client against a live town: the handshake, tools/list against the tool reference,
every tool of this foundation, and the protocol errors of 001 section 03.
"""

import contextlib
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Implementation, TextContent

from tests.e2e.test_http_rows import sql
from tests.support import SHARED, RawSession, Town, have_shared
from tests.test_tool_schemas import reference_with_ours

FOUNDATION = {"look_around", "walk_to", "show_passport", "remember", "recall", "forget"}


@contextlib.asynccontextmanager
async def connect(town: Town) -> AsyncIterator[ClientSession]:
    """A ClientSession over the SDK's streamable HTTP transport, initialized; it ends the session on exit.
    (A context manager, not a fixture: anyio's scopes must close in the task that opened them.)"""
    async with streamable_http_client(town.mcp) as (read, write):
        async with ClientSession(read, write, client_info=Implementation(name="sdk-test", version="2.3")) as s:
            result = await s.initialize()
            assert result.protocol_version == "2025-11-25"
            yield s


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent), result
    return result.content[0].text


async def ok(session: ClientSession, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments or {})
    assert result.is_error is False, result
    sc = result.structured_content
    assert sc is not None and isinstance(sc["say"], str) and isinstance(sc["footstep"], int), result
    # The text carries the say first and the footstep last (000 section 01).
    lines = text_of(result).splitlines()
    assert lines[0] == sc["say"] and lines[-1] == f"footstep #{sc['footstep']}"
    return sc


async def footsteps(session: ClientSession) -> int:
    return int((await ok(session, "show_passport"))["footsteps"])


async def test_the_client_api_falls_back_from_discover_to_the_handshake(town: Town) -> None:
    """Client() in its default mode probes server/discover at 2026-07-28 first; the town's non-JSON-RPC
    400 makes it fall back to initialize, as 001 section 02 promises."""
    async with Client(town.mcp, client_info=Implementation(name="client-api-test", version="2.3")) as client:
        assert client.protocol_version == "2025-11-25"
        assert client.server_info is not None and client.server_info.name == "clockford"
        assert client.server_capabilities.tools is not None
        names = {t.name for t in (await client.list_tools()).tools}
        assert FOUNDATION <= names
        result = await client.call_tool("look_around", {})
        assert result.is_error is False and result.structured_content is not None
        passport = result.structured_content["you"]["passport"]
    assert sql(town, "SELECT client_name FROM town_passport WHERE id = %s", (passport,)) == [("client-api-test",)]


async def test_it_lists_the_tools_as_the_reference_documents_them(town: Town, tmp_path: Path) -> None:
    if not have_shared():
        pytest.skip("../shared/spec (check_tools.py and tools.json) is not beside the repository")
    async with connect(town) as sdk:
        tools = (await sdk.list_tools()).tools
        names = [t.name for t in tools]
        assert FOUNDATION <= set(names) and len(names) == len(set(names))
        listing = tmp_path / "tools-list.json"
        listing.write_text(json.dumps([t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools]))
        run = subprocess.run(
            # The reference, with the tools we designed where it says "Documented after review." (docs/tools).
            [sys.executable, str(SHARED / "spec" / "check_tools.py"), str(listing), str(reference_with_ours(tmp_path))],
            capture_output=True,
            text=True,
            timeout=60,
        )
        *lines, summary = run.stdout.splitlines()
        # Tools not built yet are missing, and that is all: every registered tool matches the reference.
        others = [line for line in lines if not line.endswith(": documented tool missing from tools/list")]
        assert others == [], others
        missing = {line.split(":")[0] for line in lines}
        assert not missing & set(names)
        assert summary == f"{len(names)} passed, {len(lines)} failed", run.stdout
        for t in tools:
            assert t.output_schema is None  # 000 section 01: the tools declare none
            assert t.input_schema["additionalProperties"] is False
            assert "job_id" in t.input_schema["properties"] and "job_id" not in t.input_schema.get("required", [])


async def test_it_calls_every_tool_of_the_foundation(town: Town) -> None:
    async with connect(town) as sdk:
        here = await ok(sdk, "look_around")
        assert here["you"]["place"] == "The Passport Office" and here["you"]["footsteps"] == 1
        walked = await ok(sdk, "walk_to", {"to": "Post Office"})
        assert walked["say"].startswith("You walk to The Post Office.") and walked["here"]["name"] == "The Post Office"
        assert (await ok(sdk, "look_around"))["you"]["place"] == "The Post Office"

        kept = await ok(sdk, "remember", {"key": "sdk/note", "value": "written by the SDK", "job_id": "job-1"})
        assert kept["key"] == "sdk/note" and kept["keys"] == 1
        got = await ok(sdk, "recall", {"key": "sdk/note"})
        assert got["value"] == "written by the SDK"
        assert (await ok(sdk, "recall"))["keys"] == ["sdk/note"]
        await ok(sdk, "forget", {"key": "sdk/note"})
        gone = await sdk.call_tool("recall", {"key": "sdk/note"})
        assert gone.is_error is True and gone.structured_content is not None
        assert gone.structured_content["say"] == "Nothing kept under that key."

        passport = await ok(sdk, "show_passport")
        assert passport["footsteps"] == 9 and passport["poBoxKeys"] == 0
        assert passport["pennant"] is None and passport["signIn"] is False
        assert passport["passport"] == here["you"]["passport"]


async def test_an_unknown_tool_is_a_protocol_error_without_a_footstep(town: Town) -> None:
    async with connect(town) as sdk:
        before = await footsteps(sdk)
        for name in ("no_such_tool", "LOOK_AROUND", "look-around"):
            result = await sdk.call_tool(name, {})
            assert result.is_error is True
            assert result.structured_content is None
            assert text_of(result) == f"MCP error -32602: Tool {name} not found"
        assert await footsteps(sdk) == before + 1


@pytest.mark.parametrize(
    ("tool", "arguments", "fields"),
    [
        ("walk_to", {}, ["to"]),
        ("walk_to", {"to": 5}, ["to"]),
        ("walk_to", {"to": ""}, ["to"]),
        ("look_around", {"where": "here"}, ["where"]),
        ("look_around", {"job_id": "not a job id!"}, ["job_id"]),
        ("remember", {"key": "k" * 65, "value": 3}, ["key", "value"]),
        ("forget", {"key": None}, ["key"]),
    ],
)
async def test_arguments_outside_the_schema_are_a_protocol_error_naming_the_field(
    town: Town, tool: str, arguments: dict[str, Any], fields: list[str]
) -> None:
    async with connect(town) as sdk:
        before = await footsteps(sdk)
        result = await sdk.call_tool(tool, arguments)
        assert result.is_error is True and result.structured_content is None
        text = text_of(result)
        assert text.startswith("MCP error -32602: Input validation error: "), text
        named = [p.split(":")[0] for p in text.removeprefix("MCP error -32602: Input validation error: ").split("; ")]
        assert named == fields, text
        assert await footsteps(sdk) == before + 1


def test_unknown_methods_and_malformed_params_get_json_rpc_errors(town: Town) -> None:
    s = RawSession(town.mcp)
    try:
        status, _, body = s.post({"jsonrpc": "2.0", "id": 41, "method": "no/such/method"})
        assert status == 200, body
        reply = json.loads(body.split("data: ", 1)[1])
        assert reply["id"] == 41 and reply["error"]["code"] == -32601

        for params in ({"arguments": {}}, {"name": 7}, {"name": None, "arguments": []}):
            status, _, body = s.post({"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": params})
            assert status == 200, body
            assert json.loads(body.split("data: ", 1)[1]) == {
                "jsonrpc": "2.0",
                "id": 42,
                "error": {
                    "code": -32602,
                    "message": "Invalid params: name must be a string, the name of a tool tools/list gives.",
                },
            }

        # arguments that are no object: the same refusal, saying which field (the SDK's said only
        # "Invalid request parameters").
        for arguments in ([1, 2], "x", 3, True):
            params = {"name": "look_around", "arguments": arguments}
            status, _, body = s.post({"jsonrpc": "2.0", "id": 44, "method": "tools/call", "params": params})
            assert status == 200, body
            assert json.loads(body.split("data: ", 1)[1]) == {
                "jsonrpc": "2.0",
                "id": 44,
                "error": {"code": -32602, "message": "Invalid params: arguments must be an object."},
            }

        # params that are not an object at all are not a JSON-RPC request: refused before any handler.
        for params in ("look_around", [1, 2]):
            status, headers, body = s.post({"jsonrpc": "2.0", "id": 43, "method": "tools/call", "params": params})
            assert status == 400, body
            assert headers["content-type"] == "application/json"
            error = json.loads(body)["error"]
            assert error["code"] == -32602, error

        # Params of any other method, or a call's _meta, that MCP's types refuse: the refusal says where
        # and what, where the SDK said "Invalid request parameters" with data "" for each.
        for i, (method, params, said) in enumerate(
            (
                ("resources/read", {"uri": 5}, "uri: Input should be a valid string"),
                ("resources/read", {}, "uri: Field required"),
                ("tools/list", {"cursor": 5}, "cursor: Input should be a valid string"),
                (
                    "prompts/get",
                    {"name": "errand", "arguments": {"a": 5}},
                    "arguments.a: Input should be a valid string",
                ),
                (
                    "tools/call",
                    {"name": "look_around", "_meta": {"progressToken": [1, 2]}},
                    "_meta.progressToken: Input should be a valid string, or a valid integer",
                ),
            )
        ):
            status, _, body = s.post({"jsonrpc": "2.0", "id": 50 + i, "method": method, "params": params})
            assert status == 200, body
            assert json.loads(body.split("data: ", 1)[1]) == {
                "jsonrpc": "2.0",
                "id": 50 + i,
                "error": {"code": -32602, "message": f"Invalid params: {said}."},
            }, (method, params)
        # None of it cost the session anything.
        assert s.call("look_around")["structuredContent"]["you"]["footsteps"] == 1
    finally:
        s.delete()
