"""The town over stdio with the real mcp 2.3.0 stdio client: one process, one session, one passport."""

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import Implementation, TextContent
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from tests.e2e.test_http_rows import sql
from tests.support import PYTHON, ROOT, Town, make_town

FOUNDATION = {"look_around", "walk_to", "show_passport", "remember", "recall", "forget"}


@pytest.fixture(scope="module")
def stdio_town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    """A migrated town that no HTTP server serves: each test's stdio process is the town."""
    t = make_town(tmp_path_factory.mktemp("stdio"))
    yield t
    t.close()


def server(town: Town, command: list[str] | None = None) -> StdioServerParameters:
    cmd = command or [PYTHON, "-m", "clockford.face.stdio"]
    return StdioServerParameters(command=cmd[0], args=cmd[1:], env=town.env, cwd=str(ROOT))


@contextlib.asynccontextmanager
async def connect(town: Town, name: str, command: list[str] | None = None) -> AsyncIterator[ClientSession]:
    with open(town.var / "stdio-stderr.log", "a") as errlog:
        async with stdio_client(server(town, command), errlog=errlog) as (read, write):
            async with ClientSession(read, write, client_info=Implementation(name=name, version="1.0")) as s:
                yield s


async def structured(session: ClientSession | Client, tool: str, arguments: dict[str, Any] | None = None) -> Any:
    result = await session.call_tool(tool, arguments or {})
    assert result.is_error is False, result
    assert result.structured_content is not None
    return result.structured_content


async def test_stdio_serves_the_handshake_the_tools_and_one_passport(stdio_town: Town) -> None:
    async with connect(stdio_town, "stdio-test") as s:
        init = await s.initialize()
        assert init.protocol_version == "2025-11-25"
        assert init.server_info.name == "clockford"
        assert init.instructions and init.instructions.startswith("Clockford is a town for AI agents.")
        names = {t.name for t in (await s.list_tools()).tools}
        assert FOUNDATION <= names

        here = await structured(s, "look_around")
        you = here["you"]
        assert you["place"] == "The Passport Office" and you["footsteps"] == 1
        assert here["provenance"]["say"] == "town"

        kept = await structured(s, "remember", {"key": "stdio/note", "value": "kept over stdio"})
        assert kept["keys"] == 1
        got = await structured(s, "recall", {"key": "stdio/note"})
        assert got["value"] == "kept over stdio"

        unknown = await s.call_tool("no_such_tool", {})
        assert unknown.is_error is True and unknown.structured_content is None
        assert unknown.content == [TextContent(type="text", text="MCP error -32602: Tool no_such_tool not found")]
        invalid = await s.call_tool("remember", {"key": "", "value": "x"})
        assert isinstance(invalid.content[0], TextContent)
        assert invalid.content[0].text.startswith("MCP error -32602: Input validation error: key: ")

        passport = await structured(s, "show_passport")
        assert passport["passport"] == you["passport"]
        assert passport["footsteps"] == 4  # the two protocol errors left no footstep
        assert passport["poBoxKeys"] == 1

    # The passport keeps clientInfo.name, for the person to see.
    rows = sql(stdio_town, "SELECT client_name, footsteps FROM town_passport WHERE id = %s", (you["passport"],))
    assert rows == [("stdio-test", 4)]


async def test_each_stdio_process_is_a_new_session_with_a_new_passport(stdio_town: Town) -> None:
    """The SDK's Client in its default mode: over stdio the process is the session, so the town
    serves the 2026-07-28 revision too (discover, no handshake), and still keeps the client's name."""
    passports = []
    for name in ("first-stdio", "second-stdio"):
        params = server(stdio_town)
        async with Client(params, client_info=Implementation(name=name, version="1.0")) as client:
            assert client.protocol_version in MODERN_PROTOCOL_VERSIONS
            assert FOUNDATION <= {t.name for t in (await client.list_tools()).tools}
            you = (await structured(client, "look_around"))["you"]
            assert you["footsteps"] == 1
            assert (await structured(client, "recall"))["keys"] == []  # nothing of the other passport's box
            await structured(client, "remember", {"key": "mine", "value": name})
            passports.append(you["passport"])
    assert passports[0] != passports[1]
    rows = sql(stdio_town, "SELECT id, client_name FROM town_passport WHERE id IN (%s, %s)", tuple(passports))
    assert dict(rows) == {passports[0]: "first-stdio", passports[1]: "second-stdio"}


