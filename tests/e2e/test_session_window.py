"""001 section 02, 429 "Too many sessions. Try again later.": too many NEW or open sessions from an
address. A session ended with DELETE still counts while it is inside the window, so a client cycling
DELETE and initialize cannot mint a passport per cycle past the cap (clockford/face/sessions.py)."""

import json
import threading
import time
from collections.abc import Callable

from tests.e2e.test_http_rows import sql
from tests.support import MCP_HEADERS, RawSession, Town, assert_plain, request

TOO_MANY = "Too many sessions. Try again later."
TownFactory = Callable[..., Town]


def initialize(url: str) -> tuple[int, dict[str, str], str]:
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "cycler", "version": "1"},
        },
    }
    return request("POST", url, json.dumps(message), MCP_HEADERS)


def assert_too_many(reply: tuple[int, dict[str, str], str], most: int) -> int:
    return assert_plain(reply, 429, TOO_MANY, most)


def test_delete_then_initialize_cycled_is_refused_at_the_cap(town_factory: TownFactory) -> None:
    t = town_factory(env={"CLOCKFORD_SESSIONS_PER_ADDRESS": "4"}).start()
    passports = set()
    for _ in range(4):
        s = RawSession(t.mcp, client_name="cycler")
        passports.add(s.call("show_passport")["structuredContent"]["passport"])
        assert s.delete() == 200
    assert len(passports) == 4
    # 30 more cycles: every one refused, none mints a passport; the wait is the window's (an hour).
    for _ in range(30):
        wait = assert_too_many(initialize(t.mcp), 3600)
        assert wait > 3500
    assert sql(t, "SELECT COUNT(*) FROM town_passport") == [(4,)]


def test_a_session_leaves_the_count_when_it_leaves_the_window(town_factory: TownFactory) -> None:
    t = town_factory(env={"CLOCKFORD_SESSIONS_PER_ADDRESS": "2", "CLOCKFORD_SESSION_WINDOW_SECONDS": "3"}).start()
    first = RawSession(t.mcp)
    assert first.delete() == 200
    second = RawSession(t.mcp)
    # One ended inside the window, one open: the address is at its cap until the ended one leaves.
    wait = assert_too_many(initialize(t.mcp), 3)
    time.sleep(wait)
    third = RawSession(t.mcp)
    assert third.call("look_around")["isError"] is False
    # Two open sessions: the cap, until one ends or sits idle past the idle limit (half an hour).
    assert_too_many(initialize(t.mcp), 30 * 60)
    assert second.call("look_around")["isError"] is False
    assert request("DELETE", t.mcp, headers={**MCP_HEADERS, "Mcp-Session-Id": third.sid or ""})[0] == 200


def test_initializes_at_once_never_pass_the_cap_together(town_factory: TownFactory) -> None:
    """Twelve initializes at the same instant from one address, with room for three: three sessions."""
    t = town_factory(env={"CLOCKFORD_SESSIONS_PER_ADDRESS": "3"}).start()
    start = threading.Barrier(12)
    replies: list[tuple[int, dict[str, str], str]] = []

    def one() -> None:
        start.wait()
        replies.append(initialize(t.mcp))

    threads = [threading.Thread(target=one) for _ in range(12)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(status for status, _, _ in replies) == [200] * 3 + [429] * 9
    for reply in replies:
        if reply[0] == 429:
            assert_too_many(reply, 3600)
    assert sql(t, "SELECT COUNT(*) FROM town_mcpsession") == [(3,)]
