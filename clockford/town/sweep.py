"""The sweep: tidies storage that would otherwise grow without bound (docs/retention.md).

Time is derived, not swept (ARCHITECTURE invariant 6): every outcome is computed when read, so a
sweep decides nothing. It only removes rows whose outcome reads the same without them (a replay past
its day, a session that can no longer be used nor counted, foreign words past the days Safe Harbour
compares with) and asks each district to do the same for its own tables. The Archive (footsteps,
leaves, checkpoints) is append-only and never touched.

Work is bounded: rows go in batches, each batch its own short transaction, so a sweep never holds
the database's write lock (SQLite has one for the whole file) for longer than one batch, and at most
`MAX_BATCHES` batches a table per sweep; what is left waits for the next sweep.

The districts' tidies are named in the settings (CLOCKFORD_TIDY), read the way the tools' registry
is, so the core never imports a district. Each takes the time and returns {table: rows removed}.
"""

import datetime as dt
import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.module_loading import import_string

from clockford.town import budgets, clock
from clockford.town.holds import HANDED_DAYS, HOLDS_SHOWN
from clockford.town.models import Handed, Hold, McpSession, Replay, ReplyBudget
from clockford.town.replays import REPLAY_HOURS

log = logging.getLogger(__name__)

BATCH = 500
MAX_BATCHES = 20

# What one table's tidy removes: given the time, the rows that read the same without them.
Tidy = Callable[[dt.datetime], Mapping[str, int]]


def delete_in_batches(rows: QuerySet[Any], batch: int = BATCH, max_batches: int = MAX_BATCHES) -> int:
    """Delete `rows` a batch at a time, each batch in its own transaction; returns how many went.
    The batch's delete repeats the condition, so a row that stopped matching since it was found (a
    session touched again) stays."""
    gone = 0
    for _ in range(max_batches):
        # Found outside the transaction: on SQLite a transaction holds the write lock from its start,
        # and finding may scan; the delete inside looks rows up by key.
        pks = list(rows.values_list("pk", flat=True)[:batch])
        if not pks:
            break
        with transaction.atomic():
            _, per_model = rows.filter(pk__in=pks).delete()
        gone += per_model.get(rows.model._meta.label, 0)
        if len(pks) < batch:
            break
    return gone


def table(model: type[models.Model]) -> str:
    return model._meta.db_table


def _replays(now: dt.datetime) -> dict[str, int]:
    # replays.find reads only a reply younger than its day (REPLAY_HOURS); an older one is replaced by keep() anyway.
    old = Replay.objects.filter(at__lte=now - dt.timedelta(hours=REPLAY_HOURS))
    return {table(Replay): delete_in_batches(old)}


def _handed(now: dt.datetime) -> dict[str, int]:
    # Safe Harbour reads only the words handed within HANDED_DAYS (holds.HANDED_DAYS).
    old = Handed.objects.filter(at__lt=now - dt.timedelta(days=HANDED_DAYS))
    return {table(Handed): delete_in_batches(old)}


def _sessions(now: dt.datetime) -> dict[str, int]:
    """A session that can no longer be used (ended, idle past its limit, or past its age) and no
    longer counts against its address (opened before the window): clockford/face/sessions.py reads
    such a row exactly as it reads no row at all ("not found", and not counted). Sessions are read by
    the wall clock, not the town's (which a test may move), so they are swept by it too."""
    now = min(now, timezone.now())
    c = settings.CLOCKFORD
    idle = dt.timedelta(seconds=c["SESSION_IDLE_SECONDS"])
    max_age = dt.timedelta(seconds=c["SESSION_MAX_AGE_SECONDS"])
    window = dt.timedelta(seconds=c["SESSION_WINDOW_SECONDS"])
    dead = Q(ended_at__isnull=False) | Q(last_seen__lte=now - idle) | Q(created_at__lte=now - max_age)
    old = McpSession.objects.filter(dead, created_at__lte=now - window)
    return {table(McpSession): delete_in_batches(old)}


def _reply_budgets(now: dt.datetime) -> dict[str, int]:
    # The reply gate reads only today's row (UTC day); a past day's count is never read again.
    old = ReplyBudget.objects.filter(day__lt=now.date())
    return {table(ReplyBudget): delete_in_batches(old)}


# How long a hold that lapsed with nobody deciding is kept, for its person to look back on in the hall.
LAPSED_HOLD_DAYS = 30


def _holds(now: dt.datetime) -> dict[str, int]:
    """A hold that lapsed with nobody deciding, 30 days after it lapsed, unless it is among the newest
    its passport shows (show_passport's last HOLDS_SHOWN): nothing was decided, so no signed decision
    goes with it; it no longer speaks for its call (holds._existing reads only a waiting, allowed or
    lately refused hold) and no longer counts against any limit (only waiting holds do). A hold a
    person decided is kept: it carries the signed decision."""
    newest = Hold.objects.annotate(
        n=Window(RowNumber(), partition_by=F("passport_id"), order_by=(F("created_at").desc(), F("id").desc()))
    ).filter(n__lte=HOLDS_SHOWN)
    old = Hold.objects.filter(
        status__in=("held", "lapsed"),
        decided_at__isnull=True,
        waits_until__lte=now - dt.timedelta(days=LAPSED_HOLD_DAYS),
    ).exclude(pk__in=newest.values("pk"))
    return {table(Hold): delete_in_batches(old)}


CORE: tuple[Tidy, ...] = (_replays, _handed, _sessions, _reply_budgets, _holds, budgets.tidy)


def tidies() -> list[Tidy]:
    """The core's own tidies, then each district's, in the order the settings name them."""
    return [*CORE, *(import_string(name) for name in settings.CLOCKFORD_TIDY)]


def run(now: dt.datetime | None = None) -> dict[str, int]:
    """One sweep: {table: rows removed}, every table named, 0 included. A tidy that fails is logged
    and left for the next sweep; the others still do their work (each batch it finished stays done)."""
    when = now or clock.now()
    removed: dict[str, int] = {}
    for tidy in tidies():
        try:
            found = tidy(when)
        except Exception:
            log.exception("a tidy failed: %s", getattr(tidy, "__qualname__", tidy))
            continue
        for name, n in found.items():
            removed[name] = removed.get(name, 0) + n
    return removed
