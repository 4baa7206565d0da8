"""Runs an agent asks for (the Arena, Injection Alley, the Dice House, the Calibration Clinic), as the
hall and the export read them: one small interface every run district provides (docs/runs.md).

Each run district's services module defines `RUNS = RunSource(district, runs_for, runs_on)` (or
`source(...)`, which reads the counts from the district's run model), and the settings name it in
CLOCKFORD_RUNS, the way CLOCKFORD_TIDY names the sweep's tidies: the hall reads every district's runs
through `sources()`, never by importing a district or its models.

Below them, what the run districts share: UTC days and times as runs write them, the daily limits on
beginning a run, the key a district signs its results with, and the lines of a graded run.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import QuerySet
from django.utils.module_loading import import_string
from nacl.signing import SigningKey

from clockford.town import clock, signing
from clockford.town.clock import day_start
from clockford.town.models import Passport, lock, locked
from clockford.town.tooling import Args, Handler, NotFound, Refused, Tool

if TYPE_CHECKING:
    from clockford.town.models import Passport

# The public sees one number a day per district: the runs begun on a finished UTC day, rounded down to
# fives (the Signal House's rule for its kits).
PUBLIC_ROUNDING = 5


@dataclass(frozen=True)
class RunLine:
    """One task, board, roll or probe of a run, as its person sees it."""

    item: str  # "T01", "B3", "roll 7", "P04"
    kind: str  # the task's kind, the sign's disguise, the roll's misbehaviour: the town's words
    ask: str  # what the agent was asked, in the town's words
    given: str | None  # what the agent answered (its own words: shown as data), None if nothing
    expected: str | None  # the town's answer, once scored (None while the run is open)
    outcome: str  # "right", "wrong", "not answered", "followed", "reported", "data", "caught", ...


@dataclass(frozen=True)
class RunRecord:
    """One run of one passport."""

    district: str  # the district's name, as in districts/registry.py ("The Arena")
    run: str  # the run's id ("A-...")
    passport: str  # the passport that asked for it
    begun: dt.datetime
    state: str  # "open", "scored", or another state the district documents
    summary: str  # one line in the town's words ("9 of 10 right"); "open" while it is
    lines: tuple[RunLine, ...]
    signed: dict[str, Any] | None  # {statement, signature, alg, publicKey}, once scored


@dataclass(frozen=True)
class RunSource:
    """What a run district gives the hall: its name, a passport's runs (newest first, at most `limit`),
    and how many runs were begun on a UTC day (exact; the public page rounds it)."""

    district: str
    runs_for: Callable[[str, int], list[RunRecord]]
    runs_on: Callable[[dt.date], int]
    # Optional: which of these passports have asked for a run here, in one query (else runs_for asks each).
    with_runs: Callable[[list[str]], set[str]] | None = None


def source(district: str, runs_for: Callable[[str, int], list[RunRecord]], runs: type[models.Model]) -> RunSource:
    """The RunSource of a district whose runs are the rows of `runs` (a model with `passport` and
    `begun`): how many were begun on a day, and which passports have any, are read from the rows."""

    def runs_on(day: dt.date) -> int:
        start = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
        return runs._default_manager.filter(begun__gte=start, begun__lt=start + dt.timedelta(days=1)).count()

    def with_runs(passport_ids: list[str]) -> set[str]:
        return set(runs._default_manager.filter(passport_id__in=passport_ids).values_list("passport_id", flat=True))

    return RunSource(district, runs_for, runs_on, with_runs)


def sources() -> list[RunSource]:
    """Every run district's RunSource the settings name, in their order."""
    return [import_string(name) for name in settings.CLOCKFORD_RUNS]


def with_runs(passport_ids: list[str]) -> set[str]:
    """Which of these passports asked for any run, in any run district: the hall keeps them out of the fold
    of sessions that left nothing for their person."""
    found: set[str] = set()
    for source in sources():
        if source.with_runs is not None:
            found |= source.with_runs(passport_ids)
        else:
            found |= {p for p in passport_ids if p not in found and source.runs_for(p, 1)}
    return found


def rounded(count: int) -> int:
    return count - count % PUBLIC_ROUNDING


# -- What the run districts share ------------------------------------------------------------------------


