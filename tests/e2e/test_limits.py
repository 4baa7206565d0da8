"""001 section 02, 429 "Too many requests. Try again later." and 503 "The town is full. Try again
later." / "The town is not taking new visitors right now.", over real HTTP.

Requests are counted in the database (clockford/town/limits.py), so two processes of one town share
one count. A second address is the loopback's 127.0.0.2: the town listens on 127.0.0.1 and sees
whichever source address the client binds.
"""

import http.client
import json
from collections.abc import Callable

from hall.tests.oauth_agent import LiveWeb, Person
from tests.e2e.test_http_rows import sql
from tests.e2e.test_oauth_mcp import connect
from tests.support import MCP_HEADERS, RawSession, Town, assert_plain, clear_of_a_window_edge, hall_of, sse_message

TOO_MANY = "Too many requests. Try again later."
FULL = "The town is full. Try again later."
NOT_WELCOMING = "The town is not taking new visitors right now."
SIGN_IN = "Sign in to enter the town."
TownFactory = Callable[..., Town]
# The fixed window the tests count in, and the seconds of it a test may take: each test starts its
# counting clear of the window's edge (tests/support.py clear_of_a_window_edge).
WINDOW = {"CLOCKFORD_REQUEST_WINDOW_SECONDS": "600"}


def in_one_window() -> None:
    clear_of_a_window_edge(600, 30)


Reply = tuple[int, dict[str, str], str]


def send(
    town: Town,
    method: str = "GET",
    body: str | None = None,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> Reply:
    """One request to /mcp from the source address given."""
    conn = http.client.HTTPConnection("127.0.0.1", town.port, timeout=30, source_address=(source, 0))
    try:
        conn.request(method, "/mcp", body=body, headers={**MCP_HEADERS, **(headers or {})})
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read().decode()
    finally:
        conn.close()


def initialize(town: Town, source: str = "127.0.0.1") -> Reply:
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    return send(town, "POST", json.dumps(message), source=source)


def test_an_address_over_its_limit_waits_whichever_process_it_calls(town_factory: TownFactory) -> None:
    env = {"CLOCKFORD_REQUESTS_PER_ADDRESS": "6", **WINDOW}
    a = town_factory(env=env).start()
    b = town_factory(env=env, share=a).start()
    in_one_window()
    # Six requests, three to each process: each is answered as it would be without a limit.
    for town in (a, b, a, b, a, b):
        assert send(town)[0] == 400  # a GET without a session
    # The seventh is over the address's limit, on either process, until the window ends.
    assert_plain(send(a), 429, TOO_MANY, 600)
    assert_plain(send(b), 429, TOO_MANY, 600)
    # Another address has its own count.
    assert send(a, source="127.0.0.2")[0] == 400
    assert sql(a, "SELECT requests FROM town_tally WHERE key = 'address:127.0.0.1'") == [(8,)]


def test_a_session_in_use_is_refused_too_when_its_address_is_over(town_factory: TownFactory) -> None:
    t = town_factory(env={"CLOCKFORD_REQUESTS_PER_ADDRESS": "4", **WINDOW}).start()
    in_one_window()
    s = RawSession(t.mcp)  # initialize and its notification: two requests
    assert s.call("look_around")["isError"] is False  # three
    assert s.call("look_around")["isError"] is False  # four
    assert_plain(s.post({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}), 429, TOO_MANY, 600)
    # Nothing the refused request asked was run: the passport has two footsteps.
    assert sql(t, "SELECT footsteps FROM town_passport") == [(2,)]


def test_every_post_is_counted_whichever_road_answers_it(town_factory: TownFactory) -> None:
    """A POST's count is taken with its first trip to the database (clockford/face/checks.py
    count_later): a tools/call in the desk's own trip, whether the face answers it or the SDK does,
    and a request refused after its body was read before it is answered."""
    t = town_factory(env={"CLOCKFORD_REQUESTS_PER_ADDRESS": "8", **WINDOW}).start()
    in_one_window()
    s = RawSession(t.mcp)  # initialize and its notification: two requests
    assert s.call("look_around")["isError"] is False  # three: answered by the face
    assert s.call("no_such_tool")["content"][0]["text"] == "MCP error -32602: Tool no_such_tool not found"  # four
    # Five: a key the face does not know of sends the call through the SDK, which answers it.
    odd = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "look_around"}, "odd": 1}
    status, _, body = s.post(odd)
    assert status == 200 and sse_message(body)["result"]["isError"] is False, body
    assert send(t, "POST", "not json", {"Mcp-Session-Id": s.sid})[0] == 400  # six
    assert s.post({"jsonrpc": "2.0", "id": 7, "method": "tools/call"}, {"Mcp-Session-Id": "gone"})[0] == 404  # seven
    assert sql(t, "SELECT requests FROM town_tally WHERE key = 'address:127.0.0.1'") == [(7,)]
    assert s.call("look_around")["isError"] is False  # eight
    # Over the limit: the call is not run (no footstep), and neither are the others.
    assert_plain(
        s.post({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "look_around"}}),
        429,
        TOO_MANY,
        600,
    )
    assert_plain(send(t, "POST", "not json", {"Mcp-Session-Id": s.sid}), 429, TOO_MANY, 600)
    assert_plain(
        s.post({"jsonrpc": "2.0", "id": 10, "method": "tools/call"}, {"Mcp-Session-Id": "gone"}), 429, TOO_MANY, 600
    )
    assert sql(t, "SELECT footsteps FROM town_passport") == [(3,)]
    assert sql(t, "SELECT requests FROM town_tally WHERE key = 'address:127.0.0.1'") == [(11,)]


