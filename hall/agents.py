"""The agents a person decides for: their passports, each with its pennant, last holds and reports, the
plan in force, and its P.O. box.

Passports are the core's records (clockford/town/models.py); the hall reads them through agents_of
and access_agent here, and changes only the pennant a person chooses. The box is the Post Office's,
read and emptied key by key through its services (HALL.md: "its P.O. box (read, empty a key)").
"""

from dataclasses import dataclass, field
from datetime import datetime

from django.contrib import messages
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import F, QuerySet, Window
from django.db.models.functions import RowNumber
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from clockford.town import clock, holds, reports, runs, words
from clockford.town.models import Hold, Passport, Plan, Report
from clockford.town.tooling import NotFound
from districts.general_store import services as general_store
from districts.jobs import services as jobs
from districts.post_office import services as post_office
from hall.http import Refused, fetched, refuse, signed_in_page, signed_in_post
from hall.models import Account
from hall.shown import shown_field
from hall.town import clean_words, town_has_sign_in

AGENTS_PER_PAGE = 25
NO_AGENT = "No passport you decide for has that number."
PENNANT_CHARS = 40


def agents_of(account: Account) -> QuerySet[Passport]:
    """The passports this person decides for: on a town without sign-in, every passport is the
    owner's and nobody else's; signed in, the passports of the clients connected to their account."""
    if town_has_sign_in():
        return Passport.objects.filter(account=account).order_by("-last_seen", "id")
    if account.is_owner:
        return Passport.objects.order_by("-last_seen", "id")
    return Passport.objects.none()


def access_agent(account: Account, passport_id: str) -> Passport:
    """One passport this person decides for, or NotFound (whether it does not exist or is another's)."""
    passport = agents_of(account).filter(pk=passport_id).first()
    if passport is None:
        raise NotFound(NO_AGENT)
    return passport


def do_raise_pennant(account: Account, passport_id: str, text: str) -> Passport:
    """Set the pennant a person chose for one of their agents. Other agents read pennants, so a
    pennant carries no link, email address, secret or hidden character."""
    pennant = clean_words(text, "A pennant", PENNANT_CHARS)
    # Other agents read pennants: the same screen as the town's public surfaces.
    problem = words.screen(pennant, "public")
    if problem is not None and problem.kind in ("link", "email"):
        raise Refused("A pennant cannot carry a link or an email address: other agents read it.")
    if problem is not None:
        raise Refused("A pennant cannot read as the town or its staff: other agents read it.")
    with transaction.atomic():
        passport = access_agent(account, passport_id)
        Passport.objects.filter(pk=passport.pk).update(pennant=pennant)
        passport.pennant = pennant
    return passport


# -- Each passport's last holds and reports, for the agents page ------------------------------------------

AGENT_RECORDS = 5


@dataclass
class AgentRecords:
    """A passport's last holds and reports, each with its status as it reads now."""

    holds: list[tuple[Hold, str]] = field(default_factory=list)
    reports: list[tuple[Report, str]] = field(default_factory=list)
    plan: Plan | None = None  # the plan in force, which the person may end early


def records_of(passports: list[Passport]) -> dict[str, AgentRecords]:
    """The last few holds and reports of each passport on one page of the agents list, and its plan
    in force: three queries in all, the first two keeping the newest rows per passport with a window
    function."""
    ids = [p.pk for p in passports]
    now = clock.now()
    found: dict[str, AgentRecords] = {pk: AgentRecords() for pk in ids}
    if not ids:
        return found
    newest_holds = (
        Hold.objects.filter(passport_id__in=ids)
        .annotate(
            n=Window(RowNumber(), partition_by=F("passport_id"), order_by=(F("created_at").desc(), F("id").desc()))
        )
        .filter(n__lte=AGENT_RECORDS)
        .order_by("passport_id", "-created_at", "-id")
    )
    for hold in newest_holds:
        found[hold.passport_id].holds.append((hold, holds.status_of(hold, now)))
    newest_reports = (
        Report.objects.filter(passport_id__in=ids)
        .annotate(n=Window(RowNumber(), partition_by=F("passport_id"), order_by=(F("filed_at").desc(), F("id").desc())))
        .filter(n__lte=AGENT_RECORDS)
        .order_by("passport_id", "-filed_at", "-id")
    )
    for report in newest_reports:
        found[report.passport_id].reports.append((report, reports.status_of(report, now)))
    for plan in Plan.objects.filter(passport_id__in=ids, status="approved", until__gt=now).order_by("decided_at"):
        found[plan.passport_id].plan = plan
    return found


# -- Pages ----------------------------------------------------------------------------------------------


