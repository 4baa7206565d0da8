"""Django's SQLite backend, as the town runs it (ENGINE "clockford.sqlite", clockford/settings.py).

Beside it, waiting_briefly: a write worth less than a wait for the one write lock waits only briefly;
and giving_way: work on the server's event loop, which must not sleep there long waiting for that lock
before it has written anything (clockford/face/server.py runs a call's work on the loop's own thread).

One change to the backend: a statement's placeholders ("%s", as Django writes them) become sqlite3's ("?") once per
text of the statement, not at every execution. Django's backend rewrites them with a regular expression
each time a statement runs; the town runs the same few statements on every call, and that rewrite was
3 to 4 per cent of a worker's CPU under load (py-spy, `look_around` from 32 clients at once).
"""

import contextlib
import os
import sqlite3
import stat
import threading
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from django.db import connection
from django.db.backends.sqlite3 import base

# How long a write that is worth less than a wait waits for the one write lock, in milliseconds.
BRIEF_WAIT_MS = 100
# How long work that gives way (giving_way) waits for the lock before it does, in milliseconds: most
# writers hold it well under a millisecond, and one hand-over to a thread costs more than a short
# wait. With two workers at 32 clients, waiting 0 ms gave 0.54x and 0.43x the bare server's calls a
# second, 2, 5 and 20 ms 0.63x to 0.67x and 0.56x to 0.57x (docs/scale.md, 2026-12-05).
LOOP_WAIT_MS = 5


class GaveWay(BaseException):  # noqa: N818 (a turn given up, not an error: it passes every `except Exception`)
    """Work run under giving_way met the write lock held by another connection before it had written
    anything, and stopped there: nothing of it is written, and it may be run again from its start on a
    thread where waiting for the lock holds up nothing else. A BaseException, so that the desk's own
    handlers (a busy database is a busy reply) never take it for an answer."""


class _Way(threading.local):
    on = False  # what runs on this thread gives way, until it first writes
    raw: Any = None  # the driver's connection it gives way on: the first one it runs a statement on
    changes = 0  # that connection's total_changes before its first statement
    waits_ms = 0  # the wait it has again once it has written


_way = _Way()


def _locked(error: sqlite3.OperationalError) -> bool:
    """SQLITE_BUSY, with any extended code: "database is locked", the lock another connection holds."""
    return (getattr(error, "sqlite_errorcode", 0) & 0xFF) == sqlite3.SQLITE_BUSY


@contextlib.contextmanager
def giving_way(db: Any = connection) -> Iterator[None]:
    """What runs inside, on this thread's connection `db`, waits for the one write lock at most
    LOOP_WAIT_MS until it has written something: held longer, the lock raises GaveWay, and nothing was
    written. Its first write (the request's count, or a transaction's BEGIN IMMEDIATE, which takes the
    lock) gives it the connection's usual wait back (CLOCKFORD_SQLITE_WAIT_SECONDS) for the rest: from
    then on, running it again would write twice. For work on the server's event loop, where a
    connection asleep in SQLite's busy handler holds up every request the worker serves
    (clockford/face/server.py)."""
    if db.vendor != "sqlite":
        yield
        return
    # The connection gives way from its first statement on (SQLiteCursorWrapper): work that never
    # touches the database opens no connection for it.
    _way.on, _way.raw, _way.waits_ms = True, None, _waits_ms(db)
    try:
        yield
    finally:
        raw, giving = _way.raw, _way.on
        _way.on, _way.raw = False, None
        if giving and raw is not None:  # wrote nothing: the usual wait again, for whoever uses it next
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed meanwhile
                _wait(raw, _way.waits_ms)


def give_way_again() -> None:
    """Under giving_way, once it has written: what it wrote is safe to write again, or its writer will
    not write it again (the request's count, which its Unchecked remembers: clockford/face/server.py
    admit), so it gives way again until its next write. Anywhere else, nothing."""
    raw = _way.raw
    if raw is None or _way.on or raw.in_transaction:
        return
    _way.on, _way.changes = True, raw.total_changes
    _wait(raw, LOOP_WAIT_MS)


def _wait(raw: sqlite3.Connection, ms: int) -> None:
    """How long the driver's connection waits for the write lock: on it directly, a setting, not a
    statement the town's wrappers count."""
    raw.execute(f"PRAGMA busy_timeout = {ms}")


