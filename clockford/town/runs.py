"""Runs an agent asks for (the Arena, Injection Alley, the Dice House, the Calibration Clinic), as the
hall and the export read them: one small interface every run district provides (docs/runs.md).

Each run district's services module defines `RUNS = RunSource(district, runs_for, runs_on)`, and the
settings name it in CLOCKFORD_RUNS, the way CLOCKFORD_TIDY names the sweep's tidies: the hall reads
every district's runs through `sources()`, never by importing a district or its models.
"""

from __future__ import annotations

import datetime as dt
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string

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


def sources() -> list[RunSource]:
    """Every run district the settings name, in their order: a RunSource, or a services module with
    DISTRICT (its name), runs_for and runs_on."""
    found = []
    for name in settings.CLOCKFORD_RUNS:
        named = import_string(name)
        if isinstance(named, types.ModuleType):
            named = RunSource(named.DISTRICT, named.runs_for, named.runs_on)
        found.append(named)
    return found


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


def record(value: RunRecord | dict[str, Any]) -> RunRecord:
    """A run as a RunRecord, from one or from a dictionary of its fields (lines as dictionaries too)."""
    if isinstance(value, RunRecord):
        return value
    lines = tuple(line if isinstance(line, RunLine) else RunLine(**line) for line in value["lines"])
    return RunRecord(**{**value, "lines": lines})


def rounded(count: int) -> int:
    return count - count % PUBLIC_ROUNDING
