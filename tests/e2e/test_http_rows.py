"""Every HTTP row of spec 001 section 02 that applies without sign-in, over real HTTP against live towns.

Each test names its row and asserts the exact status, body and headers the table gives. Rows that need
a town of their own (lowered limits, a closed town, short-lived sessions) use `town_factory`; the rest
share the session-wide `town` and end the sessions they open, so the address's session limit is never
spent by the suite itself.
"""

import datetime as dt
import gzip
import json
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from tests.support import MCP_HEADERS, RawSession, Town, get, never_finished, request, sse_message

NO_SESSION = "No valid session. Start with initialize."
NOT_FOUND_SESSION = "Session not found. Start a new one with initialize."
NOT_ACCEPTABLE = {
    "jsonrpc": "2.0",
    "id": None,
    "error": {
        "code": -32000,
        "message": "Not Acceptable: Client must accept both application/json and text/event-stream",
    },
}
PLAIN = "text/plain; charset=utf-8"
TOOLS_LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
TownFactory = Callable[..., Town]


def initialize_message(name: str = "rows-test", version: str = "2025-11-25") -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": name, "version": "1.0"}},
    }


def post(url: str, message: Any, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    body = message if isinstance(message, (str, bytes)) else json.dumps(message)
    return request("POST", url, body, {**MCP_HEADERS, **(headers or {})})


def assert_plain(reply: tuple[int, dict[str, str], str], status: int, body: str, label: object = "") -> None:
    """One of the town's own HTTP errors: the status and the short plain-text body of the table."""
    got_status, headers, got_body = reply
    assert (got_status, got_body) == (status, body), (label, reply)
    assert headers["content-type"] == PLAIN, (label, headers)


def assert_retry_after(headers: dict[str, str]) -> None:
    assert re.fullmatch(r"[1-9][0-9]*", headers.get("retry-after", "")), headers


# The town's database, reached the way a person with the server would: closing the town, reading
# what the face stored. Statements are written with %s and run on SQLite or PostgreSQL alike.
def sql(town: Town, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if "DATABASE_URL" in town.env:
        import psycopg

        with psycopg.connect(town.env["DATABASE_URL"], autocommit=True) as conn:
            cur = conn.execute(statement.encode(), params)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []
    conn = sqlite3.connect(town.env["CLOCKFORD_SQLITE"], timeout=20, isolation_level=None)
    try:
        cur = conn.execute(statement.replace("%s", "?"), params)
        return cur.fetchall()
    finally:
        conn.close()


def set_mode(town: Town, mode: str) -> None:
    """Set the town's mode in its TownState row, as a person (or the desk) would, and wait until the
    server has read it (it keeps the mode for up to a second; /status and /mcp share that copy)."""
    sql(
        town,
        "INSERT INTO town_townstate (id, mode, why, changed_at) VALUES (1, %s, '', %s) "
        "ON CONFLICT (id) DO UPDATE SET mode = excluded.mode",
        (mode, dt.datetime.now(dt.UTC).isoformat()),
    )
    deadline = time.monotonic() + 5
    while json.loads(get(town.url + "/status")[2]) != {"mode": mode}:
        assert time.monotonic() < deadline, f"the town did not read its mode {mode!r}"
        time.sleep(0.1)


@pytest.fixture
def live(town: Town) -> Iterator[RawSession]:
    """A session on the shared town, ended afterwards."""
    s = RawSession(town.mcp, client_name="rows-test")
    yield s
    s.delete()


# -- the 2025-11-25 handshake ------------------------------------------------------------------------------


def test_initialize_opens_a_session_with_the_2025_11_25_handshake(town: Town) -> None:
    status, headers, body = post(town.mcp, initialize_message())
    assert status == 200, body
    assert headers["content-type"] == "text/event-stream"
    assert re.fullmatch(r"[0-9a-f]{64}", headers["mcp-session-id"])
    reply = sse_message(body)
    assert reply["id"] == 1
    result = reply["result"]
    assert result["protocolVersion"] == "2025-11-25"
    assert result["serverInfo"]["name"] == "clockford"
    assert "tools" in result["capabilities"]
    assert result["instructions"].startswith("Clockford is a town for AI agents.")
    sid = {"Mcp-Session-Id": headers["mcp-session-id"]}
    status, _, body = post(town.mcp, {"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
    assert (status, body) == (202, "")
    status, _, body = post(town.mcp, TOOLS_LIST, sid)
    assert status == 200 and "look_around" in [t["name"] for t in sse_message(body)["result"]["tools"]]
    assert request("DELETE", town.mcp, headers={**MCP_HEADERS, **sid})[0] == 200


def test_an_initialize_asking_an_older_revision_is_answered_with_2025_11_25(town: Town) -> None:
    status, headers, body = post(town.mcp, initialize_message(version="1999-01-01"))
    assert status == 200 and sse_message(body)["result"]["protocolVersion"] == "2025-11-25"
    request("DELETE", town.mcp, headers={**MCP_HEADERS, "Mcp-Session-Id": headers["mcp-session-id"]})


def test_an_initialize_the_sdk_refuses_opens_no_session(town: Town) -> None:
    """A JSON-RPC error to initialize (in a 200 event stream) hands out no session id."""
    for params in ({}, {"protocolVersion": "2025-11-25"}):
        status, headers, body = post(town.mcp, {"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": params})
        assert status == 200, body
        assert sse_message(body)["error"]["code"] == -32602
        assert "mcp-session-id" not in headers


def test_each_session_gets_a_new_passport_that_keeps_the_client_name(town: Town) -> None:
    a, b = RawSession(town.mcp, client_name="first-agent"), RawSession(town.mcp, client_name="second-agent")
    try:
        pa = a.call("show_passport")["structuredContent"]
        pb = b.call("show_passport")["structuredContent"]
        assert pa["passport"] != pb["passport"]
        for p in (pa, pb):
            assert re.fullmatch(r"PP-[A-Z0-9]+", p["passport"])
            assert p["pennant"] is None and p["footsteps"] == 1 and p["signIn"] is False
            assert dt.datetime.fromisoformat(p["issuedAt"]).tzinfo is not None
        assert a.call("look_around")["structuredContent"]["you"]["place"] == "The Passport Office"
        names = dict(
            sql(
                town, "SELECT id, client_name FROM town_passport WHERE id IN (%s, %s)", (pa["passport"], pb["passport"])
            )
        )
        assert names == {pa["passport"]: "first-agent", pb["passport"]: "second-agent"}
    finally:
        a.delete()
        b.delete()


def test_a_client_name_with_nul_is_kept_without_it(town: Town) -> None:
    """A NUL in clientInfo.name went into the passport as it was: on PostgreSQL, whose text refuses the
    character, the initialize would be a 500 with a traceback, and SQLite kept what PostgreSQL cannot. The
    name is only a label: the session opens, and the passport keeps the name without the character."""
    before = town.log.read_text(errors="replace")
    s = RawSession(town.mcp, client_name="nul\x00agent\x00")
    try:
        passport = s.call("show_passport")["structuredContent"]["passport"]
        rows = sql(town, "SELECT client_name FROM town_passport WHERE id = %s", (passport,))
        assert rows == [("nulagent",)]
    finally:
        s.delete()
    assert "Traceback" not in town.log.read_text(errors="replace")[len(before) :]


# -- 400 -----------------------------------------------------------------------------------------------------


def test_400_a_batch(town: Town, live: RawSession) -> None:
    assert_plain(post(town.mcp, [initialize_message()]), 400, "One message per request.")
    assert_plain(post(town.mcp, []), 400, "One message per request.")
    assert_plain(live.post([TOOLS_LIST, {**TOOLS_LIST, "id": 2}]), 400, "One message per request.")
    assert_plain(live.post([TOOLS_LIST]), 400, "One message per request.")


def test_400_a_post_without_a_session_that_is_not_initialize(town: Town) -> None:
    assert_plain(post(town.mcp, TOOLS_LIST), 400, NO_SESSION)
    assert_plain(post(town.mcp, {"jsonrpc": "2.0", "method": "notifications/initialized"}), 400, NO_SESSION)
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "look_around", "arguments": {}}}
    assert_plain(post(town.mcp, call), 400, NO_SESSION)
    # GET (the listening stream) and DELETE name no session either.
    assert_plain(request("GET", town.mcp, headers={**MCP_HEADERS, "Accept": "text/event-stream"}), 400, NO_SESSION)
    assert_plain(request("DELETE", town.mcp, headers=MCP_HEADERS), 400, NO_SESSION)
    # initialize sent as a notification could never receive its session id: it opens none.
    reply = post(town.mcp, {k: v for k, v in initialize_message().items() if k != "id"})
    assert_plain(reply, 400, NO_SESSION)
    assert "mcp-session-id" not in reply[1]


def test_400_a_body_that_is_not_json(town: Town, live: RawSession) -> None:
    for body in ("{nope", "", "{'jsonrpc': '2.0'}", '{"jsonrpc": "2.0", "id": 1,', "null", "42", '"initialize"'):
        assert_plain(post(town.mcp, body), 400, "Bad request.", body)
        assert_plain(request("POST", live.url, body, live.headers()), 400, "Bad request.", body)
    assert_plain(request("POST", town.mcp, b"\xff\xfe", MCP_HEADERS), 400, "Bad request.")
    # A JSON body that is not declared as JSON is not read as JSON either.
    not_declared = {**MCP_HEADERS, "Content-Type": "text/plain"}
    assert_plain(request("POST", town.mcp, json.dumps(initialize_message()), not_declared), 400, "Bad request.")


def test_415_a_body_with_a_content_encoding(town: Town, live: RawSession) -> None:
    """A compressed body is refused saying what the town reads (RFC 7694), before it is read: gzip's bytes
    were a Bad request that did not say why, and a plain body labelled gzip was served as if unlabelled."""
    said = "Send the body as it is: this town reads no Content-Encoding."
    message = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}).encode()
    for coding, body in (("gzip", gzip.compress(message)), ("gzip", message), ("br", message), ("GZIP ", message)):
        reply = request("POST", live.url, body, live.headers({"Content-Encoding": coding}))
        assert_plain(reply, 415, said, coding)
        assert reply[1]["accept-encoding"] == "identity"
    # identity, or no coding at all, is the body as it is.
    for extra in ({"Content-Encoding": "identity"}, {}):
        status, _, body = request("POST", live.url, message, live.headers(extra))
        assert status == 200 and "look_around" in body, extra


