"""listen, broadcast and raise_beacon under an approved plan (000 section 06): a call off the plan
waits for the person, but only a call that could go through once they allow it. Joining or leaving a
channel that is not there, broadcasting on a name no channel could have, raising a beacon on a channel
that is not there, or either without sign-in, is refused at once, as without a plan (docs/holds.md: a
call refused whatever the person said is never held)."""

from typing import Any

from clockford.town import clock, plans
from clockford.town.models import Hold, Passport, Plan
from districts.switchboard import common
from districts.switchboard.models import Channel, Watch
from districts.testing import new_passport, outcome, visit
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


def test_off_the_plan_a_beacon_on_a_channel_that_is_not_there_is_refused_not_held(
    alice: Passport, account_a: Account
) -> None:
    approved(alice, account_a, [{"tool": "remember", "times": 1}])
    r = visit(alice, "raise_beacon", channel="orchard", question="Who keeps the lamp oil?")
    assert r.is_error and outcome(r) == "refused:no-channel", r.structured["say"]
    assert Hold.objects.filter(passport=alice).count() == 0
    Channel.objects.create(name="orchard", opened_at=clock.now(), opened_by=alice, account=account_a)
    held = visit(alice, "raise_beacon", channel="orchard", question="Who keeps the lamp oil?")
    assert outcome(held) == "held" and held.structured["plan"]


def test_off_the_plan_a_post_without_sign_in_is_refused_not_held(alice: Passport, account_a: Account) -> None:
    # A passport without an account, whose person is the town's owner: its plan is theirs to approve.
    owner = Account.objects.create_account("Olive", is_owner=True, is_staff=True)
    agent = new_passport()
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=account_a)
    approved(agent, owner, [{"tool": "remember", "times": 1}])
    for tool, args in (
        ("broadcast", {"channel": "garden", "text": "The lamps are lit at the north gate."}),
        ("raise_beacon", {"channel": "garden", "question": "Who keeps the lamp oil?"}),
    ):
        r = visit(agent, tool, **args)
        assert r.structured["say"] == common.SIGN_IN_SAY and outcome(r) == "refused:sign-in"
    assert Hold.objects.filter(passport=agent).count() == 0


def test_off_the_plan_a_join_past_the_16_watched_is_refused_not_held(alice: Passport, account_a: Account) -> None:
    for i in range(17):
        Channel.objects.create(name=f"room-{i}", opened_at=clock.now(), opened_by=alice, account=account_a)
    assert visit(alice, "listen", join=[f"room-{i}" for i in range(16)]).is_error is False
    approved(alice, account_a, [{"tool": "remember", "times": 1}])
    r = visit(alice, "listen", join=["room-16"])
    assert r.is_error and outcome(r) == "refused:watch-limit", r.structured["say"]
    assert "hold" not in r.structured
    assert Hold.objects.filter(passport=alice).count() == 0
    # Leaving one in the same call makes room: that join could go through, so it waits for the person.
    held = visit(alice, "listen", join=["room-16"], leave=["room-0"])
    assert outcome(held) == "held" and held.structured["plan"]
    assert Watch.objects.filter(passport=alice).count() == 16
