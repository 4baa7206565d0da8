"""Plans (declare_plan, 000 section 06): the calls that change things an agent means to make,
approved once by its person with a passkey.

Under an approved plan, a call to one of the tools a step may name (`Tool.plannable`: the 13 of
DECISIONS 2) goes ahead when it fits a step with uses left, and waits for the person otherwise
(holds.gate). Other writes are never held as off the plan (DECISIONS 2). A plan never loosens any
other hold.
"""

import functools
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils.module_loading import import_string

from clockford.town import clock, handoff
from clockford.town.models import Passport, Plan, locked, watch
from clockford.town.signing import canonical_text
from clockford.town.tooling import Part, Refused, Tool, registry

WAITING_HOURS = 24  # a plan nobody decides lapses a day after it was declared
WAITING = "waiting for your person"
NOTHING_DECLARED = "Nothing was declared; your calls work as they did."
RULE = (
    "No tool needs a plan. Without one in force, nothing changes. Under an approved plan, a call that changes "
    "things and fits a step with uses left goes ahead; anything else that changes things waits for your person."
)


def status_of(plan: Plan) -> str:
    if plan.status in ("waiting", "approved") and plan.until <= clock.now():
        return "lapsed" if plan.status == "waiting" else "ended"
    return WAITING if plan.status == "waiting" else plan.status


def view(plan: Plan) -> dict[str, Any]:
    return {
        "id": plan.id,
        "status": status_of(plan),
        "until": clock.iso(plan.until),
        "hours": plan.hours,
        "steps": plan.steps,
    }


def step_parts(path: str) -> list[Part]:
    """The labels of a plan's steps shown at `path` (a plan's view): a step's channel is a name a
    visitor wrote when opening it (000 section 08), here as the agent that declared the plan wrote it
    again, so its own words. The rest of a step is the town's: a tool it knows, a record's id, an
    action of the tool's, and counts."""
    return [Part(f"{path}.steps[].channel", "agent-written", own=True)]


def plannable() -> list[Tool]:
    """The tools a plan's step may name, in the registry's order."""
    return [t for t in registry().values() if t.plannable]


def _step_problem(step: dict[str, Any]) -> str | None:
    """What is wrong with a step that names a tool a plan may name (see `_unplannable`), or None."""
    name, channel, record, action = step["tool"], step.get("channel"), step.get("record"), step.get("action")
    tool = registry()[name]
    if channel is not None and record is not None:
        return "A step names a channel or a record, not both."
    if channel is not None and not tool.on_a_channel:
        return f"{_a(name)} step cannot name a channel: {name} does not happen on the Switchboard."
    if record is not None and tool.record_arg is None:
        return f"{_a(name)} step cannot name a record: {name} is not about one parcel or beacon."
    if action is not None and action not in tool.actions:
        with_actions = [t.name for t in plannable() if t.actions]
        return (
            f"{_a(name)} step's action must be one of {', '.join(tool.actions)}."
            if tool.actions
            else f"{_a(name)} step cannot name an action: only {_and(with_actions)} have them."
        )
    return None


def _unplannable(step: dict[str, Any]) -> Refused | None:
    """The refusal of a step whose tool a plan cannot name, or None. The name is the agent's own words,
    which say (the town's voice) never carries: it goes back as `named`, labelled as the agent's."""
    tool = registry().get(step["tool"])
    if tool is not None and tool.plannable:
        return None
    return _step_refused(
        "A plan's step names one call that changes things; the tool it names (named) is not one a plan can name. "
        f"The tools a step may name: {', '.join(t.name for t in plannable())}.",
        step["tool"],
    )


def _step_refused(say: str, named: str) -> Refused:
    """A step refused for words the agent gave (a tool, a channel, a record): they go back as `named`,
    labelled as the agent's own, since say (the town's voice) never carries them."""
    refused = Refused(say + " " + NOTHING_DECLARED, "plan-step", named=named)
    refused.parts.append(Part("named", "agent-written", own=True))
    return refused


def _impossible_channel(step: dict[str, Any]) -> Refused | None:
    """The refusal of a step whose channel no channel could have, or None. Every call on the Switchboard
    refuses such a name (the name rule of 000 section 08, and names that belong to the town or its
    staff), so the step could never fit a call: its person is not asked to approve it. The rule is the
    Switchboard's, reached by the setting that names it (CLOCKFORD_CHANNEL_RULE): the core imports no
    district. The name is the agent's own words, which say never carries: it goes back as `named`."""
    channel = step.get("channel")
    if channel is None:
        return None
    try:
        _channel_rule()(channel)
    except Refused as rule:
        return _step_refused(
            f"A step's channel (named) is one no channel could have, so the step could never fit a call. {rule.say}",
            channel,
        )
    return None


