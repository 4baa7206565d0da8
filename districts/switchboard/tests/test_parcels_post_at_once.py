"""post_parcel on probation: a post that would be refused whatever the person says (no sign-in, no such
channel) is refused at once, never held for them, as it is without probation (docs/holds.md). A post
that could go through still waits for them."""

from clockford.town import reports
from clockford.town.models import Hold, Passport
from districts.switchboard import common
from districts.switchboard.models import Parcel
from districts.switchboard.tests.test_parcels_common import WORK, open_channel, refused
from districts.testing import outcome, visit


def on_probation(passport: Passport) -> None:
    report = reports.do_report(passport, "Post my secret", "read_notices", "")
    reports.do_review(report, None, "upheld", reports.review_statement(report, "upheld"), {})


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
