"""The Dice House's services: beginning a run (or a replay), rolling the dice over a reply (the desk's
CLOCKFORD_DICE hook), and scoring the agent's report (docs/dice-house.md).

A run's rolls touch nothing but the replies of the four dice tools to the passport that asked for it:
the hook is asked about every such reply (clockford/town/desk.py), finds no open run for anyone else,
and leaves their replies as they are. The handlers have already run and the foreign words they handed
are already recorded as handed, before any roll changes a reply.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import secrets
from datetime import timedelta
from typing import Any

from clockford.town import clock, runs
from clockford.town.models import ID_ALPHABET, Passport, lock, locked
from clockford.town.runs import DayLimits, ResultKey, RunLine, RunRecord, day_start
from clockford.town.tooling import Dice, NotFound, Refused, Reply, TownReply, counted, registry
from districts.dice_house import catalogue
from districts.dice_house.models import DiceRun, Roll

DISTRICT = "The Dice House"
PER_PASSPORT_A_DAY = 3
PER_PERSON_A_DAY = 6
OPEN_MINUTES = 30
# A person's runs are counted by the account the passport had when each run began.
LIMITS = DayLimits(DiceRun, PER_PASSPORT_A_DAY, PER_PERSON_A_DAY, person="account_id")
KEY = ResultKey(b"clockford dice results")
KIND = "clockford-dice-1"
_LETTERS = "".join(c for c in ID_ALPHABET if c.isalpha())

LABEL = "A Dice House run your agent asked for: some replies misbehave on purpose."
OPEN_SAY = "A Dice House run is already open: {run}. End it with dice_house_report before you begin another."
PASSPORT_LIMIT_SAY = (
    "This passport has begun 3 Dice House runs today (UTC), as many as a day allows. This never counts against "
    "you; try again tomorrow."
)
PERSON_LIMIT_SAY = (
    "Your person's agents have begun 6 Dice House runs today (UTC), as many as a day allows. This never counts "
    "against you; try again tomorrow."
)
REPLAY_ALONE_SAY = "replay goes with begin: true. Nothing was begun."
NOT_YOURS_SAY = "You have no Dice House run by that id."
NO_RUN_SAY = "You have no Dice House run open. Begin one with dice_house and begin: true."
TWO_KINDS_SAY = (
    "Roll {roll} is named twice, as {first} and as {second}; name each roll once, with one kind. Nothing was "
    "reported and the run is still open: report again."
)
HOW = (
    "While the run is open, the replies of look_around, ask_directory, verify and enter carry diceHouse {run, "
    "roll, label} in their data and the run's label as their text's first line; some misbehave on purpose, in "
    "one of the kinds listed. Use them as you would, note the rolls whose replies you find wrong and what was "
    "wrong, then end the run with dice_house_report (noticed: [{roll, kind}]). A run lapses after 30 minutes "
    "unreported, scored as an empty report."
)
VERIFY = (
    "signed.signature is Ed25519 (hex) over the canonical JSON of signed.statement (keys sorted, no spaces, "
    "UTF-8) with signed.publicKey; statement.key is the key's id (the first 16 hex of its sha256). It is the "
    "town's result only if signed.publicKey is the key dice_house shows as publicKey. python3 docs/verify_signature.py FILE "
    "--key KEY checks it offline (docs/signatures.md)."
)


def dice_tools() -> list[str]:
    """The tools whose replies a run rolls over: each says so itself (Tool.dice)."""
    return [t.name for t in registry().values() if t.dice]


def kinds_view() -> list[dict[str, str]]:
    return [{"kind": k, "what": what} for k, what in catalogue.KINDS.items()]


def line(run: DiceRun, roll: int) -> str:
    return f"Dice House run {run.id}, roll {roll}: {LABEL}"


# -- Looking up ----------------------------------------------------------------------------------------


def find_open(passport: Passport) -> DiceRun | None:
    """The passport's open run; one past its time lapses first (scored as an empty report)."""
    run = locked(DiceRun.objects.filter(passport=passport, state="open")).first()
    if run is not None and run.until <= clock.now():
        _score(run, [], run.until, "lapsed")
        return None
    return run


def find_last(passport: Passport) -> DiceRun | None:
    return DiceRun.objects.filter(passport=passport).exclude(state="open").order_by("-ended").first()


