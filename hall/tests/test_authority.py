"""A request for authority in the hall: it waits in the queue (and on the live socket's count), its page
says what allowing does, and the person allows or refuses it once with a passkey. Only that person."""

from typing import Any

import pytest

from districts.bank import services as bank
from districts.testing import visit
from hall import live
from hall.tests.conftest import Visitor
from hall.tests.test_decisions import agent_of, decide, page

pytestmark = pytest.mark.django_db


def asked(visitor: Visitor, settings: Any, amount: int = 10) -> tuple[Any, dict[str, Any]]:
    settings.CHANGES_PER_HOUR = 2
    agent = agent_of(visitor)
    r = visit(agent, "request_authority", reason="many-records", amount=amount)
    assert not r.is_error, r.structured
    return agent, r.structured["request"]


def test_it_waits_in_the_queue_and_on_the_socket(ada: Visitor, settings: Any) -> None:
    assert ada.account is not None
    before = live.stamp_for(ada.account)
    _, request = asked(ada, settings)
    assert live.stamp_for(ada.account)[0] == before[0] + 1
    text = page(ada, "/hall/")
    assert f'href="/hall/authority/{request["id"]}"' in text
    assert "make 10 more changes this hour" in text


def test_the_page_says_what_allowing_does(ada: Visitor, settings: Any) -> None:
    _, request = asked(ada, settings)
    text = page(ada, f"/hall/authority/{request['id']}")
    assert "Allow with your passkey" in text and "Refuse with your passkey" in text
    assert "your agent may make 10 more changes this hour (up to 12)" in text
    assert bank.reason_means("many-records") in text


def test_allow_with_a_passkey_raises_the_ceiling(ada: Visitor, settings: Any) -> None:
    agent, request = asked(ada, settings)
    assert decide(ada, "authority", request["id"], "allow") == (
        200,
        {"ok": True, "next": f"/hall/authority/{request['id']}"},
    )
    assert bank.balance_of(agent).of == 12
    text = page(ada, f"/hall/authority/{request['id']}")
    assert "Decided: allowed" in text and "signed with a passkey" in text
    # Once only.
    assert decide(ada, "authority", request["id"], "refuse")[0] == 409


def test_refuse_with_a_passkey(ada: Visitor, settings: Any) -> None:
    agent, request = asked(ada, settings)
    assert decide(ada, "authority", request["id"], "refuse")[0] == 200
    assert bank.balance_of(agent).of == 2
    assert visit(agent, "show_balance").structured["requests"][0]["status"] == "refused"


def test_someone_elses_request_is_not_found(ada: Visitor, settings: Any) -> None:
    bob = Visitor()
    assert bob.sign_up("Bob")[0] == 200
    _, request = asked(ada, settings)
    page(bob, f"/hall/authority/{request['id']}", 404)
    assert decide(bob, "authority", request["id"], "allow")[0] == 404
    assert f"/hall/authority/{request['id']}" not in page(bob, "/hall/")


def test_only_allow_and_refuse(ada: Visitor, settings: Any) -> None:
    _, request = asked(ada, settings)
    assert decide(ada, "authority", request["id"], "approve")[0] == 400


def test_one_more_change_is_said_as_one(ada: Visitor, settings: Any) -> None:
    _, request = asked(ada, settings, amount=1)
    assert "make 1 more change this hour" in page(ada, "/hall/")
    assert "your agent may make 1 more change this hour (up to 3)" in page(ada, f"/hall/authority/{request['id']}")
