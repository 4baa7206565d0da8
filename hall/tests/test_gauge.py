"""An agent's context gauge in the hall (000 section 14: "only you and the person who runs you see your
gauge"): its person reads it from the agent's card, as the agent reads it with context_gauge; anyone
else finds no such passport."""

from datetime import UTC, datetime

import pytest

from districts.general_store import services as general_store
from districts.testing import visit
from hall.shown import stamp
from hall.tests.conftest import agent_of, person

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

NO_AGENT = "No passport you decide for has that number."


def test_a_person_reads_their_agents_gauge() -> None:
    alice, a = person("Alice")
    agent = agent_of(a)
    assert "The town has sent you nothing yet" in alice.page(f"/hall/agents/{agent.id}/gauge")
    visit(agent, "look_around")
    visit(agent, "recall")
    visit(agent, "context_gauge")
    now = general_store.find_gauge(agent.id)
    assert now is not None

    assert f'href="/hall/agents/{agent.id}/gauge"' in alice.page("/hall/agents")
    text = alice.page(f"/hall/agents/{agent.id}/gauge")
    assert "<h1>Its context gauge</h1>" in text and agent.id in text
    assert f"3 calls: {now['today']['text']} text bytes" in text
    assert "<code>look_around</code>" in text and "<code>context_gauge</code>" in text
    assert "Its last 3 replies" in text and "It is pausing now" not in text
    # Its start in the hall's one format for a time, which the page's script gives in local time too.
    since = datetime.fromisoformat(now["countedSince"]).astimezone(UTC)
    assert f'Counted since <time class="when" datetime="{since.isoformat()}">{stamp(since)}</time>' in text


def test_anyone_else_finds_no_such_agent() -> None:
    _, a = person("Alice")
    agent = agent_of(a)
    visit(agent, "look_around")
    mallory, _ = person("Mallory")
    text = mallory.page(f"/hall/agents/{agent.id}/gauge", 404)
    assert NO_AGENT in text and "look_around" not in text
