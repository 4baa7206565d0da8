"""An agent's P.O. box in the hall (remember: "the person who runs you reads ... the box in the hall"):
its person reads every note, exactly and by key, from the agent's card, and empties a key; anyone else
finds no such passport and changes nothing."""

import html

import pytest

from clockford.town.models import Passport
from districts.post_office import services as post_office
from districts.testing import visit
from hall.models import Account
from hall.tests.conftest import Visitor, agent_of, person

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

NO_AGENT = "No passport you decide for has that number."


def alices_agent(notes: dict[str, str]) -> tuple[Visitor, Account, Passport]:
    """Alice, signed in, and her agent, whose box keeps `notes` (key: text)."""
    alice, a = person("Alice")
    agent = agent_of(a)
    for key, text in notes.items():
        post_office.do_remember(agent, key, text)
    return alice, a, agent


def test_a_person_reads_their_agents_box_by_key_with_hidden_characters_shown() -> None:
    alice, a, agent = alices_agent({"route": "North gate, then the\u200b well.", "errand/1": "Buy <b>lamp</b> oil"})

    agents = alice.page("/hall/agents")
    assert f'href="/hall/agents/{agent.id}/box"' in agents and "Its P.O. box" in agents

    text = alice.page(f"/hall/agents/{agent.id}/box")
    assert "<h1>Its P.O. box</h1>" in text and agent.id in text and "errand-runner" in text
    assert "2 notes of at most 64" in text
    # By key, exactly as written: escaped, the zero-width space drawn as a token and never sent itself.
    assert text.index('data-key="errand/1"') < text.index('data-key="route"')
    raw = alice.client.get(f"/hall/agents/{agent.id}/box").content.decode()
    assert "Buy &lt;b&gt;lamp&lt;/b&gt; oil" in raw and "<b>lamp</b>" not in raw
    assert '<mark class="hidden-char" title="A hidden character">⟦U+200B⟧</mark>' in raw
    assert "\u200b" not in raw


def test_an_empty_box_says_so() -> None:
    alice, a, agent = alices_agent({})
    assert "The box is empty." in alice.page(f"/hall/agents/{agent.id}/box")


def test_the_outsider_finds_no_such_passport_and_reads_nothing() -> None:
    _, a, agent = alices_agent({"secret-plan": "Meet at the mill."})
    bob, _ = person("Bob")
    text = bob.page(f"/hall/agents/{agent.id}/box", status=404)
    assert NO_AGENT in text and "Meet at the mill." not in text and "secret-plan" not in text
    assert NO_AGENT in bob.page("/hall/agents/PP-NOSUCHPASSPORT/box", status=404)


def test_signed_out_the_box_sends_you_to_the_front_door_and_a_post_changes_nothing() -> None:
    alice, a, agent = alices_agent({"k": "v"})
    assert alice.client.post(f"/hall/agents/{agent.id}/box").status_code == 405
    assert post_office.keys_of(agent) == ["k"]
    alice.sign_out()
    r = alice.client.get(f"/hall/agents/{agent.id}/box")
    assert r.status_code == 302 and r["Location"] == f"/hall/?next=/hall/agents/{agent.id}/box"


def test_a_person_empties_one_key_and_the_rest_stay() -> None:
    alice, a, agent = alices_agent({"route": "North gate.", "errand": "Lamp oil."})
    text = alice.page(f"/hall/agents/{agent.id}/box")
    assert f'action="/hall/agents/{agent.id}/box/empty"' in text and "Empty this key" in text

    r = alice.client.post(f"/hall/agents/{agent.id}/box/empty", {"key": "route"})
    assert r.status_code == 302 and r["Location"] == f"/hall/agents/{agent.id}/box"
    assert post_office.keys_of(agent) == ["errand"]
    assert "The note under “route” is gone from" in alice.page(r["Location"])

    r = alice.client.post(f"/hall/agents/{agent.id}/box/empty", {"key": "route"})
    assert post_office.keys_of(agent) == ["errand"]
    assert "No note is kept under that key." in alice.page(r["Location"])


# One key or the whole box: the same refusal, and nothing changes.
@pytest.mark.parametrize("form", [{"key": "k"}, {"all": "yes"}], ids=["one-key", "whole-box"])
def test_nobody_else_empties_a_box_and_a_get_changes_nothing(form: dict[str, str]) -> None:
    alice, a, agent = alices_agent({"k": "v"})
    bob, _ = person("Bob")
    r = bob.client.post(f"/hall/agents/{agent.id}/box/empty", form)
    assert r.status_code == 404 and NO_AGENT in html.unescape(r.content.decode())
    assert alice.client.get(f"/hall/agents/{agent.id}/box/empty").status_code == 405
    assert post_office.keys_of(agent) == ["k"]


def test_a_person_empties_the_whole_box_and_its_copies_in_waiting_letters() -> None:
    alice, a, agent = alices_agent({"a": "first", "b": "second"})
    letter = visit(agent, "send_letter", subject="Notes", body="Both notes.", notes=["a", "b"]).structured["id"]
    page = alice.page(f"/hall/agents/{agent.id}/box")
    assert "Empty the whole box" in page and "all 2 notes go at once" in page
    r = alice.client.post(f"/hall/agents/{agent.id}/box/empty", {"all": "yes"}, follow=True)
    assert r.status_code == 200 and f"{agent.id}&#x27;s box is empty: 2 notes gone." in r.content.decode()
    assert post_office.keys_of(agent) == []
    assert post_office.access_letter(a, letter).notes == []
    assert "The box is empty." in alice.page(f"/hall/agents/{agent.id}/box")
