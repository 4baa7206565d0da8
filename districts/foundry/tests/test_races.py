"""foundry_cast raced on PostgreSQL (districts.testing.race): casts at once with the same papers make one
certificate, and the others are told a live one is held."""

from typing import Any

from districts.foundry import services
from districts.foundry.models import Certificate
from districts.foundry.tests.test_cast import slips
from districts.testing import race, racing
from tests.fixtures import agent

pytestmark = racing()


def test_casts_at_once_make_one_certificate(settings: Any) -> None:
    # With the Bank off, nothing else in the call holds the passport: the Foundry's own lock must.
    settings.CHANGES_PER_HOUR = 0
    p = agent(None)
    papers = slips(p)
    replies = race([(p, "foundry_cast", {"slips": papers})] * 4)
    assert sorted(r.is_error for r in replies) == [False, True, True, True], [r.structured["say"] for r in replies]
    assert {r.structured["say"] for r in replies if r.is_error} == {services.LIVE_SAY}
    assert Certificate.objects.filter(passport=p).count() == 1