async def test_the_front_door_serves_stdio(stdio_town: Town) -> None:
    """`./town stdio`, as a desktop agent's configuration runs it, with the town's environment."""
    async with connect(stdio_town, "front-door", [str(ROOT / "town"), "stdio"]) as s:
        assert (await s.initialize()).protocol_version == "2025-11-25"
        you = (await structured(s, "look_around"))["you"]
    assert sql(stdio_town, "SELECT client_name FROM town_passport WHERE id = %s", (you["passport"],)) == [
        ("front-door",)
    ]


def piped(stdio_town: Town, **setting: str) -> "subprocess.Popen[str]":
    """The stdio town in a process of its own (with `setting` added to its environment), its three
    streams piped to the test."""
    return subprocess.Popen(
        [PYTHON, "-m", "clockford.face.stdio"],
        env={**stdio_town.env, **setting},
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def asking(proc: "subprocess.Popen[str]") -> Callable[[dict[str, Any]], Any]:
    """`ask`: one message written on its own line, and the one reply it gets read."""

    def ask(message: dict[str, Any]) -> Any:
        assert proc.stdin and proc.stdout
        proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    return ask


def initialize(request_id: int) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    }


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
NESTED = {"code": -32600, "message": "Invalid Request: the message nests more than 100 levels deep."}


def fed(stdio_town: Town, lines: list[str], end: str = "\n") -> subprocess.CompletedProcess[str]:
    """The stdio town run with these lines on its stdin, one message a line (the last ended by `end`),
    to their end."""
    return subprocess.run(
        [PYTHON, "-m", "clockford.face.stdio"],
        env=stdio_town.env,
        cwd=ROOT,
        input="\n".join(lines) + end,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def call(request_id: int, tool: str, arguments: dict[str, Any] | None = None) -> str:
    params = {"name": tool, "arguments": arguments or {}}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params})


def newest_passport(stdio_town: Town) -> tuple[str, int]:
    """The id and footsteps of the passport made last: the last stdio process's."""
    rows = sql(stdio_town, "SELECT id, footsteps FROM town_passport ORDER BY issued_at DESC LIMIT 1")
    return rows[0][0], rows[0][1]


def test_every_request_read_is_answered_before_the_process_ends(stdio_town: Town) -> None:
    """A scripted client pipes its requests and ends its input. The SDK ended the session at the end
    of input and cut off the calls still running: they ran and committed, and their replies were
    lost (of three remember calls, one reply came out). Now every request read is answered, and
    written, before the process ends; the last line too, without its newline."""
    lines = [json.dumps(initialize(1)), json.dumps(INITIALIZED)]
    lines += [call(i, "remember", {"key": f"k{i - 1}", "value": "kept"}) for i in (2, 3, 4)]
    lines += [call(i, "look_around") for i in (5, 6, 7)]
    lines.append(json.dumps({"jsonrpc": "2.0", "id": 8, "method": "ping"}))
    proc = fed(stdio_town, lines, end="")
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert sorted(r["id"] for r in replies) == [1, 2, 3, 4, 5, 6, 7, 8], proc.stderr[-2000:]
    by_id = {r["id"]: r for r in replies}
    assert {by_id[i]["result"]["structuredContent"]["keys"] for i in (2, 3, 4)} == {1, 2, 3}
    assert all(by_id[i]["result"]["isError"] is False for i in range(2, 8))
    assert by_id[8] == {"jsonrpc": "2.0", "id": 8, "result": {}}
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    passport, footsteps = newest_passport(stdio_town)
    assert footsteps == 6
    notes = sql(stdio_town, "SELECT key FROM post_office_note WHERE box = %s ORDER BY key", (passport,))
    assert notes == [("k1",), ("k2",), ("k3",)]


