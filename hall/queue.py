"""What waits for a person: one queue, newest first, of everything only this person can decide.

SOURCES is the one table of what can wait: held calls, unopened letters, waiting plans, their agents'
open reports, exchanges another person opened with them, their agents' requests for more
authority (the Bank), and their agents' asks for a deed (the Realty Office). The "Waiting for you" page
draws its rows from it, fifty a page (Queue), and the live socket (live.py) counts the same queries, so
the two never disagree. A new kind of thing that waits for a person is one more row here. Each query comes from the service
that owns the thing, which also decides whose it is.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from django.db import connection
from django.db.models import F, QuerySet
from django.urls import reverse

from clockford.town import handoff, holds, plans, reports
from clockford.town.models import Hold, Passport, Plan, Report
from clockford.town.tooling import counted, registry
from districts.bank import services as bank
from districts.post_office import services as post_office
from districts.realty import services as realty
from districts.switchboard import common as switchboard
from hall.models import Account
from hall.shown import preview, time_left, words_of

BUDGET_WANTS = ", a reply past the day's budget of private content"
NAMED_CHARS = 40  # a channel or record named inside the plain words
# The "Waiting for you" page, a page at a time, as the Letters page (hall/letters.py).
QUEUE_PER_PAGE = 50


def wants(tool: str, arguments: dict[str, Any], why: str = "") -> str:
    """What a held call will do, in plain words: "publish a notice on the Tavern board"."""
    # Each tool whose calls can wait says what it asks (Tool.asks); a test checks none is missing.
    asked = registry().get(tool)
    plain, detailed = asked.asks if asked and asked.asks else (f"make a {tool} call", f"make a {tool} call")
    named = {k: preview(v, NAMED_CHARS) for k, v in arguments.items() if isinstance(v, str)}
    try:
        said = detailed.format_map(named)
    except (KeyError, ValueError, IndexError):
        said = plain
    return said + (BUDGET_WANTS if why == "budget" else "")


@dataclass(frozen=True)
class Waiting:
    """One row of the queue: what waits, whose agent asks, what it wants, and until when."""

    kind: str  # a Source's kind
    id: str
    passport: Passport | None  # None: another person asks (an exchange), not an agent
    wants: str
    preview: str
    at: datetime
    lapses_at: datetime | None  # None: it waits until the person decides (a letter)
    url: str
    what: str  # the kind in words: "A held call"

    @property
    def left(self) -> str:
        return time_left(self.lapses_at) if self.lapses_at is not None else ""


def _hours(n: int) -> str:
    return f"{n} hour{'s' if n != 1 else ''}"


def _agent_asks(
    kind: str, thing: Any, wants: str, shown: str, at: datetime, lapses_at: datetime | None, what: str
) -> Waiting:
    """The row of something an agent asks its person for, on its own hall page (hall:<kind>)."""
    return Waiting(kind, thing.id, thing.passport, wants, shown, at, lapses_at, handoff.hall_path(kind, thing.id), what)


def _hold(hold: Hold, account: Account) -> Waiting:
    texts = [text for _, text in words_of(hold.arguments)]
    shown = preview(" · ".join(texts)) if texts else ""
    said = wants(hold.tool, hold.arguments, hold.why)
    return _agent_asks("hold", hold, said, shown, hold.created_at, hold.waits_until, "A held call")


def _letter(letter: Any, account: Account) -> Waiting:
    return _agent_asks(
        "letter", letter, "write to you", preview(f"{letter.subject} — {letter.body}"), letter.sent_at, None, "A letter"
    )


def plan_preview(plan: Plan) -> str:
    """A plan's steps on one line: "post_notice ×2; send_letter ×1; for 3 hours"."""
    steps = []
    for step in plan.steps:
        where = step.get("channel") or step.get("record") or ""
        action = step.get("action")
        steps.append(f"{step['tool']}{' ' + where if where else ''}{' ' + action if action else ''} ×{step['times']}")
    return preview("; ".join(steps) + f"; for {_hours(plan.hours)}")


def _plan(plan: Plan, account: Account) -> Waiting:
    n = len(plan.steps)
    said = f"follow a plan of {n} step{'s' if n != 1 else ''} for {_hours(plan.hours)}"
    return _agent_asks("plan", plan, said, plan_preview(plan), plan.declared_at, plan.until, "A plan")


def _report(report: Report, account: Account) -> Waiting:
    said = "have you review its report of a suspicious instruction"
    return _agent_asks("report", report, said, preview(report.quote), report.filed_at, report.lapses_at, "A report")


def _exchange(exchange: Any, account: Account) -> Waiting:
    other = exchange.high if exchange.low_id == account.pk else exchange.low
    return Waiting(
        "exchange",
        f"X-{other.handle}",
        None,
        f"{other.name} ({other.handle}) opened the exchange with your account: once you open your side, "
        "parcels and beacon answers pass between your agents and theirs",
        "",
        exchange.changed_at,
        None,
        reverse("hall:exchange"),
        "An exchange",
    )


def _authority(asked: Any, account: Account) -> Waiting:
    return _agent_asks(
        "authority",
        asked,
        f"make {counted(asked.amount, 'more change', 'more changes')} this hour",
        preview(bank.reason_means(asked.reason)),
        asked.asked_at,
        asked.hour + bank.HOUR,
        "A request for authority",
    )


