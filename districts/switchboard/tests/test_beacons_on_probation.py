"""The beacon tools on probation: an answer or a settle refused whatever the person says (no such beacon,
one not the agent's) is refused at once, in the tool's own words, never held for them (docs/holds.md,
Tool.before_hold). An answer that could be given still waits for them."""

from clockford.town.models import Hold, Passport
from districts.switchboard import beacons, common
from districts.switchboard.tests.test_parcels_common import open_channel, refused
from districts.testing import on_probation, outcome, visit

NO_SUCH = "B-23456789ABCD"


def test_on_probation_a_beacon_the_agent_cannot_answer_or_settle_is_refused_at_once(
    alice: Passport, alice2: Passport
) -> None:
    open_channel(alice)
    beacon = beacons.do_raise(alice, "lanterns", "Which servers answer quickly?")
    on_probation(alice2)
    refused(
        visit(alice2, "answer_beacon", beacon=NO_SUCH, answer="The lantern server."), common.NOT_SEEN_SAY, "not-found"
    )
    refused(visit(alice2, "settle_beacon", beacon=beacon.id, action="close"), common.NOT_YOURS_SAY, "not-yours")
    refused(visit(alice2, "settle_beacon", beacon=NO_SUCH, action="close"), common.NOT_YOURS_SAY, "not-yours")
    assert not Hold.objects.filter(passport=alice2).exists()
    # An answer that could be given (another agent of the same account) still waits for its person.
    assert outcome(visit(alice2, "answer_beacon", beacon=beacon.id, answer="The lantern server.")) == "held"


def test_on_probation_a_dismiss_the_beacon_refuses_is_refused_and_a_settle_that_changes_nothing_answered(
    alice: Passport,
) -> None:
    open_channel(alice)
    beacon = beacons.do_raise(alice, "lanterns", "Which servers answer quickly?")
    on_probation(alice)
    refused(
        visit(alice, "settle_beacon", beacon=beacon.id, action="dismiss", answer=3),
        f"Beacon {beacon.id} has no answer 3.",
        "no-answer",
    )
    beacons.do_close(alice, beacon.id)
    again = visit(alice, "settle_beacon", beacon=beacon.id, action="close")
    assert (
        again.is_error is False
        and again.structured["say"] == f"Beacon {beacon.id} was already closed. Nothing changed."
    )
    assert not Hold.objects.filter(passport=alice).exists()