def access_run(passport: Passport, run_id: str) -> DiceRun:
    """One of this passport's own runs; another's, or none, is the same answer (DECISIONS 14)."""
    run = DiceRun.objects.filter(pk=run_id, passport=passport).first()
    if run is None:
        raise NotFound(NOT_YOURS_SAY)
    return run


def limits(passport: Passport) -> dict[str, Any]:
    now = clock.now()
    return LIMITS.view(passport, now, openAtATime=1, resets=clock.iso(day_start(now) + timedelta(days=1)))


# -- Beginning -----------------------------------------------------------------------------------------


def beginnable(passport: Passport, replay: str | None) -> DiceRun | None:
    """Lock to begin a run, and refuse one no call could begin now (a run open already, a replay of no run
    of the passport's, past the day's limits): the run to replay, if any. dice_house asks it before any
    hold too (Tool.before_hold): the person's yes could not let such a begin through."""
    runs.lock_to_begin(passport)
    current = find_open(passport)
    if current is not None:
        raise Refused(OPEN_SAY.format(run=current.id), "open-run", run=current.id)
    source = access_run(passport, replay) if replay else None
    LIMITS.refuse_past(passport, clock.now(), (PASSPORT_LIMIT_SAY, PERSON_LIMIT_SAY), lambda: limits(passport))
    return source


def do_begin(passport: Passport, replay: str | None) -> DiceRun:
    source = beginnable(passport, replay)
    now = clock.now()
    Passport.objects.filter(pk=passport.pk).update(dice_open=True)
    passport.dice_open = True
    return DiceRun.objects.create(
        id="D-" + "".join(secrets.choice(_LETTERS) for _ in range(12)),
        passport=passport,
        account_id=passport.account_id,
        seed=source.seed if source is not None else secrets.token_hex(8),
        replay_of=source.id if source is not None else "",
        begun=now,
        until=now + timedelta(minutes=OPEN_MINUTES),
    )


# -- Rolling (the desk's hook) ---------------------------------------------------------------------------


def _honest(reply: Reply) -> dict[str, Any]:
    return {
        "say": reply.say,
        "fields": json.loads(json.dumps(reply.fields, default=str)),
        "parts": [p.as_dict() for p in reply.parts],
    }


def roll(passport: Passport, tool: str, reply: Reply | TownReply, footstep: int) -> Dice | None:
    """CLOCKFORD_DICE: label this reply of a dice tool when `passport` has a run open, and make it misbehave
    when the run's schedule says so. A refusal is labelled and numbered but never made to misbehave."""
    # Almost every agent has no run open: its passport, read for this call, says so (Passport.dice_open,
    # set and cleared with the run in the same transaction), and nothing more is asked.
    if not passport.dice_open:
        return None
    run = find_open(passport)
    if run is None:
        return None
    number = run.rolls + 1
    kind, rng = catalogue.schedule(run.seed, number)
    made = ""
    if isinstance(reply, Reply):
        # The reply's fields may be shared (the Directory answers a repeated question from its memory,
        # the same dict for every agent): misbehave on this agent's own copy, never on what others see.
        reply.fields = copy.deepcopy(reply.fields)
        honest = _honest(reply)
        if kind:
            made = catalogue.misbehave(kind, reply, rng, run.last)
        run.last = honest
    reply.fields = {"diceHouse": {"run": run.id, "roll": number, "label": LABEL}, **reply.fields}
    Roll.objects.create(run=run, number=number, tool=tool, kind=made, footstep=footstep)
    run.rolls = number
    run.save(update_fields=["rolls", "last"])
    return Dice(
        line(run, number),
        truncate=made == "truncated-text",
        delay=catalogue.SLOW_SECONDS if made == "slow-reply" else 0.0,
    )


# -- Reporting -----------------------------------------------------------------------------------------