def _deed_ask(ask: Any, account: Account) -> Waiting:
    lot = realty.lot_of(ask.lot)
    name = lot.name if lot is not None else f"lot {ask.lot}"
    return Waiting(
        "deed",
        ask.id,
        ask.passport,
        "have you prove you publish a server, for a deed to its listing",
        preview(name),
        ask.asked_at,
        ask.asked_at + timedelta(days=realty.ASK_DAYS),
        reverse("hall:deed-ask", args=[ask.id]),
        "A deed ask",
    )


@dataclass(frozen=True)
class Source:
    """One kind of thing that waits for a person: the query of those waiting for an account (from the
    service that owns them), the field that says when each began to wait, and its row in the queue."""

    kind: str
    waiting: Callable[[Account], QuerySet[Any]]
    at: str
    row: Callable[[Any, Account], Waiting]


SOURCES: tuple[Source, ...] = (
    Source("hold", holds.waiting_holds, "created_at", _hold),
    Source("letter", post_office.waiting_letters, "sent_at", _letter),
    Source("plan", plans.waiting_plans, "declared_at", _plan),
    Source("report", reports.waiting_reports, "filed_at", _report),
    Source("exchange", switchboard.exchange_requests, "changed_at", _exchange),
    Source("authority", bank.waiting_requests, "asked_at", _authority),
    Source("deed", lambda account: realty.waiting_asks_of(account.pk), "asked_at", _deed_ask),
)


def _keys(account: Account, since: datetime | None) -> tuple[str, list[Any]]:
    """One UNION ALL of what waits (since a time, if given), a row of (source, id, at) each: the queue's own
    queries (source.waiting), compiled by Django, as hall/live.py counts them. The source is its place in
    SOURCES, and the id is text (exchanges are numbered, the rest are lettered)."""
    parts: list[str] = []
    params: list[Any] = []
    for rank, source in enumerate(SOURCES):
        waiting = source.waiting(account)
        if since is not None:
            waiting = waiting.filter(**{f"{source.at}__gte": since})
        rows = waiting.order_by().values(waiting_id=F("pk"), waiting_at=F(source.at))
        sql, more = rows.query.sql_with_params()
        parts.append(f"SELECT {rank} AS source, CAST(waiting_id AS text) AS id, waiting_at AS at FROM ({sql}) w{rank}")  # noqa: S608 (Django's SQL)
        params.extend(more)
    return " UNION ALL ".join(parts), params


class Queue:
    """Everything that waits for a person, newest first, read a page at a time (Django's Paginator asks
    count() and a slice): a person with 600 things waiting had every one read and drawn on every visit
    of the page (450 KB, 130 ms on PostgreSQL). A slice reads the keys of its rows alone, in the
    database, then the rows themselves. On a tie in time, the source named first in SOURCES comes first,
    then the greater id, so that a page holds the same rows however often it is drawn. With `since`, only
    what began to wait at that time or later (the push loop's new items, hall/push.py)."""

    def __init__(self, account: Account, since: datetime | None = None) -> None:
        self.account = account
        self.since = since

    @cached_property
    def keys(self) -> tuple[str, list[Any]]:
        return _keys(self.account, self.since)  # compiled once for the count and the page: Django's compiler is slow

    def count(self) -> int:
        sql, params = self.keys
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) FROM ({sql}) q", params)  # noqa: S608 (Django's SQL)
            return int(cursor.fetchone()[0])

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, part: slice) -> list[Waiting]:
        return self.rows(self.keys_of(part.start or 0, part.stop))

    def keys_of(self, start: int = 0, stop: int | None = None) -> list[tuple[int, str]]:
        """The (source, id) of the rows from start to stop (all of them without stop), newest first."""
        # All of them: PostgreSQL reads "LIMIT ALL", SQLite a negative limit, as no limit.
        limit = str(int(stop) - int(start)) if stop is not None else "-1" if connection.vendor == "sqlite" else "ALL"
        sql, params = self.keys
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT source, id FROM ({sql}) q ORDER BY at DESC, source, id DESC LIMIT {limit} OFFSET {int(start)}",  # noqa: S608 (Django's SQL)
                params,
            )
            return [(int(rank), str(id_)) for rank, id_ in cursor.fetchall()]

    def rows(self, keys: list[tuple[int, str]]) -> list[Waiting]:
        """The rows of these keys, in their order; one decided since its key was read is left out."""
        found = self.rows_by_key(keys)
        return [found[key] for key in keys if key in found]

    def rows_by_key(self, keys: list[tuple[int, str]]) -> dict[tuple[int, str], Waiting]:
        found: dict[tuple[int, str], Waiting] = {}
        for rank, source in enumerate(SOURCES):
            ids = [id_ for r, id_ in keys if r == rank]
            if ids:
                for thing in source.waiting(self.account).filter(pk__in=ids):
                    found[rank, str(thing.pk)] = source.row(thing, self.account)
        return found


def waiting_for(account: Account) -> list[Waiting]:
    """Everything that waits for this person, newest first (the page reads a page at a time: Queue)."""
    return Queue(account)[0:None]


def next_waiting(account: Account, besides: str) -> Waiting | None:
    """What the "Next" button opens after a decision: the first thing in the queue that still waits,
    other than the item just decided (or just read). Only the newest two of each source are read (one
    may be the item just decided): a person with hundreds of letters waiting had every one read and
    drawn, on every decision, to find the first."""
    newest = []
    for source in SOURCES:
        for thing in source.waiting(account).order_by(f"-{source.at}")[:2]:
            row = source.row(thing, account)
            if row.id != besides:
                newest.append(row)
                break
    # The first of the newest, as in the queue: on a tie, the source named first in SOURCES.
    return max(newest, key=lambda row: row.at, default=None)
