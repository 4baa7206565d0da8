"""verify: real true with the full census record; real false is an answer, not an error, with a
reason; a name that differs only in case is pointed out; secret-shaped input is withheld."""

import pytest

from clockford.town.models import Passport
from districts.testing import outcome, visit
from districts.town_hall.models import CensusState
from districts.town_hall.tests.base import lot

pytestmark = pytest.mark.django_db


def test_a_server_in_the_census_is_real(demo: CensusState, alice: Passport) -> None:
    r = visit(alice, "verify", server="io.clockford.demo/web-search")
    sc = r.structured
    assert r.is_error is False
    assert set(sc) == {"say", "real", "server", "source", "footstep", "provenance"}
    assert sc["real"] is True
    assert sc["server"] == lot("io.clockford.demo/web-search").record
    assert sc["say"] == f"Real: lot {sc['server']['lot']} is in the census, with integrity 100."
    assert {"path": "server.name", "label": "publisher-words"} in sc["provenance"]["parts"]
    assert demo.root in sc["source"]


def test_a_server_not_in_the_census_is_an_answer(demo: CensusState, alice: Passport) -> None:
    r = visit(alice, "verify", server="io.github.nobody/nothing")
    sc = r.structured
    assert r.is_error is False and outcome(r) == "ok"
    assert set(sc) == {"say", "real", "server", "reason", "source", "footstep", "provenance"}
    assert sc["real"] is False and sc["server"] == "io.github.nobody/nothing"
    assert sc["reason"].startswith("No server by that name is in the census")
    assert {"path": "server", "label": "agent-written", "own": True} in sc["provenance"]["parts"]


def test_a_name_that_differs_only_in_case_is_pointed_out(demo: CensusState, alice: Passport) -> None:
    sc = visit(alice, "verify", server="io.clockford.demo/WEATHER").structured
    assert sc["real"] is False
    weather, Weather = lot("io.clockford.demo/weather").number, lot("io.clockford.demo/Weather").number
    assert f"lot {min(weather, Weather)}, lot {max(weather, Weather)}" in sc["reason"]
    assert "case-sensitive" in sc["reason"]


def test_one_name_that_differs_only_in_case_is_counted_in_plain_english(demo: CensusState, alice: Passport) -> None:
    # The reason once read "1 census name(s) differ from it only in case".
    sc = visit(alice, "verify", server="io.clockford.demo/DUSTY").structured
    dusty = lot("io.clockford.demo/dusty").number
    assert sc["reason"].startswith(
        f"No server has exactly that name. 1 census name differs from it only in case: lot {dusty}. "
    )
    sc = visit(alice, "verify", server="io.clockford.demo/WEATHER").structured
    assert "2 census names differ from it only in case: lot " in sc["reason"]


def test_something_not_shaped_like_a_name_is_said_to_be_so(demo: CensusState, alice: Passport) -> None:
    sc = visit(alice, "verify", server="postgres please").structured
    assert sc["real"] is False and sc["reason"].startswith("That is not shaped like a registry name")


@pytest.mark.parametrize(
    "secret",
    ["ghp_" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8", "io.github.me/x?key=AKIA" + "QWERTYUIOPASDFGH"],
)
def test_secret_shaped_input_is_withheld_from_the_echo(demo: CensusState, alice: Passport, secret: str) -> None:
    r = visit(alice, "verify", server=secret)
    assert r.is_error is False and r.structured["real"] is False
    assert secret not in r.text and secret[4:20] not in r.text
    assert r.structured["server"].startswith("(withheld: it looks like ")
    assert "tell the human who runs you" in r.structured["reason"]


@pytest.mark.parametrize("server", ["io.clockford.demo/web-search\x00", "\x00", "io.clockford.demo/WEB-SEARCH\x00x"])
def test_a_name_holding_nul_is_refused_for_its_control_character(
    demo: CensusState, alice: Passport, server: str
) -> None:
    # The desk refuses a name or number carrying a control character before any district reads it
    # (clockford/town/kept.py): no name in the census has one.
    r = visit(alice, "verify", server=server)
    assert r.is_error is True and outcome(r) == "refused:control-character"
    assert r.structured["field"] == "server"