@pytest.mark.parametrize("version", ["1999-01-01", "2025-11-26", "", "2026-07-28x", "latest"])
def test_400_an_unsupported_protocol_version(town: Town, live: RawSession, version: str) -> None:
    spoken = ", ".join(HANDSHAKE_PROTOCOL_VERSIONS)
    assert "2025-11-25" in HANDSHAKE_PROTOCOL_VERSIONS
    # The error carries the request's id, and its data names the modern revisions and echoes the one
    # asked for (an UnsupportedProtocolVersionError, SEP-2575; the conformance suite checks both).
    want = {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {
            "code": -32000,
            "message": f"Bad Request: Unsupported protocol version: {version}. Supported versions: {spoken}",
            "data": {"supported": ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], "requested": version},
        },
    }
    for status, headers, body in (
        post(town.mcp, initialize_message(), {"MCP-Protocol-Version": version}),
        live.post(TOOLS_LIST, {"MCP-Protocol-Version": version}),
    ):
        assert status == 400, body
        assert headers["content-type"] == "application/json"
        assert json.loads(body) == want
        assert "mcp-session-id" not in headers


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("server/discover", {}),
        ("tools/list", {}),
        ("tools/call", {"name": "look_around", "arguments": {}}),
    ],
)
def test_400_a_modern_request_without_sign_in(town: Town, method: str, params: dict[str, Any]) -> None:
    """A 2026-07-28 request gets a body that is not JSON-RPC, which tells a client to fall back."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "modern-test", "version": "1.0"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
    headers = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
    if method == "tools/call":
        headers["Mcp-Name"] = "look_around"
    reply = post(town.mcp, message, headers)
    assert_plain(reply, 400, NO_SESSION)
    with pytest.raises(ValueError):
        json.loads(reply[2])
    assert "mcp-session-id" not in reply[1]


# -- 403 -----------------------------------------------------------------------------------------------------


def test_403_host_not_the_towns(town: Town, live: RawSession) -> None:
    port = town.port
    refused = [
        "evil.example",
        f"evil.example:{port}",
        f"localhost.evil.example:{port}",
        f"127.0.0.1.nip.io:{port}",
        f"127.0.0.2:{port}",
        f"0.0.0.0:{port}",
        f"[::2]:{port}",
        f"::1:{port}",
        f"[::1]x:{port}",
        "localhost:",
        "localhost:http",
        f"user@localhost:{port}",
        f"localhost:{port}, evil.example",
        "",
        # More than one trailing dot, or one after the port: no name of the town's, as Django reads
        # it (these were served on /mcp, and answered 400 with a traceback on every other path).
        f"localhost..:{port}",
        "localhost.....",
        f"127.0.0.1:{port}.",
        f"[::1]:{port}.",
    ]
    before = town.log.read_text(errors="replace")
    for host in refused:
        for method, body in (("POST", json.dumps(initialize_message())), ("GET", None), ("DELETE", None)):
            reply = request(method, town.mcp, body, {**MCP_HEADERS, "Host": host})
            assert_plain(reply, 403, "This town answers only on this machine.", (method, host))
            assert "mcp-session-id" not in reply[1]
        assert_plain(live.post(TOOLS_LIST, {"Host": host}), 403, "This town answers only on this machine.", host)
        # Every other path answers only to the town's names too, the hall and /status included.
        for path in ("/status", "/", "/nope"):
            reply = request("GET", town.url + path, None, {"Host": host})
            assert_plain(reply, 403, "This town answers only on this machine.", (path, host))
    assert "Traceback" not in town.log.read_text(errors="replace")[len(before) :]


def test_two_host_headers_are_no_name_of_the_towns(town: Town) -> None:
    """One Host header the town's and one not, in either order: refused like any other name, on every
    path, with nothing in the log (Django refused the pair behind the town's back, with a traceback)."""
    before = town.log.read_text(errors="replace")
    for path in ("/", "/hall/", "/status", "/mcp"):
        for pair in ((f"localhost:{town.port}", "evil.example"), ("evil.example", f"localhost:{town.port}")):
            with socket.create_connection(("127.0.0.1", town.port), timeout=10) as conn:
                hosts = "".join(f"Host: {h}\r\n" for h in pair)
                conn.sendall(f"GET {path} HTTP/1.1\r\n{hosts}Connection: close\r\n\r\n".encode())
                reply = b""
                while chunk := conn.recv(65536):
                    reply += chunk
            head, _, body = reply.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 403"), (path, pair, reply[:200])
            assert body == b"This town answers only on this machine.", (path, pair, body)
    assert "Traceback" not in town.log.read_text(errors="replace")[len(before) :]


def test_head_on_a_hall_page_is_its_get_without_the_body(town: Town) -> None:
    """Over the real server: HEAD on the hall's front door answers as GET does, with no body on the wire."""
    replies = []
    for method in ("GET", "HEAD"):
        with socket.create_connection(("127.0.0.1", town.port), timeout=10) as conn:
            conn.sendall(
                f"{method} /hall/ HTTP/1.1\r\nHost: localhost:{town.port}\r\nConnection: close\r\n\r\n".encode()
            )
            reply = b""
            while chunk := conn.recv(65536):
                reply += chunk
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), (method, reply[:200])
        replies.append(body)
    assert b"<h1>Welcome to the hall</h1>" in replies[0] and replies[1] == b""


