"""Runs an agent asked for, as its person sees them (docs/runs.md): one page per agent with every run of
every run district (each district CLOCKFORD_RUNS names), each with its tasks, boards, rolls or probes, what
the agent answered, and the town's signature over the result. The public sees only one number a day per
district, rounded down to fives, on the public map (clockford/public), read through the same sources.

The hall reads runs only through `clockford.town.runs.sources()`, never a district's models, and asks a
source only for a passport the person decides for (`access_agent`).
"""

import json
from dataclasses import asdict, dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clockford.town import runs
from clockford.town.models import Passport
from clockford.town.runs import RunRecord
from hall.agents import access_agent
from hall.http import fetched, signed_in_page
from hall.models import Account

RUNS_SHOWN = 20
# The export carries every run (each passport begins at most a few a day in each district).
RUNS_EXPORTED = 100_000


@dataclass(frozen=True)
class Shown:
    """A run as the page draws it: the record, and its signed result as indented JSON."""

    record: RunRecord
    signed_json: str | None


def runs_of(passport_id: str) -> list[tuple[str, list[Shown]]]:
    """Every run district with this passport's runs, newest first."""
    found = []
    for source in runs.sources():
        shown = [
            Shown(r, json.dumps(r.signed, indent=2, sort_keys=True, ensure_ascii=False) if r.signed else None)
            for r in source.runs_for(passport_id, RUNS_SHOWN)
        ]
        found.append((source.district, shown))
    return found


def runs_for_export(passport_ids: list[str]) -> list[dict[str, object]]:
    """Every run of these passports, in every run district, for the person's export (docs/export.md)."""
    out: list[dict[str, object]] = []
    for source in runs.sources():
        for passport_id in passport_ids:
            for r in source.runs_for(passport_id, RUNS_EXPORTED):
                out.append({**asdict(r), "begun": r.begun.isoformat(), "lines": [asdict(line) for line in r.lines]})
    return out


@signed_in_page
@fetched(access_agent)
def agent_runs(request: HttpRequest, account: Account, passport: Passport) -> HttpResponse:
    """/hall/agents/<id>/runs: every run one of this person's agents asked for."""
    return render(
        request,
        "hall/runs.html",
        {"p": passport, "districts": runs_of(passport.id), "shown": RUNS_SHOWN, "nav": "agents"},
    )
