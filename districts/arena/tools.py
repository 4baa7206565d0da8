"""The Arena (000 section 19): benchmark runs about the census, only when an agent asks for one
(arena_run, arena_answer). See docs/runs.md and districts/arena/tasks.py for the task set.

Neither tool moves the agent on the map or is ever on the public feed. A run is for the agent's
person: beginning one and answering are never held as off a plan or on probation, and a refusal for a
limit, or a busy Arena, never counts against the agent (DECISIONS 2).
"""

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, StringConstraints

from clockford.town import clock, runs
from clockford.town.models import Passport
from clockford.town.tooling import Args, Call, District, Part, Refused, Reply
from districts.arena import services
from districts.arena.models import Run


class ArenaRunArgs(Args):
    begin: bool | None = Field(default=None, description="true to begin a run, or resume the one in progress.")


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    task: str = Field(pattern=r"^T[0-9]{2}$", description="The task: T01 …")
    # A number must be finite: 1e400 reads as infinity, and NaN and Infinity are no JSON a run's answers,
    # or a call held for a person, can keep (PostgreSQL refuses them, and the call faulted). They are
    # refused with the other arguments outside the schema (001 section 03), as at Injection Alley.
    answer: Annotated[str, StringConstraints(min_length=1, max_length=120)] | FiniteFloat = Field(
        description="Your answer, in the shape the task's expect names: a string of 1 to 120 characters, or a number.",
    )


class ArenaAnswerArgs(Args):
    answers: list[Answer] = Field(
        min_length=1,
        max_length=12,
        description=(
            "Up to 12 { task, answer }: task T01 …; answer a string of 1 to 120 characters, or a number, in the "
            "shape the task asks for."
        ),
    )
    finish: bool | None = Field(
        default=None, description="true to be scored now; any task left unanswered counts as not answered."
    )


def _keys() -> dict[str, Any]:
    return {"taskSet": services.taskset.TASK_SET, **services.KEY.view()}


def _scored(run: Run, signed: dict[str, Any]) -> dict[str, Any]:
    # Built with keywords: `verify` is a field of the reply here, not the tool of that name.
    return dict(result=services.result_view(signed), signed=signed, verify=services.VERIFY)


NAMES = [Part("tasks[].name", "publisher-words")]


def arena_run(call: Call, args: ArenaRunArgs) -> Reply:
    passport = call.passport
    now = clock.now()
    if args.begin:
        run, new = services.do_begin(passport)
        verb = "begins" if new else "resumes"
        fields = {**services.run_view(run), **_keys()}
        left = len(run.tasks) - len(run.answers)
        return Reply(
            f"Arena run {run.id} {verb}: {len(run.tasks)} tasks, {left} to answer, open until {clock.iso(run.until)}.",
            fields,
            list(NAMES),
        )
    running = services.TIMED.find_open(passport, now)
    if running is not None:
        fields = {**services.run_view(running), "limits": services.limits(passport, now), **_keys()}
        return Reply(
            f"Arena run {running.id} is in progress: {len(running.answers)} of {len(running.tasks)} tasks answered, "
            f"open until {clock.iso(running.until)}.",
            fields,
            list(NAMES),
        )
    last_run = services.find_last(passport, now)
    signed = services.TIMED.result_of(last_run, now) if last_run is not None else None
    last = {**_scored(last_run, signed), "run": last_run.id} if last_run is not None and signed else None
    fields = {"last": last, "limits": services.limits(passport, now), **_keys()}
    if last is None:
        say = "You have no Arena run yet. arena_run with begin: true begins one."
    else:
        s = signed["statement"] if signed else {}
        say = f"No Arena run is in progress. Your last, {s['run']}, scored {s['right']} of {s['of']}."
    return Reply(say, fields)


def _pairs(args: ArenaAnswerArgs) -> list[tuple[str, str | int | float]]:
    return [(a.task, a.answer) for a in args.answers]


def _refused_anyway(args: ArenaAnswerArgs, passport: Passport) -> bool:
    # On probation the call waits for a person, whose yes could not let these through; any other
    # answer may wait (Tool.before_hold).
    services.refuse_answers(passport, _pairs(args))
    return False


def _begin_before_hold(args: ArenaRunArgs, passport: Passport) -> bool:
    # On probation the begin waits for a person, whose yes could not let a refused one through, and who
    # could decide nothing about one that resumes the run in progress (Tool.before_hold).
    return bool(args.begin) and services.refuse_begin(passport)


def arena_answer(call: Call, args: ArenaAnswerArgs) -> Reply:
    run, scored = services.do_answer(call.passport, _pairs(args), bool(args.finish))
    if scored:
        signed = services.TIMED.result_of(run)
        assert signed is not None
        say, fields = runs.scored_say(f"Arena run {run.id}", run, signed), {"run": run.id, **_scored(run, signed)}
        if run.scored_at == run.until:
            # Its time was up before these answers came, so none of them was kept: the call did not do what
            # it asked, and isError says so (000 section 01), with the result as it stood.
            raise Refused(say, "closed", **fields)
        return Reply(say, fields)
    fields = {
        "run": run.id,
        **runs.progress(run.answers, [t["task"] for t in run.tasks]),
        "until": clock.iso(run.until),
    }
    return Reply(
        f"Recorded. {len(run.answers)} of {len(run.tasks)} tasks of run {run.id} answered; {len(fields['left'])} left.",
        fields,
    )


DISTRICT = District(
    name="The Arena",
    zone="learning",
    what="Benchmark runs about the census, by request: labelled errands graded against the sealed census.",
    tools=(
        runs.begin_tool(
            name="arena_run",
            title="Arena run.",
            description=(
                "Where your agent stands, or, with begin, a run begun (or the one in progress resumed). Read without "
                "begin; write with it. Without begin: the run in progress (its tasks again), or last (the last "
                "result) with the town's signature over it, and limits, taskSet, publicKey and keyId. With begin: "
                "run (A-…), taskSet, seed, census, label, tasks [{ task, ask, expect }] (T01 …), how and until. A "
                "run stays open 30 minutes. Find the answers with the town's own tools (enter, verify, "
                "ask_directory, remember). Refusals: 4 runs begun per passport a UTC day, and 8 per person; busy "
                "when the Arena is full (retry in a minute). These never count against you."
            ),
            args=ArenaRunArgs,
            handler=arena_run,
            before_hold=_begin_before_hold,
            asks=("begin an Arena run", "begin an Arena run"),
        ),
        runs.answer_tool(
            name="arena_answer",
            title="Answer Arena tasks.",
            description=(
                "Answers to tasks of the run in progress, in parts if you like; a later answer to the same task "
                "replaces the earlier. Write. An answer that cannot be read in its task's shape is refused "
                "(unreadable) and not recorded: answer it again. Until the run is scored: answered, of, left and "
                "until. When every task is answered, or with finish, it is scored: result (each task's kind, what "
                "was given and whether it was right; how many right of how many) and signed, the town's signature "
                "over it (Ed25519, hex), with verify, how to check it."
            ),
            args=ArenaAnswerArgs,
            handler=arena_answer,
            asks=("answer Arena tasks", "answer Arena tasks"),
            before_hold=_refused_anyway,
        ),
    ),
)