def test_host_variants_of_the_towns_own_names_are_served(town: Town, live: RawSession) -> None:
    """Loopback by any of its names, in any case, with or without a port, and with a trailing dot."""
    port = town.port
    allowed = [
        f"127.0.0.1:{port}",
        "127.0.0.1",
        f"localhost:{port}",
        f"LOCALHOST:{port}",
        "LocalHost",
        f"localhost.:{port}",
        "localhost.",
        f"[::1]:{port}",
        "[::1]",
        "localhost:1",
    ]
    for host in allowed:
        status, _, body = live.post(TOOLS_LIST, {"Host": host})
        assert status == 200, (host, body)
        assert "look_around" in body


def test_403_origin_not_the_towns(town: Town, live: RawSession) -> None:
    port = town.port
    refused = [
        "http://evil.example",
        f"http://evil.example:{port}",
        "https://evil.example",
        f"http://localhost.evil.example:{port}",
        f"http://127.0.0.1.nip.io:{port}",
        "null",
        "file://",
        f"http://localhost:{port}/",
        f"http://localhost:{port}/mcp",
        f"localhost:{port}",
        f"ftp://localhost:{port}",
        f"http://user@localhost:{port}",
        f"http://localhost..:{port}",
    ]
    for origin in refused:
        reply = post(town.mcp, initialize_message(), {"Origin": origin})
        assert_plain(reply, 403, "Forbidden origin.", origin)
        assert "mcp-session-id" not in reply[1]
        assert_plain(live.post(TOOLS_LIST, {"Origin": origin}), 403, "Forbidden origin.")
        assert_plain(
            request("DELETE", live.url, headers={**live.headers(), "Origin": origin}), 403, "Forbidden origin."
        )
    # The Host is checked first: a foreign Host with a good Origin still gets the Host's sentence.
    reply = live.post(TOOLS_LIST, {"Host": "evil.example", "Origin": f"http://localhost:{port}"})
    assert_plain(reply, 403, "This town answers only on this machine.")


