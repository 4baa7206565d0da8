"""Beacons under an approved plan (000 section 06): a step naming a channel fits an answer_beacon or
settle_beacon call by the channel of the beacon it names; a call off the plan waits for the person;
report_sighting is never held off a plan (DECISIONS 2)."""

from typing import Any

from clockford.town import clock, plans
from clockford.town.models import Passport, Plan
from districts.switchboard import beacons
from districts.switchboard.models import Answer, Channel
from districts.testing import outcome, visit
from hall.models import Account


def approved(passport: Passport, person: Account, steps: list[dict[str, Any]]) -> Plan:
    r = visit(passport, "declare_plan", steps=steps)
    assert r.is_error is False, r.structured["say"]
    plan = Plan.objects.get(pk=r.structured["plan"]["id"])
    return plans.do_decide_plan(plan, person, "approve", plans.plan_statement(plan, "approve"), {})


def test_a_step_on_a_channel_fits_the_beacons_on_it(alice: Passport, alice2: Passport, account_a: Account) -> None:
    for name in ("garden", "orchard"):
        Channel.objects.create(name=name, opened_at=clock.now(), opened_by=alice, account=account_a)
    in_garden = beacons.do_raise(alice, "garden", "A question in the garden?")
    in_orchard = beacons.do_raise(alice, "orchard", "A question in the orchard?")
    approved(alice2, account_a, [{"tool": "answer_beacon", "channel": "garden", "times": 2}])
    r = visit(alice2, "answer_beacon", beacon=in_garden.id, answer="An answer in the garden.")
    assert r.is_error is False and outcome(r) == "ok"
    r = visit(alice2, "answer_beacon", beacon=in_orchard.id, answer="An answer in the orchard.")
    assert r.is_error is True and outcome(r) == "held" and r.structured["plan"]
    assert list(Answer.objects.values_list("beacon_id", flat=True)) == [in_garden.id]
    # The plan is alice2's: the asker, with none of its own, settles as before.
    assert visit(alice, "settle_beacon", beacon=in_orchard.id, action="close").is_error is False


def test_a_settle_step_names_its_record_and_action(alice: Passport, account_a: Account) -> None:
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=account_a)
    one = beacons.do_raise(alice, "garden", "One question?")
    two = beacons.do_raise(alice, "garden", "Two questions?")
    approved(alice, account_a, [{"tool": "settle_beacon", "record": one.id, "action": "close", "times": 1}])
    assert visit(alice, "settle_beacon", beacon=one.id, action="close").is_error is False
    r = visit(alice, "settle_beacon", beacon=two.id, action="close")
    assert outcome(r) == "held"


def test_a_settle_that_changes_nothing_spends_no_use_of_its_step(alice: Passport, account_a: Account) -> None:
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=account_a)
    beacon = beacons.do_raise(alice, "garden", "One question?")
    beacons.do_close(alice, beacon.id)
    plan = approved(alice, account_a, [{"tool": "settle_beacon", "record": beacon.id, "times": 1}])
    r = visit(alice, "settle_beacon", beacon=beacon.id, action="close")
    assert r.structured["say"] == f"Beacon {beacon.id} was already closed. Nothing changed."
    assert Plan.objects.get(pk=plan.pk).steps[0]["left"] == 1


def test_a_sighting_is_never_held_off_the_plan(
    alice: Passport, bob: Passport, account_a: Account, account_b: Account, open_exchange: Any
) -> None:
    open_exchange(account_a, account_b)
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=account_a)
    beacon = beacons.do_raise(alice, "garden", "A question?")
    beacons.do_answer(bob, beacon.id, "An answer.")
    approved(alice, account_a, [{"tool": "remember", "times": 1}])
    r = visit(alice, "report_sighting", record=beacon.id, category="other-unusual")
    assert r.is_error is False and outcome(r) == "ok"
