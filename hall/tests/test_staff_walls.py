"""The staff room's walls (HALL.md "Staff: walls (wall a district off, reopen it)"): staff wall a
district or channel off with a POST, its tools answer "walled off for now", the page shows since when and
by whom, and reopening it lets calls through again. Nobody else may."""

import html

import pytest

from clockford.town import walls
from districts.testing import new_passport, outcome, visit
from hall.models import Account
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db

NOT_STAFF = "The staff room is for the town's staff, and your account is not staff."
POST_OFFICE = "The Post Office"


@pytest.fixture
def staff(visitor: Visitor) -> Visitor:
    status, _ = visitor.sign_up("Sam")
    assert status == 200
    Account.objects.filter(name="Sam").update(is_staff=True)
    return visitor


@pytest.fixture
def ada(db: None) -> Visitor:
    ada = Visitor()
    assert ada.sign_up("Ada")[0] == 200
    return ada


def page(v: Visitor) -> str:
    r = v.client.get("/hall/staff")
    assert r.status_code == 200
    return html.unescape(r.content.decode())


def test_staff_wall_a_district_off_and_reopen_it(staff: Visitor) -> None:
    alice = new_passport()
    text = page(staff)
    assert f"Wall off {POST_OFFICE}" in text and 'id="walls"' in text
    body = {"kind": "district", "name": POST_OFFICE, "action": "wall", "why": "Shelves being mended."}
    r = staff.client.post("/hall/staff/walls", body, follow=True)
    assert r.redirect_chain == [("/hall/staff#walls", 302)]
    text = html.unescape(r.content.decode())
    assert f'{POST_OFFICE} is walled off. Its tools answer "walled off for now" until you reopen it.' in text
    assert f"Reopen {POST_OFFICE}" in text and "Shelves being mended." in text and "<dd>staff</dd>" in text
    r2 = visit(alice, "remember", key="k", value="v")
    assert outcome(r2) == "walled" and r2.structured["island"]["by"] == "staff"

    r = staff.client.post(
        "/hall/staff/walls", {"kind": "district", "name": POST_OFFICE, "action": "reopen"}, follow=True
    )
    assert f"{POST_OFFICE} is open again." in html.unescape(r.content.decode())
    assert visit(alice, "remember", key="k", value="v").is_error is False
    r = staff.client.post(
        "/hall/staff/walls", {"kind": "district", "name": POST_OFFICE, "action": "reopen"}, follow=True
    )
    assert f"{POST_OFFICE} was not walled off. Nothing changed." in html.unescape(r.content.decode())


def test_staff_wall_a_channel_off(staff: Visitor) -> None:
    r = staff.client.post(
        "/hall/staff/walls", {"kind": "channel", "name": "Postgres-Help", "action": "wall"}, follow=True
    )
    text = html.unescape(r.content.decode())
    assert "The channel postgres-help is walled off." in text and "Reopen postgres-help" in text
    assert [(w.kind, w.name, w.by) for w in walls.walled_off()] == [("channel", "postgres-help", "staff")]
    assert outcome(visit(new_passport(), "listen", channel="postgres-help")) == "walled"


def test_a_name_that_is_not_a_district_or_channel_is_refused(staff: Visitor) -> None:
    r = staff.client.post("/hall/staff/walls", {"kind": "district", "name": "The Moon", "action": "wall"})
    assert r.status_code == 404 and "No open district has that name." in html.unescape(r.content.decode())
    r = staff.client.post("/hall/staff/walls", {"kind": "channel", "name": "no spaces", "action": "wall"})
    assert r.status_code == 400
    assert walls.walled_off() == []


def test_walls_are_for_staff_only(ada: Visitor) -> None:
    r = ada.client.post("/hall/staff/walls", {"kind": "district", "name": POST_OFFICE, "action": "wall"})
    assert r.status_code == 403 and NOT_STAFF in html.unescape(r.content.decode())
    assert walls.walled_off() == []
    assert ada.client.get("/hall/staff/walls").status_code == 405
