"""The Clinic raced on PostgreSQL (districts.testing.race): two agents of one person beginning at once
when the person has one check-up of the day left take one between them, not one each."""

from typing import Any

from clockford.town.models import Passport
from districts.clinic.models import Checkup
from districts.testing import race, racing, visit
from districts.town_hall.models import CensusState
from tests.fixtures import a_persons_day_spent, agent

pytestmark = racing()


def _checkup(p: Passport) -> None:
    assert visit(p, "calibration_checkup", begin=True).is_error is False
    done = visit(p, "calibration_answer", answers=[{"probe": "P01", "answer": "no", "confidence": 0.6}], finish=True)
    assert done.is_error is False


def test_two_agents_of_one_person_at_once_take_the_last_checkup_once(demo: CensusState, settings: Any) -> None:
    # With the Bank off, nothing else in the call holds the account: the Clinic's own lock must.
    settings.CHANGES_PER_HOUR = 0
    third = a_persons_day_spent(_checkup, 4, "fran")
    Checkup.objects.filter(passport__account=third.account).order_by("begun").first().delete()  # type: ignore[union-attr]
    begun = race(
        [
            (third, "calibration_checkup", {"begin": True}),
            (agent(third.account), "calibration_checkup", {"begin": True}),
        ]
    )
    assert sorted(r.is_error for r in begun) == [False, True], [r.structured["say"] for r in begun]
    refused = [r.structured["say"] for r in begun if r.is_error]
    assert refused[0].startswith("Your person's agents have begun 8 check-ups today (UTC)")
    assert Checkup.objects.filter(passport__account=third.account).count() == 8


def test_begins_at_once_with_the_bank_off_are_one_checkup(demo: CensusState, alice: Passport, settings: Any) -> None:
    # With the Bank off, its draw no longer holds the passport for the whole call: the Clinic's own lock
    # must come before it looks for the check-up in progress, or each begin that waited for it begins
    # another (and spends one of the day's four).
    settings.CHANGES_PER_HOUR = 0
    begun = race([(alice, "calibration_checkup", {"begin": True})] * 6)
    assert all(not r.is_error for r in begun), [r.structured["say"] for r in begun]
    assert len({r.structured["checkup"] for r in begun}) == 1
    assert Checkup.objects.filter(passport=alice).count() == 1