def test_origins_of_the_town_itself_are_served(town: Town, live: RawSession) -> None:
    port = town.port
    allowed = [
        f"http://localhost:{port}",
        f"http://127.0.0.1:{port}",
        f"http://[::1]:{port}",
        f"HTTP://LOCALHOST:{port}",
        "http://localhost",
        f"https://localhost:{port}",
    ]
    for origin in allowed:
        status, _, body = live.post(TOOLS_LIST, {"Origin": origin})
        assert status == 200, (origin, body)
    # No Origin at all (every non-browser client) is served.
    status, _, _ = live.post(TOOLS_LIST)
    assert status == 200


# -- 404 -----------------------------------------------------------------------------------------------------


def test_404_an_unknown_session(town: Town) -> None:
    for sid in ("0" * 64, "not-a-session", "x" * 65, "f" * 500):
        headers = {"Mcp-Session-Id": sid}
        assert_plain(post(town.mcp, TOOLS_LIST, headers), 404, NOT_FOUND_SESSION)
        # A tools/call looks its session up in the desk's own trip: still 404 and nothing else,
        # whether the call would run, name no tool, or fail its schema.
        for params in (
            {"name": "look_around", "arguments": {}},
            {"name": "no_such_tool", "arguments": {}},
            {"name": "remember", "arguments": {"key": 5}},
        ):
            call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": params}
            assert_plain(post(town.mcp, call, headers), 404, NOT_FOUND_SESSION)
        assert_plain(request("DELETE", town.mcp, headers={**MCP_HEADERS, **headers}), 404, NOT_FOUND_SESSION)
        assert_plain(request("GET", town.mcp, headers={**MCP_HEADERS, **headers}), 404, NOT_FOUND_SESSION)


def test_delete_ends_a_session_then_it_is_not_found(town: Town) -> None:
    s = RawSession(town.mcp)
    assert s.call("look_around")["isError"] is False
    status, headers, body = request("DELETE", s.url, headers=s.headers())
    assert (status, body) == (200, "The session has ended."), body
    assert_plain(s.post(TOOLS_LIST), 404, NOT_FOUND_SESSION)
    call = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "look_around", "arguments": {}}}
    assert_plain(s.post(call), 404, NOT_FOUND_SESSION)
    assert_plain(request("DELETE", s.url, headers=s.headers()), 404, NOT_FOUND_SESSION)
    assert_plain(request("GET", s.url, headers=s.headers()), 404, NOT_FOUND_SESSION)


