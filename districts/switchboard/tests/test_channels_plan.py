"""listen and broadcast under an approved plan (000 section 06): a call off the plan waits for the
person, but only a call that could go through once they allow it. Joining or leaving a channel that is
not there, or broadcasting on a name no channel could have, is refused at once, as without a plan
(docs/holds.md: a call refused whatever the person said is never held)."""

from typing import Any

from clockford.town import clock, plans
from clockford.town.models import Hold, Passport, Plan
from districts.switchboard.models import Channel, Watch
from districts.testing import outcome, visit
from hall.models import Account


def approved(passport: Passport, person: Account, steps: list[dict[str, Any]]) -> Plan:
    r = visit(passport, "declare_plan", steps=steps)
    assert r.is_error is False, r.structured["say"]
    plan = Plan.objects.get(pk=r.structured["plan"]["id"])
    return plans.do_decide_plan(plan, person, "approve", plans.plan_statement(plan, "approve"), {})


def test_off_the_plan_a_join_that_could_never_go_through_is_refused_not_held(
    alice: Passport, account_a: Account
) -> None:
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=account_a)
    approved(alice, account_a, [{"tool": "remember", "times": 1}])
    for join, leave, why in (
        (["Garden"], [], "channel-name"),
        (["orchard"], [], "no-channel"),
        (["garden"], ["orchard"], "no-channel"),
        (["garden"], ["garden"], "join-and-leave"),
    ):
        r = visit(alice, "listen", join=join, leave=leave)
        assert r.is_error and outcome(r) == f"refused:{why}", r.structured["say"]
        assert "hold" not in r.structured
    assert Hold.objects.filter(passport=alice).count() == 0
    # A join that can go through still waits for the person, as off the plan.
    held = visit(alice, "listen", join=["garden"])
    assert outcome(held) == "held" and held.structured["plan"]
    assert not Watch.objects.filter(passport=alice).exists()


def test_off_the_plan_a_broadcast_on_a_name_no_channel_could_have_is_refused_not_held(
    alice: Passport, account_a: Account
) -> None:
    approved(alice, account_a, [{"tool": "remember", "times": 1}])
    for name in ("Garden", "town-square"):
        r = visit(alice, "broadcast", channel=name, text="The lamps are lit at the north gate.")
        assert r.is_error and outcome(r) == "refused:channel-name", r.structured["say"]
    assert Hold.objects.filter(passport=alice).count() == 0
    held = visit(alice, "broadcast", channel="garden", text="The lamps are lit at the north gate.")
    assert outcome(held) == "held" and held.structured["plan"]