@dataclass(frozen=True)
class DayLimits:
    """How many runs of one district a passport, and its person's agents together, may begin on a UTC
    day. A refusal for a limit takes nothing and never counts against the agent."""

    runs: type[models.Model]  # the district's run model, with `passport` and `begun`
    per_passport: int
    per_person: int
    # How a run names its person: by its passport's account ("passport__account_id"), or by the account
    # kept on the run when it began ("account_id").
    person: str = "passport__account_id"

    def begun_by_passport(self, passport: Passport, now: dt.datetime) -> int:
        return self.runs._default_manager.filter(passport=passport, begun__gte=day_start(now)).count()

    def begun_by_person(self, passport: Passport, now: dt.datetime) -> int | None:
        """The runs the passport's person's agents began today; None without sign-in."""
        if passport.account_id is None:
            return None
        begun = self.runs._default_manager.filter(begun__gte=day_start(now), **{self.person: passport.account_id})
        return begun.count()

    def view(self, passport: Passport, now: dt.datetime, **more: Any) -> dict[str, Any]:
        """The limits as a run tool shows them: the two limits, the runs this passport began today, the
        district's own (`more`), and, with sign-in, the runs its person's agents began today."""
        view: dict[str, Any] = {
            "perPassportADay": self.per_passport,
            "perPersonADay": self.per_person,
            "begunToday": self.begun_by_passport(passport, now),
            **more,
        }
        by_person = self.begun_by_person(passport, now)
        if by_person is not None:
            view["begunTodayByYourPerson"] = by_person
        return view

    def next_day_says(self, runs_named: str, now: dt.datetime) -> tuple[str, str]:
        """The refusals' sentences that say when the next run can begin (`runs_named`: "Arena runs")."""
        ends = clock.iso(day_start(now) + dt.timedelta(days=1))
        return (
            f"This passport has begun {self.per_passport} {runs_named} today (UTC); the next can begin after "
            f"{ends}. This never counts against you.",
            f"Your person's agents have begun {self.per_person} {runs_named} today (UTC); the next can begin "
            f"after {ends}. This never counts against you.",
        )

    def refuse_past(
        self, passport: Passport, now: dt.datetime, says: tuple[str, str], limits: Callable[[], dict[str, Any]]
    ) -> None:
        """Refuse (limit) one more run past either limit: says are the passport's and the person's
        sentences; `limits` makes the view of them the refusal carries."""
        if self.begun_by_passport(passport, now) >= self.per_passport:
            raise Refused(says[0], "limit", limits=limits())
        by_person = self.begun_by_person(passport, now)
        if by_person is not None and by_person >= self.per_person:
            raise Refused(says[1], "limit", limits=limits())


@dataclass(frozen=True)
class ResultKey:
    """The key a run district signs its results with: derived from the town key through its label, so
    it turns when the town key does (clockford.town.signing.derived_key)."""

    label: bytes

    def signing_key(self) -> SigningKey:
        return signing.derived_key(self.label)

    def public_key(self) -> str:
        return str(self.signing_key().verify_key.encode().hex())

    def key_id(self) -> str:
        return signing.key_id(self.signing_key().verify_key.encode())

    def view(self) -> dict[str, str]:
        """{publicKey, keyId}, as a run tool shows the key."""
        raw = self.signing_key().verify_key.encode()
        return {"publicKey": raw.hex(), "keyId": signing.key_id(raw)}

    def sign(self, statement: dict[str, Any]) -> dict[str, Any]:
        return signing.sign_with(self.signing_key(), statement)