@pytest.mark.parametrize("path", ["/nowhere", "/mcpx", "/mcp/extra", "/MCP", "/status/extra", "/mcp.json"])
def test_404_any_other_path(town: Town, path: str) -> None:
    for method in ("GET", "POST", "DELETE"):
        body = json.dumps(initialize_message()) if method == "POST" else None
        assert_plain(request(method, town.url + path, body, MCP_HEADERS), 404, "Not found.")


def test_sessions_expire_when_idle_and_at_their_maximum_age(town_factory: TownFactory) -> None:
    t = town_factory(env={"CLOCKFORD_SESSION_IDLE_SECONDS": "2", "CLOCKFORD_SESSION_MAX_AGE_SECONDS": "5"}).start()
    born = time.monotonic()  # before the busy session is opened: it ends no sooner than born + 5
    busy, idle = RawSession(t.mcp), RawSession(t.mcp)
    left = time.monotonic()  # the idle session was last seen before this
    # A session in use stays open past the idle limit; one left alone is not found after it.
    while time.monotonic() - left < 2.6:
        assert busy.post(TOOLS_LIST)[0] == 200, time.monotonic() - born
        time.sleep(0.3)
    assert_plain(idle.post(TOOLS_LIST), 404, NOT_FOUND_SESSION)
    assert_plain(request("DELETE", idle.url, headers=idle.headers()), 404, NOT_FOUND_SESSION)
    # Its maximum age ends even a busy session.
    while time.monotonic() - born < 4.5:
        assert busy.post(TOOLS_LIST)[0] == 200, time.monotonic() - born
        time.sleep(0.3)
    deadline = born + 10
    while busy.post(TOOLS_LIST)[0] == 200:
        assert time.monotonic() < deadline, "the session outlived its maximum age"
        time.sleep(0.2)
    assert_plain(busy.post(TOOLS_LIST), 404, NOT_FOUND_SESSION)


# -- 405, 406, 413 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["PUT", "PATCH", "OPTIONS", "HEAD", "CONNECT_ME"])
def test_405_other_methods(town: Town, live: RawSession, method: str) -> None:
    for headers in (MCP_HEADERS, live.headers()):
        status, got, body = request(method, town.mcp, "{}", headers)
        assert status == 405, (method, body)
        assert got["allow"] == "POST, GET, DELETE"
        assert got["content-type"] == PLAIN
        assert body == ("" if method == "HEAD" else "Method not allowed.")


def test_405_get_on_a_session_offers_no_stream(live: RawSession) -> None:
    """The town never speaks unasked, so GET (the listening stream) is refused on a live session."""
    status, headers, body = request("GET", live.url, headers={**live.headers(), "Accept": "text/event-stream"})
    assert (status, body) == (405, "Method not allowed."), body
    assert headers["allow"] == "POST, DELETE"


@pytest.mark.parametrize(
    "accept",
    [
        "application/json",
        "text/event-stream",
        None,
        "text/html",
        "application/*",
        "text/*",
        "application/jsonx, text/event-streamy",
        "application/json-seq, text/event-stream",
        "application/json, text/event-stream;q=0",  # q=0: not acceptable (RFC 9110, section 12.4.2)
        "*/*, application/json;q=0.0",
    ],
)
def test_406_accept_missing_one_type(town: Town, live: RawSession, accept: str | None) -> None:
    def headers(base: dict[str, str]) -> dict[str, str]:
        h = {k: v for k, v in base.items() if k != "Accept"}
        return h | ({"Accept": accept} if accept is not None else {})

    for status, got, body in (
        request("POST", town.mcp, json.dumps(initialize_message()), headers(MCP_HEADERS)),
        request("POST", live.url, json.dumps(TOOLS_LIST), headers(live.headers())),
    ):
        assert status == 406, body
        assert got["content-type"] == "application/json"
        assert json.loads(body) == NOT_ACCEPTABLE
        assert "mcp-session-id" not in got


@pytest.mark.parametrize("accept", ["application/*, text/*", "*/*", "Application/JSON;q=0.9, TEXT/event-stream"])
def test_accept_by_wildcards_or_in_any_case_is_served(live: RawSession, accept: str) -> None:
    status, _, body = live.post(TOOLS_LIST, {"Accept": accept})
    assert status == 200, body
    assert sse_message(body)["result"]["tools"]


