"""Every call, counted and logged as the desk finishes it (clockford/town/desk.py calls `finished`).

The log: one JSON line per call on the `clockford.calls` logger: when, the tool, its outcome code,
how long the desk took and the footstep's number. Never the arguments, nor anything a reply says. A
request the face answers itself (a plain tools/call over HTTP) writes its line once its reply is sent
(`lines_after`): the line's write took 20 to 30 microseconds of every call's wait (docs/scale.md).

The counts: a town serves from several worker processes, so a count kept in one process's memory
would answer for that worker only. Each worker adds its calls to a small buffer and folds the buffer
into the database (`CallCount`, one upsert per tool, outcome and bucket seen) at most once a
second, after a call and from the worker's fold loop, outside any call's transaction: /metrics
then reads the whole town's counts, at most a second or two behind. A buffer that cannot be written
(the database busy) is kept and written next time; a worker that dies loses its last second.
"""

import atexit
import contextlib
import contextvars
import datetime as dt
import logging
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pydantic_core
from django.db import DatabaseError, connection, transaction

from clockford.metrics.models import CallCount
from clockford.sqlite.base import briefly_in_this_transaction, waiting_briefly

log = logging.getLogger("clockford.calls")
said = logging.getLogger(__name__)

# The latency histogram's upper bounds, in seconds (Prometheus's `le`).
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
FLUSH_SECONDS = 1.0

Key = tuple[str, str, int]  # (tool, outcome, bucket)

_lock = threading.Lock()
_counts: Counter[Key] = Counter()
_seconds: dict[Key, float] = {}
_flushed_at = time.monotonic()


def bucket(seconds: float) -> int:
    for i, bound in enumerate(BUCKETS):
        if seconds <= bound:
            return i
    return len(BUCKETS)


class _Held:
    """The log lines of one request's calls, held until its reply is sent (`lines_after`)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.open = True


# The request's held lines, where the face holds them. A greenlet runs its call in a copy of the
# request's context, the same _Held in it; a desk thread runs without it and writes at once.
_held: contextvars.ContextVar[_Held | None] = contextvars.ContextVar("clockford_held_lines", default=None)


@contextlib.contextmanager
def lines_after() -> Iterator[None]:
    """Around a request whose reply is sent within the block: the call lines its desk work would
    write are written as the block ends, after the reply, where no client waits for them. A line
    that comes once the block has ended (a call whose client went, finishing on) is written at once."""
    held = _Held()
    token = _held.set(held)
    try:
        yield
    finally:
        _held.reset(token)
        held.open = False
        for line in held.lines:
            log.info(line)


def finished(tool: str, outcome: str, seconds: float, footstep: int | None) -> None:
    """A call has left the desk: log its line (or hold it, in lines_after), count it, and now and
    then write the counts."""
    if log.isEnabledFor(logging.INFO):
        # Compact JSON, as json.dumps with separators (",", ":") writes these ASCII values, in a
        # fraction of its time: every call writes one.
        line = {
            "at": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds"),
            "tool": tool,
            "outcome": outcome,
            "ms": round(seconds * 1000, 3),
            "footstep": footstep,
        }
        text = pydantic_core.to_json(line).decode()
        held = _held.get()
        if held is not None and held.open:
            held.lines.append(text)
        else:
            log.info(text)
    key = (tool, outcome[:80], bucket(seconds))
    with _lock:
        _counts[key] += 1
        _seconds[key] = _seconds.get(key, 0.0) + seconds
        due = time.monotonic() - _flushed_at >= FLUSH_SECONDS
    if due:
        flush()


def _upsert_sql() -> str:
    t = connection.ops.quote_name(CallCount._meta.db_table)
    # The same statement on SQLite (3.24 and later) and PostgreSQL: add to the row, or make it.
    # The table's own name, quoted; every value is a parameter.
    insert = f"INSERT INTO {t} (tool, outcome, bucket, count, seconds) VALUES (%s, %s, %s, %s, %s) "  # noqa: S608
    return insert + (
        "ON CONFLICT (tool, outcome, bucket) DO UPDATE SET "
        f"count = {t}.count + excluded.count, seconds = {t}.seconds + excluded.seconds"
    )


def flush(quiet: bool = False) -> int:
    """Write this worker's buffer into the database; returns the rows written. Called outside any
    transaction of a call: its own autocommit statements, or one transaction when there are several."""
    global _flushed_at
    with _lock:
        counts = dict(_counts)
        seconds = dict(_seconds)
        _counts.clear()
        _seconds.clear()
        _flushed_at = time.monotonic()
    if not counts:
        return 0
    rows = [(tool, outcome, b, n, seconds.get((tool, outcome, b), 0.0)) for (tool, outcome, b), n in counts.items()]
    try:
        # A savepoint when a caller's transaction is open (a test's), so a failure leaves it usable.
        # Not a call's whole wait for a lock (SQLite's write lock, PostgreSQL's row locks): what is not written now is next time.
        with waiting_briefly(), transaction.atomic(), connection.cursor() as cursor:
            briefly_in_this_transaction()
            cursor.executemany(_upsert_sql(), rows)
    except DatabaseError as error:
        # Kept for the next time: counts are never the reason a call or a fold fails. One line, no
        # traceback: a busy database says this once a second for as long as it is busy.
        if not quiet:
            said.warning("could not write the call counts now (%s); keeping them for the next time", error)
        with _lock:
            for key, n in counts.items():
                _counts[key] += n
                _seconds[key] = _seconds.get(key, 0.0) + seconds.get(key, 0.0)
        return 0
    return len(rows)


def discard() -> None:
    """Forget this worker's unwritten counts (a test's, whose database is gone)."""
    with _lock:
        _counts.clear()
        _seconds.clear()


def pending() -> dict[Key, int]:
    with _lock:
        return dict(_counts)


def _flush_at_exit() -> None:
    # A process on its way out (its database perhaps gone with it, as a test run's is) says nothing more.
    try:
        flush(quiet=True)
    except Exception:  # noqa: S110
        pass


atexit.register(_flush_at_exit)


def totals() -> list[dict[str, Any]]:
    """Every CallCount row, as plain values."""
    rows = CallCount.objects.order_by("tool", "outcome", "bucket")
    return [dict(r) for r in rows.values("tool", "outcome", "bucket", "count", "seconds")]
