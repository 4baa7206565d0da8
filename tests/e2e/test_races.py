"""Limits raced: the same passport's calls sent at once, to a town of two worker processes, each
call on its own connection. Every limit must hold exactly (never one over because two calls read the
count before either wrote it), every call must be answered in the town's voice and be one footstep,
and the Archive must verify afterwards."""

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from tests.e2e.test_http_rows import sql
from tests.support import RawSession, Town

TownFactory = Callable[..., Town]
AT_ONCE = 8  # a session's calls in flight at once (CLOCKFORD_IN_FLIGHT_PER_SESSION)


def at_once(session: RawSession, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Send the calls together, released by one barrier, and return the results in order."""
    start = threading.Barrier(len(calls))
    results: list[dict[str, Any] | None] = [None] * len(calls)

    def one(i: int, tool: str, arguments: dict[str, Any]) -> None:
        start.wait()
        results[i] = session.call(tool, arguments)

    threads = [threading.Thread(target=one, args=(i, *call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(r is not None for r in results), "a call was not answered"
    return [r for r in results if r is not None]


def says(results: list[dict[str, Any]]) -> Counter[str]:
    return Counter("ok" if not r["isError"] else r["structuredContent"]["say"] for r in results)


def footsteps(results: list[dict[str, Any]]) -> set[int]:
    return {r["structuredContent"]["footstep"] for r in results}


def test_the_limits_hold_exactly_when_calls_race(town_factory: TownFactory) -> None:
    town = town_factory(env={"CLOCKFORD_CHANGES_PER_HOUR": "70"}, server="uvicorn", workers=2).start()

    # The P.O. box's 64 keys: 60 kept, then eight new keys at once. Four go in.
    box = RawSession(town.mcp, client_name="race-box")
    for i in range(60):
        assert box.call("remember", {"key": f"k{i}", "value": "v"})["isError"] is False
    raced = at_once(box, [("remember", {"key": f"new{i}", "value": "v"}) for i in range(AT_ONCE)])
    assert says(raced) == {"ok": 4, "Your P.O. box is full (64 keys). Use forget first.": 4}
    assert len(box.call("recall")["structuredContent"]["keys"]) == 64

    # The Bank's changes in an hour (70 here): 66 spent, then eight at once. Four go through.
    bank = RawSession(town.mcp, client_name="race-bank")
    hour = time.gmtime().tm_hour
    for _ in range(66):
        assert bank.call("remember", {"key": "same", "value": "v"})["isError"] is False
    raced_bank = at_once(bank, [("remember", {"key": "same", "value": f"v{i}"}) for i in range(AT_ONCE)])
    # The Bank's hour refills on the hour (UTC): a run across it proves nothing about the race.
    if time.gmtime().tm_hour == hour:
        outcomes = Counter(not r["isError"] for r in raced_bank)
        assert outcomes == {True: 4, False: 4}, says(raced_bank)
        assert all(
            r["structuredContent"]["say"].startswith("The Bank says no: ") for r in raced_bank if r["isError"]
        ), says(raced_bank)

    # The clerk's 120 calls a minute: 116 made, then eight at once, then eight more. Calls that race
    # each find the count as it was before the others (a few more than 120 may go through: at most a
    # session's calls in flight), but every call is counted, so the next eight are all busy.
    clerk = RawSession(town.mcp, client_name="race-clerk")
    for _ in range(116):
        assert clerk.call("look_around")["isError"] is False
    first = at_once(clerk, [("look_around", {})] * AT_ONCE)
    assert 4 <= Counter(not r["isError"] for r in first)[True] <= AT_ONCE, says(first)
    then = at_once(clerk, [("look_around", {})] * AT_ONCE)
    assert all(r["isError"] for r in then), says(then)
    for r in [*first, *then]:
        if r["isError"]:
            assert r["structuredContent"]["say"].startswith("The clerk is busy. Try again in "), r

    # Every call one footstep, numbered once, the refused and the busy as well as the answered; the
    # passports' rows counted every one.
    for raced_calls in (raced, raced_bank, first, then):
        assert len(footsteps(raced_calls)) == AT_ONCE
    counted = dict(sql(town, "SELECT client_name, footsteps FROM town_passport WHERE client_name LIKE 'race-%%'"))
    assert counted == {"race-box": 60 + AT_ONCE + 1, "race-bank": 66 + AT_ONCE, "race-clerk": 116 + 2 * AT_ONCE}
    assert sql(town, "SELECT calls FROM town_passport WHERE client_name = 'race-clerk'") == [(116 + 2 * AT_ONCE,)]
    town.fold()
    verified = town.manage("archive", "verify", check=False)
    assert verified.returncode == 0, verified.stdout + verified.stderr
