"""Staff suspend, reinstate and revoke a certificate (districts.foundry.services, for the hall): check
answers the change on its next call; anyone but staff is refused."""

import pytest

from clockford.town.holds import NotDecided
from clockford.town.models import Passport
from clockford.town.tooling import NotAllowed, NotFound
from districts.foundry import services
from districts.testing import visit
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
