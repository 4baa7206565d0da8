"""Django's SQLite backend, as the town runs it (ENGINE "clockford.sqlite", clockford/settings.py).

Beside it, waiting_briefly: a write worth less than a wait for the one write lock waits only briefly.

One change to the backend: a statement's placeholders ("%s", as Django writes them) become sqlite3's ("?") once per
text of the statement, not at every execution. Django's backend rewrites them with a regular expression
each time a statement runs; the town runs the same few statements on every call, and that rewrite was
3 to 4 per cent of a worker's CPU under load (py-spy, `look_around` from 32 clients at once).
"""

import contextlib
import os
import stat
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from django.db import connection
from django.db.backends.sqlite3 import base

# How long a write that is worth less than a wait waits for the one write lock, in milliseconds.
BRIEF_WAIT_MS = 100


@contextlib.contextmanager
def waiting_briefly() -> Iterator[None]:
    """On SQLite, what runs inside waits at most BRIEF_WAIT_MS for the write lock, then the connection
    waits as long as its settings say again (CLOCKFORD_SQLITE_WAIT_SECONDS). For writes worth less than
    a wait: a request's count (clockford/town/limits.py), the footstep of a call already answered busy
    after its whole wait (clockford/town/desk.py), the counts for /metrics, which are kept for the next
    time (clockford/metrics/counting.py). SQLite takes its lock at BEGIN, so this goes around the
    transaction; on PostgreSQL, a transaction's own wait is `briefly_in_this_transaction`."""
    if connection.vendor != "sqlite":
        yield
        return
    connection.ensure_connection()
    # On the driver's own connection: a setting, not a statement the town's wrappers count.
    connection.connection.execute(f"PRAGMA busy_timeout = {BRIEF_WAIT_MS}")
    try:
        yield
    finally:
        waits = int(float(connection.settings_dict["OPTIONS"].get("timeout", 5)) * 1000)
        connection.connection.execute(f"PRAGMA busy_timeout = {waits}")


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