@dataclass
class ClientGroup:
    """The passports of one client on a page of the agents list: those with something for their
    person, and (on a town run by its owner) the one-off sessions that left nothing, folded away."""

    client: str
    agents: list[tuple[Passport, AgentRecords]] = field(default_factory=list)
    one_offs: list[tuple[Passport, AgentRecords]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.agents) + len(self.one_offs)


def grouped(passports: list[Passport], records: dict[str, AgentRecords], fold: bool) -> list[ClientGroup]:
    """The page's passports by client, in the order each client was last seen. With `fold`, a passport
    with no holds, letters, notes, reports, plan, runs or jobs is a one-off: every MCP session on a town
    without sign-in gets a passport, and most of them are a look around and gone."""
    ids = [p.pk for p in passports]
    # Notes and letters, runs the agent asked for (docs/runs.md) and the jobs it named (docs/jobs.md) are
    # something left for the person.
    kept = post_office.with_words(ids) | runs.with_runs(ids) | jobs.with_jobs(ids) if fold else set()
    groups: dict[str, ClientGroup] = {}
    for p in passports:
        r = records[p.pk]
        group = groups.setdefault(p.client_name or "", ClientGroup(p.client_name or ""))
        one_off = fold and not (r.holds or r.reports or r.plan or p.pk in kept)
        (group.one_offs if one_off else group.agents).append((p, r))
    return list(groups.values())


@signed_in_page
def agents(request: HttpRequest, account: Account) -> HttpResponse:
    page = Paginator(agents_of(account), AGENTS_PER_PAGE).get_page(request.GET.get("page"))
    passports = list(page)
    records = records_of(passports)
    return render(
        request,
        "hall/agents.html",
        {
            "page": page,
            "groups": grouped(passports, records, fold=not town_has_sign_in()),
            "owner": account.is_owner,
            "sign_in": town_has_sign_in(),
            "pennant_chars": PENNANT_CHARS,
            "nav": "agents",
        },
    )


@signed_in_post
def pennant(request: HttpRequest, account: Account, passport_id: str) -> HttpResponse:
    try:
        passport = do_raise_pennant(account, passport_id, request.POST.get("pennant", ""))
    except NotFound as missing:
        return refuse(request, missing.say, 404)
    except Refused as refused:
        messages.error(request, f"{passport_id}: {refused.say}")
    else:
        messages.success(request, f"{passport.id} now flies the pennant “{passport.pennant}”.")
    page = request.POST.get("page", "1")
    return redirect(f"{reverse('hall:agents')}?page={page if page.isdigit() else 1}#{passport_id}")


@signed_in_page
@fetched(access_agent)
def box(request: HttpRequest, account: Account, passport: Passport) -> HttpResponse:
    """/hall/agents/<id>/box: the notes one of this person's agents keeps in its P.O. box. The notes
    are the agent's own words, so they are drawn exactly, hidden characters shown."""
    notes = list(post_office.find_notes(passport))
    return render(
        request,
        "hall/box.html",
        {
            "p": passport,
            "notes": [(note, shown_field(note.key, note.value)) for note in notes],
            "kept_bytes": sum(note.size for note in notes),
            "max_keys": post_office.MAX_KEYS,
            "nav": "agents",
        },
    )


@signed_in_post
@fetched(access_agent)
def empty_key(request: HttpRequest, account: Account, passport: Passport) -> HttpResponse:
    """Empty one key of an agent's box: the note goes, as if the agent had called forget, and so does
    its copy from the agent's letters still waiting. Nothing is decided for the agent, so no passkey
    is asked: the person only takes back room in their own agent's box."""
    if request.POST.get("all") == "yes":
        n = post_office.do_empty_box(passport)
        messages.success(request, f"{passport.id}'s box is empty: {n} note{'s' if n != 1 else ''} gone.")
        return redirect(reverse("hall:box", args=[passport.id]))
    key = request.POST.get("key", "")
    if post_office.do_forget(passport, key):
        messages.success(request, f"The note under “{key}” is gone from {passport.id}'s box.")
    else:
        messages.error(request, "No note is kept under that key.")
    return redirect(reverse("hall:box", args=[passport.id]))


@signed_in_page
@fetched(access_agent)
def gauge(request: HttpRequest, account: Account, passport: Passport) -> HttpResponse:
    """/hall/agents/<id>/gauge: the context gauge of one of this person's agents, as the agent reads it
    with context_gauge (000 section 14: only the agent and its person see it)."""
    found = general_store.find_gauge(passport.id)
    return render(
        request,
        "hall/gauge.html",
        {
            "p": passport,
            "gauge": found,
            # countedSince is the agent's ISO string; the page shows it as every hall time is shown.
            "counted_since": datetime.fromisoformat(found["countedSince"]) if found else None,
            "advice": general_store.advice(found),
            "ring": general_store.RING,
            "nav": "agents",
        },
    )
