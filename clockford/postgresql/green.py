"""A call's work on PostgreSQL, on the worker's event loop, in a greenlet of its own.

The desk is synchronous (Django's ORM, psycopg's blocking connection). On a desk thread a call cost
the worker the hand-over to the thread and back, and the interpreter's lock taken in turn with every
other thread at each round trip: about two fifths of what the town spent a call beyond the bare
server (docs/scale.md). Run on the loop as it is, a call would hold every other request up while it
waits for PostgreSQL. So each call runs in a greenlet on the loop's thread, with a connection of its
own, and where psycopg would block on the connection's socket the greenlet hands the wait to the
loop (`green_wait`), which answers other requests meanwhile and switches back when the socket is
ready: the round trips of several calls overlap as they did on threads.

What a call must not do there is wait on the loop's thread for something another call on the same
thread holds: a threading lock held across a query would never be let go. Such code says so with
`holding_the_loop`, and its queries then block the loop as on SQLite (the census's index, built once
a seal, is the one).
"""

import asyncio
import contextlib
import contextvars
import logging
from asyncio import events
from collections import deque
from collections.abc import Iterator
from typing import Any

import greenlet
import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from psycopg.waiting import READY_R, READY_W, WAIT_R, WAIT_W
from pydantic import ValidationError

log = logging.getLogger(__name__)

# Tasks finishing calls whose requests were cancelled: the loop keeps only weak references to tasks.
_finishing: set[asyncio.Task[None]] = set()


class _Call(greenlet.greenlet):
    """A call's work, switched to by `run` and back to it at each wait for PostgreSQL."""

    holding = 0  # holding_the_loop's depth: its waits block the loop's thread


class Calls:
    """The calls a worker runs on its loop at once, each with a database connection of its own (Django's
    DatabaseWrapper, made here and kept for the process's life): at most `at_once`, the rest wait
    for one to finish, first come first served."""

    def __init__(self, at_once: int) -> None:
        self.at_once = at_once
        self.free: list[Any] = []
        self.made = 0
        self.waiting: deque[asyncio.Future[Any]] = deque()

    async def run(self, fn: Any, args: tuple[Any, ...]) -> Any:
        """fn(*args) in a greenlet on the loop's thread, its result or its exception. Cancelled
        meanwhile (its client went), the cancellation is raised at once and the work still finishes,
        as it did on a thread, in a task of its own (`_finish`), which then gives its connection back."""
        db = await self._take()
        call = _Call(_work)
        call.gr_context = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        try:
            asked = _switch(call, (db, fn, args), db)
            while not call.dead:
                try:
                    ready = await _ready(loop, *asked)
                except asyncio.CancelledError:
                    # Half way through a round trip. Not finished here: a task cancelled may be
                    # cancelled again at every await (anyio's cancel scopes are), and finished without
                    # the loop, blocking on its socket, a call waiting for a lock another call of this
                    # worker holds would wait with that call stopped behind it until the lock's timeout.
                    finishing = loop.create_task(self._finish(call, asked, db))
                    _finishing.add(finishing)
                    finishing.add_done_callback(_finishing.discard)
                    db = None  # the finishing task gives it back
                    raise
                asked = _switch(call, (ready,), db)
            return asked
        finally:
            if db is not None:
                self._give(db)

    async def _finish(self, call: "_Call", asked: tuple[int, int], db: Any) -> None:
        """The rest of a call whose request was cancelled; what it returns or raises goes to nobody."""
        loop = asyncio.get_running_loop()
        try:
            while not call.dead:
                asked = _switch(call, (await _ready(loop, *asked),), db)
        except ValidationError:
            # Arguments outside the tool's schema: an answer (the desk reads them before it writes
            # anything), not a failure, though nobody is left to be given it.
            pass
        except Exception:
            log.exception("a call whose request was cancelled failed as it finished")
        except BaseException:
            db.errors_occurred = True  # stopped half way (the loop closing): checked before it is used again
            raise
        finally:
            self._give(db)

    async def _take(self) -> Any:
        if self.free:
            return self.free.pop()
        if self.made < self.at_once:
            self.made += 1
            return connections.create_connection(DEFAULT_DB_ALIAS)
        turn: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        try:
            return await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._give(turn.result())  # handed a connection as it went: the next one's
            raise

    def _give(self, db: Any) -> None:
        """A connection a call is done with goes to the call that has waited longest, or is kept."""
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(db)
                return
        self.free.append(db)

    def close(self) -> None:
        """Close every free connection (a test's database is then free to drop)."""
        for db in self.free:
            db.close()


