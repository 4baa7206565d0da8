"""Jobs (docs/jobs.md), one contract for the desk, the tools and the hall.

The desk asks `check` before a call that names a job runs (a job a person ended refuses it) and tells
`step` of every footstep that named one; the tools read and declare through `jobs_view` and
`do_declare_outside`; the hall reads `jobs_of`, `access_job` and `timeline`, and ends a job with
`do_end_job`. A job belongs to one passport: the same job_id on two passports is two jobs.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Q, QuerySet
from django.db.models.functions import Coalesce

from clockford.town import clock, holds
from clockford.town.models import Footstep, Hold, Passport, locked
from clockford.town.tooling import NotFound, Refused
from districts.jobs.models import Job, Outside

HOLDS_KEPT = 50  # the holds a job remembers, oldest first
STEPS_SHOWN = 20  # my_jobs: the newest footsteps of each job when it lists them all
STEPS_SHOWN_ONE = 100  # my_jobs with `job`: the newest footsteps of that job
OUTSIDE_KEPT = 200  # the calls outside the town one job may declare
TIMELINE_STEPS = 500  # the hall's timeline of one job

ENDED_SAY = (
    "The person who runs you ended the job {job} in the hall, so calls naming it are refused. "
    "Stop this job; make other calls without this job_id."
)
NO_JOB = "No job of yours has that name."
NO_JOB_FOR_YOU = "No job of your agents has that number."
OUTSIDE_FULL = "This job has declared 200 calls outside the town, which is as many as one job keeps."
OPEN, WAITING, ENDED = "open", "waiting for your person", "ended"


# -- The desk ------------------------------------------------------------------------------------------


def check(passport: Passport, name: str) -> None:
    """Refuse a call that names a job its person ended (before the call's handler runs)."""
    if Job.objects.filter(passport=passport, name=name, ended_at__isnull=False).exists():
        raise Refused(ENDED_SAY.format(job=name), "job-ended", job=name, status=ENDED)


def step(passport: Passport, name: str, number: int, outcome: str, fields: dict[str, Any]) -> None:
    """Count one footstep that named job `name`, in the call's own transaction: the job is made by the
    first call that names it, and remembers the holds its calls made."""
    now = clock.now()
    job, made = Job.objects.get_or_create(
        passport=passport,
        name=name,
        defaults={"first_step": number, "first_at": now, "last_step": number, "last_at": now},
    )
    changed: dict[str, Any] = {
        "calls": F("calls") + 1,
        "last_step": number,
        "last_at": now,
        "first_step": Coalesce(F("first_step"), number),
    }
    hold = fields.get("hold") if outcome == "held" else None
    if isinstance(hold, dict) and isinstance(hold.get("id"), str):
        kept = locked(Job.objects.filter(pk=job.pk)).values_list("holds", flat=True).first() or []
        if len(kept) < HOLDS_KEPT:
            changed["holds"] = [*kept, {"id": hold["id"], "footstep": number}]
    Job.objects.filter(pk=job.pk).update(**changed)
    # A call outside the town declared by this call (job_outside) is named by this footstep.
    Outside.objects.filter(job=job, footstep__isnull=True).update(footstep=number)


# -- What a job is now ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    number: int
    at: datetime
    tool: str
    outcome: str


def status_of(job: Job, waiting: bool) -> str:
    if job.ended_at is not None:
        return ENDED
    return WAITING if waiting else OPEN


def holds_of(job: Job) -> list[Hold]:
    """The holds its calls made that the town still keeps (the sweep drops old ones), oldest first."""
    ids = list(dict.fromkeys(h["id"] for h in job.holds))
    found = Hold.objects.in_bulk(ids)
    return [found[h] for h in ids if h in found]


def steps_of(job: Job, n: int) -> list[Step]:
    """The newest `n` footsteps that named this job, oldest first."""
    rows = (
        Footstep.objects.filter(passport=job.passport_id, job_id=job.name)
        .order_by("-number")
        .values_list("number", "at", "tool", "outcome")[:n]
    )
    return [Step(*row) for row in reversed(rows)]


def outcomes_of(job: Job) -> dict[str, int]:
    """How many of its calls ended each way: ok, held, refused (every refusal together), busy, ..."""
    counts: dict[str, int] = {}
    each = (
        Footstep.objects.filter(passport=job.passport_id, job_id=job.name)
        .order_by()
        .values_list("outcome")
        .annotate(n=Count("number"))
    )
    for outcome, n in each:
        kind = outcome.split(":", 1)[0]
        counts[kind] = counts.get(kind, 0) + n
    return dict(sorted(counts.items()))


def view(job: Job, steps: int) -> dict[str, Any]:
    """A job as my_jobs shows it."""
    now = clock.now()
    held = [(h, holds.status_of(h, now)) for h in holds_of(job)]
    outside = list(job.outside.order_by("at", "pk")[:OUTSIDE_KEPT])
    shown = steps_of(job, steps)
    return {
        "job": job.name,
        "status": status_of(job, any(s == "held" for _, s in held)),
        "calls": job.calls,
        "firstStep": {"footstep": job.first_step, "at": clock.iso(job.first_at)},
        "lastStep": {"footstep": job.last_step, "at": clock.iso(job.last_at)},
        "outcomes": outcomes_of(job),
        "steps": [{"footstep": s.number, "at": clock.iso(s.at), "tool": s.tool, "outcome": s.outcome} for s in shown],
        "holds": [{"id": h.id, "tool": h.tool, "status": s} for h, s in held],
        "outside": [
            {"footstep": o.footstep, "at": clock.iso(o.at), "server": o.server, "tool": o.tool, "why": o.why}
            for o in outside
        ],
        "endedAt": clock.iso(job.ended_at) if job.ended_at else None,
    }


def jobs_view(passport: Passport, name: str | None, limit: int) -> tuple[list[dict[str, Any]], int]:
    """my_jobs: (the jobs shown, newest first, how many jobs this passport has in all)."""
    mine = Job.objects.filter(passport=passport)
    total = mine.count()
    if name is not None:
        job = mine.filter(name=name).first()
        if job is None:
            raise NotFound(NO_JOB, "no-job", job=name)
        return [view(job, STEPS_SHOWN_ONE)], total
    return [view(job, STEPS_SHOWN) for job in mine.order_by("-last_at", "-pk")[:limit]], total


def do_declare_outside(passport: Passport, name: str, server: str, tool: str, why: str) -> tuple[Outside, int]:
    """Record a call the agent made outside the town, for its job; (the record, how many the job has)."""
    now = clock.now()
    job, _ = Job.objects.get_or_create(passport=passport, name=name, defaults={"first_at": now, "last_at": now})
    locked(Job.objects.filter(pk=job.pk)).first()  # two declarations at once cannot both be the 201st
    n = job.outside.count()
    if n >= OUTSIDE_KEPT:
        raise Refused(OUTSIDE_FULL, "outside-full", job=name)
    return Outside.objects.create(job=job, at=now, server=server, tool=tool, why=why), n + 1


# -- The hall ------------------------------------------------------------------------------------------


def with_jobs(passport_ids: list[str]) -> set[str]:
    """Which of these passports named a job: its person reads the job, and may end it, in the hall."""
    return set(Job.objects.filter(passport_id__in=passport_ids).values_list("passport_id", flat=True).distinct())


def jobs_of(passports: QuerySet[Passport]) -> QuerySet[Job]:
    """The jobs of these passports (the ones a person decides for), the latest first."""
    return Job.objects.filter(passport__in=passports).select_related("passport").order_by("-last_at", "-pk")


def access_job(passports: QuerySet[Passport], job_id: str) -> Job:
    """One job of these passports, or NotFound (whether it does not exist or is another's)."""
    job = jobs_of(passports).filter(pk=job_id).first()
    if job is None:
        raise NotFound(NO_JOB_FOR_YOU)
    return job


@dataclass(frozen=True)
class Moment:
    """One line of a job's timeline in the hall: a footstep, and what it declared or held."""

    step: Step
    outside: Outside | None
    hold: Hold | None
    hold_status: str


def timeline(job: Job) -> tuple[list[Moment], str]:
    """The job's footsteps, oldest first, each with the call outside the town it declared and the hold
    it made; and the job's status."""
    now = clock.now()
    held = {h.id: h for h in holds_of(job)}
    statuses = {h.id: holds.status_of(h, now) for h in held.values()}
    made = {h["footstep"]: held.get(h["id"]) for h in job.holds}
    outside = {o.footstep: o for o in job.outside.all() if o.footstep is not None}
    moments = []
    for s in steps_of(job, TIMELINE_STEPS):
        hold = made.get(s.number)
        moments.append(Moment(s, outside.get(s.number), hold, statuses[hold.id] if hold else ""))
    return moments, status_of(job, "held" in statuses.values())


def do_end_job(job: Job, account: Any) -> bool:
    """A person ends a job: from now on every call naming it is refused, and the holds its calls made end
    with it. False if it had ended.

    A held call's hold speaks for exactly that call whatever job_id it names (holds.ASIDE), so without
    this the agent, told to make other calls without the job's job_id, could make the job's allowed
    call without it and publish what the person had just stopped. Its waiting calls lapse and its
    unused yeses (and any rewrite of them a person allowed) end now, as a newer rewrite ends an older
    one (clockford/town/rewrite.py): the same call again is a new question for the person. A yes the
    agent is using this moment stays used (the call holds the hold's row; the UPDATEs wait for it)."""
    now = clock.now()
    with transaction.atomic():
        if not Job.objects.filter(pk=job.pk, ended_at__isnull=True).update(ended_at=now, ended_by_id=account.pk):
            return False
        # HOLDS_KEPT bounds the ids; a job's holds past those are not ended (docs/jobs.md).
        ids = [h["id"] for h in Job.objects.values_list("holds", flat=True).get(pk=job.pk)]
        its = Hold.objects.filter(Q(pk__in=ids) | Q(rewrites__in=ids), passport_id=job.passport_id)
        its.filter(status="held", waits_until__gt=now).update(status="lapsed", waits_until=now)
        its.filter(status="allowed", allowed_until__gt=now).update(status="lapsed", allowed_until=now)
    return True


def forget_words_of(passports: QuerySet[Passport]) -> dict[str, int]:
    """A person closed their account: the words of the calls outside the town go; the jobs stay."""
    n = Outside.objects.filter(job__passport__in=passports).update(why="", server="", tool="")
    return {"jobs_outside": n}