def test_stdio_writes_nothing_but_mcp_to_standard_output(stdio_town: Town) -> None:
    """A line on stdout that is not JSON-RPC would break every stdio client: logs go to stderr, even
    at the most talkative log level."""
    init = initialize(1)
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "look_around", "arguments": {}}}
    proc = piped(stdio_town, CLOCKFORD_LOG_LEVEL="DEBUG")
    assert proc.stdin and proc.stdout
    try:
        replies = []
        for message in (init, INITIALIZED, call):
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" in message:
                replies.append(json.loads(proc.stdout.readline()))
        proc.stdin.close()
        rest = proc.stdout.read()
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert [r["id"] for r in replies] == [1, 2]
    assert replies[0]["result"]["protocolVersion"] == "2025-11-25"
    assert replies[1]["result"]["structuredContent"]["you"]["footsteps"] == 1
    assert rest == ""


def test_a_request_the_sdk_cannot_parse_is_answered_not_dropped(stdio_town: Town) -> None:
    """The SDK's stdio reader drops a line its JSON parser refuses; Python's reads a lone surrogate
    (\\ud800) all the same, so a request with one gets a parse error for its id instead of silence,
    and the lines after it are served. A line with no id that can be written back is answered with a
    null id (JSON-RPC, section 5), and none of it is a footstep."""
    init = initialize(1)
    lines = [
        json.dumps(init),
        json.dumps(INITIALIZED),
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"remember","arguments":'
        '{"key":"a","value":"\\ud800"}}}',
        '{"jsonrpc":"2.0","id":"\\udc00","method":"ping"}',  # its id cannot be written back
        '{"jsonrpc":"2.0","id":7,"method":"ping","params":' + "[" * 5000 + "]" * 5000 + "}",  # past any limit
        "{",
        '{"jsonrpc":"1.0","id":8,"method":"ping"}',  # JSON, but no JSON-RPC 2.0 request
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "look_around"}}),
    ]
    proc = fed(stdio_town, lines)
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["id"] for r in replies] == [1, 5, None, 7, None, 8, 6]
    assert replies[1]["error"] == {
        "code": -32700,
        "message": "Parse error: the town cannot read this line as JSON (unexpected end of hex escape at line 1 "
        "column 113). Nothing was done.",
    }
    # An id that cannot be written back: a parse error with a null id.
    assert replies[2]["error"]["code"] == -32700
    # Nesting past the SDK's parser and Python's: refused for its id, as over HTTP.
    assert replies[3] == {"jsonrpc": "2.0", "id": 7, "error": NESTED}
    # Not JSON at all: a parse error with a null id.
    assert replies[4]["error"]["code"] == -32700
    assert replies[5]["id"] == 8 and replies[5]["error"]["code"] == -32600
    assert replies[5]["error"]["message"].startswith("Invalid request: this is not a JSON-RPC 2.0 request (jsonrpc: ")
    assert replies[6]["result"]["isError"] is False  # the last line, read before the end of input, is answered
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr


def test_each_request_of_a_batch_is_answered_not_dropped(stdio_town: Town) -> None:
    """MCP has no batches since 2025-06-18, and the SDK's reader dropped a batch's line whole, so each
    request in it waited for an answer that never came. Each one with an id is now told the town takes
    one message per line; a notification in it, or a member with no id to answer, is not (an empty
    batch, with nothing to answer for, is told with a null id); nothing in it runs, and the lines
    after it are served."""
    init = initialize(1)
    batch = [
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/progress"},
        {"jsonrpc": "2.0", "id": "three", "method": "tools/call", "params": {"name": "look_around"}},
        {"jsonrpc": "2.0", "id": [4], "method": "ping"},
        5,
    ]
    lines = [
        json.dumps(init),
        json.dumps(INITIALIZED),
        json.dumps(batch),
        "[]",
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "ping", "params": []}),  # a list, but a field's
        json.dumps({"jsonrpc": "2.0", "id": 7, "method": "ping"}),
    ]
    proc = fed(stdio_town, lines)
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    one_per_line = {
        "code": -32600,
        "message": "Invalid request: the town takes one JSON-RPC message per line, not a batch. Nothing was done.",
    }
    assert replies[0]["id"] == 1 and "result" in replies[0]
    assert replies[1:3] == [
        {"jsonrpc": "2.0", "id": 2, "error": one_per_line},
        {"jsonrpc": "2.0", "id": "three", "error": one_per_line},
    ]
    assert replies[3] == {"jsonrpc": "2.0", "id": None, "error": one_per_line}
    assert replies[4]["id"] == 6 and replies[4]["error"]["code"] == -32600
    assert replies[4]["error"]["message"].startswith("Invalid request: this is not a JSON-RPC 2.0 request (params: ")
    assert replies[5:] == [{"jsonrpc": "2.0", "id": 7, "result": {}}]
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    # The batch's tools/call never ran: the process's passport (the newest) has no footstep.
    assert sql(stdio_town, "SELECT footsteps FROM town_passport ORDER BY issued_at DESC LIMIT 1") == [(0,)]


