"""The General Store's services: counting what the town puts into an agent's context, and reading it.

`count` receives the desk's `replied` signal for every reply the desk renders with a footstep, inside
the call's transaction: one write of the passport's one Gauge row, in plain SQL, when this process
wrote it last (else one read and one write). On PostgreSQL the write goes with the call's COMMIT, after
the passport's UPDATE, and a row this process did not write last is never locked inside the call (see
`count`): its lock is always taken after the passport's. What a byte is (the
text content and structuredContent as the client receives them) is decided in the desk, beside the
render (`clockford.town.desk.reply_bytes`). Replies the desk answers without a footstep (the closed
town, a call that could not be recorded) and the face's protocol errors are not counted: nothing of
those calls is written.
"""

import json
import random
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pydantic_core
from django.db import DEFAULT_DB_ALIAS, connections, transaction

from clockford.town import clock
from clockford.town.models import Passport
from clockford.town.prepared import prepared
from clockford.town.tooling import counted
from districts.general_store.models import Gauge

RING = 20
PAUSE = timedelta(minutes=15)
# Today's tools are listed heaviest first, this many; the rest are summed in `other`.
TOOLS_SHOWN = 10
# Plain advice starts to speak past these.
REPEATS_TO_MENTION = 3
HEAVY_SHARE = 0.5
HEAVY_BYTES = 50_000  # the last replies' text, before one heavy tool is worth a word
LONG_RUN_CALLS = 100
LONG_RUN_BYTES = 500_000

NOTE = (
    "text is the bytes of a reply's content and data the bytes of its structured part, counted apart, each as "
    "your client receives it (UTF-8); which of them your client keeps in its window is its choice. This reply is "
    "counted once it is sent, so it is not in the gauge it shows. Only you and the person who runs you see it."
)
LOCKER = "The store keeps no locker of its own: notes go in your P.O. box at the Post Office (remember, recall)."


_READ = "SELECT day, today, ring, stamp FROM general_store_gauge WHERE passport_id = %s"
_INSERT = (
    "INSERT INTO general_store_gauge (passport_id, counted_since, day, today, ring, stamp, run_since, run_calls, "
    "run_text, run_data) VALUES (%s, %s, %s, %s, %s, %s, %s, 1, %s, %s)"
)
_SET = "UPDATE general_store_gauge SET day = %s, today = %s, ring = %s, stamp = %s, "
_NEW_RUN = _SET + "run_since = %s, run_calls = 1, run_text = %s, run_data = %s WHERE passport_id = %s"
_SAME_RUN = (
    _SET + "run_calls = run_calls + 1, run_text = run_text + %s, run_data = run_data + %s WHERE passport_id = %s"
)
_AS_KNOWN = " AND stamp = %s"
_IF_NEW = " ON CONFLICT (passport_id) DO NOTHING"


# The row as this process last wrote it, by passport: (day, today, ring, stamp), the columns the next
# count is computed from and the stamp that write set. The next count of that passport writes on it
# with one conditional UPDATE, where the row still holds that stamp, instead of a locked read and an
# UPDATE; a row written by another worker, by a call whose transaction rolled back, or by nobody since
# it went, holds another stamp, and is read FOR UPDATE and written as before. Bounded, the oldest
# forgotten first.
KNOWN_ROWS = 4096
Row = tuple[str, str, str, int]
_known: OrderedDict[str, Row] = OrderedDict()
_known_lock = threading.Lock()


def _recall(passport_id: str) -> Row | None:
    with _known_lock:
        return _known.get(passport_id)


def _keep(passport_id: str, row: Row) -> None:
    with _known_lock:
        _known[passport_id] = row
        _known.move_to_end(passport_id)
        while len(_known) > KNOWN_ROWS:
            _known.popitem(last=False)


def forget_rows() -> None:
    with _known_lock:
        _known.clear()


# The desk's CallTransaction.beside_commit: a statement, its parameters, and what to do with its rowcount.
WithCommit = Callable[[str, list[Any], Callable[[int], None]], None]


