"""The hall's decision pages: a held call, a plan and a report (letters.py has the letters), each
decided once with a passkey over a statement the core writes (hall/decide.py is the one road), and
ending a plan in force early.

Words an agent wrote are shown exactly (hall/shown.py): escaped by the template, never linkified,
never cut, with hidden characters drawn as visible tokens inside <mark class="hidden-char">.
"""

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render

from clockford.town import clock, holds, plans, reports
from clockford.town import rewrite as town_rewrite
from clockford.town.models import Hold, Plan, Report
from clockford.town.tooling import NotFound, registry
from hall import decide, passkeys, rewrite
from hall.decide import Decidable, ceremonies, found
from hall.http import fetched, signed_in_page, signed_in_post
from hall.models import Account
from hall.queue import next_waiting, wants
from hall.shown import (
    marked,
    other_arguments,
    raw_json,
    shown_fields,
    shown_steps,
    stamp,
    time_left,
    whose,
    words_of,
)

NO_HOLD = "No call you decide for has that number."
NO_PLAN = "No plan you decide has that number."
NO_REPORT = "No report you review has that number."


# -- A held call ----------------------------------------------------------------------------------------

WHY = {
    "publish": "Your agent wants to publish words that others will read, and nothing is published without your yes.",
    "harbour": (
        "Its words repeat words the town handed your agent as someone else's (Safe Harbour). Words handed to an "
        "agent are data, not instructions: check that you want these published."
    ),
    "budget": "The reply would carry more private content than the town gives one agent in a day.",
    "probation": (
        "Your account is on probation after a report was upheld, so every call of your agents that changes things "
        "waits for you."
    ),
    # On a town without sign-in, probation holds the one passport reported (reports.do_review).
    "probation-passport": (
        "This agent is on probation after a report about it was upheld, so every call it makes that changes things "
        "waits for you."
    ),
    "plan": (
        "Your agent works under a plan you approved, and this call is not on it, or has used up the times the plan "
        "allows. Allowing it lets this one call through and adds nothing to the plan."
    ),
}
REFUSE_SAYS = {
    "publish": "nothing is published.",
    "harbour": "nothing is published.",
    "budget": "the reply is not sent.",
}
OUTCOME_SAYS = {
    "allowed": "You allowed this call.",
    "used": "You allowed this call, and your agent made it.",
    "refused": "You refused this call. Your agent was told not to try it another way.",
    "frozen": "This call was frozen when your agent reported a suspicious instruction, so it can no longer be decided.",
}


_hold = found(holds.access_hold_as_it_stands, NO_HOLD)


def _hold_outcome(hold: Hold, status: str, replaced_by: Hold | None = None) -> str:
    if status == "frozen" and hold.decided_at is not None:
        return (
            "You allowed this call, but your agent reported a suspicious instruction before it made the call, so "
            "the call was frozen and your yes ended: these words can no longer go out."
        )
    if replaced_by is not None:
        return (
            f"You allowed these words, then replaced them with newer words of yours ({replaced_by.id}) before your "
            "agent used them, so this yes ended: these words can no longer go out."
        )
    if status == "lapsed" and hold.status == "allowed":
        return "You allowed this call, but your agent did not make it within the hour, so your yes lapsed."
    if status == "lapsed":
        return "Nobody decided within a day, so this call lapsed. Your agent must ask again."
    return OUTCOME_SAYS.get(status, f"This call is {status}.")


def _hold_heading(hold: Hold, status: str) -> str:
    """The outcome's heading: "Decided" only for a call its person decided (a frozen or lapsed call
    nobody decided was not)."""
    if status == "frozen":
        return "Frozen: your yes was not used" if hold.decided_at is not None else "Frozen: nobody decided it"
    return f"{'Decided' if hold.decided_at is not None else 'Not decided'}: {status}"


def _frozen_by(account: Account, hold: Hold) -> tuple[Report | None, str]:
    """The report that froze a frozen call, and what became of it in words."""
    report = reports.find_freezer(account, hold)
    if report is None:
        return None, ""
    status = reports.status_of(report)
    if status == "open":
        return report, (
            "waits for you to review it; until you do, its calls that change things stay frozen. Once the freeze "
            "lifts, your agent must ask again for this call."
        )
    lifted = "lapsed unreviewed" if status == "lapsed" else f"was {status}"
    return report, f"{lifted} and the freeze lifted: your agent must ask again for this call."


def _asked_again(account: Account, hold: Hold) -> tuple[Hold | None, str]:
    """For a call that can no longer be decided (lapsed, frozen): the agent's new hold of the same call,
    and what became of it."""
    again = holds.find_asked_again(account, hold)
    if again is None:
        return None, ""
    status = holds.status_of(again)
    return again, "which waits for you." if status == "held" else f"which is {status}."


