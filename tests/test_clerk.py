"""The clerk's rate limit (000 section 03 "Rates", 001 "Busy"): past a passport's calls for the minute,
every call is answered "The clerk is busy. Try again in N seconds." with retryAfterSeconds, runs
nothing, and is still a footstep. The window lives in the passport's row, counted by the same UPDATE
that counts the footstep."""

from datetime import timedelta
from typing import Any

import pytest

from clockford.face.sessions import PASSPORT_FIELDS
from clockford.town import clock
from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.testing import new_passport, outcome, visit

pytestmark = pytest.mark.django_db


@pytest.fixture
def five_a_minute(settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "CALLS_PER_MINUTE": 5}


def test_it_answers_busy_past_the_minutes_calls(five_a_minute: None) -> None:
    alice = new_passport()
    for _ in range(5):
        assert visit(alice, "look_around").is_error is False
    r = visit(alice, "remember", key="k", value="v")
    wait = r.structured["retryAfterSeconds"]
    assert r.is_error and 1 <= wait <= 60 and "hold" not in r.structured
    assert r.structured["say"] == f"The clerk is busy. Try again in {wait} seconds."
    assert outcome(r) == "busy" and not Note.objects.exists()
    assert Passport.objects.get(pk=alice.pk).footsteps == 6  # the busy call is a footstep too
    # Another passport has a clerk's minute of its own.
    assert visit(new_passport(), "look_around").is_error is False
    clock.advance(timedelta(seconds=wait))
    assert visit(alice, "remember", key="k", value="v").is_error is False


def test_it_counts_in_the_passports_row_across_requests(five_a_minute: None) -> None:
    alice = new_passport()
    for _ in range(5):
        # A fresh copy each time, as each HTTP request reads the passport anew.
        visit(Passport.objects.get(pk=alice.pk), "look_around")
    assert Passport.objects.get(pk=alice.pk).calls == 5
    assert visit(Passport.objects.get(pk=alice.pk), "look_around").is_error is True


def test_no_limit_when_set_to_zero(settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "CALLS_PER_MINUTE": 0}
    alice = new_passport()
    assert all(visit(alice, "look_around").is_error is False for _ in range(30))


def test_the_session_lookup_reads_the_passports_columns_in_the_models_order() -> None:
    # Model.from_db takes a plain SELECT's values in the order the model declares its fields.
    declared = [f.attname for f in Passport._meta.concrete_fields if f.attname in PASSPORT_FIELDS]
    assert declared == list(PASSPORT_FIELDS)
