"""Foundry certificates in the staff room: staff suspend, reinstate and revoke a certificate with a
passkey over the signed statement, and `foundry` with `check` answers the change on its next call.
Only what the certificate's standing allows is offered or done; nobody but staff sees or changes it."""

import re
from datetime import UTC, timedelta
from typing import Any

import pytest

from clockford.town import clock
from districts.foundry import services as foundry
from districts.foundry.models import Certificate
from districts.testing import visit
from hall.shown import stamp
from hall.tests.conftest import Visitor, agent_of
from hall.tests.test_decisions import decide, page

pytestmark = pytest.mark.django_db


def cast(v: Visitor) -> dict[str, Any]:
    assert v.account is not None
    agent = agent_of(v.account)
    slips = [
        visit(agent, "attend", course=c).structured["slip"] for c in ("ten-habits", "spending-well", "words-are-data")
    ]
    cast = visit(agent, "foundry_cast", slips=slips).structured
    assert cast["certificate"]["statement"]["passport"] == agent.id
    return dict(cast["certificate"])


def current(v: Visitor, cert: dict[str, Any]) -> bool:
    assert v.account is not None
    return bool(visit(agent_of(v.account), "foundry", check=cert).structured["current"])


def test_the_staff_room_lists_certificates_and_each_has_a_page(staff: Visitor, ada: Visitor) -> None:
    cert = cast(ada)
    number = cert["statement"]["certificate"]
    room = page(staff, "/hall/staff")
    assert f'href="/hall/certificates/{number}"' in room and "Foundry certificates" in room
    text = page(staff, f"/hall/certificates/{number}")
    assert "Suspend with your passkey" in text and "Revoke with your passkey" in text
    assert "Reinstate with your passkey" not in text
    assert "This certificate is live" in text


def test_staff_suspend_reinstate_and_revoke_and_check_answers_at_once(staff: Visitor, ada: Visitor) -> None:
    cert = cast(ada)
    number = cert["statement"]["certificate"]
    assert current(staff, cert) is True
    assert decide(staff, "certificates", number, "suspend") == (
        200,
        {"ok": True, "next": f"/hall/certificates/{number}"},
    )
    row = Certificate.objects.get(pk=number)
    assert row.status == "suspended" and row.statement == foundry.decision_statement(row, "suspend")
    assert row.assertion is not None and row.changed_by is not None
    assert current(staff, cert) is False
    # Suspending twice is refused before any passkey is asked for.
    assert decide(staff, "certificates", number, "suspend")[0] == 409
    assert "Reinstate with your passkey" in page(staff, f"/hall/certificates/{number}")
    assert decide(staff, "certificates", number, "reinstate")[0] == 200
    assert current(staff, cert) is True
    assert decide(staff, "certificates", number, "revoke")[0] == 200
    assert current(staff, cert) is False
    text = page(staff, f"/hall/certificates/{number}")
    assert "Changed: revoked" in text and "with your passkey" not in text
    status, refused = decide(staff, "certificates", number, "reinstate")
    assert (status, refused["say"]) == (409, "This certificate is revoked, for good: nothing more can be done to it.")
    assert Certificate.objects.get(pk=number).status == "revoked"


def test_only_staff_see_or_change_a_certificate(staff: Visitor, ada: Visitor) -> None:
    cert = cast(ada)
    number = cert["statement"]["certificate"]
    page(ada, f"/hall/certificates/{number}", 403)
    assert decide(ada, "certificates", number, "revoke")[0] == 403
    assert Certificate.objects.get(pk=number).status == "live"
    assert decide(staff, "certificates", number, "melt")[0] == 400
    page(staff, "/hall/certificates/C-nothinghere", 404)


def test_the_staff_rooms_list_says_when_each_certificate_was_cast_as_the_hall_writes_times(
    staff: Visitor, ada: Visitor
) -> None:
    cert = cast(ada)
    number = cert["statement"]["certificate"]
    # Cast three minutes (and some seconds) ago, at a moment whose minute is known.
    at = (clock.now() - timedelta(minutes=3, seconds=10)).replace(microsecond=0)
    Certificate.objects.filter(pk=number).update(issued_at=at)
    room = page(staff, "/hall/staff")
    row = re.search(rf'<li class="card" id="certificate-{number}">.*?</li>', room)
    assert row, "the certificate is not in the list"
    # Not "3 minutes" alone: the date, the time and the zone, in a <time> the page's script gives the
    # person's own time beside; the machine-readable moment stays ISO.
    assert row.group(0).endswith(
        f'<span class="tag">live</span> cast <time class="when" datetime="{at.astimezone(UTC).isoformat()}">'
        f"3\xa0minutes ago, {stamp(at)}</time></li>"
    )
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC", stamp(at))