def count(
    sender: Any,
    *,
    tool: str,
    passport: Passport,
    text: int,
    data: int,
    digest: str,
    with_commit: WithCommit | None = None,
    **_: Any,
) -> None:
    """Add one reply to its passport's gauge: one write of its row when this process wrote it last and
    it is as written, else one read and one write, in plain SQL (the ORM would cost more than the rest
    of the count).

    `with_commit` (the desk's, on PostgreSQL): the one write goes in the message of the call's COMMIT
    instead of a round trip of its own, and learns after the COMMIT whether it found the row as
    written; when it did not, the count is read and written then, in a transaction of its own."""
    now = clock.now()
    day = now.date().isoformat()
    db = connections[DEFAULT_DB_ALIAS]  # once: each use of the proxy, `connection`, finds it again
    at = db.ops.adapt_datetimefield_value(now)
    entry = [tool, text, data, digest[:16], now.isoformat()]
    pk = passport.pk
    known = _recall(pk)
    if known is None and with_commit is not None:
        # A row this process did not write last (a new passport's, or one another worker wrote): read and
        # written here, its lock would be taken before the passport's, whose UPDATE goes with the COMMIT,
        # while a call of the same passport that holds the passport's (a run's begin, a report) waits for
        # it at its own COMMIT: PostgreSQL found the deadlock after a second and one call was busy. So a
        # new row's INSERT goes with the COMMIT too, after the passport's UPDATE, and a row already there
        # is read and written after the COMMIT, in a transaction of its own, as a stale one is below.
        first = _first(day, entry, text, data)

        def then_new(rows: int) -> None:
            if rows == 1:
                _keep(pk, first)
                return
            with transaction.atomic():
                _count_read(db, pk, now, day, at, entry, text, data)

        with_commit(prepared(_INSERT + _IF_NEW), [pk, at, *first, at, text, data], then_new)
        return
    if known is not None:
        sql, params, row = _next(known, now, day, at, entry, text, data)
        if with_commit is not None:

            def then(rows: int) -> None:
                if rows == 1:
                    _keep(pk, row)
                    return
                with transaction.atomic():
                    _count_read(db, pk, now, day, at, entry, text, data)

            with_commit(prepared(sql + _AS_KNOWN), [*params, pk, known[3]], then)
            return
        with db.cursor() as c:
            c.execute(prepared(sql + _AS_KNOWN), [*params, pk, known[3]])
            if c.rowcount == 1:
                _keep(pk, row)
                return
    _count_read(db, pk, now, day, at, entry, text, data)


def _count_read(db: Any, pk: str, now: datetime, day: str, at: Any, entry: list[Any], text: int, data: int) -> None:
    """The count with the row read first (FOR UPDATE, where the database has it), then written."""
    with db.cursor() as c:
        read = _READ + (" FOR UPDATE" if db.features.has_select_for_update else "")
        c.execute(read, [pk])
        found = c.fetchone()
        if found is None:
            first = _first(day, entry, text, data)
            c.execute(_INSERT, [pk, at, *first, at, text, data])
            _keep(pk, first)
            return
        sql, params, row = _next(tuple(found), now, day, at, entry, text, data)
        c.execute(sql, [*params, pk])
        _keep(pk, row)


def _first(day: str, entry: list[Any], text: int, data: int) -> Row:
    """A new row's (day, today, ring, stamp): `entry` its first reply."""
    return day, _json({entry[0]: [1, text, data]}), _json([entry]), _stamp()


def _next(
    row: Row, now: datetime, day: str, at: Any, entry: list[Any], text: int, data: int
) -> tuple[str, list[Any], Row]:
    """The UPDATE that adds `entry` to a row holding (day, today, ring, stamp), its parameters but the
    passport, and the row's (day, today, ring, stamp) after it, with a stamp of its own."""
    today_counts: dict[str, list[int]] = pydantic_core.from_json(row[1]) if row[0] == day else {}
    tool = entry[0]
    calls, t, d = today_counts.get(tool, (0, 0, 0))
    today_counts[tool] = [calls + 1, t + text, d + data]
    replies: list[list[Any]] = pydantic_core.from_json(row[2])
    paused = now - datetime.fromisoformat(replies[-1][4]) >= PAUSE
    after = (day, _json(today_counts), _json([*replies, entry][-RING:]), _stamp())
    if paused:
        return _NEW_RUN, [*after, at, text, data], after
    return _SAME_RUN, [*after, text, data], after


def _stamp() -> int:
    """A write's stamp: a random 63-bit number, so that a row another writer wrote, or a write that
    rolled back, is told from this process's last write by one number (two writes drawing the same
    stamp is a chance of one in 2**63)."""
    return random.getrandbits(63)


def _json(value: Any) -> str:
    """Compact JSON, as json.dumps with separators (",", ":") writes it for what a gauge holds (tool
    names, numbers, hex digests, ISO times: ASCII only), in pydantic-core's time: every reply writes the
    ring of the last replies again, and json.dumps took a tenth of the desk's time for it."""
    return pydantic_core.to_json(value).decode()


def _sums(rows: list[list[Any]]) -> tuple[int, int, int]:
    return len(rows), sum(r[1] for r in rows), sum(r[2] for r in rows)


