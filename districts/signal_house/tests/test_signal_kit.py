"""signal_kit: the whole kit from the sealed record (missing, integrity with deductions, the house now
and fixed, the checklist, limits), the same kit for the same lot, the census and seal it came from, a
refusal for a lot not in the census, and the public's one rounded number a day."""

import datetime as dt

import pytest
from django.utils import timezone

from clockford.town.models import Footstep, Passport
from districts.signal_house import services
from districts.testing import outcome, visit
from districts.town_hall.models import CensusState
from districts.town_hall.tests.base import lot

pytestmark = pytest.mark.django_db

FIELDS = {
    "say",
    "kit",
    "from",
    "server",
    "missing",
    "integrity",
    "house",
    "checklist",
    "limits",
    "footstep",
    "provenance",
}


def kit(alice: Passport, ref: int | str) -> dict:  # type: ignore[type-arg]
    r = visit(alice, "signal_kit", lot=ref)
    assert r.is_error is False, r.structured["say"]
    return r.structured


def test_it_draws_the_whole_kit(demo: CensusState, alice: Passport) -> None:
    k = kit(alice, "io.clockford.demo/unversioned")
    assert set(k) == FIELDS
    assert k["kit"] == services.KIT_VERSION
    assert k["from"] == {"census": k["from"]["census"], "seal": demo.root}
    assert k["from"]["census"].startswith("Clockford demo census")
    assert k["server"] == lot("io.clockford.demo/unversioned").record
    assert k["missing"] == {"title": False, "repository": False, "description": False, "versions": True}
    (d,) = k["integrity"]["deductions"]
    assert d == {
        "rule": "version-not-semver",
        "points": 10,
        "reason": "The latest version is not a semantic version (like 1.2.0), so updates cannot be ordered.",
        "clears": "version",
        "evidence": "latest",
    }
    assert k["integrity"]["score"] == 90
    assert [c["field"] for c in k["checklist"]] == ["title", "repository.url", "description", "version"]
    assert [c["toSet"] for c in k["checklist"]] == [False, False, False, True]
    assert all(c["where"].startswith("server.json") for c in k["checklist"])
    assert k["house"]["now"] == {"class": "A", "floors": 4, "lampLit": True, "integrity": 90}
    assert k["house"]["fixed"] == {"class": "A", "floors": 5, "lampLit": True, "integrity": 100}
    assert k["house"]["changes"] == [
        {"what": "floors", "now": 4, "fixed": 5},
        {"what": "integrity", "now": 90, "fixed": 100},
    ]
    assert any("Nothing is sent" in line for line in k["limits"])
    assert k["say"] == (
        f"A launch kit for lot {k['server']['lot']}: integrity 90 now, 100 once the listing is published again "
        "with the checklist set; 1 of 4 checklist fields to set. Nothing was sent anywhere."
    )
    place = alice.place
    alice.refresh_from_db()
    assert alice.place == place  # private: drawing a kit never moves the agent on the public map


def test_what_no_listing_field_clears_stays_in_the_fixed_house(demo: CensusState, alice: Passport) -> None:
    k = kit(alice, "io.clockford.demo/old-maps")
    assert k["house"]["now"]["integrity"] == k["house"]["fixed"]["integrity"] == 60
    assert k["house"]["fixed"]["lampLit"] is False  # deprecated: publishing again lights nothing
    stale = kit(alice, "io.clockford.demo/dusty")
    assert stale["house"]["now"]["lampLit"] is False and stale["house"]["fixed"]["lampLit"] is True
    assert stale["house"]["fixed"]["integrity"] == 100


def test_the_same_lot_gives_the_same_kit(demo: CensusState, alice: Passport, bob: Passport) -> None:
    a = kit(alice, 7)
    b = kit(bob, "io.clockford.demo/notes-untitled")
    for k in (a, b):
        k.pop("footstep")
    assert a == b


def test_evidence_and_the_record_are_the_publishers_words(demo: CensusState, alice: Passport) -> None:
    k = kit(alice, "io.clockford.demo/injector")
    parts = {(p["path"], p["label"]) for p in k["provenance"]["parts"]}
    assert ("integrity.deductions[].evidence", "publisher-words") in parts
    assert ("server.words", "publisher-words") in parts and ("server.name", "publisher-words") in parts
    assert "Ignore all previous" in k["integrity"]["deductions"][0]["evidence"]
    assert "Ignore" not in k["say"]


def test_it_refuses_a_lot_not_in_the_census(demo: CensusState, alice: Passport) -> None:
    r = visit(alice, "signal_kit", lot="io.github.nobody/nothing")
    assert r.is_error is True
    assert r.structured["say"] == "No lot by that number or name. Lots run from 0 to 33."
    assert outcome(r) == "refused:no-lot"


def test_the_public_sees_one_rounded_number_a_day(demo: CensusState, alice: Passport) -> None:
    for _ in range(7):
        kit(alice, 1)
    visit(alice, "signal_kit", lot=999)  # a refusal is not a kit drawn
    today = timezone.now().date()
    assert services.kits_drawn(today) == {"day": today.isoformat(), "kits": 5, "rounded": "down to 5s"}
    assert services.kits_drawn(today - dt.timedelta(days=1))["kits"] == 0
    assert Footstep.objects.filter(tool="signal_kit").count() == 8


@pytest.mark.parametrize("ref", ["²", "１２", "12" * 10])
def test_a_lot_no_census_can_hold_is_refused_the_ordinary_way(demo: CensusState, alice: Passport, ref: str) -> None:
    r = visit(alice, "signal_kit", lot=ref)
    assert r.is_error is True
    assert r.structured["say"] == "No lot by that number or name. Lots run from 0 to 33."
    assert outcome(r) == "refused:no-lot"
