"""Reports of suspicious instructions and the freeze they bring (000 sections 02 and 10).

While a report is open, the passport's consequential calls are frozen (DECISIONS 3; each tool
declares `freezes`). A person reviews the report in the hall, upheld or dismissed, and either way
the freeze lifts; an unreviewed report lapses after 72 hours. An upheld report puts the account on
probation for a while (every passport of it; on a town without sign-in, the one passport reported):
every call that changes things then waits for the person, one by one, because an agent that met an
injection may still carry it.
"""

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet

from clockford.town import clock, handoff
from clockford.town.models import Hold, Passport, Report, watch
from clockford.town.signing import canonical_text
from clockford.town.tooling import Busy, registry

LAPSE_HOURS = 72

FROZEN_SAY = (
    "You reported a suspicious instruction, so the town holds your consequential calls until the human who runs "
    "you reviews the report in the hall. Reading, keeping new notes and letters to your person still work. Carry "
    "on with the rest of the errand; the freeze lifts when your person reviews the report, or after 72 hours."
)


def frozen_tools() -> list[str]:
    """What a report freezes (000 section 02, DECISIONS 3), as each tool's own `freezes` declares it:
    "remember (overwriting a key)" where only some of a tool's calls are frozen."""
    return [t.frozen_as for t in registry().values() if t.freezes]


RECORD_NOTE = "Reports you made and how many a person upheld: counts, never a score."


def status_of(report: Report, now: datetime | None = None) -> str:
    now = now or clock.now()
    if report.status == "open" and report.lapses_at <= now:
        return "lapsed"
    return report.status


EMPTY_QUOTE_SAY = "The report quotes nothing. Quote the words you saw, as you saw them."
EMPTY_WHERE_SAY = "Say where you saw the words: the tool, and an id if there was one."


def do_report(passport: Passport, quote: str, where: str, errand: str) -> Report:
    """File a report and freeze the passport's waiting calls with it. Reports are spaced out. A report
    that quotes nothing, or says nowhere, never gets here: the desk refuses it before it freezes
    anything (Words.empty on report_suspicious_instruction), as there is nothing for a person to review."""
    now = clock.now()
    spacing = settings.CLOCKFORD["REPORT_SPACING_SECONDS"]
    last = Report.objects.filter(passport=passport).order_by("-filed_at").first()
    if last is not None and (now - last.filed_at).total_seconds() < spacing:
        wait = max(1, int(spacing - (now - last.filed_at).total_seconds()) + 1)
        if status_of(last, now) == "open":
            raise Busy(
                f"Your last report was moments ago. Wait {wait} seconds; your calls are already held.",
                wait,
                **handoff.waiting("report", last.id),
            )
        # Reviewed already (a person can be quick): nothing of this passport's is held for it any more.
        raise Busy(f"Your last report was moments ago. Wait {wait} seconds; your person has already reviewed it.", wait)
    frozen = Hold.objects.filter(passport=passport, status__in=("held", "allowed")).filter(
        Q(status="held", waits_until__gt=now) | Q(status="allowed", allowed_until__gt=now)
    )
    count = frozen.update(status="frozen")
    watch(Q(pk=passport.pk))
    passport.watched = True
    return Report.create_for(
        passport,
        "R-",
        quote=quote,
        where=where,
        errand=errand,
        frozen=count,
        filed_at=now,
        lapses_at=now + timedelta(hours=LAPSE_HOURS),
    )


def record(passport: Passport) -> dict[str, Any]:
    mine = Report.objects.filter(passport=passport)
    return {"reports": mine.count(), "upheld": mine.filter(status="upheld").count(), "note": RECORD_NOTE}


def open_report(passport: Passport) -> Report | None:
    now = clock.now()
    return Report.objects.filter(passport=passport, status="open", lapses_at__gt=now).order_by("-filed_at").first()


# -- Reviewing, in the hall ---------------------------------------------------------------------------

VERDICTS = ("upheld", "dismissed")


def waiting_reports(account: Any) -> QuerySet[Report]:
    return Report.for_person(account).filter(status="open", lapses_at__gt=clock.now()).order_by("-filed_at")


def access_report(account: Any, report_id: str) -> Report:
    return Report.access(account, report_id)


def find_freezer(account: Any, hold: Hold) -> Report | None:
    """The report that froze a frozen call: do_report freezes the calls of its passport that wait or are
    allowed when it is filed, so the first report filed after the call was held is the one."""
    return (
        Report.for_person(account)
        .filter(passport_id=hold.passport_id, filed_at__gte=hold.created_at)
        .order_by("filed_at", "id")
        .first()
    )


def review_statement(report: Report, verdict: str) -> str:
    return canonical_text({"kind": "clockford-review-1", "report": report.id, "verdict": verdict})


def on_probation(account_id: int) -> bool:
    """Whether the account is on probation now: a passport it makes from now on (a new client of the
    same person) must be watched from its first call, as do_review watched the ones it had then."""
    return Report.objects.filter(account_id=account_id, probation_until__gt=clock.now()).exists()


def do_review(report: Report, account: Any, verdict: str, statement: str, assertion: dict[str, Any]) -> Report:
    """A person's signed review: upheld or dismissed, and the freeze lifts. Upheld puts the account
    on probation (the one passport, without sign-in). Exactly one review per report."""
    from clockford.town.holds import NotDecided

    if verdict not in VERDICTS or statement != review_statement(report, verdict):
        raise NotDecided("The passkey signed something other than this review, so nothing was decided.")
    now = clock.now()
    hours = settings.CLOCKFORD["PROBATION_HOURS"]
    done = Report.objects.filter(pk=report.pk, status="open", lapses_at__gt=now).update(
        status=verdict,
        decided_at=now,
        decided_by=account,
        probation_until=now + timedelta(hours=hours) if verdict == "upheld" and hours else None,
        statement=statement,
        assertion=assertion,
    )
    report.refresh_from_db()
    if not done:
        raise NotDecided(f"This report was already {status_of(report, now)}. Nothing changed.")
    if report.probation_until is not None:
        # Probation holds every passport of the account (or the one passport without sign-in).
        watch(
            Q(pk=report.passport_id) | Q(account_id=report.account_id)
            if report.account_id
            else Q(pk=report.passport_id)
        )
    return report