def test_repeated_refused_tokens_hold_the_address_back(town_factory: TownFactory) -> None:
    t = town_factory(
        env={
            "CLOCKFORD_SIGN_IN": "1",
            "CLOCKFORD_FAILURES_PER_ADDRESS": "3",
            "CLOCKFORD_FAILURE_HOLD_SECONDS": "300",
            **WINDOW,
        }
    ).start()
    in_one_window()
    for _ in range(2):
        status, headers, body = initialize(t)
        assert (status, body) == (401, SIGN_IN)
        assert "retry-after" not in headers
    # The third failure holds the address back: told to wait, not to sign in again.
    wait = assert_plain(initialize(t), 429, TOO_MANY, 300)
    assert wait >= 290
    assert_plain(initialize(t), 429, TOO_MANY, 300)
    # Another address is still asked to sign in.
    assert initialize(t, source="127.0.0.2")[:3:2] == (401, SIGN_IN)


def test_an_account_over_its_limit_waits_from_any_address(town_factory: TownFactory) -> None:
    t = town_factory(
        env={
            "CLOCKFORD_SIGN_IN": "1",
            "CLOCKFORD_REQUESTS_PER_ACCOUNT": "5",
            **WINDOW,
        }
    ).start()
    agent = connect(t, Person(LiveWeb(hall_of(t))).sign_up("Ada"))
    bearer = {"Authorization": f"Bearer {agent.tokens['access_token']}"}
    in_one_window()
    replies = [send(t, headers=bearer, source=f"127.0.0.{2 + i % 2}") for i in range(6)]
    # Connecting made no request to /mcp with the token: five are served (a GET without a session is
    # 400), from two addresses, and the sixth is over the account's limit.
    assert [r[0] for r in replies[:5]] == [400] * 5
    assert_plain(replies[5], 429, TOO_MANY, 600)
    # The addresses are not over theirs: without the token, each is asked to sign in.
    assert send(t, source="127.0.0.2")[:3:2] == (401, SIGN_IN)


def test_a_full_town_takes_no_new_session_and_the_open_ones_go_on(town_factory: TownFactory) -> None:
    t = town_factory(env={"CLOCKFORD_SESSIONS_IN_TOWN": "2"}).start()
    first = RawSession(t.mcp)
    second = initialize(t, source="127.0.0.2")
    assert second[0] == 200 and "mcp-session-id" in second[1]
    # The ceiling is the town's, whatever the address.
    assert_plain(initialize(t, source="127.0.0.3"), 503, FULL, 60)
    assert_plain(initialize(t), 503, FULL, 60)
    assert sql(t, "SELECT COUNT(*) FROM town_passport") == [(2,)]
    assert first.call("look_around")["isError"] is False
    # A session that ends makes room.
    assert first.delete() == 200
    assert initialize(t, source="127.0.0.3")[0] == 200


def test_a_town_not_taking_new_visitors_keeps_its_own(town_factory: TownFactory) -> None:
    t = town_factory().start()
    inside = RawSession(t.mcp)
    # Staff turn new visitors away in the hall (hall/tests/test_staff_switch.py flips it there).
    sql(
        t,
        "INSERT INTO town_townstate (id, mode, why, changed_at, welcoming) VALUES (1, 'open', '', %s, %s) "
        "ON CONFLICT (id) DO UPDATE SET welcoming = excluded.welcoming",
        ("2026-01-01T00:00:00+00:00", False),
    )
    assert_plain(initialize(t), 503, NOT_WELCOMING, 60)
    assert_plain(initialize(t, source="127.0.0.2"), 503, NOT_WELCOMING, 60)
    assert sql(t, "SELECT COUNT(*) FROM town_passport") == [(1,)]
    assert inside.call("look_around")["isError"] is False
    sql(t, "UPDATE town_townstate SET welcoming = %s WHERE id = 1", (True,))
    assert initialize(t)[0] == 200