def _plan_beside(account: Account, hold: Hold) -> Plan | None:
    if not hold.plan:
        return None
    try:
        return plans.access_plan(account, hold.plan)
    except NotFound:
        return None


@signed_in_page
@fetched(_hold)
def hold_page(request: HttpRequest, account: Account, hold: Hold) -> HttpResponse:
    status = holds.status_of(hold)
    repeats = hold.repeats or None
    plan = _plan_beside(account, hold)
    # Where the call was tried: its channel, else the record it names (as a plan's step would pin them).
    tool = registry().get(hold.tool)
    tried = [hold.arguments.get(k) for k in ("channel", tool.record_arg if tool else None, "action") if k]
    rewritten_as = town_rewrite.rewrites_of(hold)
    replaced_by = town_rewrite.replaced_by(hold)
    froze, froze_say = _frozen_by(account, hold) if status == "frozen" else (None, "")
    again, again_say = _asked_again(account, hold) if status in ("lapsed", "frozen") else (None, "")
    return render(
        request,
        "hall/hold.html",
        {
            "hold": hold,
            "status": status,
            "wants": wants(hold.tool, hold.arguments, hold.why),
            "why": WHY.get("probation-passport" if hold.why == "probation" and not hold.account_id else hold.why, ""),
            "fields": shown_fields(words_of(hold.arguments)),
            "others": other_arguments(hold.arguments),
            "raw": raw_json(hold.arguments),
            "repeats": repeats,
            "whose": whose(repeats["label"]) if repeats else "",
            "passage": marked(repeats.get("passage", "")) if repeats else "",
            "plan": plan,
            # Held first for another reason (Safe Harbour, a yes), the call is off the plan too: say so.
            "off_plan": WHY["plan"] if hold.plan and hold.why != "plan" else "",
            "plan_steps": shown_steps(plan) if plan is not None else [],
            "tried_where": marked(next((v for v in tried if isinstance(v, str) and v), "")),
            "refuse_says": REFUSE_SAYS.get(hold.why, "the call does not run."),
            "beside": holds.shown_beside(hold),
            "allowed_until": clock.now() + timedelta(minutes=holds.ALLOWED_MINUTES),
            "outcome": _hold_outcome(hold, status, replaced_by),
            "heading": _hold_heading(hold, status),
            # A frozen call: the report that froze it, which its person reviews instead.
            "froze": froze,
            "froze_say": froze_say,
            # A call that can no longer be decided, which its agent has asked for again since.
            "again": again,
            "again_say": again_say,
            "left": time_left(hold.waits_until),
            "next_item": next_waiting(account, hold.id) if status != "held" else None,
            # Edit and allow (hall/rewrite.py): the fields the person may rewrite while it waits, the
            # calls they wrote in its place, and, on such a call's page, the held call it rewrites.
            "rewrite_fields": rewrite.fields(hold) if status == "held" else [],
            "rewritten_as": rewritten_as,
            # The one rewrite of this held call the agent may still make, and, on a rewrite's own page,
            # the newer rewrite that ended its yes before it was used.
            "live_rewrite": town_rewrite.live_rewrite(hold, among=rewritten_as),
            "replaced_by": replaced_by,
        },
    )


# -- Plans ----------------------------------------------------------------------------------------------


_plan = found(plans.access_plan, NO_PLAN)


PLAN_SAYS = {
    plans.WAITING: "This plan waits for you to approve or decline it, once.",
    "approved": "This plan is in force.",
    "declined": "You declined this plan. Your agent's calls work as they did without it.",
    "replaced": "This plan was replaced: your agent declared a newer one, or you approved a newer one.",
    "ended": "This plan has ended. Your agent's calls work as they did without a plan.",
    "lapsed": "Nobody decided this plan within a day, so it lapsed. Your agent's calls work as they did.",
}


def _newer_plan(account: Account, plan: Plan) -> tuple[Plan | None, str]:
    """For a replaced plan: the newest plan its agent declared since, and what became of it."""
    newer = plans.find_newer_plan(account, plan)
    if newer is None:
        return None, ""
    status = plans.status_of(newer)
    if status == plans.WAITING:
        return newer, "which waits for you. Read its steps before you decide it."
    return newer, "which is in force." if status == "approved" else f"which is {status}."


@signed_in_page
@fetched(_plan)
def plan_page(request: HttpRequest, account: Account, plan: Plan) -> HttpResponse:
    status = plans.status_of(plan)
    shown = {
        "steps": shown_steps(plan),
        "waiting": status == plans.WAITING,
        "in_force": status == "approved",
        "approved_until": clock.now() + timedelta(hours=plan.hours),
        "next_item": next_waiting(account, plan.id) if status != plans.WAITING else None,
    }
    newer, newer_say = _newer_plan(account, plan) if status == "replaced" else (None, "")
    shown.update(newer=newer, newer_say=newer_say)
    return decide.page(request, "plan", plan, status, PLAN_SAYS, shown)


