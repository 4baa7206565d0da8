"""An Arena run raced on PostgreSQL (districts.testing.race): six begins at once are one run, and six
finishes at once score it once, every reply carrying that one signed result."""

import random

from clockford.town.models import Passport
from districts.arena.models import Run
from districts.arena.tests.agents import guess
from districts.testing import race, racing
from districts.town_hall.models import CensusState

pytestmark = racing()
AT_ONCE = 6


def test_begins_at_once_are_one_run_and_finishes_at_once_score_it_once(demo: CensusState, alice: Passport) -> None:
    begun = race([(alice, "arena_run", {"begin": True})] * AT_ONCE)
    assert all(not r.is_error for r in begun), [r.structured["say"] for r in begun]
    assert len({r.structured["run"] for r in begun}) == 1
    assert Run.objects.filter(passport=alice).count() == 1

    first = begun[0].structured["tasks"][0]
    answer = {"answers": [{"task": first["task"], "answer": guess(random.Random(0), first)}], "finish": True}
    finished = race([(alice, "arena_answer", answer)] * AT_ONCE)
    done = [r for r in finished if not r.is_error]
    assert done, [r.structured["say"] for r in finished]
    signed = {str(r.structured["signed"]) for r in done}
    assert len(signed) == 1
    for r in finished:
        if r.is_error:
            assert r.structured["say"] == "You have no Arena run in progress. arena_run with begin: true begins one."
    stored = Run.objects.get(passport=alice)
    assert stored.result is not None