@contextlib.contextmanager
def talking(stdio_town: Town) -> Iterator[Callable[[str], Any]]:
    """A stdio town past its handshake, and `ask`: one line written, and the one reply it gets read.
    At the end a last call is written and standard input closed at once, without waiting: a request
    read is answered before the process ends, so its reply is all that is left on standard output;
    then status 0, and no traceback."""
    proc = piped(stdio_town)
    assert proc.stdin and proc.stdout and proc.stderr

    def ask(line: str) -> Any:
        assert proc.stdin and proc.stdout
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    try:
        assert asking(proc)(initialize(1))["id"] == 1
        proc.stdin.write(json.dumps(INITIALIZED) + "\n")
        yield ask
        proc.stdin.write(
            json.dumps({"jsonrpc": "2.0", "id": "last", "method": "tools/call", "params": {"name": "look_around"}})
            + "\n"
        )
        proc.stdin.close()
        last = [json.loads(line) for line in proc.stdout.read().splitlines()]
        assert [r["id"] for r in last] == ["last"] and last[0]["result"]["isError"] is False, last
        assert proc.wait(30) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_line_over_the_body_limit_is_refused_and_the_next_lines_served(stdio_town: Town) -> None:
    """The SDK's reader took a line whole however long it was, so one client could make the town hold
    as much as it sent. A line over the limit of a body over HTTP (128 KiB) is answered with the
    413's words, for the id its start names (null when the id comes only after the rest), nothing in
    it runs, and the lines after it are served; a line at the limit, ended \\r\\n, is read as before."""
    limit = 128 * 1024

    def remember(request_id: int, size: int) -> str:
        """A tools/call that is `size` bytes long, made so by padding its value."""
        call = {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": "remember", "arguments": {"key": f"k{request_id}", "value": ""}},
        }
        line = json.dumps(call)
        return line.replace('"value": ""', '"value": "' + "x" * (size - len(line)) + '"')

    def too_large(request_id: int | None) -> dict[str, Any]:
        message = f"Too large. A message is at most {limit} bytes, over stdio as over HTTP. Nothing was done."
        return {"jsonrpc": "2.0", "id": request_id, "error": {"code": -32600, "message": message}}

    with talking(stdio_town) as ask:
        assert ask(remember(2, limit + 1)) == too_large(2)
        over = remember(3, 3 * limit)  # several chunks of standard input
        assert len(over) == 3 * limit
        assert ask(over) == too_large(3)
        id_last = json.loads(remember(6, 2 * limit))
        id_last["id"] = id_last.pop("id")  # written after the params
        assert ask(json.dumps(id_last)) == too_large(None)
        # At the limit, the line is read and judged like any other: a note over 4,000 characters is
        # outside the tool's schema (a protocol error, no footstep).
        at_limit = ask(remember(4, limit) + "\r")
        assert at_limit["id"] == 4 and at_limit["result"]["isError"] is True
        assert at_limit["result"]["content"][0]["text"].startswith("MCP error -32602: Input validation error: value")
        passport = ask(
            json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "show_passport"}})
        )
        # No line over the limit ran: this call is the passport's first footstep.
        assert passport["id"] == 5 and passport["result"]["structuredContent"]["footsteps"] == 1