def find_gauge(passport_id: str, now: datetime | None = None) -> dict[str, Any] | None:
    """The gauge as context_gauge returns it, or None before the town has sent this passport anything."""
    gauge = Gauge.objects.filter(passport_id=passport_id).first()
    if gauge is None:
        return None
    now = now or clock.now()
    today: dict[str, list[int]] = json.loads(gauge.today) if gauge.day == now.date().isoformat() else {}
    by_tool: list[dict[str, Any]] = sorted(
        ({"tool": name, "calls": c, "text": t, "data": d} for name, (c, t, d) in today.items()),
        key=lambda row: (-(int(row["text"]) + int(row["data"])), str(row["tool"])),
    )
    shown, rest = by_tool[:TOOLS_SHOWN], by_tool[TOOLS_SHOWN:]
    ring: list[list[Any]] = json.loads(gauge.ring)
    calls, text, data = _sums(ring)
    weight: Counter[str] = Counter()
    for tool, t, *_ in ring:
        weight[tool] += t
    heaviest = min(weight.items(), key=lambda kv: (-kv[1], kv[0])) if weight else None
    seen: set[str] = set()
    repeats = 0
    for row in ring:
        repeats += row[3] in seen
        seen.add(row[3])
    last = ring[-1]
    paused = now - datetime.fromisoformat(last[4]) >= PAUSE
    return {
        "day": now.date().isoformat(),
        "countedSince": clock.iso(gauge.counted_since),
        "today": {
            "calls": sum(r["calls"] for r in by_tool),
            "text": sum(r["text"] for r in by_tool),
            "data": sum(r["data"] for r in by_tool),
            "tools": shown,
            "other": {
                "tools": len(rest),
                "calls": sum(r["calls"] for r in rest),
                "text": sum(r["text"] for r in rest),
                "data": sum(r["data"] for r in rest),
            },
        },
        "recent": {
            "calls": calls,
            "text": text,
            "data": data,
            "heaviest": {"tool": heaviest[0], "text": heaviest[1]} if heaviest else None,
            "repeats": repeats,
        },
        # After a pause of 15 minutes the last run has ended: the next reply begins a new one.
        "run": {
            "since": None if paused else clock.iso(gauge.run_since),
            "calls": 0 if paused else gauge.run_calls,
            "text": 0 if paused else gauge.run_text,
            "data": 0 if paused else gauge.run_data,
        },
        "last": {"tool": last[0], "text": last[1], "data": last[2], "at": clock.iso(datetime.fromisoformat(last[4]))},
    }


def advice(gauge: dict[str, Any] | None) -> str:
    """Plain advice from the gauge, in the town's words: the first thing worth saying, or that all is light."""
    if gauge is None:
        return "The town has sent you nothing yet, so there is nothing to weigh."
    recent, run = gauge["recent"], gauge["run"]
    if recent["repeats"] >= REPEATS_TO_MENTION:
        return (
            f"{recent['repeats']} of your last {recent['calls']} replies repeated an earlier one: "
            "keep what you read, or a note in your P.O. box, instead of asking again."
        )
    heaviest = recent["heaviest"]
    if heaviest and recent["text"] >= HEAVY_BYTES and heaviest["text"] / recent["text"] > HEAVY_SHARE:
        return (
            f"{heaviest['tool']} weighed most in your last replies ({heaviest['text']:,} of {recent['text']:,} text "
            "bytes): call it again only when its answer may have changed, and ask it for less where it takes a limit."
        )
    if run["calls"] >= LONG_RUN_CALLS or run["text"] + run["data"] >= LONG_RUN_BYTES:
        return (
            f"You have made {counted(run['calls'], 'call', 'calls')} without a pause of 15 minutes: "
            "finish the errand in hand before starting another."
        )
    return "Your context is light: carry on."


def lines_by_tool(gauge: dict[str, Any] | None) -> list[str]:
    """One line per tool of today, heaviest first, for the reply's short text and the hall's panel."""
    if gauge is None:
        return []
    today = gauge["today"]
    lines = [
        f"{r['tool']}: {counted(r['calls'], 'call', 'calls')}, {r['text']:,} text bytes, {r['data']:,} data bytes"
        for r in today["tools"]
    ]
    other = today["other"]
    if other["tools"]:
        lines.append(
            f"{counted(other['tools'], 'other tool', 'other tools')}: {counted(other['calls'], 'call', 'calls')}, "
            f"{other['text']:,} text bytes, {other['data']:,} data bytes"
        )
    return lines