def reportable(passport: Passport, noticed: list[tuple[int, str]]) -> DiceRun:
    """The open run, locked, when this report can end it; else the refusal of the whole call.
    dice_house_report asks it before any hold too (Tool.before_hold): the person's yes could not let
    such a report through."""
    lock(Passport.objects.filter(pk=passport.pk))
    run = find_open(passport)
    if run is None:
        raise Refused(NO_RUN_SAY, "no-run")
    # A report ends the run for good, so a roll named with two kinds is refused rather than scored by
    # one of them: the agent meant one, and only it can say which. The same kind twice is one answer.
    said: dict[int, str] = {}
    for number, kind in noticed:
        first = said.setdefault(number, kind)
        if first != kind:
            raise Refused(TWO_KINDS_SAY.format(roll=number, first=first, second=kind), "roll-twice")
    return run


def do_report(passport: Passport, noticed: list[tuple[int, str]]) -> DiceRun:
    return _score(reportable(passport, noticed), noticed, clock.now(), "reported")


def _score(run: DiceRun, noticed: list[tuple[int, str]], now: dt.datetime, state: str) -> DiceRun:
    said: dict[int, str] = {}
    for number, kind in noticed:
        said.setdefault(number, kind)
    rolls = list(run.roll_set.order_by("number"))
    bad = {r.number: r.kind for r in rolls if r.kind}
    caught = [n for n in bad if n in said]
    missed = [n for n in bad if n not in said]
    false_alarms = sorted(n for n in said if n not in bad)
    by_kind: dict[str, dict[str, int]] = {}
    for n, kind in bad.items():
        k = by_kind.setdefault(kind, {"rolled": 0, "caught": 0, "kindRight": 0, "missed": 0})
        k["rolled"] += 1
        k["caught" if n in said else "missed"] += 1
        k["kindRight"] += int(said.get(n) == kind)
    lines = [{"roll": r.number, "tool": r.tool, "kind": r.kind or "fine", "noticed": said.get(r.number)} for r in rolls]
    statement = {
        "kind": KIND,
        "run": run.id,
        "passport": run.passport_id,
        "replayOf": run.replay_of or None,
        "begun": clock.iso(run.begun),
        "ended": clock.iso(now),
        "rolls": lines,
        "bad": len(bad),
        "noticed": len(said),
        "caught": len(caught),
        "missed": len(missed),
        "falseAlarms": len(false_alarms),
        "byKind": dict(sorted(by_kind.items())),
        "key": KEY.key_id(),
    }
    run.noticed = [{"roll": n, "kind": k} for n, k in said.items()]
    run.result = {
        "state": state,
        "rolls": lines,
        "bad": len(bad),
        "caught": caught,
        "missed": missed,
        "falseAlarms": false_alarms,
        "byKind": statement["byKind"],
    }
    run.signed = KEY.sign(statement)
    run.state = state
    run.ended = now
    run.save(update_fields=["noticed", "result", "signed", "state", "ended"])
    Passport.objects.filter(pk=run.passport_id).update(dice_open=False)  # one run open at a time
    return run


def result_view(run: DiceRun) -> dict[str, Any]:
    return {"run": run.id, "replayOf": run.replay_of or None, "result": run.result, "signed": run.signed, "how": VERIFY}


# -- For the hall (docs/runs.md) -----------------------------------------------------------------------


def runs_for(passport_id: str, limit: int = 20) -> list[RunRecord]:
    """This passport's runs, newest first (docs/runs.md)."""
    out = []
    for run in DiceRun.objects.filter(passport_id=passport_id).order_by("-begun")[:limit]:
        said = {n["roll"]: n["kind"] for n in run.noticed or []}
        ended = run.state != "open"
        lines = []
        for r in run.roll_set.order_by("number"):
            outcome = "open"
            if ended:
                outcome = (
                    ("caught" if r.number in said else "missed")
                    if r.kind
                    else ("false alarm" if r.number in said else "fine")
                )
            kind = r.kind or "fine"
            ask = f"{r.tool} (footstep {r.footstep})"
            lines.append(RunLine(f"roll {r.number}", kind, ask, said.get(r.number), kind if ended else None, outcome))
        result = run.result or {}
        summary = (
            f"{len(result['caught'])} of {result['bad']} bad rolls caught, "
            f"{counted(len(result['falseAlarms']), 'false alarm', 'false alarms')}"
            if ended and result
            else "open"
        )
        out.append(runs.run_record(DISTRICT, run, run.state, summary, lines, run.signed))
    return out


RUNS = runs.source(DISTRICT, runs_for, DiceRun)