def _waits_ms(db: Any) -> int:
    return int(float(db.settings_dict["OPTIONS"].get("timeout", 5)) * 1000)


@contextlib.contextmanager
def waiting_briefly() -> Iterator[None]:
    """On SQLite, what runs inside waits at most BRIEF_WAIT_MS for the write lock, then the connection
    waits as long as its settings say again (CLOCKFORD_SQLITE_WAIT_SECONDS). For writes worth less than
    a wait: a request's count (clockford/town/limits.py), the footstep of a call already answered busy
    after its whole wait (clockford/town/desk.py), the counts for /metrics, which are kept for the next
    time (clockford/metrics/counting.py). SQLite takes its lock at BEGIN, so this goes around the
    transaction; on PostgreSQL, a transaction's own wait is `briefly_in_this_transaction`."""
    if connection.vendor != "sqlite" or _way.on:  # giving way, it waits briefer still
        yield
        return
    connection.ensure_connection()
    _wait(connection.connection, BRIEF_WAIT_MS)
    try:
        yield
    finally:
        _wait(connection.connection, _waits_ms(connection))


def briefly_in_this_transaction() -> None:
    """On PostgreSQL, the open transaction waits for any lock at most BRIEF_WAIT_MS, in place of the
    connection's lock_timeout (CLOCKFORD_SQLITE_WAIT_SECONDS, clockford/settings.py): SET LOCAL ends
    with the transaction, so nothing is set back and no round trip is added outside it. Called first
    inside the transaction of a write worth less than a wait (the busy footstep, the /metrics counts).
    A request's count is not one of them: it takes no lock another transaction holds for long, and a
    statement more on every request was a round trip more (docs/scale.md)."""
    if connection.vendor == "postgresql":
        # psycopg's own execute, past the town's wrappers: a setting, not a statement of the call.
        connection.connection.execute(f"SET LOCAL lock_timeout = {BRIEF_WAIT_MS}")


@lru_cache(maxsize=2048)
def _qmark(query: str) -> str:
    """Django's conversion from "format" style to "qmark" style (SQLiteCursorWrapper.convert_query)."""
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class SQLiteCursorWrapper(base.SQLiteCursorWrapper):
    def convert_query(self, query: str, *, param_names: Any = None) -> str:
        if param_names is None:
            return _qmark(query)
        return super().convert_query(query, param_names=param_names)

    # Under giving_way (its docstring says why), a statement that meets the write lock held before the
    # connection has written anything raises GaveWay, and the first one that writes ends the giving way.
    def execute(self, query: str, params: Any = None) -> Any:
        if not _way.on:
            return super().execute(query, params)
        return self._giving_way(super().execute, query, params)

    def executemany(self, query: str, param_list: Any) -> Any:
        if not _way.on:
            return super().executemany(query, param_list)
        return self._giving_way(super().executemany, query, param_list)

    def _giving_way(self, run: Any, query: str, params: Any) -> Any:
        raw = self.connection
        if _way.raw is None:
            _way.raw, _way.changes = raw, raw.total_changes
            _wait(raw, LOOP_WAIT_MS)
        elif _way.raw is not raw:
            return run(query, params)  # another connection than the one giving way waits as usual
        try:
            done = run(query, params)
        except sqlite3.OperationalError as error:
            if _locked(error) and raw.total_changes == _way.changes and not raw.in_transaction:
                raise GaveWay from error
            raise
        if raw.in_transaction or raw.total_changes != _way.changes:  # it has the lock, or had it
            _way.on = False
            _wait(raw, _way.waits_ms)
        return done


def owner_only(path: str) -> None:
    """The database file (and the WAL and shared-memory files SQLite makes beside it, which take the
    file's mode) readable by its owner only: it holds agents' notes, letters and the words people decide
    on, and a file made under the usual umask was readable by every account on the machine. A file
    someone else owns, or a database in memory, is left as it is."""
    for name in (path, f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(OSError):  # absent, in memory, or not ours to change
            if stat.S_IMODE(os.stat(name).st_mode) & 0o077:
                os.chmod(name, 0o600)


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: Any) -> Any:
        made = super().get_new_connection(conn_params)
        owner_only(str(self.settings_dict["NAME"]))
        return made

    def create_cursor(self, name: str | None = None) -> Any:
        return self.connection.cursor(factory=SQLiteCursorWrapper)
