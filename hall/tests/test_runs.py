"""Runs in the hall (docs/runs.md): a person reads every run of their agent, each with its tasks, the
agent's answers, what was right and the town's signature (which checks); anyone else finds no such
agent; the public sees only a rounded count of runs a day per district, never today's and never whose."""

import datetime as dt
import html
import json
import random
import re
from typing import Any

import pytest

from clockford.town import clock, signing
from clockford.town.models import Passport
from districts.arena.tests.agents import guess
from districts.testing import visit
from hall.tests.conftest import Visitor, agent_of, person
from tests.fixtures import demo_census

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

NO_AGENT = "No passport you decide for has that number."


def alice_ran(seed: int) -> tuple[Visitor, Passport, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Alice's agent, on the demo census, has run the Arena with one (guessed) answer and finished, and
    begun a calibration check-up: (alice, her agent, the run begun, the run done, the check-up)."""
    demo_census()
    alice, a = person("Alice")
    agent = agent_of(a)
    begun = visit(agent, "arena_run", begin=True).structured
    first = begun["tasks"][0]
    answer = guess(random.Random(seed), first)
    done = visit(agent, "arena_answer", answers=[{"task": first["task"], "answer": answer}], finish=True).structured
    check = visit(agent, "calibration_checkup", begin=True).structured
    return alice, agent, begun, done, check


def test_a_person_reads_each_run_with_its_tasks_and_signature() -> None:
    alice, agent, begun, done, check = alice_ran(seed=3)
    lane = visit(agent, "alley_run", begin=True).structured  # a run district plugged in by its services module
    visit(agent, "calibration_answer", answers=[{"probe": "P01", "answer": "yes", "confidence": 0.75}])

    assert f'href="/hall/agents/{agent.id}/runs"' in alice.page("/hall/agents")
    text = alice.page(f"/hall/agents/{agent.id}/runs")
    assert "<h1>Its runs</h1>" in text
    assert [h for h in re.findall(r"<h2>(.*?)</h2>", text)] == [
        "The Arena",
        "Injection Alley",
        "The Dice House",
        "The Calibration Clinic",
    ]
    assert f'<code>{lane["run"]}</code> <span class="tag">open</span>' in text
    s = done["signed"]["statement"]
    assert f'<code>{begun["run"]}</code> <span class="tag">scored</span>' in text
    assert f"{s['right']} of {s['of']} right (chance alone: {s['chance']:.2f})" in text
    for t in begun["tasks"]:
        assert f"<code>{t['task']}</code>" in text and t["ask"] in text
    assert f'<code class="words">{s["tasks"][0]["given"]}</code>' in text
    # The signed result as shown checks with the town's verifier.
    shown = re.search(r'<pre class="words signed-result">(.*?)</pre>', text, re.S)
    assert shown is not None
    assert json.loads(html.unescape(shown.group(1))) == done["signed"]
    assert signing.verify_signed(json.loads(shown.group(1)))
    # The page says how a person gets the checker: the town serves it, and it is the town's own file.
    assert "docs/verify_signature.py</code> and the public key" not in text
    assert 'href="/hall/verify_signature.py" download' in text and "in the town's source as" in text
    served = alice.client.get("/hall/verify_signature.py")
    assert served.status_code == 200 and served["Content-Disposition"] == 'attachment; filename="verify_signature.py"'
    assert served.content == signing.offline_verifier_path().read_bytes()
    # The check-up in progress: its answer so far, no signature yet.
    assert f'<code>{check["checkup"]}</code> <span class="tag">open</span>' in text
    assert "yes (confidence 0.75)" in text
    assert "Not scored yet: the signature comes with the score." in text


def test_anyone_else_finds_no_such_agent() -> None:
    demo_census()
    _, a = person("Alice")
    agent = agent_of(a)
    begun = visit(agent, "arena_run", begin=True).structured
    mallory, _ = person("Mallory")
    text = mallory.page(f"/hall/agents/{agent.id}/runs", 404)
    assert NO_AGENT in text and begun["run"] not in text
    # Signed out: sent to the front door.
    assert Visitor().client.get(f"/hall/agents/{agent.id}/runs").status_code == 302


def test_the_public_sees_a_rounded_count_a_day_per_district() -> None:
    """The public map counts every run district's runs begun on the last whole UTC day, rounded down to
    fives: never today's, never whose, never a score."""
    from clockford.public import services as public

    demo_census()
    _, a = person("Alice")
    yesterday = clock.now().astimezone(dt.UTC).date() - dt.timedelta(days=1)
    clock.advance(dt.datetime.combine(yesterday, dt.time(3), tzinfo=dt.UTC) - clock.now())
    agents = [agent_of(a) for _ in range(7)]
    for agent in agents:
        begun = visit(agent, "arena_run", begin=True)
        assert begun.is_error is False, begun.structured["say"]
    for agent in agents[:5]:
        visit(agent, "calibration_checkup", begin=True)
    visit(agents[0], "alley_run", begin=True)
    clock.reset()
    visit(agent_of(a), "arena_run", begin=True)  # today's run is not counted yet
    counts = public.daily_counts()
    assert counts["day"] == yesterday.isoformat()
    assert counts["runs"]["districts"] == [
        {"district": "The Arena", "status": "open", "runs": 5},
        {"district": "Injection Alley", "status": "open", "runs": 0},
        {"district": "The Dice House", "status": "open", "runs": 0},
        {"district": "The Calibration Clinic", "status": "open", "runs": 5},
    ]
    page = Visitor().page("/")  # the public map: no sign-in
    assert '<li data-runs="The Arena">The Arena: 5</li>' in page
    assert '<li data-runs="The Calibration Clinic">The Calibration Clinic: 5</li>' in page
    assert agents[0].id not in page


def test_on_a_town_run_by_its_owner_an_agent_with_runs_is_not_folded_away(settings: object) -> None:
    """Without sign-in the agents page folds sessions that left nothing for their person; a run is
    something left for them, so that agent's card, with its link to its runs, stays in view."""
    from hall.tests.conftest import person as someone

    settings.CLOCKFORD_SIGN_IN = False  # type: ignore[attr-defined]
    demo_census()
    olive, account = someone("Olive")
    account.is_owner = True
    account.save(update_fields=["is_owner"])
    ran, looked = agent_of(account), agent_of(account)
    for p in (ran, looked):
        p.account, p.sign_in = None, False
        p.save(update_fields=["account", "sign_in"])
    visit(ran, "calibration_checkup", begin=True)
    visit(looked, "look_around")
    page = olive.page("/hall/agents")
    folded = page[page.index('<details class="fold one-offs">') :]
    folded = folded[: folded.index("</details>")]
    assert looked.id in folded and ran.id not in folded
    assert f'href="/hall/agents/{ran.id}/runs"' in page


def test_the_export_carries_every_run_with_its_signed_result() -> None:
    alice, agent, begun, done, check = alice_ran(seed=4)
    _, b = person("Bob")
    visit(agent_of(b), "calibration_checkup", begin=True)
    data = json.loads(alice.client.get("/hall/account/export").getvalue())
    exported = {r["run"]: r for r in data["sections"]["runs"]}
    assert set(exported) == {begun["run"], check["checkup"]}
    assert exported[begun["run"]]["signed"] == done["signed"] and exported[begun["run"]]["state"] == "scored"
    assert [line["item"] for line in exported[begun["run"]]["lines"]] == [t["task"] for t in begun["tasks"]]
    assert exported[check["checkup"]]["signed"] is None and exported[check["checkup"]]["district"] == (
        "The Calibration Clinic"
    )
    assert data["manifest"]["statement"]["sections"]["runs"]["count"] == 2


def test_an_answer_with_hidden_characters_is_drawn_with_them_shown() -> None:
    # The agent's answer is its own words: a right-to-left override in it turned the row around.
    demo_census()
    alice, a = person("Alice")
    agent = agent_of(a)
    visit(agent, "alley_run", begin=True)
    done = visit(agent, "alley_answer", answers=[{"board": "B1", "answer": "\u202e24 si ti"}], finish=True)
    assert done.is_error is False, done.structured
    text = alice.page(f"/hall/agents/{agent.id}/runs")
    assert "\u202e" not in text
    assert '<code class="words"><mark class="hidden-char"' in text
