"""foundry_cast reads signed Arena results presented as runs: the caller's own, unchanged, are read and
listed; a changed one, another passport's, or one the town did not make for that run is refused with the
papers; a result of a kind the Foundry does not read is accepted and not read."""

import copy
import random
from typing import Any

import pytest

from clockford.town.models import Passport
from districts.arena.tests.agents import guess
from districts.foundry import services
from districts.foundry.tests.test_cast import slips
from districts.testing import outcome, visit
from districts.town_hall.models import CensusState
from districts.town_hall.tests.conftest import demo, fresh_clerk

__all__ = ["demo", "fresh_clerk"]
pytestmark = pytest.mark.django_db


def arena_result(passport: Passport) -> dict[str, Any]:
    tasks = visit(passport, "arena_run", begin=True).structured["tasks"]
    answers = [{"task": t["task"], "answer": guess(random.Random(5), t)} for t in tasks]
    done = visit(passport, "arena_answer", answers=answers)
    assert done.is_error is False, done.structured["say"]
    return dict(done.structured["signed"])


def test_it_reads_your_own_arena_results(demo: CensusState, alice: Passport) -> None:
    mine = arena_result(alice)
    assert services.asks()["runs"]["read"] == ["clockford-arena-1"]
    r = visit(alice, "foundry_cast", slips=slips(alice), runs=[mine, {"statement": {"kind": "clockford-alley-1"}}])
    assert r.is_error is False, r.structured["say"]
    s = mine["statement"]
    assert r.structured["runs"] == {
        "given": 2,
        "read": 1,
        "results": [{k: s[k] for k in ("kind", "run", "right", "of", "chance", "scored")}],
        "note": services.RUNS_NOTE,
    }


@pytest.mark.parametrize("bent", ["changed", "borrowed", "made-up"])
def test_a_changed_borrowed_or_made_up_result_is_refused_with_the_papers(
    demo: CensusState, alice: Passport, bob: Passport, bent: str
) -> None:
    if bent == "borrowed":
        paper = arena_result(bob)
        reason = "an Arena result that is not yours"
    else:
        paper = copy.deepcopy(arena_result(alice))
        if bent == "changed":
            paper["statement"]["right"] = paper["statement"]["of"]
            reason = "an Arena result whose signature does not check"
        else:
            # Signed by the town's Arena key, but never the result of that run: the town made no such result.
            from districts.arena import services as arena

            paper = arena.KEY.sign({**paper["statement"], "right": 99})
            reason = "an Arena result that is not the one the town made for that run"
    r = visit(alice, "foundry_cast", slips=slips(alice), runs=[paper])
    assert outcome(r) == "refused:papers"
    assert r.structured["problems"] == [{"run": 0, "reason": reason}]
    # Nothing is missing, so needed is empty: the say must point at problems too, where the reason is.
    assert r.structured["needed"] == [] and "problems" in r.structured["say"]
    assert visit(alice, "foundry").structured["yours"] is None


def test_the_same_result_twice_is_refused_as_a_slip_twice_is(demo: CensusState, alice: Passport) -> None:
    mine = arena_result(alice)
    r = visit(alice, "foundry_cast", slips=slips(alice), runs=[mine, copy.deepcopy(mine)])
    assert outcome(r) == "refused:papers"
    assert r.structured["problems"] == [{"run": 1, "reason": "the same result twice"}]
    assert visit(alice, "foundry").structured["yours"] is None
