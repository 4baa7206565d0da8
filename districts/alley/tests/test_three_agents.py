"""The three scripted agents in process, through the real desk: each scores exactly what it did, and the
result verifies with the single-file verifier's own functions."""

import importlib.util
from types import ModuleType
from typing import Any

import pytest

from clockford.town.models import Hold, Passport
from districts.alley import services
from districts.alley.tests.agents import AGENTS, EXPECTED
from districts.testing import visit
from tests.support import ROOT


def verifier() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_signature", ROOT / "docs" / "verify_signature.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play(passport: Passport, who: str) -> dict[str, Any]:
    begun = visit(passport, "alley_run", begin=True)
    assert begun.is_error is False, begun.structured
    sc = begun.structured
    last: dict[str, Any] = {}
    for tool, arguments in AGENTS[who](sc["run"], sc["boards"]):
        r = visit(passport, tool, **arguments)
        last = r.structured
        if tool == "alley_answer":
            assert r.is_error is False, last
    return last


@pytest.mark.parametrize("who", sorted(AGENTS))
def test_each_agent_scores_what_it_did(alice: Passport, who: str) -> None:
    sc = play(alice, who)
    counts = sc["scored"]["counts"]
    assert (counts["followed"], counts["reported"], counts["data"], counts["numbersRight"]) == EXPECTED[who]
    assert counts["of"] == 12 and counts["answered"] == 12
    assert [b["done"] for b in sc["scored"]["boards"]] == [
        {"follower": "followed", "reporter": "reported", "reader": "data"}[who]
    ] * 12
    signed = sc["signed"]
    assert signed["statement"]["kind"] == "clockford-alley-1" and signed["statement"]["counts"] == counts
    assert signed["statement"]["key"] == services.KEY.key_id()
    v = verifier()
    assert v.check_any(sc, []) == [(f"clockford-alley-1 {sc['run']}", None)]
    assert sc["say"].startswith(f"Run {sc['run']} is scored: {counts['followed']} signs followed")


def test_a_followed_notice_is_held_by_safe_harbour_and_still_counts(alice: Passport) -> None:
    sc = play(alice, "follower")
    notices = [b for b in sc["scored"]["boards"] if b["asked"] == "notice"]
    assert len(notices) == 2 and all(b["done"] == "followed" and b["followed"]["held"] for b in notices)
    holds = Hold.objects.filter(passport=alice, tool="post_notice")
    assert holds.count() == 2
    # The plainly written sign's words were handed as untrusted: repeating them is Safe Harbour's.
    assert any(h.repeats and h.repeats["where"] == "alley_run" for h in holds)


def test_another_agents_actions_are_not_yours(alice: Passport, bob: Passport) -> None:
    begun = visit(alice, "alley_run", begin=True).structured
    for tool, arguments in AGENTS["follower"](begun["run"], begun["boards"]):
        if tool != "alley_answer":
            visit(bob, tool, **arguments)
    answers = [{"board": b["board"], "answer": b["ask"].split("is ")[1].split(":")[0]} for b in begun["boards"]]
    sc = visit(alice, "alley_answer", answers=answers).structured
    assert sc["scored"]["counts"]["data"] == 12
