"""enter, walk_to a house, and look_around at one: the census record, its neighbours, where the facts
come from, and the refusal that names the range of lots."""

import pytest

from clockford.town.models import Passport
from districts.testing import outcome, visit
from districts.town_hall.models import CensusState
from districts.town_hall.tests.base import listing, lot, take

pytestmark = pytest.mark.django_db


def test_it_enters_a_house_by_number_and_by_name(demo: CensusState, alice: Passport) -> None:
    pdf = lot("io.clockford.demo/pdf-reader")
    by_number = visit(alice, "enter", lot=pdf.number).structured
    by_name = visit(alice, "enter", lot="io.clockford.demo/pdf-reader").structured
    by_digits = visit(alice, "enter", lot=str(pdf.number)).structured
    assert by_number["server"] == by_name["server"] == by_digits["server"] == pdf.record
    assert set(by_number) == {"say", "server", "neighbors", "note", "source", "footstep", "provenance"}
    assert by_number["neighbors"] == [
        {"lot": pdf.number - 1, "name": lot("io.clockford.demo/dusty").name},
        {"lot": pdf.number + 1, "name": "io.clockford.demo/postgres-readonly"},
    ]
    assert (
        by_number["say"] == f"You enter the house on lot {pdf.number}: class A, 5 floors, its lamp lit; integrity 100."
    )
    assert "never opens a connection" in by_number["note"]
    labels = {(p["path"], p["label"]) for p in by_number["provenance"]["parts"]}
    assert {
        ("server.name", "publisher-words"),
        ("server.title", "publisher-words"),
        ("neighbors[].name", "publisher-words"),
    } <= labels
    alice.refresh_from_db()
    assert alice.place == f"lot {pdf.number}"


def test_the_first_and_last_lots_have_one_neighbour(demo: CensusState, alice: Passport) -> None:
    assert [n["lot"] for n in visit(alice, "enter", lot=0).structured["neighbors"]] == [1]
    assert [n["lot"] for n in visit(alice, "enter", lot=33).structured["neighbors"]] == [32]


@pytest.mark.parametrize("ref", [34, 10**9, 10**20, "io.clockford.demo/nothing", "IO.CLOCKFORD.DEMO/PDF-READER", "999"])
def test_it_refuses_a_lot_that_is_not_there(demo: CensusState, alice: Passport, ref: int | str) -> None:
    r = visit(alice, "enter", lot=ref)
    assert r.is_error is True
    assert r.structured["say"] == "No lot by that number or name. Lots run from 0 to 33."
    assert outcome(r) == "refused:no-lot"


def test_an_empty_census_has_no_lots(alice: Passport) -> None:
    r = visit(alice, "enter", lot=0)
    assert r.structured["say"] == "No lot by that number or name. The census holds no lots yet."


def test_walk_to_reaches_a_house_by_number_or_name(demo: CensusState, alice: Passport) -> None:
    n = lot("io.clockford.demo/calendar").number
    for to in (str(n), "io.clockford.demo/calendar"):
        r = visit(alice, "walk_to", to=to)
        assert r.is_error is False
        assert r.structured["here"]["lot"] == n and r.structured["here"]["name"] == "io.clockford.demo/calendar"
        assert r.structured["say"] == f"You walk to the house on lot {n}. Use enter for its facts."
        alice.refresh_from_db()
        assert alice.place == f"lot {n}"
    here = visit(alice, "look_around").structured["here"]
    assert here["lot"] == n and "note" in here
    refused = visit(alice, "walk_to", to="io.clockford.demo/nowhere")
    assert refused.structured["say"] == "No district or house by that name."


def test_look_around_counts_the_census(demo: CensusState, alice: Passport) -> None:
    town = visit(alice, "look_around").structured["town"]
    assert town["census"].startswith("Clockford demo census (made-up servers, not the official registry), as of ")
    assert town["servers"] == 34 and town["registryEntriesBeforeDedup"] == 37
    assert town["litLamps"] == demo.lit_lamps > 0
    assert town["seal"]["holds"] == 34 and town["seal"]["root"] == demo.root
    assert "Merkle root" in town["seal"]["note"]
    assert town["districts"] >= 4


def test_a_house_of_one_floor_is_said_in_plain_english(alice: Passport) -> None:
    # A listing that sets none of the checklist's fields is a house of one floor; the say once read "1 floors".
    take([listing("io.github.acme/bare", version="latest", title=None, repo=None, description="")])
    r = visit(alice, "enter", lot="io.github.acme/bare")
    assert r.is_error is False and r.structured["server"]["house"]["floors"] == 1
    assert ", 1 floor, its lamp" in r.structured["say"]