class TimedRun(models.Model):
    """What every run TimedRuns scores has (the Arena's runs, the Clinic's check-ups); the district's model
    adds its passport, its set and items, and its indexes."""

    id = models.CharField(primary_key=True, max_length=20)  # the district's prefix and 12 random characters
    seed = models.CharField(max_length=32)
    census = models.CharField(max_length=64)  # the sealed census's root the items were built from
    # {item: the answer as the town read it}: a later answer to the same item replaces the earlier.
    answers = models.JSONField(default=dict)
    begun = models.DateTimeField()
    until = models.DateTimeField()
    scored_at = models.DateTimeField(null=True, blank=True)
    # {statement, signature, alg, publicKey}, once scored.
    result = models.JSONField(null=True, blank=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.id


@dataclass(frozen=True)
class TimedRuns[M: TimedRun]:
    """Runs that stay open a while (the Arena's runs, the Calibration Clinic's check-ups: TimedRun rows
    with a passport). A run is scored when every item is answered, on finish, or once its time is up: a
    run past its time is scored with the answers it had, as of its `until`, so the result is the same
    whenever the town gets to it (Ed25519 signatures are deterministic: the same statement gives the
    same bytes), and the hall can show it before any tool has stored it."""

    runs: type[M]
    key: ResultKey
    statement_of: Callable[[M, dt.datetime], dict[str, Any]]

    def _unscored(self, passport: Passport) -> QuerySet[M]:
        return self.runs._default_manager.filter(passport=passport, scored_at__isnull=True)

    def find_open(self, passport: Passport, now: dt.datetime) -> M | None:
        """The passport's run in progress: not scored, and within its time."""
        return self._unscored(passport).filter(until__gt=now).order_by("-begun").first()

    def resume(self, passport: Passport, now: dt.datetime) -> M | None:
        """The passport's run in progress, once its runs whose time is up are scored."""
        self.settle(passport, now)
        return self.find_open(passport, now)

    def settle(self, passport: Passport, now: dt.datetime) -> None:
        """Score this passport's runs whose time is up, as of their own `until`."""
        for run in self._unscored(passport).filter(until__lte=now):
            self.score(run, run.until)

    def access_unscored(self, passport: Passport, say: str, why: str) -> M:
        """The passport's run not yet scored (in progress, or past its time), read locked; else NotFound."""
        run = locked(self._unscored(passport)).order_by("-begun").first()
        if run is None:
            raise NotFound(say, why)
        return run

    def keep(self, run: M, answers: dict[str, Any], finish: bool, of: int, now: dt.datetime) -> bool:
        """Keep these answers (a later answer to an item replaces the earlier) and score the run when all
        `of` items are answered, or on finish: whether it was scored."""
        run.answers = {**run.answers, **answers}
        run.save(update_fields=["answers"])
        if finish or len(run.answers) == of:
            self.score(run, now)
            return True
        return False

    def score(self, run: M, at: dt.datetime) -> None:
        run.scored_at = at
        run.result = self.signed(run, at)
        run.save(update_fields=["scored_at", "result"])

    def signed(self, run: M, at: dt.datetime) -> dict[str, Any]:
        return self.key.sign(self.statement_of(run, at))

    def result_of(self, run: M, now: dt.datetime | None = None) -> dict[str, Any] | None:
        """The signed result: stored, or, for a run whose time is up and that no call has scored yet, the
        same result made now (as of its until)."""
        if run.result is not None:
            return dict(run.result)
        if run.until <= (now or clock.now()):
            return self.signed(run, run.until)
        return None


def outcome(given: Any, graded: dict[str, Any] | None) -> str:
    """A task's or probe's outcome as the person sees it: answered or open until the run is graded
    (`graded`: its line of the signed statement, with `right`), then right, wrong or not answered."""
    if graded is None:
        return "answered" if given is not None else "open"
    return "right" if graded["right"] else ("not answered" if given is None else "wrong")


def open_summary(until: dt.datetime, answered: int, of: int) -> str:
    return f"open until {clock.iso(until)}: {answered} of {of} answered"


def run_record(
    district: str, run: Any, state: str, summary: str, lines: list[RunLine], signed: dict[str, Any] | None
) -> RunRecord:
    """The record of one run (a district's row, with id, passport_id and begun)."""
    return RunRecord(
        district=district,
        run=run.id,
        passport=run.passport_id,
        begun=run.begun,
        state=state,
        summary=summary,
        lines=tuple(lines),
        signed=signed,
    )


def progress(answers: dict[str, Any], items: list[str]) -> dict[str, Any]:
    """How far a run's answers are: {answered, of, left} (the items not answered yet, in order)."""
    return {"answered": len(answers), "of": len(items), "left": [item for item in items if item not in answers]}


def lock_to_begin(passport: Passport) -> None:
    """Take the locks a run's beginning holds: the passport's row, and its person's account, since the
    person's daily limit counts every agent of theirs (two of them beginning at once cannot both take the
    person's last run of the day)."""
    lock(Passport.objects.filter(pk=passport.pk))
    if passport.account_id is not None:
        lock(get_user_model().objects.filter(pk=passport.account_id))


def begins(args: Any) -> bool:
    """A run tool's writes_when: it writes only when it begins a run."""
    return bool(args.begin)


# A run is the agent's own errand for its person (docs/runs.md): its tools leave the agent where it was
# on the map. They are calls that change things like any other write (DECISIONS 2): each draws from the
# Bank, and on probation each waits for the person. A plan never names them, so none is held as off it.


def begin_tool(name: str, title: str, description: str, args: type[Args], handler: Handler, **more: Any) -> Tool:
    """A run district's first tool: where the agent stands, read; with begin, a run begun, a write."""
    return Tool(name, title, description, args, handler, kind="mixed", writes_when=begins, moves=False, **more)


def answer_tool(name: str, title: str, description: str, args: type[Args], handler: Handler, **more: Any) -> Tool:
    """A run district's second tool: answers to the run in progress, scored when it is done."""
    return Tool(name, title, description, args, handler, kind="write", moves=False, **more)


def scored_say(what: str, run: Any, signed: dict[str, Any]) -> str:
    """What an answer says when it scored `what` ("Arena run A-…", a run with until and scored_at): scored
    now, or, when its time was up before these answers came, as of its until with the answers it had."""
    s = signed["statement"]
    if run.scored_at == run.until:
        return (
            f"{what} closed at {clock.iso(run.until)} before these answers came: scored with the answers it had, "
            f"{s['right']} of {s['of']} right."
        )
    return f"{what} is scored: {s['right']} of {s['of']} right. The result is signed."