def test_arguments_that_are_no_object_are_refused_in_words(stdio_town: Town) -> None:
    """A tools/call whose arguments are a list, a string or a number: JSON-RPC's Invalid params, as the
    SDK answered it, but saying which field instead of "Invalid request parameters"; nothing runs."""
    refused = {"code": -32602, "message": "Invalid params: arguments must be an object."}
    with talking(stdio_town) as ask:
        for i, arguments in ((2, [1, 2]), (3, "x"), (4, 5)):
            params = {"name": "look_around", "arguments": arguments}
            call = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params}
            assert ask(json.dumps(call)) == {"jsonrpc": "2.0", "id": i, "error": refused}
        passport = ask(
            json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "show_passport"}})
        )
        # None of them ran: this call is the passport's first footstep.
        assert passport["id"] == 5 and passport["result"]["structuredContent"]["footsteps"] == 1


def test_a_client_that_quits_mid_call_ends_the_session_quietly(stdio_town: Town) -> None:
    """A desktop agent that quits while a call runs closes both its pipes; the SDK's writer died of the
    broken pipe writing the reply, with a traceback and status 1. Now the session ends quietly, and a
    line that comes after the town found no one reading is not served."""
    proc = piped(stdio_town)
    assert proc.stdin and proc.stdout and proc.stderr
    try:
        assert asking(proc)(initialize(1))["id"] == 1
        proc.stdin.write(json.dumps(INITIALIZED) + "\n")
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "look_around"}}
        proc.stdin.write(json.dumps(call) + "\n")
        proc.stdin.flush()
        proc.stdout.close()
        # The call's log line comes just before its reply, which finds the pipe closed.
        assert '"tool":"look_around"' in proc.stderr.readline()
        time.sleep(2)
        after = {"key": "after-gone", "value": "nobody reads this"}
        late = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "remember", "arguments": after}}
        proc.stdin.write(json.dumps(late) + "\n")
        proc.stdin.close()
        assert proc.wait(30) == 0
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in err and "BrokenPipeError" not in err, err[-2000:]
    assert sql(stdio_town, "SELECT COUNT(*) FROM post_office_note WHERE key = %s", ("after-gone",)) == [(0,)]


@pytest.mark.parametrize("closed", [0, 1])
def test_a_process_started_without_standard_input_or_output_says_so(stdio_town: Town, closed: int) -> None:
    """A launcher that closes standard input or output (`./town stdio <&-`): the SDK's claim of it
    failed with a traceback, after a passport was made. Now it says why on standard error and ends
    with status 2, before it makes anything."""
    before = sql(stdio_town, "SELECT COUNT(*) FROM town_passport")
    proc = subprocess.run(
        [PYTHON, "-m", "clockford.face.stdio"],
        env=stdio_town.env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL if closed == 1 else None,
        stdout=subprocess.DEVNULL if closed == 0 else None,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=lambda: os.close(closed),  # noqa: PLW1509 (closes one descriptor, in the child only)
    )
    which = ("standard input", "standard output")[closed]
    assert proc.returncode == 2
    assert (
        proc.stderr
        == f"./town stdio serves MCP on standard input and output, and this process was started without {which}.\n"
    )
    assert sql(stdio_town, "SELECT COUNT(*) FROM town_passport") == before


def test_a_request_before_initialize_is_told_to_initialize(stdio_town: Town) -> None:
    """Before initialize the SDK refused every request but ping with "Invalid request parameters",
    which blames params that were fine; the town says what it says over HTTP of the same mistake.
    Nothing runs, and the handshake after it is served as ever."""
    no_session = {"code": -32602, "message": "No valid session. Start with initialize."}
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "look_around", "arguments": {}}}
    proc = piped(stdio_town)
    assert proc.stdin and proc.stdout and proc.stderr

    ask = asking(proc)
    try:
        assert ask(call) == {"jsonrpc": "2.0", "id": 2, "error": no_session}
        assert ask({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}) == {
            "jsonrpc": "2.0",
            "id": 3,
            "error": no_session,
        }
        assert ask({"jsonrpc": "2.0", "id": 4, "method": "ping"}) == {"jsonrpc": "2.0", "id": 4, "result": {}}
        assert ask(initialize(5))["result"]["protocolVersion"] == "2025-11-25"
        proc.stdin.write(json.dumps(INITIALIZED) + "\n")
        shown = ask({**call, "id": 6, "params": {"name": "show_passport", "arguments": {}}})
        assert shown["result"]["structuredContent"]["footsteps"] == 1  # the call before initialize never ran
        proc.stdin.close()
        assert proc.wait(30) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_stream_that_opens_with_a_byte_order_mark_is_served(stdio_town: Town) -> None:
    """What a Windows shell pipes may begin with UTF-8's byte order mark: the first request, an
    initialize, is answered, where the SDK's reader refused its line and the client waited for ever."""
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "look_around", "arguments": {}}}
    proc = fed(stdio_town, ["\ufeff" + json.dumps(initialize(1)), json.dumps(INITIALIZED), json.dumps(call)])
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert replies[0]["id"] == 1 and replies[0]["result"]["protocolVersion"] == "2025-11-25", replies
    assert proc.returncode == 0, proc.stderr[-2000:]