def _work(db: Any, fn: Any, args: tuple[Any, ...]) -> Any:
    _close_if_broken(db)
    return fn(*args)


def _close_if_broken(db: Any) -> None:
    """Django's close_if_unusable_or_obsolete for a connection kept for the process's life, read from
    what the wrapper knows without asking the server unless a statement failed: closed (to be opened
    anew by the call's first query) if a call left autocommit changed, or the connection no longer
    answers after an error (the server restarted, the network went)."""
    if db.connection is None:
        return
    if db.autocommit != db.settings_dict["AUTOCOMMIT"]:
        db.close()
    elif db.errors_occurred:
        if db.is_usable():
            db.errors_occurred = False
        else:
            db.close()


def _switch(call: _Call, sent: tuple[Any, ...], db: Any) -> Any:
    """Run the call until it next waits for its socket ((fileno, wait) is returned) or ends (its result
    is returned, or its exception raised). The first switch starts it with its arguments; each after
    it sends what the socket is ready for."""
    # Django refuses its ORM on a thread where an event loop runs, so that no query holds the loop up
    # unawares: the call's queries do not, and the loop is hidden from them while they run.
    loop = events._get_running_loop()
    events._set_running_loop(None)
    # Django's connections, by thread (its stubs do not name the store): the call's is set while it runs.
    storage = connections._connections  # type: ignore[attr-defined]
    before = getattr(storage, DEFAULT_DB_ALIAS, None)
    setattr(storage, DEFAULT_DB_ALIAS, db)
    try:
        return call.switch(*sent)
    finally:
        if before is None:
            delattr(storage, DEFAULT_DB_ALIAS)
        else:
            setattr(storage, DEFAULT_DB_ALIAS, before)
        events._set_running_loop(loop)


async def _ready(loop: asyncio.AbstractEventLoop, fileno: int, wait: int) -> int:
    """Wait on the loop until the socket is ready as psycopg asks (read, write or either)."""
    done = loop.create_future()
    ready = 0

    def wake(state: int) -> None:
        nonlocal ready
        ready |= state
        if not done.done():
            done.set_result(None)

    if wait & WAIT_R:
        loop.add_reader(fileno, wake, READY_R)
    if wait & WAIT_W:
        loop.add_writer(fileno, wake, READY_W)
    try:
        await done
    finally:
        if wait & WAIT_R:
            loop.remove_reader(fileno)
        if wait & WAIT_W:
            loop.remove_writer(fileno)
    return ready


def green_wait(raw: psycopg.Connection[Any], gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
    """psycopg's Connection.wait, for a call on the loop: each time the connection's work would block
    on its socket, the call switches to the loop until the socket is ready. Anywhere else (a desk
    thread, a person's page, a call holding the loop, a wait with a timeout), psycopg's own blocking wait."""
    here = greenlet.getcurrent()
    if not isinstance(here, _Call) or here.holding or timeout is not None:
        return psycopg.Connection.wait(raw, gen, interval, timeout)
    fileno = raw.pgconn.socket
    loop_side = here.parent
    assert loop_side is not None
    try:
        wait = next(gen)
        while True:
            wait = gen.send(loop_side.switch((fileno, wait)))
    except StopIteration as ex:
        return ex.value


def adopt(connection: Any) -> None:
    """Every PostgreSQL connection the process opens waits with green_wait; one opened for a call on
    the loop is kept for the process's life (CONN_MAX_AGE 0 would close it after the call)."""
    raw = connection.connection
    raw.wait = green_wait.__get__(raw)
    if isinstance(greenlet.getcurrent(), _Call):
        connection.close_at = None


@contextlib.contextmanager
def holding_the_loop() -> Iterator[None]:
    """Within it, a call on the loop keeps the loop's thread through its waits for PostgreSQL: for code
    that holds a threading lock across queries, which another call on the same thread would wait for
    for ever. Elsewhere it changes nothing."""
    here = greenlet.getcurrent()
    if not isinstance(here, _Call):
        yield
        return
    here.holding += 1
    try:
        yield
    finally:
        here.holding -= 1
