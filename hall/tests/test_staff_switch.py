"""The staff room's switch for new visitors (001 503 "The town is not taking new visitors right now."):
staff turn it off and on; the face reads it on initialize (tests/e2e/test_limits.py)."""

import html

import pytest

from clockford.town.models import TownState
from hall.models import Account
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db

NOT_STAFF = "The staff room is for the town's staff, and your account is not staff."


@pytest.fixture
def staff(visitor: Visitor) -> Visitor:
    assert visitor.sign_up("Sam")[0] == 200
    Account.objects.filter(name="Sam").update(is_staff=True)
    return visitor


def page(v: Visitor) -> str:
    r = v.client.get("/hall/staff")
    assert r.status_code == 200
    return html.unescape(r.content.decode())


def test_staff_stop_new_visitors_and_take_them_again(staff: Visitor) -> None:
    assert TownState.is_welcoming()
    assert "The town takes new visitors." in page(staff)
    r = staff.client.post("/hall/staff/visitors", {"welcoming": "no"}, follow=True)
    assert r.status_code == 200
    said = html.unescape(r.content.decode())
    assert "The town takes no new visitors now; the sessions already open go on." in said
    assert "The town is not taking new visitors." in said
    assert not TownState.is_welcoming()
    # Again: nothing changes, and the page says so.
    r = staff.client.post("/hall/staff/visitors", {"welcoming": "no"}, follow=True)
    assert "The town was already taking no new visitors. Nothing changed." in html.unescape(r.content.decode())
    staff.client.post("/hall/staff/visitors", {"welcoming": "yes"})
    assert TownState.is_welcoming()
    assert "The town takes new visitors." in page(staff)


def test_only_staff_flip_the_switch(visitor: Visitor) -> None:
    assert visitor.sign_up("Ada")[0] == 200
    r = visitor.client.post("/hall/staff/visitors", {"welcoming": "no"})
    assert r.status_code == 403 and NOT_STAFF in html.unescape(r.content.decode())
    assert TownState.is_welcoming()


def test_an_answer_that_is_neither_yes_nor_no_changes_nothing(staff: Visitor) -> None:
    r = staff.client.post("/hall/staff/visitors", {"welcoming": "maybe"})
    assert r.status_code == 400
    assert TownState.is_welcoming()
