"""The library as it stood at a moment (`find_versions_at`, which the Market's course aisle reads):
each course at its newest version published before then, never one published since."""

import datetime as dt

import pytest

from clockford.town import clock
from districts.university import services
from districts.university.models import CourseVersion
from districts.university.tests.versions import next_version

pytestmark = pytest.mark.django_db


def test_it_names_each_course_at_its_newest_version_before_the_cut() -> None:
    cut = clock.now()
    made = services.publish(now=cut - dt.timedelta(hours=2))
    v1 = next(v for v in made if v.course == "ten-habits")
    later = next_version(v1, cut + dt.timedelta(hours=1))
    before = services.find_versions_at(cut)
    assert [v.course for v in before] == sorted(v.course for v in made)
    assert next(v for v in before if v.course == "ten-habits").version == 1
    after = services.find_versions_at(later.published + dt.timedelta(seconds=1))
    assert next(v for v in after if v.course == "ten-habits").version == 2


def test_a_new_towns_library_is_published_and_stands_only_from_then() -> None:
    assert not CourseVersion.objects.exists()
    assert services.find_versions_at(clock.now() - dt.timedelta(seconds=1)) == []  # published now, not before
    assert CourseVersion.objects.exists()
    assert len(services.find_versions_at(clock.now() + dt.timedelta(seconds=1))) >= 8
