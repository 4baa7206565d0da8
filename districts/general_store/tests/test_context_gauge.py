"""context_gauge: the bytes the town put into the agent's context, counted in the desk for every reply,
as 000 section 14 names them; null before the town has sent anything; reading it does not move the agent."""

import json

import pydantic_core

from clockford.town import desk
from clockford.town.models import Passport
from districts.general_store import services
from districts.testing import visit

FIELDS = {"gauge", "advice", "note", "locker", "say", "footstep", "provenance"}


def _bytes(r: desk.Rendered) -> tuple[int, int]:
    return len(r.text.encode()), len(pydantic_core.to_json(r.structured))


def test_it_is_null_before_the_town_sent_anything(alice: Passport) -> None:
    r = visit(alice, "context_gauge")
    assert not r.is_error
    assert set(r.structured) == FIELDS
    assert r.structured["gauge"] is None
    assert r.structured["advice"] == "The town has sent you nothing yet, so there is nothing to weigh."
    assert "P.O. box" in r.structured["locker"]


def test_it_counts_every_reply_by_tool_to_the_byte(alice: Passport) -> None:
    sent = [visit(alice, "look_around"), visit(alice, "remember", key="k", value="é" * 40), visit(alice, "recall")]
    sent.append(visit(alice, "recall", key="nope-not-here"))  # a refusal is a reply too
    gauge = visit(alice, "context_gauge").structured["gauge"]
    text = sum(_bytes(r)[0] for r in sent)
    data = sum(_bytes(r)[1] for r in sent)
    assert gauge["today"]["calls"] == 4 and gauge["today"]["text"] == text and gauge["today"]["data"] == data
    tools = {row["tool"]: row for row in gauge["today"]["tools"]}
    assert tools["recall"]["calls"] == 2
    assert tools["recall"]["text"] == _bytes(sent[2])[0] + _bytes(sent[3])[0]
    assert gauge["today"]["other"] == {"tools": 0, "calls": 0, "text": 0, "data": 0}
    assert gauge["recent"]["calls"] == 4 and gauge["recent"]["text"] == text
    assert gauge["run"]["calls"] == 4 and gauge["run"]["data"] == data
    assert gauge["last"]["tool"] == "recall" and gauge["last"]["text"] == _bytes(sent[3])[0]


def test_it_counts_its_own_reply_next_time(alice: Passport) -> None:
    first = visit(alice, "context_gauge")
    gauge = visit(alice, "context_gauge").structured["gauge"]
    assert gauge["today"]["tools"] == [
        {"tool": "context_gauge", "calls": 1, "text": _bytes(first)[0], "data": _bytes(first)[1]}
    ]


def test_its_text_is_short(alice: Passport) -> None:
    visit(alice, "look_around")
    r = visit(alice, "context_gauge")
    say = r.structured["say"]
    assert r.text.startswith(say + "\n") and json.dumps(r.structured["gauge"]) not in r.text
    assert "look_around: 1 call," in say
    assert r.text.count("\n") == say.count("\n") + 2  # say, the provenance line, the footstep


def test_it_does_not_move_the_agent(alice: Passport) -> None:
    visit(alice, "walk_to", to="The Tavern")
    visit(alice, "context_gauge")
    alice.refresh_from_db()
    assert alice.place == "The Tavern"


def test_it_keeps_the_last_20_and_counts_repeats(alice: Passport) -> None:
    for _ in range(25):
        visit(alice, "recall", key="same")
    gauge = visit(alice, "context_gauge").structured["gauge"]
    assert gauge["today"]["calls"] == 25
    assert gauge["recent"]["calls"] == 20
    assert gauge["recent"]["repeats"] == 19  # the same refusal each time, footstep aside
    assert gauge["recent"]["heaviest"]["tool"] == "recall"
    assert "repeated an earlier one" in services.advice(gauge)


def test_the_outsider_sees_only_their_own(alice: Passport, charlie: Passport) -> None:
    visit(alice, "look_around")
    assert visit(charlie, "context_gauge").structured["gauge"] is None
    gauge = services.find_gauge(charlie.id)
    assert gauge is not None and [t["tool"] for t in gauge["today"]["tools"]] == ["context_gauge"]
