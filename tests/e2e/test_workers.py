"""The town served by several worker processes at once: sessions, limits, the clerk and the counts
live in the database, so any worker serves any request, and every limit counts across all of them."""

import re
import threading
import time
from collections import Counter
from collections.abc import Callable

from tests.support import MCP_HEADERS, RawSession, Town, get, request

TownFactory = Callable[..., Town]
TOOLS_LIST = '{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}'


def calls_counted(town: Town, tool: str) -> int:
    status, _, text = get(town.url + "/metrics")
    assert status == 200, text
    return sum(
        int(float(n))
        for n in re.findall(rf'^clockford_calls_total{{tool="{tool}",outcome="[^"]*"}} (\S+)$', text, re.M)
    )


def test_a_town_served_by_two_workers_keeps_one_clerk(town_factory: TownFactory) -> None:
    # `./town up --workers 2`: one port, two processes; each request of RawSession is a new
    # connection, taken by whichever worker accepts it first.
    town = town_factory(env={"CLOCKFORD_CALLS_PER_MINUTE": "12"}, server="uvicorn", workers=2).start()
    s = RawSession(town.mcp, client_name="two-workers")
    replies = [s.call("look_around") for _ in range(12)]
    assert [r["isError"] for r in replies] == [False] * 12
    reply = s.call("look_around")
    busy = reply["structuredContent"]
    assert reply["isError"] is True
    assert busy["say"] == f"The clerk is busy. Try again in {busy['retryAfterSeconds']} seconds."
    assert 0 < busy["retryAfterSeconds"] <= 60
    # One passport throughout, its footsteps counted once each, whichever worker took them.
    assert [r["structuredContent"]["footstep"] for r in replies] == sorted(
        {r["structuredContent"]["footstep"] for r in replies}
    )
    deadline = time.monotonic() + 10
    while calls_counted(town, "look_around") != 13:
        assert time.monotonic() < deadline, "the workers' counts did not add up to 13"
        time.sleep(0.3)
    assert s.delete() == 200


def test_two_processes_at_once_share_sessions_and_the_limit_per_address(town_factory: TownFactory) -> None:
    # A fixed window that starts at a multiple of its length since the epoch: a long one, so that the
    # test never straddles two windows (a 600 s window restarts every ten minutes of the clock).
    limits = {"CLOCKFORD_REQUESTS_PER_ADDRESS": "40", "CLOCKFORD_REQUEST_WINDOW_SECONDS": str(10**8)}
    a = town_factory(env=limits, server="uvicorn").start()
    b = town_factory(env=limits, share=a, server="uvicorn").start()
    s = RawSession(a.mcp, client_name="both-at-once")  # two requests: initialize, initialized
    statuses: Counter[int] = Counter()
    start = threading.Barrier(2)

    def flood(town: Town) -> None:
        start.wait()
        for _ in range(25):
            status, _, _ = request("POST", town.mcp, TOOLS_LIST, {**MCP_HEADERS, "Mcp-Session-Id": s.sid or ""})
            statuses[status] += 1

    threads = [threading.Thread(target=flood, args=(t,)) for t in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # 40 in the window across both processes: 38 after the session's own two, the rest refused.
    assert statuses == Counter({200: 38, 429: 12})


def test_calls_on_either_process_are_counted_in_both_metrics(town_factory: TownFactory) -> None:
    a = town_factory(server="uvicorn").start()
    b = town_factory(share=a, server="uvicorn").start()
    s = RawSession(a.mcp)
    s.call("remember", {"key": "k", "value": "on A"})
    s.url = b.mcp
    got = s.call("recall", {"key": "k"})["structuredContent"]
    assert got["value"] == "on A"  # a session made on A, used on B
    for _ in range(3):
        s.call("recall", {"key": "k"})
    deadline = time.monotonic() + 10
    while (calls_counted(a, "recall"), calls_counted(b, "remember")) != (4, 1):
        assert time.monotonic() < deadline, (calls_counted(a, "recall"), calls_counted(b, "remember"))
        time.sleep(0.3)


def test_the_workers_stop_when_the_town_is_killed(town_factory: TownFactory) -> None:
    """`./town up` killed with kill -9 (an operator, the OOM killer, a host agent) took only uvicorn's
    supervisor: its workers went on serving the port. The next `./town up`, an upgrade's first, then
    said something already answered there, and the old code kept answering calls. Each worker now
    stops once the process that started it is gone."""
    town = town_factory(server="uvicorn", workers=2).start()
    assert town.proc is not None
    assert get(town.url + "/status")[0] == 200
    town.proc.kill()
    town.proc.wait()
    deadline = time.monotonic() + 15
    while True:
        try:
            get(town.url + "/status")
        except OSError:
            break  # nothing answers on the port
        assert time.monotonic() < deadline, "the workers went on serving after the town was killed"
        time.sleep(0.3)
