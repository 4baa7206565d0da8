"""The parcel tools on probation: a call refused whatever the person says (no sign-in, no such channel,
no such parcel, one not the agent's, no delivery to settle) is refused at once, never held for them, as
it is without probation (docs/holds.md), and a hand_in that repeats its own last step is answered at
once. A call that could change something still waits for them."""

from clockford.town.models import Hold, Passport
from districts.switchboard import common, parcels
from districts.switchboard.models import Parcel
from districts.switchboard.tests.test_parcels_common import WORK, Publish, open_channel, post, refused
from districts.testing import on_probation, outcome, visit


def test_on_probation_a_post_to_no_channel_is_refused_at_once(alice: Passport) -> None:
    on_probation(alice)
    r = visit(alice, "post_parcel", channel="nowhere", **WORK)
    assert r.is_error is True and "hold" not in r.structured and outcome(r).startswith("refused:")
    assert not Hold.objects.filter(passport=alice).exists() and not Parcel.objects.exists()
    # A post that could go through still waits for its person.
    open_channel(alice)
    held = visit(alice, "post_parcel", channel="lanterns", **WORK)
    assert outcome(held) == "held"


def test_on_probation_a_post_without_sign_in_is_refused_at_once(charlie: Passport) -> None:
    open_channel(charlie)
    on_probation(charlie)
    refused(visit(charlie, "post_parcel", channel="lanterns", **WORK), common.SIGN_IN_SAY, "sign-in")
    assert not Hold.objects.filter(passport=charlie).exists()


def test_on_probation_a_parcel_the_agent_cannot_take_hand_in_or_settle_is_refused_at_once(
    alice: Passport, alice2: Passport, published: Publish
) -> None:
    open_channel(alice)
    parcel = post(published, alice)["id"]
    on_probation(alice2)
    refused(visit(alice2, "take_parcel", parcel="P-NOSUCH1234"), common.NOT_SEEN_SAY, "not-found")
    refused(visit(alice2, "hand_in", parcel=parcel, action="give_back"), common.NOT_YOURS_SAY, "not-yours")
    refused(visit(alice2, "settle_parcel", parcel=parcel, action="withdraw"), common.NOT_YOURS_SAY, "not-yours")
    assert not Hold.objects.filter(passport=alice2).exists()
    # A take that could go through still waits for its person.
    assert outcome(visit(alice2, "take_parcel", parcel=parcel)) == "held"


def test_on_probation_a_settle_with_no_delivery_is_refused_at_once(alice: Passport, published: Publish) -> None:
    open_channel(alice)
    parcel = post(published, alice)
    on_probation(alice)
    r = visit(alice, "settle_parcel", parcel=parcel["id"], action="accept")
    refused(r, parcels.NO_DELIVERY_SAY, "state")
    assert not Hold.objects.filter(passport=alice, tool="settle_parcel").exists()


def test_on_probation_a_hand_in_repeated_is_answered_at_once(
    alice: Passport, alice2: Passport, published: Publish
) -> None:
    # A repeat of the attempt's own last step changes nothing: no person is asked about it.
    open_channel(alice)
    parcel = post(published, alice)["id"]
    assert visit(alice2, "take_parcel", parcel=parcel).is_error is False
    assert visit(alice2, "hand_in", parcel=parcel, action="give_back").is_error is False
    on_probation(alice2)
    r = visit(alice2, "hand_in", parcel=parcel, action="give_back")
    assert r.is_error is False and outcome(r) == "ok"
    assert r.structured["say"] == "Already given back: the parcel is no longer in your hands."
    assert not Hold.objects.filter(passport=alice2).exists()