@signed_in_post
@fetched(_plan)
def plan_end(request: HttpRequest, account: Account, plan: Plan) -> HttpResponseBase:
    """End the plan in force now. No passkey: ending only takes a permission away."""
    if plans.status_of(plan) != "approved":
        messages.error(
            request, PLAN_SAYS.get(plans.status_of(plan), "This plan is not in force.") + " Nothing changed."
        )
    else:
        plans.do_end_plan(plan, account)
        messages.success(request, "Ended. Your agent's calls work as they did without a plan.")
    return redirect("hall:plan", plan.id)


# -- Reports --------------------------------------------------------------------------------------------


_report = found(reports.access_report, NO_REPORT)


REPORT_SAYS = {
    "open": "Your agent reported this instruction. Until you review it, its consequential calls are frozen.",
    "upheld": "You upheld this report. The freeze lifted.",
    "dismissed": "You dismissed this report. The freeze lifted.",
    "lapsed": "Nobody reviewed this report within 72 hours, so it lapsed and the freeze lifted.",
}


@signed_in_page
@fetched(_report)
def report_page(request: HttpRequest, account: Account, report: Report) -> HttpResponse:
    status = reports.status_of(report)
    shown = {
        "quote": shown_fields([("quote", report.quote)])[0],
        "where": marked(report.where),
        "errand": marked(report.errand),
        "probation_hours": settings.CLOCKFORD["PROBATION_HOURS"],
        "left": time_left(report.lapses_at),
        "next_item": next_waiting(account, report.id) if status != "open" else None,
    }
    return decide.page(request, "report", report, status, REPORT_SAYS, shown)


# -- What differs between the four kinds a person decides (hall/decide.py does the rest) ---------------


def _hold_decided(hold: Hold, account: Account, begun: dict[str, str], approval: passkeys.Approval) -> str:
    decided = holds.do_decide(
        hold, account, begun["decision"], begun.get("words", ""), approval.statement, approval.assertion
    )
    if decided.status == "allowed" and decided.allowed_until is not None:
        return f"Allowed. Your agent may make exactly this call once, until {stamp(decided.allowed_until)}."
    return "Refused. Your agent is told not to try it another way."


def _plan_decided(plan: Plan, account: Account, begun: dict[str, str], approval: passkeys.Approval) -> str:
    decided = plans.do_decide_plan(plan, account, begun["decision"], approval.statement, approval.assertion)
    if decided.status == "approved":
        return f"Approved. The plan is in force until {stamp(decided.until)}."
    return "Declined. Your agent's calls work as they did without a plan."


def _report_reviewed(report: Report, account: Account, begun: dict[str, str], approval: passkeys.Approval) -> str:
    reviewed = reports.do_review(report, account, begun["decision"], approval.statement, approval.assertion)
    if reviewed.status == "upheld" and reviewed.probation_until is not None:
        # As reports.do_review puts them on probation: every passport of the account, with sign-in; the
        # one passport reported, on a town without it.
        whose = "of your agents" if reviewed.account_id else "this agent makes"
        return (
            f"Upheld. The freeze lifted; every call {whose} that changes things waits for you until "
            f"{stamp(reviewed.probation_until)}."
        )
    if reviewed.status == "upheld":
        return "Upheld. The freeze lifted."
    return "Dismissed. The freeze lifted."


def _plan_undecidable(plan: Plan) -> str | None:
    status = plans.status_of(plan)
    return None if status == plans.WAITING else f"This plan is {status} already. Nothing changed."


def _report_undecidable(report: Report) -> str | None:
    status = reports.status_of(report)
    return None if status == "open" else f"This report was already {status}. Nothing changed."


HOLD = Decidable(
    kind="hold",
    fetch=_hold,
    decisions=holds.DECISIONS,
    undecidable=holds.undecidable,
    unchanged=holds.words_unchanged,
    changed=holds.WORDS_CHANGED,
    statement=holds.decision_statement,
    decide=_hold_decided,
    beside=holds.shown_beside,
    beside_changed=holds.PLAN_CHANGED,
)
PLAN = Decidable(
    kind="plan",
    fetch=_plan,
    decisions=("approve", "decline"),
    undecidable=_plan_undecidable,
    statement=plans.plan_statement,
    decide=_plan_decided,
)
REPORT = Decidable(
    kind="report",
    fetch=_report,
    decisions=reports.VERDICTS,
    undecidable=_report_undecidable,
    statement=reports.review_statement,
    decide=_report_reviewed,
)

hold_begin, hold_finish = ceremonies(HOLD)
plan_begin, plan_finish = ceremonies(PLAN)
report_begin, report_finish = ceremonies(REPORT)
