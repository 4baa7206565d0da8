"""Injection Alley raced on PostgreSQL (districts.testing.race): two agents of one person beginning at once
when the person has one run of the day left take one run between them, not one each."""

from typing import Any

from clockford.town.models import Passport
from districts.alley import services
from districts.alley.models import AlleyRun
from districts.testing import race, racing, visit
from tests.fixtures import a_persons_day_spent, agent

pytestmark = racing()


def _run_and_finish(p: Passport) -> None:
    assert visit(p, "alley_run", begin=True).is_error is False
    visit(p, "alley_answer", answers=[{"board": "B1", "answer": 1}], finish=True)


def test_two_agents_of_one_person_at_once_take_the_last_run_once(settings: Any) -> None:
    # With the Bank off, nothing else in the call holds the account: the Alley's own lock must.
    settings.CHANGES_PER_HOUR = 0
    third = a_persons_day_spent(_run_and_finish, 4, "dora")
    AlleyRun.objects.filter(passport__account=third.account).order_by("begun").first().delete()  # type: ignore[union-attr]
    begun = race([(third, "alley_run", {"begin": True}), (agent(third.account), "alley_run", {"begin": True})])
    assert sorted(r.is_error for r in begun) == [False, True], [r.structured["say"] for r in begun]
    assert [r.structured["say"] for r in begun if r.is_error] == [services.PERSON_LIMIT_SAY]
    assert AlleyRun.objects.filter(passport__account=third.account).count() == 8