def exchange(stdio_town: Town, lines: list[str]) -> list[dict[str, Any]]:
    """The replies to `lines`, piped with standard input closed at their end: every request read is
    answered before the process ends, quietly, and nothing else is written."""
    proc = fed(stdio_town, lines)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_a_line_with_no_id_to_answer_gets_a_null_id_and_a_response_gets_nothing(stdio_town: Town) -> None:
    """JSON-RPC (section 5) answers a line it cannot read, or a request it cannot take, with a null id
    when it cannot tell the id: a client waited for ever on these. A response the client sends (to a
    request of the town's) is never answered, however wrong."""
    lines = [
        json.dumps(initialize(1)),
        json.dumps(INITIALIZED),
        "garbage",
        "42",
        "null",
        '{"jsonrpc":"2.0","id":4}',  # neither a request nor a response
        '{"jsonrpc":"2.0","id":14,"method":"ping"}{"jsonrpc":"2.0","id":15,"method":"ping"}',  # two on one line
        '{"jsonrpc":"2.0","id":99,"result":"not what anyone asked"}',
        '{"jsonrpc":"2.0","id":98,"error":"no object"}',
        json.dumps({"jsonrpc": "2.0", "id": 7, "method": "ping"}),
    ]
    replies = exchange(stdio_town, lines)
    assert len(replies) == 7, replies
    assert replies[0]["id"] == 1 and "result" in replies[0]
    codes = [(r["id"], r["error"]["code"]) for r in replies[1:-1]]
    assert codes == [(None, -32700), (None, -32600), (None, -32600), (None, -32600), (None, -32700)], replies
    for r in replies[1:-1]:
        assert r["error"]["message"].endswith("Nothing was done."), r
    assert replies[-1] == {"jsonrpc": "2.0", "id": 7, "result": {}}


