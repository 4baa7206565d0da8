"""forget of a key the box does not hold changes nothing, so it is answered at once, never held for a
person: on probation, or under a plan whose steps do not cover it, the person would be asked about a
call that can only say there was nothing to forget. A key the box holds still waits for them."""

from typing import Any

import pytest

from clockford.town import plans
from clockford.town.models import Hold, Passport, Plan
from districts.post_office.models import Note
from districts.testing import on_probation, outcome, visit

NOTHING_SAY = "Nothing was kept under that key, so there was nothing to forget."


@pytest.fixture
def owner(db: None) -> Any:
    from hall.models import Account

    return Account.objects.create_account("Olive", is_owner=True, is_staff=True)


def under_a_plan_without_forget(passport: Passport, owner: Any) -> None:
    declared = visit(passport, "declare_plan", steps=[{"tool": "remember", "times": 1}], hours=2).structured
    plan = Plan.objects.get(pk=declared["plan"]["id"])
    plans.do_decide_plan(plan, owner, "approve", plans.plan_statement(plan, "approve"), {})


def test_on_probation_a_key_not_in_the_box_is_answered_at_once(alice: Passport) -> None:
    visit(alice, "remember", key="kept", value="v")
    on_probation(alice)
    r = visit(alice, "forget", key="never-kept")
    assert r.is_error is False and outcome(r) == "ok" and "hold" not in r.structured
    assert r.structured["say"] == NOTHING_SAY and r.structured["key"] == "never-kept"
    assert not Hold.objects.filter(passport=alice, tool="forget").exists()
    # A key the box holds changes things: it still waits for the person.
    held = visit(alice, "forget", key="kept")
    assert outcome(held) == "held" and held.structured["hold"]["tool"] == "forget"
    assert Note.objects.filter(box=alice.id, key="kept").exists()


def test_under_a_plan_a_key_not_in_the_box_is_answered_at_once(alice: Passport, owner: Any) -> None:
    visit(alice, "remember", key="kept", value="v")
    under_a_plan_without_forget(alice, owner)
    r = visit(alice, "forget", key="never-kept")
    assert r.is_error is False and outcome(r) == "ok" and r.structured["say"] == NOTHING_SAY
    assert not Hold.objects.filter(passport=alice, tool="forget").exists()
    held = visit(alice, "forget", key="kept")
    assert outcome(held) == "held" and "plan" in held.structured


def test_a_key_no_box_can_hold_is_answered_at_once_too(alice: Passport) -> None:
    on_probation(alice)
    r = visit(alice, "forget", key="a b")
    assert r.is_error is False and r.structured["say"] == NOTHING_SAY
    assert not Hold.objects.filter(passport=alice).exists()


def test_on_its_plans_step_a_forget_reads_the_box_no_more_than_without_a_plan(alice: Passport, owner: Any) -> None:
    """A forget that fits a step with uses left goes ahead, asked nothing more before it runs: that it
    changed nothing is its reply's to say (Reply.changed), and the step keeps its use."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def box_reads() -> int:
        with CaptureQueriesContext(connection) as seen:
            r = visit(alice, "forget", key="never-kept")
        assert r.is_error is False and r.structured["say"] == NOTHING_SAY
        return sum(1 for q in seen.captured_queries if f'FROM "{Note._meta.db_table}"' in q["sql"])

    plain = box_reads()
    declared = visit(alice, "declare_plan", steps=[{"tool": "forget", "times": 1}], hours=2).structured
    plan = Plan.objects.get(pk=declared["plan"]["id"])
    plans.do_decide_plan(plan, owner, "approve", plans.plan_statement(plan, "approve"), {})
    assert box_reads() == plain
    assert Plan.objects.get(pk=plan.pk).steps[0]["left"] == 1
