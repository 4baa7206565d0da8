"""Every time a reply states is written one way (clock.iso): UTC, to the second, with Z. Districts
wrote two forms (2026-12-05T17:25:00.123456+00:00 beside 2026-12-05T17:25:00Z)."""

import datetime as dt
import re
from typing import Any

import pytest

from clockford.leaves import leaves
from clockford.town import clock
from clockford.town.models import Passport
from districts.testing import visit

pytestmark = pytest.mark.django_db

LOOKS_LIKE_A_TIME = re.compile(r"\d{4}-\d\d-\d\dT")
ONE_FORM = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def times_in(structured: dict[str, Any]) -> list[str]:
    return [v for v in leaves(structured) if isinstance(v, str) and LOOKS_LIKE_A_TIME.match(v)]


def test_iso_is_utc_to_the_second_with_z() -> None:
    at = dt.datetime(2026, 12, 5, 18, 25, 0, 123456, tzinfo=dt.timezone(dt.timedelta(hours=1)))
    assert clock.iso(at) == "2026-12-05T17:25:00Z"


def test_replies_state_their_times_in_one_form(alice: Passport) -> None:
    visit(alice, "remember", key="k", value="v")
    seen: list[str] = []
    for tool, arguments in (("show_passport", {}), ("recall", {"key": "k"}), ("context_gauge", {})):
        seen += times_in(visit(alice, tool, **arguments).structured)
    assert len(seen) >= 3, seen  # issuedAt, keptAt, countedSince at least
    assert all(ONE_FORM.fullmatch(t) for t in seen), seen