def test_accept_sent_as_two_header_lines_is_one_list(town: Town, live: RawSession) -> None:
    """HTTP reads a header sent twice as one comma-separated list: Accept as two lines, one type each,
    accepts both. The face took the pair and the SDK behind it read only the first line, answering a
    406 of its own (code -32600). Two lines that still miss a type get 001's 406."""
    import http.client

    def post_with(accepts: list[str]) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", town.port, timeout=10)
        try:
            raw = json.dumps(TOOLS_LIST).encode()
            conn.putrequest("POST", "/mcp", skip_accept_encoding=True)
            for name, value in live.headers().items():
                if name != "Accept":
                    conn.putheader(name, value)
            for accept in accepts:
                conn.putheader("Accept", accept)
            conn.putheader("Content-Length", str(len(raw)))
            conn.endheaders(raw)
            resp = conn.getresponse()
            return resp.status, resp.read().decode()
        finally:
            conn.close()

    status, body = post_with(["application/json", "text/event-stream"])
    assert status == 200, body
    assert "look_around" in [tool["name"] for tool in sse_message(body)["result"]["tools"]]
    status, body = post_with(["application/json", "application/json"])
    assert (status, json.loads(body)) == (406, NOT_ACCEPTABLE)


def test_413_a_body_over_128_kib(town: Town, live: RawSession) -> None:
    limit = 128 * 1024
    message = json.dumps(TOOLS_LIST)
    exactly = message + " " * (limit - len(message))
    assert len(exactly.encode()) == limit
    status, _, body = request("POST", live.url, exactly, live.headers())
    assert status == 200, body
    assert "look_around" in body
    assert_plain(request("POST", live.url, exactly + " ", live.headers()), 413, "Too large.")
    assert_plain(post(town.mcp, json.dumps(initialize_message()) + " " * limit), 413, "Too large.")
    # So is a body without a length, sent in chunks, once it passes the limit.
    assert_plain(request_chunked(town, live.headers(), [b" " * 40_000] * 4), 413, "Too large.")


def request_chunked(town: Town, headers: dict[str, str], chunks: list[bytes]) -> tuple[int, dict[str, str], str]:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", town.port, timeout=10)
    try:
        conn.request("POST", "/mcp", body=iter(chunks), headers=headers, encode_chunked=True)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read().decode()
    finally:
        conn.close()


# -- 429 -----------------------------------------------------------------------------------------------------


def test_429_too_many_sessions_from_an_address(town_factory: TownFactory) -> None:
    t = town_factory(env={"CLOCKFORD_SESSIONS_PER_ADDRESS": "2"}).start()
    # Initializes the SDK refused opened nothing, so they spend none of the address's sessions.
    for _ in range(3):
        status, headers, _ = post(t.mcp, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
        assert status == 200 and "mcp-session-id" not in headers
    first, second = RawSession(t.mcp), RawSession(t.mcp)
    status, headers, body = post(t.mcp, initialize_message())
    assert (status, body) == (429, "Too many sessions. Try again later."), body
    assert headers["content-type"] == PLAIN and "mcp-session-id" not in headers
    assert_retry_after(headers)
    # The open sessions go on working; ending one makes no room while it is inside the window (an
    # hour): new sessions count as well as open ones (tests/e2e/test_session_window.py).
    assert second.call("look_around")["isError"] is False
    assert first.delete() == 200
    assert post(t.mcp, initialize_message())[0] == 429


class HeldDatabase:
    """Hold the write lock a call needs, so calls wait at the desk as they would on a slow database.

    SQLite: the one write lock (the desk's transactions begin IMMEDIATE). PostgreSQL: the passport's
    row, which every call updates. Held for a second or two, well inside the desk's lock timeout.
    """

    def __init__(self, town: Town, passport: str) -> None:
        self.town, self.passport = town, passport
        self.conn: Any = None

    def __enter__(self) -> "HeldDatabase":
        if "DATABASE_URL" in self.town.env:
            import psycopg

            self.conn = psycopg.connect(self.town.env["DATABASE_URL"])
            self.conn.execute("SELECT id FROM town_passport WHERE id = %s FOR UPDATE", (self.passport,))
        else:
            self.conn = sqlite3.connect(self.town.env["CLOCKFORD_SQLITE"], timeout=20, isolation_level=None)
            self.conn.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.rollback()
        self.conn.close()


def test_429_too_many_requests_in_flight_on_a_session(town_factory: TownFactory) -> None:
    t = town_factory(env={"CLOCKFORD_IN_FLIGHT_PER_SESSION": "2"}).start()
    s, other = RawSession(t.mcp), RawSession(t.mcp)
    passport = s.call("look_around")["structuredContent"]["you"]["passport"]
    results: list[tuple[int, dict[str, str], str]] = []
    call = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "look_around", "arguments": {}}}
    with HeldDatabase(t, passport):
        # Three calls at once while the database holds them: whichever two arrive first wait at the
        # desk, and the third is one too many, in any order of arrival.
        calls = [threading.Thread(target=lambda: results.append(s.post(call))) for _ in range(3)]
        for th in calls:
            th.start()
        deadline = time.monotonic() + 30  # generous: CI machines run other suites beside this one
        while not results:
            assert time.monotonic() < deadline, "no call was answered while two waited"
            time.sleep(0.05)
        time.sleep(0.3)  # nothing else comes back while the two wait
        assert len(results) == 1, results
        status, headers, body = results[0]
        assert (status, body) == (429, "Too many requests at once on this session."), body
        assert headers["content-type"] == PLAIN
        assert_retry_after(headers)
        # The session is full: any request on it waits its turn; another session is served meanwhile.
        assert s.post(TOOLS_LIST)[0] == 429
        status, _, body = other.post(TOOLS_LIST)
        assert status == 200, body
    for th in calls:
        th.join(30)
    assert sorted(r[0] for r in results) == [200, 200, 429], results
    assert all(sse_message(r[2])["result"]["isError"] is False for r in results if r[0] == 200)
    # Once the replies are in, the session takes requests again.
    assert s.post(TOOLS_LIST)[0] == 200


