"""A plan's step with one use left, and two calls on it its person was asked about: the person decides
each once, and their decision means what the hall showed them (001 "Held": "Repeating the call while it
waits returns the same hold and adds nothing"; 000: after a yes the same call "goes through once";
docs/holds.md "Plans"). A call allowed while it fitted the step goes through on that yes after the step
was used up, spending nothing; one still waiting when the step is used up is off the plan from then
on, and its hold says so. Raced at once: tests/test_holds_races.py."""

from collections.abc import Callable
from typing import Any

import pytest

from clockford.town import plans, rewrite
from clockford.town.models import Hold, Passport, Plan
from districts.tavern.models import Notice
from districts.testing import new_passport, outcome, visit
from tests.fixtures import FOREIGN, handed_words

pytestmark = pytest.mark.django_db

FIRST = {"text": "The lamplighters meet at the north gate at dusk."}
SECOND = {"text": "Bring a ladder and a spare wick to the north gate."}


@pytest.fixture
def owner(db: None) -> Any:
    from hall.models import Account

    return Account.objects.create_account("Olive", is_owner=True, is_staff=True)


@pytest.fixture
def alice(db: None) -> Passport:
    return new_passport()


def approved(passport: Passport, owner: Any, steps: list[dict[str, Any]]) -> str:
    declared = visit(passport, "declare_plan", steps=steps)
    plan = Plan.objects.get(pk=declared.structured["plan"]["id"])
    plans.do_decide_plan(plan, owner, "approve", plans.plan_statement(plan, "approve"), {})
    return plan.id


def test_the_second_allowed_call_on_a_used_up_step_goes_through_on_its_yes(
    alice: Passport, owner: Any, allow: Callable[[str], Hold]
) -> None:
    plan = approved(alice, owner, [{"tool": "post_notice", "times": 1}])
    # Both fit the step while it has its use: each waits for a yes only, and the person allows both.
    held = [visit(alice, "post_notice", **words) for words in (FIRST, SECOND)]
    assert all("plan" not in r.structured for r in held)
    for r in held:
        allow(r.structured["hold"]["id"])

    assert visit(alice, "post_notice", **FIRST).is_error is False
    assert Plan.objects.get(pk=plan).steps[0]["left"] == 0
    # The step is used up, but its person allowed exactly this call: it is not asked about again. It goes
    # through once, on that yes, and adds nothing to the plan.
    second = held[1].structured["hold"]["id"]
    passport = visit(alice, "show_passport").structured["harbour"]["held"]
    assert {h["id"]: h["status"] for h in passport}[second] == "allowed"
    went = visit(alice, "post_notice", **SECOND)
    assert went.is_error is False, went.structured["say"]
    assert went.structured["harbour"]["hold"] == second
    assert Notice.objects.filter(text=SECOND["text"]).count() == 1
    assert Plan.objects.get(pk=plan).steps[0]["left"] == 0
    assert Hold.objects.get(pk=second).status == "used" and Hold.objects.count() == 2
    # Once: the same call again is off the plan now, and waits as off the plan.
    again = visit(alice, "post_notice", **SECOND)
    assert outcome(again) == "held" and again.structured["plan"] == plan
    assert Notice.objects.filter(text=SECOND["text"]).count() == 1


def test_a_call_waiting_when_its_step_is_used_up_is_off_the_plan_from_then_on(
    alice: Passport, owner: Any, allow: Callable[[str], Hold]
) -> None:
    plan = approved(alice, owner, [{"tool": "post_notice", "times": 1}])
    first, second = (visit(alice, "post_notice", **words).structured["hold"]["id"] for words in (FIRST, SECOND))
    allow(first)
    assert visit(alice, "post_notice", **FIRST).is_error is False  # the step's one use
    # Repeated while it waits, the second call returns the same hold, which now says the call is off
    # the plan too: the person who decides it sees so in the hall.
    again = visit(alice, "post_notice", **SECOND)
    assert outcome(again) == "held" and again.structured["hold"]["id"] == second
    assert again.structured["plan"] == plan
    assert again.structured["say"].startswith(
        "Held for the human who runs you: your approved plan does not include this step, or has used up the "
        "times it allows for it."
    )
    hold = Hold.objects.get(pk=second)
    assert (hold.why, hold.plan) == ("plan", plan) and Hold.objects.count() == 2
    # Repeated again, the same wait, unchanged.
    assert visit(alice, "post_notice", **SECOND).structured["hold"]["id"] == second
    assert Notice.objects.filter(text=SECOND["text"]).count() == 0

    # One yes covers it: it goes through once and adds nothing to the plan.
    allow(second)
    went = visit(alice, "post_notice", **SECOND)
    assert went.is_error is False and went.structured["harbour"]["hold"] == second
    assert Notice.objects.filter(text=SECOND["text"]).count() == 1
    assert Plan.objects.get(pk=plan).steps[0]["left"] == 0 and Hold.objects.count() == 2


def test_a_call_allowed_as_off_the_plan_goes_through_on_that_yes(
    alice: Passport, owner: Any, allow: Callable[[str], Hold]
) -> None:
    # Its person was asked about the plan already: the yes covers it, and it spends no step.
    plan = approved(alice, owner, [{"tool": "remember", "times": 1}])
    assert visit(alice, "remember", key="a", value="1").is_error is False
    held = visit(alice, "remember", key="b", value="2")
    assert held.structured["plan"] == plan
    allow(held.structured["hold"]["id"])
    assert visit(alice, "remember", key="b", value="2").is_error is False


def test_words_a_person_rewrote_on_a_call_held_off_the_plan_go_through_on_their_yes(
    alice: Passport, owner: Any
) -> None:
    # The person saw the call as off the plan (and repeating foreign words) and allowed their own words:
    # that yes covers going past the plan, as the yes to the held call would have.
    handed_words(alice)
    plan = approved(alice, owner, [{"tool": "remember", "times": 1}])
    held = visit(alice, "post_notice", text=FOREIGN)
    assert outcome(held) == "held" and held.structured["plan"] == plan and held.structured["repeats"]
    hold = Hold.objects.get(pk=held.structured["hold"]["id"])
    mine = {"text": "Meet at the well at dusk, with lanterns."}
    rewrite.do_allow_rewritten(hold, owner, mine, hold.words_digest, rewrite.rewrite_statement(hold, mine), {})
    went = visit(alice, "post_notice", **mine)
    assert went.is_error is False, went.structured["say"]
    assert Notice.objects.filter(text=mine["text"]).count() == 1


def test_a_call_that_changes_nothing_spends_no_use_of_its_step(alice: Passport, owner: Any) -> None:
    """forget of a key never kept is answered at once: it changed nothing (its reply says so,
    Reply.changed), so the step it fits keeps its use for the forget that does."""
    plan = approved(alice, owner, [{"tool": "forget", "times": 1}])
    nothing = visit(alice, "forget", key="never.kept")
    assert nothing.is_error is False and outcome(nothing) == "ok"
    assert Plan.objects.get(pk=plan).steps[0]["left"] == 1
    assert visit(alice, "remember", key="kept", value="A lamp for the north gate.").is_error  # off the plan
