"""Tool.before_hold answers once, from one read of the record: whether a call is refused whatever its
person says, changes nothing, or may wait. A hand_in that repeats its own last step, and a close of a
beacon closed already, read their record once more on probation than off it (the one question before
any hold), never twice (docs/holds.md, "Which calls wait")."""

from collections.abc import Callable

from django.db import connection
from django.test.utils import CaptureQueriesContext

from clockford.town import plans
from clockford.town.desk import Rendered
from clockford.town.models import Hold, Passport, Plan
from districts.switchboard import beacons
from districts.switchboard.tests.test_parcels_common import RESULT, Publish, open_channel
from districts.switchboard.tests.test_parcels_hand_in import taken
from districts.testing import on_probation, outcome, visit
from hall.models import Account


def reads(table: str, call: Callable[[], Rendered]) -> tuple[int, Rendered]:
    """How many statements of the call read `table`, and its reply."""
    with CaptureQueriesContext(connection) as seen:
        reply = call()
    return sum(1 for q in seen.captured_queries if f'FROM "{table}"' in q["sql"]), reply


def test_a_hand_in_that_repeats_its_last_step_reads_its_parcel_once_before_any_hold(
    alice: Passport, alice2: Passport, published: Publish
) -> None:
    parcel = taken(published, alice, alice2)
    assert visit(alice2, "hand_in", parcel=parcel, action="deliver", result=RESULT, version=2).is_error is False

    def again() -> Rendered:
        return visit(alice2, "hand_in", parcel=parcel, action="deliver", result=RESULT, version=3)

    plain, first = reads("switchboard_parcel", again)
    assert first.is_error is False and first.structured["say"].startswith("Already delivered")
    on_probation(alice2)
    held, second = reads("switchboard_parcel", again)
    assert outcome(second) == "ok" and second.structured["say"] == first.structured["say"]
    assert held == plain + 1 and not Hold.objects.filter(passport=alice2).exists()


def test_a_close_of_a_closed_beacon_reads_it_once_before_any_hold(alice: Passport) -> None:
    open_channel(alice)
    beacon = beacons.do_raise(alice, "lanterns", "Which servers answer quickly?")
    beacons.do_close(alice, beacon.id)

    def again() -> Rendered:
        return visit(alice, "settle_beacon", beacon=beacon.id, action="close")

    plain, first = reads("switchboard_beacon", again)
    assert first.structured["say"] == f"Beacon {beacon.id} was already closed. Nothing changed."
    on_probation(alice)
    held, second = reads("switchboard_beacon", again)
    assert outcome(second) == "ok" and second.structured["say"] == first.structured["say"]
    assert held == plain + 1 and not Hold.objects.filter(passport=alice).exists()


def test_on_its_plans_step_a_hand_in_that_repeats_its_last_step_spends_no_use(
    alice: Passport, alice2: Passport, published: Publish, account_a: Account
) -> None:
    parcel = taken(published, alice, alice2)
    assert visit(alice2, "hand_in", parcel=parcel, action="deliver", result=RESULT, version=2).is_error is False
    declared = visit(alice2, "declare_plan", steps=[{"tool": "hand_in", "record": parcel, "times": 1}])
    plan = Plan.objects.get(pk=declared.structured["plan"]["id"])
    plans.do_decide_plan(plan, account_a, "approve", plans.plan_statement(plan, "approve"), {})
    r = visit(alice2, "hand_in", parcel=parcel, action="deliver", result=RESULT, version=3)
    assert r.is_error is False and r.structured["say"].startswith("Already delivered")
    assert Plan.objects.get(pk=plan.pk).steps[0]["left"] == 1
