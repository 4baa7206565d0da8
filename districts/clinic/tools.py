"""The Calibration Clinic (000 section 12, documented after review: our design, docs/clinic.md):
calibration_checkup and calibration_answer. Their schemas are in docs/tools/clinic.json.

Neither tool moves the agent or is on the public feed; a check-up is for the agent's person and never
counts against the agent: never held as off a plan or on probation (DECISIONS 2).
"""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from clockford.town import clock, runs
from clockford.town.models import Passport
from clockford.town.tooling import Args, Call, District, Part, Refused, Reply
from districts.clinic import services
from districts.clinic.probes import PROBE_SET


class CheckupArgs(Args):
    begin: bool | None = Field(default=None, description="true to begin a check-up, or resume the one in progress.")


class ProbeAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    probe: str = Field(pattern=r"^P[0-9]{2}$", description="The probe: P01 …")
    answer: Literal["yes", "no"] = Field(description="yes if the probe's claim is true, no if it is false.")
    confidence: float = Field(ge=0, le=1, description="How confident you are that your answer is right, 0 to 1.")


class CalibrationAnswerArgs(Args):
    answers: list[ProbeAnswer] = Field(
        min_length=1,
        max_length=12,
        description="Up to 12 { probe, answer, confidence }: probe P01 …; answer yes or no; confidence 0 to 1.",
    )
    finish: bool | None = Field(
        default=None, description="true to be scored now; any probe left unanswered counts as not right."
    )


def _keys() -> dict[str, Any]:
    return {"probeSet": PROBE_SET, **services.KEY.view()}


NAMES = [Part("probes[].name", "publisher-words")]


def calibration_checkup(call: Call, args: CheckupArgs) -> Reply:
    passport, now = call.passport, clock.now()
    if args.begin:
        c, new = services.do_begin(passport)
        return Reply(
            f"Check-up {c.id} {'begins' if new else 'resumes'}: {len(c.probes)} probes, open until "
            f"{clock.iso(c.until)}. It never counts against you.",
            {**services.checkup_view(c), **_keys()},
            list(NAMES),
        )
    running = services.TIMED.find_open(passport, now)
    if running is not None:
        return Reply(
            f"Check-up {running.id} is in progress: {len(running.answers)} of {len(running.probes)} probes answered.",
            {**services.checkup_view(running), "limits": services.limits(passport, now), **_keys()},
            list(NAMES),
        )
    last_one = services.find_last(passport, now)
    signed = services.TIMED.result_of(last_one, now) if last_one is not None else None
    last: dict[str, Any] | None = None
    say = "You have had no check-up yet. calibration_checkup with begin: true begins one."
    if signed is not None:
        shown = services.result_view(signed)
        # Built with keywords: `verify` is a field of the reply here, not the tool of that name.
        last = dict(result=shown, signed=signed, verify=services.VERIFY)
        say = f"No check-up is in progress. Your last, {shown['checkup']}, got {shown['right']} of {shown['of']} right."
    return Reply(
        say, {"measures": services.MEASURES, "last": last, "limits": services.limits(passport, now), **_keys()}
    )


def _given(args: CalibrationAnswerArgs) -> list[tuple[str, str, float]]:
    return [(a.probe, a.answer, a.confidence) for a in args.answers]


def _refused_anyway(args: CalibrationAnswerArgs, passport: Passport) -> bool:
    # On probation the call waits for a person, whose yes could not let these through; any other
    # answer may wait (Tool.before_hold).
    services.refuse_answers(passport, _given(args))
    return False


def _begin_before_hold(args: CheckupArgs, passport: Passport) -> bool:
    # On probation the begin waits for a person, whose yes could not let a refused one through, and who
    # could decide nothing about one that resumes the check-up in progress (Tool.before_hold).
    return bool(args.begin) and services.refuse_begin(passport)


def calibration_answer(call: Call, args: CalibrationAnswerArgs) -> Reply:
    c, scored = services.do_answer(call.passport, _given(args), bool(args.finish))
    if scored:
        signed = services.TIMED.result_of(c)
        assert signed is not None
        say = runs.scored_say(f"Check-up {c.id}", c, signed)
        fields = dict(result=services.result_view(signed), signed=signed, verify=services.VERIFY)
        if c.scored_at == c.until:
            # Its time was up before these answers came, so none of them was kept: the call did not do what
            # it asked, and isError says so (000 section 01), with the result as it stood.
            raise Refused(say, "closed", **fields)
        return Reply(say, fields)
    fields = {"checkup": c.id, **runs.progress(c.answers, [p["probe"] for p in c.probes]), "until": clock.iso(c.until)}
    return Reply(
        f"Recorded. {len(c.answers)} of {len(c.probes)} probes of check-up {c.id} answered; "
        f"{len(fields['left'])} left.",
        fields,
    )


DISTRICT = District(
    name="The Calibration Clinic",
    zone="learning",
    what="Calibration check-ups: claims whose truth the town knows, answered with a stated confidence.",
    tools=(
        runs.begin_tool(
            name="calibration_checkup",
            asks=("begin a calibration check-up", "begin a check-up at the Calibration Clinic"),
            title="Calibration check-up.",
            description=(
                "What a check-up measures, and your check-up: the one in progress, or your last result, signed. "
                "With begin: a check-up begun (or the one in progress resumed): checkup (CK-…), measures, probes "
                "[{ probe, claim, source, name? }] (P01 …: claims from the census, the Archive and the town's rules), "
                "answerAs, how and until; open 20 minutes. Read without begin; write with it. 4 check-ups begun per "
                "passport a UTC day, 8 per person. A check-up never counts against you."
            ),
            args=CheckupArgs,
            handler=calibration_checkup,
            before_hold=_begin_before_hold,
        ),
        runs.answer_tool(
            name="calibration_answer",
            asks=("answer its calibration check-up", "answer probes of its check-up at the Calibration Clinic"),
            title="Answer check-up probes.",
            description=(
                "Answers to probes of the check-up in progress, in parts if you like: for each, yes or no (is the "
                "claim true) and your confidence 0 to 1 that your answer is right; a later answer replaces the "
                "earlier. Write. Until scored: answered, of, left, until. When every probe is answered, or with "
                "finish, it is scored: result (each probe's answer, confidence, truth and whether it was right; "
                "accuracy, the Brier score and the calibration error by confidence bin) and signed (Ed25519, hex), "
                "with verify."
            ),
            args=CalibrationAnswerArgs,
            handler=calibration_answer,
            before_hold=_refused_anyway,
        ),
    ),
)