def _impossible_record(step: dict[str, Any]) -> Refused | None:
    """The refusal of a step whose record no parcel or beacon its tool names could have (the shape of
    the tracking numbers the town mints: P- or B- and twelve letters and digits), or None. Like an
    impossible channel, it could never fit a call that goes through. The number is the agent's own
    words, given back as `named`."""
    record, tool = step.get("record"), registry()[step["tool"]]
    if record is None or tool.record_arg is None or _tracking_numbers()(tool.record_arg, record):
        return None
    return _step_refused(
        f"A step's record (named) is no tracking number {step['tool']} could name, so the step could never fit "
        "a call. A parcel's is P- and a beacon's B-, each with twelve capital letters and digits.",
        record,
    )


@functools.cache
def _tracking_numbers() -> Callable[[str, str], bool]:
    fits: Callable[[str, str], bool] = import_string(settings.CLOCKFORD_TRACKING_NUMBERS)
    return fits


@functools.cache
def _channel_rule() -> Callable[[str], object]:
    rule: Callable[[str], object] = import_string(settings.CLOCKFORD_CHANNEL_RULE)
    return rule


def _a(name: str) -> str:
    """A tool's name with its article, as the town says it: "A remember", "An answer_beacon"."""
    return f"An {name}" if name[:1] in "aeiou" else f"A {name}"


