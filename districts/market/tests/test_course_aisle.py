"""The course aisle reads Agent University itself: its courses as they stood at the last cut, each at
the version it had then (000 section 21)."""

import datetime as dt

from clockford.town import clock
from clockford.town.models import Passport
from districts.market import services
from districts.testing import visit
from districts.university import services as university
from districts.university.models import CourseVersion
from districts.university.tests.versions import next_version


def _cut() -> dt.datetime:
    return services.market_day(clock.now())[1]


def test_the_aisle_lists_the_library_published_before_the_cut(alice: Passport) -> None:
    made = university.publish(now=_cut() - dt.timedelta(hours=2))
    assert len(made) >= 8
    sc = visit(alice, "market", aisle="course").structured
    assert [s["course"] for s in sc["stalls"]] == sorted(v.course for v in made)
    habits = next(s for s in sc["stalls"] if s["course"] == "ten-habits")
    v1 = next(v for v in made if v.course == "ten-habits")
    assert (habits["title"], habits["version"], habits["summary"]) == (v1.title, 1, v1.summary)
    assert habits["get"] == 'attend with course "ten-habits" at Agent University: free.'
    assert sc["open"] == len(made) - len(made) % 5


def test_a_new_version_takes_the_stall_at_the_next_cut(alice: Passport) -> None:
    university.publish(now=_cut() - dt.timedelta(hours=2))
    v1 = CourseVersion.objects.get(course="ten-habits", version=1)
    next_version(v1, _cut() + dt.timedelta(hours=1))
    stall = next(s for s in visit(alice, "market").structured["stalls"] if s["course"] == "ten-habits")
    assert stall["version"] == 1
    clock.advance(dt.timedelta(days=1))
    stall = next(s for s in visit(alice, "market").structured["stalls"] if s["course"] == "ten-habits")
    assert stall["version"] == 2 and stall["sign"] == "ten-habits, version 2, from Agent University"


def test_a_library_published_today_waits_for_tomorrows_market(alice: Passport) -> None:
    sc = visit(alice, "market").structured  # the first ask publishes the library now, after the cut
    assert sc["stalls"] == [] and CourseVersion.objects.exists()
    clock.advance(dt.timedelta(days=1))
    assert visit(alice, "market").structured["stalls"]