def test_a_call_that_waits_out_the_write_lock_is_told_busy_after_one_wait(town_factory: TownFactory) -> None:
    """001's busy reply comes once the call has waited its time for SQLite's write lock: its busy
    footstep, which needs the same lock, does not wait that time over again (it did: a town waiting
    20 s answered busy after 40)."""
    t = town_factory(env={"CLOCKFORD_SQLITE_WAIT_SECONDS": "2"})
    if "DATABASE_URL" in t.env:
        pytest.skip("SQLite's one write lock and its wait")
    t.start()
    s = RawSession(t.mcp)
    passport = s.call("look_around")["structuredContent"]["you"]["passport"]
    with HeldDatabase(t, passport):
        began = time.monotonic()
        r = s.call("remember", {"key": "k", "value": "Lot 12 is dark."})
        waited = time.monotonic() - began
        began = time.monotonic()
        status, headers, body = post(t.mcp, initialize_message())  # a new session waits its one time too
        opening = time.monotonic() - began
    sc = r["structuredContent"]
    assert r["isError"] is True and sc["say"] == "The clerk is busy. Try again in 2 seconds.", sc
    assert sc["retryAfterSeconds"] == 2 and "footstep" not in sc  # nothing of the call happened
    assert 2 <= waited < 3.5, waited  # one wait of 2 s, not two
    assert (status, body) == (503, "The clerk is busy. Try again in 2 seconds."), body
    assert headers["retry-after"] == "2" and "mcp-session-id" not in headers
    assert 2 <= opening < 3.5, opening
    # Once the lock is free the same call goes through, and nothing of the busy one was kept.
    nothing = s.call("recall", {"key": "k"})
    assert nothing["isError"] is True
    assert nothing["structuredContent"]["say"] == "Nothing kept under that key.", nothing
    assert s.call("remember", {"key": "k", "value": "Lot 12 is dark."})["isError"] is False


# -- 503 and /status -----------------------------------------------------------------------------------------


def test_status_says_the_mode(town: Town) -> None:
    status, headers, body = get(town.url + "/status")
    assert status == 200
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {"mode": "open"}


def test_503_when_the_town_is_closed(town_factory: TownFactory) -> None:
    t = town_factory().start()
    s = RawSession(t.mcp)
    set_mode(t, "closed")
    closed = "The town is closed for now. Try again later."
    for status, headers, body in (
        s.post(TOOLS_LIST),
        post(t.mcp, initialize_message()),
        request("DELETE", s.url, headers=s.headers()),
    ):
        assert (status, body) == (503, closed), body
        assert headers["content-type"] == PLAIN
        assert_retry_after(headers)
    assert json.loads(get(t.url + "/status")[2]) == {"mode": "closed"}

    set_mode(t, "read-only")
    assert json.loads(get(t.url + "/status")[2]) == {"mode": "read-only"}
    assert s.post(TOOLS_LIST)[0] == 200  # read-only is not closed: the session survived and reads go on
    assert s.call("look_around")["isError"] is False

    set_mode(t, "open")
    assert json.loads(get(t.url + "/status")[2]) == {"mode": "open"}
    assert s.call("remember", {"key": "k", "value": "v"})["isError"] is False


def test_a_body_never_finished_is_answered_408_and_its_connection_closed(town_factory: TownFactory) -> None:
    """Headers in, then a body that stops short: answered once its time is up (CLOCKFORD_BODY_SECONDS),
    not held for ever, and the connection closed, since the rest of the body may still come."""
    # As ./town up serves it: uvicorn hands the app a body as it comes (daphne waits for it whole).
    t = town_factory(env={"CLOCKFORD_BODY_SECONDS": "1"}, server="uvicorn").start()
    before = t.log.read_text(errors="replace")
    status, headers, body, took = never_finished(
        t,
        "/mcp",
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n",
        b'{"jsonrpc": "2.0"',
    )
    assert status == b"HTTP/1.1 408 Request Timeout", (status, body[:200])
    assert body == b"The request's body did not arrive in time."
    assert b"connection: close" in headers.lower()
    assert 0.9 <= took < 5, took
    assert "Traceback" not in t.log.read_text(errors="replace")[len(before) :]


