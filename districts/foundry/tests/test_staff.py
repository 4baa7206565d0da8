"""Staff suspend, reinstate and revoke a certificate (districts.foundry.services, for the hall): check
answers the change on its next call; anyone but staff is refused."""

from datetime import timedelta

import pytest

from clockford.town import clock
from clockford.town.holds import NotDecided
from clockford.town.models import Passport
from clockford.town.tooling import NotAllowed, NotFound
from districts.foundry import services
from districts.testing import outcome, visit
from hall.models import Account


def cast(alice: Passport) -> dict:  # type: ignore[type-arg]
    slips = [
        visit(alice, "attend", course=c).structured["slip"] for c in ("ten-habits", "spending-well", "words-are-data")
    ]
    return visit(alice, "foundry_cast", slips=slips).structured["certificate"]


def test_revocation_makes_check_not_current_at_once(alice: Passport, bob: Passport) -> None:
    cert = cast(alice)
    staff = Account.objects.create_account("sam")
    staff.is_staff = True
    staff.save()
    row = services.access_certificate(staff, cert["statement"]["certificate"])
    assert services.can(row, "suspend") and not services.can(row, "reinstate")
    services.do_change(row, staff, "suspend", services.decision_statement(row, "suspend"), {"signed": "by a passkey"})
    assert visit(bob, "foundry", check=cert).structured["current"] is False
    services.do_change(row, staff, "reinstate", services.decision_statement(row, "reinstate"), {})
    assert visit(bob, "foundry", check=cert).structured["current"] is True
    services.do_change(row, staff, "revoke", services.decision_statement(row, "revoke"), {})
    assert visit(bob, "foundry", check=cert).structured["current"] is False
    assert visit(alice, "foundry").structured["yours"]["standing"] == "revoked"
    assert not any(services.can(row, a) for a in services.ACTIONS)


def test_the_outsider_is_refused(alice: Passport) -> None:
    cert = cast(alice)
    ada = Account.objects.create_account("ada")
    with pytest.raises(NotAllowed):
        services.access_certificate(ada, cert["statement"]["certificate"])
    staff = Account.objects.create_account("sam")
    staff.is_staff = True
    staff.save()
    with pytest.raises(NotFound):
        services.access_certificate(staff, "C-nothinghere")


def test_a_change_the_standing_does_not_allow_or_a_wrong_statement_does_nothing(alice: Passport) -> None:
    cert = cast(alice)
    staff = Account.objects.create_account("sam")
    staff.is_staff = True
    staff.save()
    row = services.access_certificate(staff, cert["statement"]["certificate"])
    with pytest.raises(NotDecided) as refused:
        services.do_change(row, staff, "reinstate", services.decision_statement(row, "reinstate"), {})
    assert refused.value.say == services.CHANGED_SAY
    with pytest.raises(NotDecided) as refused:
        services.do_change(row, staff, "revoke", services.decision_statement(row, "suspend"), {})
    assert refused.value.say == services.NOT_THIS_STATEMENT
    assert services.cannot(row, "reinstate") == "This certificate is live, so it cannot be reinstated now."
    row.refresh_from_db()
    assert row.status == "live" and row.changed_at is None


def test_what_staff_did_holds_against_the_same_papers(alice: Passport) -> None:
    """A suspended or revoked certificate is not undone by casting again with the slips that made it: the
    record is not clean while one is suspended, nor for 30 days after one is revoked."""
    slips = [
        visit(alice, "attend", course=c).structured["slip"] for c in ("ten-habits", "spending-well", "words-are-data")
    ]
    cert = visit(alice, "foundry_cast", slips=slips).structured["certificate"]
    staff = Account.objects.create_account("sam")
    staff.is_staff = True
    staff.save()
    row = services.access_certificate(staff, cert["statement"]["certificate"])
    services.do_change(row, staff, "suspend", services.decision_statement(row, "suspend"), {})
    r = visit(alice, "foundry_cast", slips=slips)
    assert outcome(r) == "refused:record" and r.structured["say"] == services.RECORD_SAY
    assert r.structured["needed"] == ["a certificate of yours is suspended by the town's staff"]
    assert visit(alice, "foundry").structured["say"] == (
        "Your certificate is suspended by the town's staff, with 30 days left before it expires."
    )
    services.do_change(row, staff, "revoke", services.decision_statement(row, "revoke"), {})
    r = visit(alice, "foundry_cast", slips=slips)
    assert outcome(r) == "refused:record"
    assert r.structured["needed"] == ["a certificate of yours was revoked by the town's staff in the last 30 days"]
    assert visit(alice, "foundry").structured["say"] == "Your certificate was revoked by the town's staff, for good."
    assert visit(alice, "show_passport").structured["stamps"] == []
    assert "none revoked in the last 30 days" in visit(alice, "foundry").structured["asks"]["record"]
    clock.advance(timedelta(days=30, seconds=1))
    again = visit(alice, "foundry_cast", slips=slips)
    assert again.is_error is False, again.structured
    assert again.structured["certificate"]["statement"]["certificate"] != cert["statement"]["certificate"]


def test_an_expired_certificate_is_said_with_its_end(alice: Passport) -> None:
    cast(alice)
    clock.advance(timedelta(days=31))
    mine = visit(alice, "foundry").structured
    assert mine["yours"]["standing"] == "expired"
    assert mine["say"] == f"Your certificate expired at {mine['yours']['until']}; asks says what a new one needs."


def test_a_suspension_in_a_certificates_last_day_still_counts_after_it_ends(alice: Passport) -> None:
    cert = cast(alice)
    staff = Account.objects.create_account("sam")
    staff.is_staff = True
    staff.save()
    clock.advance(timedelta(days=29, hours=12))
    row = services.access_certificate(staff, cert["statement"]["certificate"])
    services.do_change(row, staff, "suspend", services.decision_statement(row, "suspend"), {})
    clock.advance(timedelta(days=2))  # the certificate has ended; its suspension has not been undone
    slips = [
        visit(alice, "attend", course=c).structured["slip"] for c in ("ten-habits", "spending-well", "words-are-data")
    ]
    r = visit(alice, "foundry_cast", slips=slips)
    assert outcome(r) == "refused:record"
    assert r.structured["needed"] == ["a certificate of yours is suspended by the town's staff"]


def test_what_staff_did_holds_against_every_agent_of_the_account(alice: Passport, bob: Passport) -> None:
    owner = Account.objects.create_account("olive")
    Passport.objects.filter(pk__in=[alice.pk, bob.pk]).update(account=owner)
    alice.refresh_from_db()
    bob.refresh_from_db()
    cert = cast(alice)
    staff = Account.objects.create_account("sam")
    staff.is_staff = True
    staff.save()
    row = services.access_certificate(staff, cert["statement"]["certificate"])
    services.do_change(row, staff, "revoke", services.decision_statement(row, "revoke"), {})
    r = visit(
        bob,
        "foundry_cast",
        slips=[
            visit(bob, "attend", course=c).structured["slip"] for c in ("ten-habits", "spending-well", "words-are-data")
        ],
    )
    assert outcome(r) == "refused:record"
    assert r.structured["needed"] == [
        "a certificate of your account's agents was revoked by the town's staff in the last 30 days"
    ]
