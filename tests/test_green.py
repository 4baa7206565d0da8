"""A call's work on PostgreSQL, on the event loop in a greenlet of its own (clockford/postgresql/green.py):
while one call waits for the server, the loop runs others; each call has a connection of its own,
at most DESK_THREADS at once; a call whose client went still finishes; code holding a lock across
queries keeps the loop. In process, on the test database's server, with real round trips (a query
that sleeps in the server stands for a slow one)."""

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import anyio
import pytest
from django.conf import settings
from django.db import DatabaseError, connection, connections, transaction

from clockford.face import server
from clockford.postgresql import green

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(server.IN_GREENLETS is None, reason="calls run in greenlets on PostgreSQL only"),
]


def query(sql: str, *params: Any) -> Any:
    """One statement on the connection of whoever runs it (Django's connection is looked up at each
    use: in a call, the call's own), its first value."""
    with connection.cursor() as c:
        c.execute(sql, params)
        return c.fetchone()[0]


def slow(seconds: float) -> int:
    """The server's own pid for this connection, after sleeping in the server."""
    query("SELECT pg_sleep(%s)", seconds)
    return int(query("SELECT pg_backend_pid()"))


@pytest.fixture
def calls() -> Iterator[green.Calls]:
    """Calls of the test's own, so that each test starts with none of its connections made."""
    made = green.Calls(settings.CLOCKFORD["DESK_THREADS"])
    yield made
    made.close()


def on_a_loop_of_its_own(main: Callable[[green.Calls], Awaitable[None]], at_once: int) -> None:
    """main(calls) on a new event loop in a thread of its own, with calls of its own: a call that never
    finished fails the test (its assertions see what was done by then) rather than hanging it."""

    def run() -> None:
        calls = green.Calls(at_once)
        try:
            asyncio.run(main(calls))
        finally:
            calls.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(5)


async def test_a_call_waiting_for_the_server_lets_the_loop_run_other_calls(calls: green.Calls) -> None:
    began = time.monotonic()
    long = asyncio.create_task(calls.run(slow, (0.5,)))
    await asyncio.sleep(0.05)
    quick = await calls.run(query, ("SELECT 7",))
    assert quick == 7 and time.monotonic() - began < 0.4 and not long.done()
    ticks = 0
    while not long.done():  # the loop itself is free meanwhile
        ticks += 1
        await asyncio.sleep(0.01)
    assert ticks >= 5
    await long


async def test_each_call_runs_on_the_loops_thread_with_a_connection_of_its_own(calls: green.Calls) -> None:
    def where() -> tuple[threading.Thread, int]:
        return threading.current_thread(), slow(0.2)

    at_once = await asyncio.gather(*(calls.run(where, ()) for _ in range(3)))
    assert {t for t, _ in at_once} == {threading.current_thread()}
    assert len({pid for _, pid in at_once}) == 3


def test_the_threads_own_connection_is_its_own_again_after_a_call(calls: green.Calls) -> None:
    mine = connections["default"]
    pid = query("SELECT pg_backend_pid()")
    theirs = asyncio.run(calls.run(slow, (0,)))
    assert connections["default"] is mine and theirs != pid
    assert query("SELECT pg_backend_pid()") == pid


async def test_at_most_desk_threads_calls_run_at_once_the_rest_in_turn(calls: green.Calls) -> None:
    n = calls.at_once

    def timed() -> tuple[int, float, float]:
        began = time.monotonic()
        pid = slow(0.2)
        return pid, began, time.monotonic()

    ran = await asyncio.gather(*(calls.run(timed, ()) for _ in range(n + 1)))
    assert len({pid for pid, _, _ in ran}) == n  # a connection for each call at once, none for the one that waited
    # Read from when each call began and ended, not from a time bound a busy machine stretches: n calls
    # were under way together (each began before any ended), and the last began once one had ended.
    first_end = min(ended for _, _, ended in ran)
    began = sorted(b for _, b, _ in ran)
    assert all(b < first_end for b in began[:n]) and began[n] >= first_end
    assert calls.made == n and len(calls.free) == n


async def test_a_call_whose_client_went_finishes_its_work_after(calls: green.Calls) -> None:
    done: list[int] = []

    def write() -> None:
        query("SELECT pg_sleep(0.2)")
        done.append(1)

    task = asyncio.create_task(calls.run(write, ()))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert done == [] and calls.made == 1 and not calls.free  # the cancellation is raised at once
    for _ in range(200):
        if done:
            break
        await asyncio.sleep(0.01)
    assert done == [1] and len(calls.free) == 1  # its connection given back when the work was done
    assert await calls.run(query, ("SELECT 8",)) == 8 and calls.made == 1  # usable


