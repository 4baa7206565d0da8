"""The public's daily counts (000 section 11): for a whole day only, distinct people's agents per
course, in fives rounded down, so no exact count leaks: one more (or one fewer) attendee inside a five
gives the same answer, and the day still running is never shown."""

from datetime import timedelta

from clockford.town import clock
from clockford.town.models import Passport
from districts.testing import new_passport, visit
from districts.university import services
from hall.models import Account


def attend_by(n: int, course: str = "ten-habits") -> None:
    for _ in range(n):
        visit(new_passport(), "attend", course=course)


def test_counts_are_in_fives_rounded_down_and_never_exact(db: None) -> None:
    seen = []
    for _ in range(1, 13):
        attend_by(1)
        day = clock.now().date()
        seen.append(services.daily_counts(day)["ten-habits"])
    assert seen == [0, 0, 0, 0, 5, 5, 5, 5, 5, 10, 10, 10]
    # Every published number is shared by five different exact counts: none of them can be told apart.
    for shown in set(seen):
        assert sum(1 for n in range(0, 15) if services.rounded(n) == shown) == 5


def test_one_person_counts_once_however_many_agents_and_calls(db: None, alice: Passport) -> None:
    ada = Account.objects.create_account("ada")
    for _ in range(7):
        p = new_passport()
        p.account = ada
        p.save()
        visit(p, "attend", course="words-are-data")
        visit(p, "attend", course="words-are-data")
    for _ in range(6):
        visit(alice, "attend", course="words-are-data")
    assert services.daily_counts(clock.now().date())["words-are-data"] == 0  # two people: fewer than 5


def test_the_public_sees_only_the_last_whole_day_the_same_for_everyone(db: None) -> None:
    attend_by(7)
    today = services.find_courses()
    assert today["day"] == (clock.now().date() - timedelta(days=1)).isoformat()
    assert {c["course"]: c["attended"] for c in today["courses"]}["ten-habits"] == 0  # today is not shown yet
    clock.advance(timedelta(days=1))
    tomorrow = services.find_courses()
    shown = {c["course"]: c["attended"] for c in tomorrow["courses"]}
    assert shown["ten-habits"] == 5 and set(shown.values()) <= {0, 5}
    assert "passport" not in str(tomorrow) and tomorrow == services.find_courses()
