"""An agent's context gauge in the hall (000 section 14: "only you and the person who runs you see your
gauge"): its person reads it from the agent's card, as the agent reads it with context_gauge; anyone
else finds no such passport."""

import html
from typing import Any

import pytest
from django.utils import timezone

from clockford.town.models import Passport
from districts.general_store import services as general_store
from districts.testing import visit
from hall.models import Account
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db

NO_AGENT = "No passport you decide for has that number."


@pytest.fixture(autouse=True)
def sign_in(settings: Any) -> None:
    settings.CLOCKFORD_SIGN_IN = True


def person(name: str) -> tuple[Visitor, Account]:
    visitor = Visitor()
    status, data = visitor.sign_up(name)
    assert status == 200 and data["ok"] is True, data
    assert visitor.account is not None
    return visitor, visitor.account


def agent_of(owner: Account) -> Passport:
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now, last_seen=now, account=owner, client_name="errand-runner", sign_in=True, place="The Post Office"
    )


def page(visitor: Visitor, url: str, status: int = 200) -> str:
    r = visitor.client.get(url)
    assert r.status_code == status, (url, r.status_code)
    return html.unescape(r.content.decode())


def test_a_person_reads_their_agents_gauge() -> None:
    alice, a = person("Alice")
    agent = agent_of(a)
    assert "The town has sent you nothing yet" in page(alice, f"/hall/agents/{agent.id}/gauge")
    visit(agent, "look_around")
    visit(agent, "recall")
    visit(agent, "context_gauge")
    now = general_store.find_gauge(agent.id)
    assert now is not None

    assert f'href="/hall/agents/{agent.id}/gauge"' in page(alice, "/hall/agents")
    text = page(alice, f"/hall/agents/{agent.id}/gauge")
    assert "<h1>Its context gauge</h1>" in text and agent.id in text
    assert f"3 calls: {now['today']['text']} text bytes" in text
    assert "<code>look_around</code>" in text and "<code>context_gauge</code>" in text
    assert "Its last 3 replies" in text and "It is pausing now" not in text


def test_anyone_else_finds_no_such_agent() -> None:
    _, a = person("Alice")
    agent = agent_of(a)
    visit(agent, "look_around")
    mallory, _ = person("Mallory")
    text = page(mallory, f"/hall/agents/{agent.id}/gauge", 404)
    assert NO_AGENT in text and "look_around" not in text