def test_a_call_cancelled_at_every_await_still_finishes() -> None:
    """anyio's cancel scopes (the SDK's task groups, the stdio server at its input's end) cancel a task
    again at every await: a call half way through a round trip finishes in a task of its own, and the
    cancelled one goes on at once."""
    done: list[str] = []

    def write() -> None:
        query("SELECT pg_sleep(0.2)")
        done.append("slept")
        query("SELECT 1")
        done.append("ended")

    async def cancelled(calls: green.Calls) -> None:
        with anyio.move_on_after(0.05):
            await calls.run(write, ())
        done.append("moved on")
        assert await calls.run(query, ("SELECT 11",)) == 11  # its connection is back, usable
        done.append("again")

    on_a_loop_of_its_own(cancelled, 1)
    assert done == ["moved on", "slept", "ended", "again"]


async def test_a_call_that_raises_gives_its_connection_back_usable(calls: green.Calls) -> None:
    with pytest.raises(DatabaseError):
        await calls.run(query, ("SELECT no_such_column FROM no_such_table",))
    assert await calls.run(query, ("SELECT 9",)) == 9 and calls.made == 1
    with pytest.raises(ZeroDivisionError):
        await calls.run(lambda: 1 / 0, ())
    assert calls.free and calls.made == 1


def test_a_cancelled_call_waiting_for_a_lock_another_call_holds_lets_that_call_finish() -> None:
    """Two calls of one worker on one lock (as two calls of one passport meet on its row): the one
    waiting for it is cancelled. Finished there and then, blocking on its socket, it would stop the
    loop, and with it the call holding the lock, until the lock's timeout."""
    done: list[str] = []

    def holder() -> None:
        with transaction.atomic():
            query("SELECT pg_advisory_xact_lock(4242)")
            done.append("locked")
            query("SELECT pg_sleep(0.3)")
        done.append("let go")

    def waiter() -> None:
        with transaction.atomic():
            query("SELECT pg_advisory_xact_lock(4242)")
            done.append("waiter locked")

    async def both(calls: green.Calls) -> None:
        holding = asyncio.create_task(calls.run(holder, ()))
        await asyncio.sleep(0.05)
        with anyio.move_on_after(0.05):
            await calls.run(waiter, ())
        done.append("moved on")
        await holding
        while len(calls.free) < calls.made:
            await asyncio.sleep(0.01)

    began = time.monotonic()
    on_a_loop_of_its_own(both, 2)
    # The holder's COMMIT and the waiter's lock come back in either order.
    assert done[:2] == ["locked", "moved on"] and sorted(done[2:]) == ["let go", "waiter locked"], done
    assert time.monotonic() - began < 1.5


def test_a_connection_the_server_ended_is_opened_anew_for_the_next_call(calls: green.Calls) -> None:
    pid = asyncio.run(calls.run(query, ("SELECT pg_backend_pid()",)))
    assert query("SELECT pg_terminate_backend(%s)", pid) is True  # as a restart of the server would
    with pytest.raises(DatabaseError):
        asyncio.run(calls.run(query, ("SELECT 1",)))  # the call that finds it gone is answered busy
    assert asyncio.run(calls.run(query, ("SELECT pg_backend_pid()",))) != pid
    assert calls.made == 1


async def test_a_call_holding_the_loop_keeps_it_through_its_queries(calls: green.Calls) -> None:
    def held() -> None:
        with green.holding_the_loop():
            query("SELECT pg_sleep(0.3)")

    ticks: list[float] = []

    async def tick() -> None:
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.01)

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0.03)
    await calls.run(held, ())
    await asyncio.sleep(0.03)
    ticker.cancel()
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert max(gaps) >= 0.25  # nothing else ran on the loop while the held call waited


async def test_the_face_runs_a_requests_work_this_way_on_postgresql() -> None:
    assert await server.in_db(threading.current_thread) is threading.current_thread()
    assert await server.in_db(query, "SELECT 10") == 10


async def test_a_call_outside_the_schema_whose_client_went_is_no_failure_in_the_log(
    calls: green.Calls, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Arguments outside a tool's schema are a protocol error, nothing done, not a failure. A call
    whose client went while it read the database (a stdio client's notifications/cancelled, as the
    stdio fuzz sent) finished in _finish, which logged the arguments' ValidationError with its
    traceback as a call that failed."""
    from clockford.face.server import Visitor
    from clockford.town import desk
    from clockford.town.models import Passport

    def run(tool: Any, arguments: dict[str, Any], *rest: Any) -> Any:
        query("SELECT pg_sleep(0.2)")  # the passport read anew, as for a stdio visitor
        return tool.args.model_validate(arguments)  # the desk's first step: raises here

    monkeypatch.setattr(server, "IN_GREENLETS", calls)
    monkeypatch.setattr(desk, "run", run)
    visitor = Visitor(passport=Passport(), session_id=None)
    task = asyncio.create_task(server.run_tool(visitor, "dispute", {"reason": "0"}))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(200):
        if calls.free:
            break
        await asyncio.sleep(0.01)
    assert len(calls.free) == 1  # finished, its connection given back
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []
    # Not cancelled, the same call is the protocol error it always was.
    result = await server.run_tool(visitor, "dispute", {"reason": "0"})
    assert result.is_error is True and result.content[0].text.startswith("MCP error -32602: Input validation error")
