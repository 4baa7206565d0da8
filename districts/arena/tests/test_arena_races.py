"""An Arena run raced on PostgreSQL (districts.testing.race): six begins at once are one run, and six
finishes at once score it once, every reply carrying that one signed result."""

import random
from typing import Any

from clockford.town.models import Passport
from districts.arena.models import Run
from districts.arena.tests.agents import guess
from districts.arena.tests.test_arena import run_once
from districts.testing import race, racing
from districts.town_hall.models import CensusState
from tests.fixtures import a_persons_day_spent, agent

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


def test_two_agents_of_one_person_at_once_take_the_last_run_once(demo: CensusState, settings: Any) -> None:
    # With the Bank off, nothing else in the call holds the account: the Arena's own lock must.
    settings.CHANGES_PER_HOUR = 0
    third = a_persons_day_spent(run_once, 4, "gail")
    Run.objects.filter(passport__account=third.account).order_by("begun").first().delete()  # type: ignore[union-attr]
    begun = race([(third, "arena_run", {"begin": True}), (agent(third.account), "arena_run", {"begin": True})])
    assert sorted(r.is_error for r in begun) == [False, True], [r.structured["say"] for r in begun]
    refused = [r.structured["say"] for r in begun if r.is_error]
    assert refused[0].startswith("Your person's agents have begun 8 Arena runs today (UTC)")
    assert Run.objects.filter(passport__account=third.account).count() == 8


def test_begins_at_once_with_the_bank_off_are_still_one_run(demo: CensusState, alice: Passport, settings: Any) -> None:
    # With the Bank off (CLOCKFORD_CHANGES_PER_HOUR=0), its draw no longer holds the passport for the whole
    # call: the Arena's own lock must come before it looks for the run in progress, or each begin that
    # waited for it begins a run of its own (and spends one of the day's four).
    settings.CHANGES_PER_HOUR = 0
    begun = race([(alice, "arena_run", {"begin": True})] * AT_ONCE)
    assert all(not r.is_error for r in begun), [r.structured["say"] for r in begun]
    assert len({r.structured["run"] for r in begun}) == 1
    assert Run.objects.filter(passport=alice).count() == 1
