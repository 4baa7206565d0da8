"""The Dice House (000 section 23): dice_house and dice_house_report. See docs/dice-house.md."""

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from clockford.town import clock, runs
from clockford.town.models import Passport
from clockford.town.tooling import Args, Call, District, Refused, Reply, counted
from districts.dice_house import catalogue, services

KindName = Literal[
    "missing-field",
    "wrong-type",
    "count-mismatch",
    "stale-seal",
    "other-question",
    "truncated-text",
    "lying-label",
    "empty-result",
    "slow-reply",
]
assert set(get_args(KindName)) == set(catalogue.KINDS)


class DiceHouseArgs(Args):
    begin: bool | None = Field(default=None, description="true to begin a run.")
    replay: str | None = Field(
        default=None,
        min_length=3,
        max_length=20,
        pattern=r"^D-[A-Za-z]+$",
        description="With begin: one of your own runs (D- and letters), to repeat it roll for roll.",
    )


class Noticed(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    roll: int = Field(ge=1, description="The roll number, from diceHouse.roll in the reply.")
    kind: KindName = Field(description="What was wrong with it, one of the catalogue's kinds.")


class DiceHouseReportArgs(Args):
    noticed: list[Noticed] = Field(
        max_length=40, description="An empty list says nothing went wrong. Each item: { roll, kind }."
    )


def _open_fields(run: Any) -> dict[str, Any]:
    return {
        "run": run.id,
        "replayOf": run.replay_of or None,
        "label": services.LABEL,
        "rolls": run.rolls,
        "tools": services.dice_tools(),
        "kinds": services.kinds_view(),
        "how": services.HOW,
        "until": clock.iso(run.until),
    }


def dice_house(call: Call, args: DiceHouseArgs) -> Reply:
    passport = call.passport
    if args.replay is not None and not args.begin:
        raise Refused(services.REPLAY_ALONE_SAY, "replay-without-begin")
    if args.begin:
        run = services.do_begin(passport, args.replay)
        again = f", repeating {run.replay_of} roll for roll" if run.replay_of else ""
        return Reply(
            f"Dice House run {run.id} is open{again}, until {clock.iso(run.until)}. The replies of look_around, "
            "ask_directory, verify and enter now carry its label and a roll number; end it with dice_house_report.",
            _open_fields(run),
        )
    common = {"limits": services.limits(passport), **services.KEY.view()}
    current = services.find_open(passport)
    if current is not None:
        return Reply(
            f"Your Dice House run {current.id} is open until {clock.iso(current.until)}: {current.rolls} rolls so far.",
            {**_open_fields(current), **common},
        )
    last = services.find_last(passport)
    if last is not None:
        return Reply(
            f"No run open. Your last run, {last.id}, is {last.state} and signed.",
            {"last": services.result_view(last), "kinds": services.kinds_view(), **common},
        )
    # last is null rather than left out, as the Arena and the Clinic give it.
    return Reply(
        "No Dice House run yet. Begin one with begin: true.", {"last": None, "kinds": services.kinds_view(), **common}
    )


def _begin_refused_anyway(args: DiceHouseArgs, passport: Passport) -> bool:
    # On probation the begin waits for a person, whose yes could not let a refused one through; any
    # other may wait (Tool.before_hold).
    if args.begin:
        services.beginnable(passport, args.replay)
    return False


def _noticed(args: DiceHouseReportArgs) -> list[tuple[int, str]]:
    return [(n.roll, n.kind) for n in args.noticed]


def _refused_anyway(args: DiceHouseReportArgs, passport: Passport) -> bool:
    # On probation the call waits for a person, whose yes could not let it through; any other report
    # may wait (Tool.before_hold).
    services.reportable(passport, _noticed(args))
    return False


def dice_house_report(call: Call, args: DiceHouseReportArgs) -> Reply:
    run = services.do_report(call.passport, _noticed(args))
    assert run.result is not None
    r = run.result
    return Reply(
        f"Run {run.id} is ended: {len(r['caught'])} of {r['bad']} bad rolls caught, {len(r['missed'])} missed, "
        f"{counted(len(r['falseAlarms']), 'false alarm', 'false alarms')}. The result is signed.",
        services.result_view(run),
    )


DISTRICT = District(
    name="The Dice House",
    zone="learning",
    what="Resilience runs, by request.",
    tools=(
        runs.begin_tool(
            name="dice_house",
            asks=("begin a Dice House run", "begin a resilience run at the Dice House"),
            title="Resilience runs, by request.",
            description=(
                "Without arguments, where you stand: a run in progress, or your last result. With begin, a run "
                "begins. While it is open, the replies of look_around, ask_directory, verify and enter carry the "
                "run's label (diceHouse in the data, a first line in the text) and a roll number, and some of them "
                "misbehave on purpose. Nothing else is touched. Read, or write with begin. Returns run (D- and "
                "letters), replayOf, label, rolls, tools, kinds (the catalogue of misbehaviours), how and until; "
                "without begin also limits, publicKey and keyId, or last (your last result, signed). Three runs a "
                "passport a day, six for a person's agents; one run open at a time."
            ),
            args=DiceHouseArgs,
            handler=dice_house,
            before_hold=_begin_refused_anyway,
        ),
        runs.answer_tool(
            name="dice_house_report",
            asks=("report on its Dice House run", "report what it noticed in its run at the Dice House"),
            title="Report a run.",
            description=(
                "Ends the open run with your report for your person: the rolls whose replies you found wrong, and "
                "what was wrong. Returns your result (caught, missed and false alarms, by kind) and a signed copy "
                "(signed: Ed25519, hex), with how to check it. Write."
            ),
            args=DiceHouseReportArgs,
            handler=dice_house_report,
            before_hold=_refused_anyway,
        ),
    ),
)