def test_a_request_whose_id_is_no_string_nor_integer_is_answered_with_a_null_id(stdio_town: Town) -> None:
    """An id that is true, 1.5, an object, a list or null: the SDK's parser took such a request for a
    notification, ran nothing and answered nothing, so its client waited for ever. JSON-RPC (section 5)
    answers it Invalid Request with a null id, and the town sends what HTTP sends of the same body
    (checks.well_formed). Nothing runs; a notification, and a response however wrong, get no answer."""
    invalid = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    ids = ["true", "1.5", '{"a":1}', "[1]", "null"]
    lines = [json.dumps(initialize(1)), json.dumps(INITIALIZED)]
    lines += ['{"jsonrpc":"2.0","id":' + ident + ',"method":"ping"}' for ident in ids]
    lines.append(
        '{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"remember","arguments":'
        '{"key":"null-id","value":"never kept"}}}'
    )
    lines.append('{"jsonrpc":"2.0","id":true,"result":{}}')  # a response: never answered
    lines.append(
        json.dumps(
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}
        )
    )
    lines.append(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
    replies = exchange(stdio_town, lines)
    assert replies[0]["id"] == 1 and "result" in replies[0]
    assert replies[1:] == [invalid] * 6 + [{"jsonrpc": "2.0", "id": 9, "result": {}}]
    passport, footsteps = newest_passport(stdio_town)
    assert footsteps == 0
    assert sql(stdio_town, "SELECT COUNT(*) FROM post_office_note WHERE box = %s", (passport,)) == [(0,)]


def test_a_message_nested_too_deep_is_refused_with_its_id_as_over_http(stdio_town: Town) -> None:
    """Over HTTP a message nested past 100 levels is refused with its id (checks.shallow_enough); the
    SDK's stdio reader read such a line up to about 200 levels and ran it."""

    def ping(ident: int, levels: int) -> str:
        nested = "[" * (levels - 2) + "]" * (levels - 2)  # inside the message (level 1) and params (level 2)
        return '{"jsonrpc":"2.0","id":ID,"method":"ping","params":{"x":NESTED}}'.replace("ID", str(ident)).replace(
            "NESTED", nested
        )

    lines = [json.dumps(initialize(1)), json.dumps(INITIALIZED), ping(2, 101), ping(3, 150), ping(4, 202), ping(5, 100)]
    lines.append('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"x":' + "[" * 120 + "]" * 120 + "}}")
    lines.append(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"}))
    replies = exchange(stdio_town, lines)
    assert len(replies) == 7, replies
    # (The refusals are written as the lines are read, the answers as the SDK gives them: in any order.)
    by_id = {r["id"]: r for r in replies}
    assert sorted(by_id, key=str) == sorted([1, 2, 3, 4, 5, None, 9], key=str)
    assert [by_id[i]["error"] for i in (2, 3, 4)] == [NESTED] * 3
    # A hundred levels is read as any message is; a notification too deep is refused with a null id.
    assert by_id[5] == {"jsonrpc": "2.0", "id": 5, "result": {}}
    assert by_id[None]["error"] == NESTED


SHOUTED = ("Traceback", "KeyboardInterrupt", "CancelledError")


def test_ctrl_c_while_idle_ends_the_process_quietly_with_130(stdio_town: Town) -> None:
    """Ctrl-C printed some 4 KB of traceback and the process died by the signal, and only once its
    client wrote or closed its input: the read waiting on it held the process. Now it ends at once,
    quietly, with the status a shell gives a program Ctrl-C ended, and nothing more on stdout."""
    proc = piped(stdio_town)
    assert proc.stdin and proc.stdout and proc.stderr
    try:
        assert asking(proc)(initialize(1))["id"] == 1
        proc.stdin.write(json.dumps(INITIALIZED) + "\n")
        proc.stdin.flush()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 130  # standard input still open
        assert proc.stdout.read() == ""
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not any(word in err for word in SHOUTED), err[-2000:]


def test_ctrl_c_mid_call_answers_the_calls_in_hand_and_runs_no_more(stdio_town: Town) -> None:
    """Ctrl-C while calls run: each call read is finished and answered, nothing more is read or run,
    and the process ends quietly with 130. So every note kept has its reply, and every reply its
    note and its footstep: nothing half-done, whichever call the signal came in. (60 calls: fewer
    than a box's 64 keys.)"""
    proc = piped(stdio_town)
    assert proc.stdin and proc.stdout and proc.stderr
    # The replies are read as they come, to the end (a client that stopped reading would hold the
    # town's writes up), and the process killed if it has not ended in 30 seconds.
    killer = threading.Timer(30, proc.kill)
    try:
        assert asking(proc)(initialize(1))["id"] == 1
        lines = [json.dumps(INITIALIZED)]
        lines += [call(i, "remember", {"key": f"c{i}", "value": "kept"}) for i in range(2, 62)]
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
        replies = [json.loads(proc.stdout.readline())]  # the calls have begun
        proc.send_signal(signal.SIGINT)
        killer.start()
        replies += [json.loads(line) for line in proc.stdout]  # standard input still open
        assert proc.wait(30) == 130
        err = proc.stderr.read()
    finally:
        killer.cancel()
        if proc.poll() is None:
            proc.kill()
    assert not any(word in err for word in SHOUTED), err[-2000:]
    assert all(r["result"]["isError"] is False for r in replies), replies
    answered = sorted(f"c{r['id']}" for r in replies)
    passport, footsteps = newest_passport(stdio_town)
    notes = sql(stdio_town, "SELECT key FROM post_office_note WHERE box = %s", (passport,))
    assert sorted(key for (key,) in notes) == answered
    assert footsteps == len(answered)