def _and(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def someone_holds(passport: Passport, *, recent: bool = False) -> bool:
    """Whether a person in the hall could approve a plan: the passport's account, or the town's owner.
    recent: a second-old answer about the owner will do (look_around's hall.claimed, asked on every
    look of an agent without sign-in); declaring a plan asks the database."""
    if passport.account_id is not None:
        return True
    global _owner
    if recent and _owner is not None and time.monotonic() - _owner[0] <= 1.0:
        return _owner[1]
    # One plain statement, where the ORM's exists() cost more than the read itself.
    with connection.cursor() as c:
        c.execute(_owner_sql(), [True])
        found = c.fetchone() is not None
    _owner = (time.monotonic(), found)
    return found


# When this process last asked whether the town has an owner, and the answer. A town is claimed once
# in its life; the claim forgets this process's copy at once (forget_owner), another worker's within
# a second.
_owner: tuple[float, bool] | None = None


def forget_owner() -> None:
    global _owner
    _owner = None


@functools.cache
def _owner_sql() -> str:
    meta = get_user_model()._meta
    owner = connection.ops.quote_name(str(meta.get_field("is_owner").column))
    return f"SELECT 1 FROM {connection.ops.quote_name(str(meta.db_table))} WHERE {owner} = %s LIMIT 1"  # noqa: S608 (names from the model)


def do_declare(passport: Passport, steps: list[dict[str, Any]], hours: int) -> Plan:
    """Declare a plan for the person to approve, replacing the waiting one (never the one in force)."""
    if not someone_holds(passport):
        # Only an unclaimed town gets here (a signed-in passport has its account): its person claims the
        # hall at its front door, so the refusal says where, as every reply that needs a person does.
        raise Refused(
            "Nobody in the hall holds this agent's account yet, so nobody could approve a plan. Your calls work "
            "as they did. Your person can claim this town at hallUrl; then declare the plan again.",
            "no-person",
            hallUrl=handoff.front_url(),
        )
    for step in steps:
        unplannable = _unplannable(step)
        if unplannable is not None:
            raise unplannable
        problem = _step_problem(step)
        if problem is not None:
            raise Refused(problem + " " + NOTHING_DECLARED, "plan-step")
        impossible = _impossible_channel(step) or _impossible_record(step)
        if impossible is not None:
            raise impossible
    now = clock.now()
    Plan.objects.filter(passport=passport, status="waiting").update(status="replaced")
    if Plan.objects.filter(status="waiting", until__gt=now).count() >= settings.CLOCKFORD["PLANS_IN_TOWN"]:
        raise Refused(
            "The town has no room for another plan waiting for a person right now. Try again later; your calls "
            "work as they did.",
            "room",
        )
    # What each step names (what it leaves out it does not constrain), and the uses it has left.
    kept = [
        {
            **{k: s[k] for k in ("tool", "channel", "record", "action", "times") if s.get(k) is not None},
            "left": s["times"],
        }
        for s in steps
    ]
    return Plan.create_for(
        passport,
        "PL-",
        steps=kept,
        hours=hours,
        declared_at=now,
        until=now + timedelta(hours=WAITING_HOURS),
    )


def plans_of(passport: Passport) -> dict[str, Any]:
    now = clock.now()
    mine = Plan.objects.filter(passport=passport, until__gt=now)
    in_force = mine.filter(status="approved").order_by("-decided_at").first()
    waiting = mine.filter(status="waiting").order_by("-declared_at").first()
    return {
        "inForce": view(in_force) if in_force else None,
        "waiting": view(waiting) if waiting else None,
        "rule": RULE,
    }


def fitting_step(plan_id: str, tool: Tool, args: Any) -> int | None:
    """The first step of the plan in force that this call fits and that has uses left.

    The plan's row is read locked, and stays locked until the call's transaction ends, where the
    call spends the step (`spend`): two calls at once on a step with one use left cannot both find
    it left, so the second finds it used up and waits for its person as off the plan."""
    plan = locked(Plan.objects.filter(pk=plan_id).only("steps")).first()
    if plan is None:
        return None
    for i, step in enumerate(plan.steps):
        if step["tool"] != tool.name or step.get("left", 0) <= 0:
            continue
        if "channel" in step:
            # A parcel or beacon step's channel is the channel its record is on.
            # A tool that says which channel a call happens on knows better than its channel argument
            # (listen(channel="x", join=["y"]) joins y).
            channel = tool.channel_of(args) if tool.channel_of is not None else getattr(args, "channel", None)
            if channel != step["channel"]:
                continue
        if "record" in step and (tool.record_arg is None or getattr(args, tool.record_arg, None) != step["record"]):
            continue
        if "action" in step and getattr(args, "action", None) != step["action"]:
            continue
        return i
    return None


def spend(plan_id: str, index: int) -> None:
    plan = locked(Plan.objects.filter(pk=plan_id)).first()
    if plan is None or index >= len(plan.steps):
        return
    steps = list(plan.steps)
    steps[index] = {**steps[index], "left": max(0, steps[index].get("left", 0) - 1)}
    Plan.objects.filter(pk=plan_id).update(steps=steps)


# -- Deciding, in the hall ---------------------------------------------------------------------------


def waiting_plans(account: Any) -> QuerySet[Plan]:
    return Plan.for_person(account).filter(status="waiting", until__gt=clock.now()).order_by("-declared_at")


def access_plan(account: Any, plan_id: str) -> Plan:
    return Plan.access(account, plan_id)


def find_newer_plan(account: Any, plan: Plan) -> Plan | None:
    """The newest plan its agent declared since this one (for a replaced plan: what its person decides
    now, or what is in force)."""
    return (
        Plan.for_person(account)
        .filter(passport_id=plan.passport_id, declared_at__gt=plan.declared_at)
        .order_by("-declared_at", "-id")
        .first()
    )


def plan_statement(plan: Plan, decision: str) -> str:
    return canonical_text(
        {"kind": "clockford-plan-1", "plan": plan.id, "decision": decision, "steps": plan.steps, "hours": plan.hours}
    )


def do_decide_plan(plan: Plan, account: Any, decision: str, statement: str, assertion: dict[str, Any]) -> Plan:
    """Approve (it comes into force now, for its hours, replacing the plan in force) or decline."""
    from clockford.town.holds import NotDecided

    if decision not in ("approve", "decline") or statement != plan_statement(plan, decision):
        raise NotDecided("The passkey signed something other than this decision, so nothing was decided.")
    now = clock.now()
    fields: dict[str, Any] = {
        "decided_at": now,
        "decided_by": account,
        "statement": statement,
        "assertion": assertion,
        "status": "approved" if decision == "approve" else "declined",
    }
    if decision == "approve":
        fields["until"] = now + timedelta(hours=plan.hours)
    done = Plan.objects.filter(pk=plan.pk, status="waiting", until__gt=now).update(**fields)
    if not done:
        plan.refresh_from_db()
        raise NotDecided(f"This plan is {status_of(plan)} already. Nothing changed.")
    if decision == "approve":
        Plan.objects.filter(passport_id=plan.passport_id, status="approved").exclude(pk=plan.pk).update(
            status="replaced"
        )
        watch(Q(pk=plan.passport_id))
    plan.refresh_from_db()
    return plan


def do_end_plan(plan: Plan, account: Any) -> None:
    """A person ends the plan in force early (no passkey needed: ending only takes a permission away)."""
    Plan.objects.filter(pk=plan.pk, status="approved").update(status="ended", decided_by=account)