def test_mcps_answers_carry_the_security_headers_every_page_has(town: Town, live: RawSession) -> None:
    # JSON and event streams, sent by the face and the SDK rather than Django's middleware: a browser
    # must neither frame them nor read them as anything but what they say they are.
    answers = [
        live.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),  # an event stream
        request("POST", town.mcp, "{", MCP_HEADERS),  # the face's own refusal
        request("GET", town.mcp, None, {"Accept": "application/json"}),
    ]
    for status, headers, body in answers:
        assert headers["x-content-type-options"] == "nosniff", (status, body[:200])
        assert headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]


# -- headers as HTTP defines them, and messages the SDK would misread ---------------------------------


def test_a_header_is_read_without_the_space_around_it_and_a_media_type_in_any_case(
    town: Town, live: RawSession
) -> None:
    # RFC 9110 (section 5.5): a field value has no space or tab around it, and a media type's name is
    # the same in any case. The town's checks read them so, and now the SDK behind them does too:
    # "2025-11-25 " was an unsupported revision (400), Application/JSON a 415 from the SDK, a session id
    # with a space after it "not found" (404), and Host and Origin with one foreign (403).
    spaced = {
        "MCP-Protocol-Version": "2025-11-25 ",
        "Content-Type": "Application/JSON; charset=UTF-8",
        "Mcp-Session-Id": f"{live.sid}\t",
        "Host": f"127.0.0.1:{town.port} ",
        "Origin": f"http://127.0.0.1:{town.port} ",
    }
    status, _, body = request("POST", town.mcp, json.dumps(TOOLS_LIST), {**live.headers(), **spaced})
    assert status == 200, body
    assert any(t["name"] == "look_around" for t in sse_message(body)["result"]["tools"])
    # A tools/call, which the face answers itself, is read the same way.
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "look_around", "arguments": {}}}
    status, _, body = request("POST", town.mcp, json.dumps(call), {**live.headers(), **spaced})
    assert status == 200, body
    assert sse_message(body)["result"]["isError"] is False
    # And an initialize.
    status, headers, body = post(town.mcp, initialize_message(), {"Content-Type": "APPLICATION/json"})
    assert status == 200, body
    request("DELETE", town.mcp, None, {**MCP_HEADERS, "Mcp-Session-Id": headers["mcp-session-id"]})


def test_a_session_is_initialized_once(town: Town, live: RawSession) -> None:
    # The SDK answered a second initialize on a live session, with another revision than the session
    # speaks; it is refused, with its id, and the session goes on as it was.
    status, headers, body = live.post(initialize_message(version="2024-11-05"))
    assert status == 400, body
    assert headers["content-type"] == "application/json"
    assert json.loads(body) == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {
            "code": -32600,
            "message": "Invalid Request: this session is initialized already. To initialize again, start a new "
            "session (an initialize without Mcp-Session-Id).",
        },
    }
    assert "mcp-session-id" not in headers
    assert live.rpc("tools/list")["result"]["tools"]


@pytest.mark.parametrize("levels", [101, 150, 199, 250, 4000])
def test_a_message_nested_too_deep_is_refused_with_its_id(town: Town, live: RawSession, levels: int) -> None:
    # The SDK's parser stops at about 200 levels and answered a parse error without the id; Python's
    # reads on. The face refuses every message nested past 100 levels the same way, with its id.
    nested = "[" * (levels - 1) + "]" * (levels - 1)  # inside the message (level 1) and params (level 2)
    for body in (
        '{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":NESTED}}'.replace("NESTED", nested),
        '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"look_around","arguments":{"x":NESTED}}}'.replace(
            "NESTED", nested
        ),
    ):
        status, headers, reply = request("POST", town.mcp, body, live.headers())
        assert (status, headers["content-type"]) == (400, "application/json"), reply
        assert json.loads(reply) == {
            "jsonrpc": "2.0",
            "id": 9,
            "error": {"code": -32600, "message": "Invalid Request: the message nests more than 100 levels deep."},
        }
    # One level less is read as any message is.
    shallow = "[" * 98 + "]" * 98
    body = '{"jsonrpc":"2.0","id":10,"method":"ping","params":{"x":NESTED}}'.replace("NESTED", shallow)
    status, _, reply = request("POST", town.mcp, body, live.headers())
    assert status == 200 and sse_message(reply) == {"jsonrpc": "2.0", "id": 10, "result": {}}, reply


@pytest.mark.parametrize("method", ["tools/list", "resources/list", "resources/templates/list", "prompts/list"])
def test_a_cursor_the_town_never_gave_is_invalid_params(live: RawSession, method: str) -> None:
    # Every list comes whole in one page and names no nextCursor, so any cursor sent is none of the
    # town's: MCP's pagination answers it -32602 rather than the first page again.
    first = live.rpc(method)
    assert "result" in first and "nextCursor" not in first["result"], first
    for cursor in ("abc", "", "eyJwYWdlIjoyfQ=="):
        assert live.rpc(method, {"cursor": cursor}) == {
            "jsonrpc": "2.0",
            "id": live.next_id,
            "error": {
                "code": -32602,
                "message": "Invalid params: this town hands out no cursors; every list comes whole. Ask without a "
                "cursor.",
            },
        }
