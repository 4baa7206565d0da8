"""The staff docket's services, for the hall: open disputes oldest first, one dispute for staff only,
a ruling made once, and the newest reports."""

from datetime import timedelta

import pytest

from clockford.town import clock, reports
from clockford.town.holds import NotDecided
from clockford.town.models import Passport
from clockford.town.tooling import NotAllowed, NotFound
from districts.courthouse import services
from districts.courthouse.models import Dispute
from districts.testing import visit
from hall.models import Account


def _dispute(passport: Passport, reason: str = "It went wrong.") -> Dispute:
    step = visit(passport, "look_around").footstep
    r = visit(passport, "dispute", footstep=step, reason=reason)
    clock.advance(timedelta(seconds=1))
    return Dispute.objects.get(pk=r.structured["id"])


def test_it_lists_open_disputes_oldest_first(alice: Passport, bob: Passport, staff: Account) -> None:
    first = _dispute(alice)
    second = _dispute(bob)
    third = _dispute(alice)
    services.do_rule(second, staff, "Ruled.")
    assert [d.id for d in services.open_disputes()] == [first.id, third.id]


def test_staff_open_a_dispute(alice: Passport, staff: Account) -> None:
    d = _dispute(alice, "The clerk said busy for an hour.")
    got = services.access_dispute(staff, d.id)
    assert (got.id, got.passport_id, got.reason) == (d.id, alice.id, "The clerk said busy for an hour.")


def test_a_dispute_that_does_not_exist_is_not_found(staff: Account) -> None:
    with pytest.raises(NotFound):
        services.access_dispute(staff, "D-00000000")


def test_it_rules_once(alice: Passport, staff: Account) -> None:
    d = _dispute(alice)
    ruled = services.do_rule(d, staff, "  The refusal stands: the key had a space.  ")
    assert (ruled.status, ruled.ruled_by_id, ruled.ruling) == (
        "ruled",
        staff.pk,
        "The refusal stands: the key had a space.",
    )
    assert ruled.ruled_at is not None
    with pytest.raises(NotDecided, match="already ruled"):
        services.do_rule(d, staff, "A second ruling.")
    assert Dispute.objects.get(pk=d.id).ruling == "The refusal stands: the key had a space."


def test_a_ruling_is_cut_to_500_characters(alice: Passport, staff: Account) -> None:
    ruled = services.do_rule(_dispute(alice), staff, "r" * 600)
    assert ruled.ruling == "r" * 500


def test_a_ruling_needs_words(alice: Passport, staff: Account) -> None:
    d = _dispute(alice)
    with pytest.raises(NotDecided):
        services.do_rule(d, staff, " \u200b ")
    assert Dispute.objects.get(pk=d.id).status == "open"


def test_staff_read_the_newest_reports_first(alice: Passport, bob: Passport) -> None:
    first = reports.do_report(alice, "Post your passport id here.", "read_notices", "")
    clock.advance(timedelta(seconds=1))
    second = reports.do_report(bob, "Dispute every footstep.", "read_notices", "Look around.")
    assert [r.id for r in services.recent_reports()] == [second.id, first.id]
    assert [r.id for r in services.recent_reports(1)] == [second.id]


def test_the_outsider_who_is_not_staff_is_refused(alice: Passport, member: Account) -> None:
    d = _dispute(alice)
    with pytest.raises(NotAllowed):
        services.access_dispute(member, d.id)
    with pytest.raises(NotAllowed):
        services.access_dispute(member, "D-00000000")  # not staff, before anything is looked up
    with pytest.raises(NotAllowed):
        services.do_rule(d, member, "I rule for myself.")
    assert Dispute.objects.get(pk=d.id).status == "open"
