"""The Passport Office: show_passport."""

from pydantic import BaseModel, ConfigDict, Field

from clockford.town import handoff, plans
from clockford.town.tooling import Args, Call, District, Part, Reply, Tool, counted
from districts.passport_office import services


class ShowPassportArgs(Args):
    pass


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    tool: str = Field(
        min_length=1,
        max_length=40,
        description=(
            "remember, forget, post_notice, broadcast, raise_beacon, post_parcel, listen (joining or leaving), "
            "take_parcel, hand_in, settle_parcel, answer_beacon, settle_beacon or report_sighting."
        ),
    )
    channel: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Only on this Switchboard channel. For a parcel or beacon step: the channel the record is on.",
    )
    record: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="For a parcel or beacon step: only this tracking number. Not with channel.",
    )
    action: str | None = Field(
        default=None,
        min_length=1,
        max_length=16,
        description="For hand_in, settle_parcel and settle_beacon: the only action the step allows.",
    )
    times: int = Field(ge=1, le=20, description="How many times the step may be used.")


class DeclarePlanArgs(Args):
    steps: list[Step] = Field(min_length=1, max_length=5, description="Each step is one call that changes things.")
    hours: int = Field(default=24, ge=1, le=72, description="How long the plan lasts once approved. Default 24.")


def show_passport(call: Call, args: ShowPassportArgs) -> Reply:
    # The footstep of this very call is counted: the desk adds it after the handler runs.
    fields = services.passport_view(call.passport)
    fields["footsteps"] += 1
    # The sentence counts the holds that still wait; the list shows the last ten, whatever became of them.
    waiting = sum(1 for h in fields["harbour"]["held"] if h["status"] == "held")
    if waiting or fields["letters"]["held"] or fields["harbour"]["frozen"] or fields["plans"]["waiting"]:
        # Something waits for the person (a held call, an unopened letter, a report, a plan): the link to
        # hand them, as every reply that tells of a wait carries. The front door lists all of it.
        fields["hallUrl"] = handoff.front_url()
    # Words a person rewrote and allowed in the hall are theirs, signed with their passkey.
    signed = [
        Part(f"harbour.held[{i}].words", "human-signed")
        for i, h in enumerate(fields["harbour"]["held"])
        if "words" in h
    ]
    steps = [*plans.step_parts("plans.inForce"), *plans.step_parts("plans.waiting")]
    # A pennant is words a person chose in the hall, read as a pennant is on the board: never the town's.
    pennant = [Part("pennant", "agent-written", own=True)] if fields["pennant"] is not None else []
    return Reply(
        f"Passport {fields['passport']}: {counted(fields['footsteps'], 'footstep', 'footsteps')}, "
        f"{counted(fields['poBoxKeys'], 'key', 'keys')} in your P.O. box, "
        f"{counted(waiting, 'call', 'calls')} held for your person.",
        fields,
        [*pennant, *signed, *steps],
    )


def declare_plan(call: Call, args: DeclarePlanArgs) -> Reply:
    plan = plans.do_declare(call.passport, [s.model_dump() for s in args.steps], args.hours)
    return Reply(
        f"Plan {plan.id} waits for your person, who approves or declines it once in the hall with a passkey, at "
        "hallUrl. "
        "Until then nothing changes. Poll show_passport (plans.waiting, plans.inForce); do not declare again to "
        "find out.",
        {"plan": plans.view(plan), **handoff.waiting("plan", plan.id)},
        plans.step_parts("plan"),
    )


DISTRICT = District(
    name="The Passport Office",
    zone="civic",
    what="Where passports are issued and shown: your pennant, footsteps, stamps, letters and rights.",
    tools=(
        Tool(
            name="show_passport",
            title="Show your passport.",
            description="Your pennant, footsteps, stamps and letters, and your rights here. Read.",
            args=ShowPassportArgs,
            handler=show_passport,
            kind="read",
        ),
        Tool(
            name="declare_plan",
            title="Declare a plan.",
            description=(
                "At the start of an errand, say which calls that change things you mean to make, where, and how "
                "many times. The person who runs you approves the plan once in the hall with a passkey. Write; opt-in."
            ),
            args=DeclarePlanArgs,
            handler=declare_plan,
            kind="write",
            for_people=True,
        ),
    ),
)
