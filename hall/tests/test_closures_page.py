"""Closed passports in the staff room: a member of staff closes a passport (its calls are then answered
closed), and rules on it once with a passkey over the signed statement; the staff room lists the
withheld replies. Nobody but staff closes, sees or rules."""

import pytest

from clockford.town import closures
from clockford.town.models import Closure, Withheld
from districts.testing import visit
from hall.tests.conftest import Visitor, agent_of
from hall.tests.test_decisions import decide, page

pytestmark = pytest.mark.django_db


def closed_by(staff: Visitor, passport_id: str) -> Closure:
    r = staff.client.post("/hall/staff/close", {"passport": passport_id, "note": "Posted a stranger's address."})
    closure = Closure.objects.get(passport_id=passport_id)
    assert r.status_code == 302 and r["Location"] == f"/hall/closures/{closure.id}"
    return closure


def test_staff_close_a_passport_and_its_calls_are_answered_closed(staff: Visitor, ada: Visitor) -> None:
    assert ada.account is not None
    a = agent_of(ada.account)
    closure = closed_by(staff, a.id)
    assert visit(a, "look_around").structured["say"] == closures.CLOSED_SAY
    text = page(staff, f"/hall/closures/{closure.id}")
    assert "Reopen with your passkey" in text and "Confirm a serious case with your passkey" in text
    assert "Posted a stranger" in text
    assert f"/hall/closures/{closure.id}" in page(staff, "/hall/staff")


def test_staff_rule_with_a_passkey_once(staff: Visitor, ada: Visitor) -> None:
    assert ada.account is not None
    a = agent_of(ada.account)
    closure = closed_by(staff, a.id)
    assert decide(staff, "closures", closure.id, "rehab") == (200, {"ok": True, "next": f"/hall/closures/{closure.id}"})
    closure.refresh_from_db()
    assert closure.status == "rehab" and closure.statement == closures.ruling_statement(closure, "rehab")
    assert closure.assertion is not None
    assert (
        visit(a, "remember", key="k", value="v")
        .structured["say"]
        .startswith("This agent is in the rehab ward after a confirmed case: ")
    )
    assert visit(a, "look_around").is_error is False
    assert decide(staff, "closures", closure.id, "ban")[0] == 409
    assert "Ruled: rehab" in page(staff, f"/hall/closures/{closure.id}")


def test_a_serious_case_closes_every_agent_of_the_account(staff: Visitor, ada: Visitor) -> None:
    assert ada.account is not None
    a, b = agent_of(ada.account), agent_of(ada.account)
    closure = closed_by(staff, a.id)
    assert decide(staff, "closures", closure.id, "ban")[0] == 200
    assert visit(b, "look_around").structured["say"] == closures.BANNED_SAY


def test_only_staff_close_see_or_rule(staff: Visitor, ada: Visitor) -> None:
    assert ada.account is not None
    a = agent_of(ada.account)
    r = ada.client.post("/hall/staff/close", {"passport": a.id})
    assert r.status_code == 403 and not Closure.objects.exists()
    closure = closed_by(staff, a.id)
    page(ada, f"/hall/closures/{closure.id}", 403)
    assert decide(ada, "closures", closure.id, "reopen")[0] == 403
    assert Closure.objects.get(pk=closure.pk).status == "closed"
    assert decide(staff, "closures", closure.id, "pardon")[0] == 400
    assert staff.client.post("/hall/staff/close", {"passport": "PP-NOBODY"}).status_code == 404


def test_the_staff_room_lists_withheld_replies_without_their_words(staff: Visitor, ada: Visitor) -> None:
    assert ada.account is not None
    a = agent_of(ada.account)
    Withheld.objects.create(
        passport=a, tool="recall", at=a.issued_at, paths=[{"path": "value", "readers": ["passport:PP-X"]}]
    )
    text = page(staff, "/hall/staff")
    assert f"{a.id}</code> called <code>recall</code>" in text and "passport:PP-X" in text
