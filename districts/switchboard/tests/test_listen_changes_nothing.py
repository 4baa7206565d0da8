"""listen joining only channels it watches already and leaving only ones it does not watch changes
nothing, so it is answered at once, never held for a person (docs/holds.md: a call that would change
nothing whatever the person said goes ahead unheld), and on its plan's step it spends no use. A join or
leave that changes anything still waits."""

from typing import Any

from clockford.town import clock, plans
from clockford.town.models import Hold, Passport, Plan
from districts.switchboard.models import Channel, Watch
from districts.testing import on_probation, outcome, visit
from hall.models import Account


def watching_garden(alice: Passport, account: Account) -> None:
    for name in ("garden", "orchard"):
        Channel.objects.create(name=name, opened_at=clock.now(), opened_by=alice, account=account)
    assert not visit(alice, "listen", join=["garden"]).is_error


def test_on_probation_a_join_of_a_channel_watched_already_goes_ahead_unheld(
    alice: Passport, account_a: Account
) -> None:
    watching_garden(alice, account_a)
    on_probation(alice)
    for args in ({"join": ["garden"]}, {"leave": ["orchard"]}, {"join": ["garden", "garden"], "leave": ["orchard"]}):
        r = visit(alice, "listen", **args)
        assert outcome(r) == "ok", r.structured["say"]
        assert r.structured["say"].startswith("You joined 0 channels and left 0; you watch 1 now.")
        assert r.structured["watching"] == ["garden"] and "hold" not in r.structured
    assert not Hold.objects.filter(passport=alice).exists()


def test_on_probation_a_join_or_leave_that_changes_anything_waits(alice: Passport, account_a: Account) -> None:
    watching_garden(alice, account_a)
    on_probation(alice)
    for args in ({"join": ["garden", "orchard"]}, {"leave": ["garden", "orchard"]}):
        held = visit(alice, "listen", **args)
        assert outcome(held) == "held", held.structured["say"]
    assert list(Watch.objects.filter(passport=alice).values_list("channel_id", flat=True)) == ["garden"]


def approved(passport: Passport, person: Account, steps: list[dict[str, Any]]) -> Plan:
    r = visit(passport, "declare_plan", steps=steps)
    assert r.is_error is False, r.structured["say"]
    plan = Plan.objects.get(pk=r.structured["plan"]["id"])
    return plans.do_decide_plan(plan, person, "approve", plans.plan_statement(plan, "approve"), {})


def test_on_its_plans_step_a_join_that_changes_nothing_spends_no_use(alice: Passport, account_a: Account) -> None:
    watching_garden(alice, account_a)
    plan = approved(alice, account_a, [{"tool": "listen", "times": 1}])
    r = visit(alice, "listen", join=["garden"])
    assert outcome(r) == "ok" and r.structured["say"].startswith("You joined 0 channels and left 0")
    assert Plan.objects.get(pk=plan.pk).steps[0]["left"] == 1
    r = visit(alice, "listen", join=["orchard"])
    assert outcome(r) == "ok" and r.structured["say"].startswith("You joined 1 channel and left 0")
    assert Plan.objects.get(pk=plan.pk).steps[0]["left"] == 0