def register(town: Town, body: str, source: str = "127.0.0.1") -> Reply:
    """A client registration (RFC 7591) at the hall's address, from the source address given."""
    conn = http.client.HTTPConnection("127.0.0.1", town.port, timeout=30, source_address=(source, 0))
    try:
        headers = {"Host": f"localhost:{town.port}", "Content-Type": "application/json"}
        conn.request("POST", "/oauth/register", body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read().decode()
    finally:
        conn.close()


def test_repeated_refused_registrations_hold_the_address_back_everywhere(town_factory: TownFactory) -> None:
    t = town_factory(
        env={
            "CLOCKFORD_SIGN_IN": "1",
            "CLOCKFORD_FAILURES_PER_ADDRESS": "3",
            "CLOCKFORD_FAILURE_HOLD_SECONDS": "300",
            **WINDOW,
        }
    ).start()
    in_one_window()
    bad = json.dumps({"redirect_uris": "not a list"})
    for _ in range(2):
        assert register(t, bad)[0] == 400
    status, headers, body = register(t, bad)
    assert status == 429
    assert json.loads(body) == {"error": "temporarily_unavailable", "error_description": TOO_MANY}
    assert 290 <= int(headers["retry-after"]) <= 300
    # Held back at the hall's registration and at /mcp alike, whatever it sends now.
    good = json.dumps({"redirect_uris": ["https://app.example/cb"], "client_name": "App"})
    assert register(t, good)[0] == 429
    assert_plain(initialize(t), 429, TOO_MANY, 300)
    # Another address registers.
    assert register(t, good, source="127.0.0.2")[0] == 201


def test_repeated_failed_passkeys_hold_the_address_back(town_factory: TownFactory) -> None:
    t = town_factory(
        env={"CLOCKFORD_FAILURES_PER_ADDRESS": "3", "CLOCKFORD_FAILURE_HOLD_SECONDS": "300", **WINDOW}
    ).start()
    web = LiveWeb(hall_of(t))

    def sign_in_with(credential: dict[str, object]) -> tuple[int, dict[str, str], dict[str, object]]:
        assert web.post("/hall/signin/begin").status == 200
        r = web.post("/hall/signin/finish", json_body={"credential": credential})
        return r.status, r.headers, json.loads(r.text)

    in_one_window()
    unknown = {"id": "bm90LWEtcGFzc2tleQ", "type": "public-key", "response": {}}
    for _ in range(2):
        status, _, said = sign_in_with(unknown)
        assert status == 400 and said["ok"] is False
    status, headers, said = sign_in_with(unknown)
    assert (status, said) == (429, {"ok": False, "say": TOO_MANY})
    assert 290 <= int(headers["retry-after"]) <= 300
    # Held back: the next ceremony is refused before it starts, and /mcp tells the address to wait.
    r = web.post("/hall/signin/begin")
    assert (r.status, json.loads(r.text)) == (429, {"ok": False, "say": TOO_MANY})
    assert_plain(initialize(t), 429, TOO_MANY, 300)


def test_the_town_alone_decides_whose_forwarded_address_it_believes(town_factory: TownFactory) -> None:
    """CLOCKFORD_TRUSTED_PROXIES is the one rule (clockford/face/proxy.py): the ASGI server rewrites
    nothing before it (uvicorn, as ./town up serves the town, would by default believe any peer on
    127.0.0.1, whatever the town trusts), and it names no proxy unless told."""
    forwarded = {"X-Forwarded-For": "203.0.113.7"}
    # A town that trusts only another proxy: a local peer's header is dropped, its own address counted.
    t = town_factory(env={"CLOCKFORD_TRUSTED_PROXIES": "10.9.9.9"}, server="uvicorn").start()
    assert send(t, headers=forwarded)[0] == 400  # a GET without a session
    assert sql(t, "SELECT key FROM town_tally WHERE key LIKE 'address:%%'") == [("address:127.0.0.1",)]
    # By default no proxy is trusted, not even one on this machine: any program here could otherwise
    # name itself any address, and escape the limits per address with each request it sends.
    t = town_factory(server="uvicorn").start()
    assert send(t, headers=forwarded)[0] == 400
    assert sql(t, "SELECT key FROM town_tally WHERE key LIKE 'address:%%'") == [("address:127.0.0.1",)]
    # A proxy named on this machine is trusted: the address it names is counted.
    t = town_factory(env={"CLOCKFORD_TRUSTED_PROXIES": "127.0.0.1"}, server="uvicorn").start()
    assert send(t, headers=forwarded)[0] == 400
    assert sql(t, "SELECT key FROM town_tally WHERE key LIKE 'address:%%'") == [("address:203.0.113.7",)]
