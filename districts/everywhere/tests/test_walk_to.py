"""walk_to: every district by name (case and a leading "The" do not matter); a district not built
answers status "not open yet" with opens; anything else is refused with every district's name."""

import pytest

from clockford.town.models import Passport
from clockford.town.tooling import District
from districts.registry import DISTRICTS
from districts.testing import outcome, visit

NAMES = [d.name for d in DISTRICTS]
NO_PLACE = "No district or house by that name."


def _without_the(name: str) -> str:
    return name[4:] if name.startswith("The ") else name


def _with_the(name: str) -> str:
    return name if name.startswith("The ") else "The " + name


@pytest.mark.parametrize("district", DISTRICTS, ids=NAMES)
def test_it_walks_to_every_district_by_name(alice: Passport, district: District) -> None:
    d = district
    r = visit(alice, "walk_to", to=d.name)
    assert r.is_error is False
    here = r.structured["here"]
    assert here["name"] == d.name
    assert here["zone"] == d.zone and here["what"] == d.what
    assert here["tools"] == [t.name for t in d.tools]
    if d.is_open:
        assert here["status"] == "open" and "opens" not in here
        assert r.structured["say"] == f"You walk to {d.name}. It is open: {', '.join(here['tools'])}."
    else:
        assert here["status"] == "not open yet"
        assert isinstance(here["opens"], str) and here["opens"]
        assert here["tools"] == []
        assert r.structured["say"] == f"You walk to {d.name}. It is not open yet."
    alice.refresh_from_db()
    assert alice.place == d.name
    assert outcome(r) == "ok"


@pytest.mark.parametrize("name", NAMES)
def test_a_leading_the_is_optional_both_ways(alice: Passport, name: str) -> None:
    for spelled in (_without_the(name), _with_the(name)):
        r = visit(alice, "walk_to", to=spelled)
        assert r.is_error is False, spelled
        assert r.structured["here"]["name"] == name


@pytest.mark.parametrize("spelled", ["THE POST OFFICE", "the post office", "  The   Post\tOffice  ", "post OFFICE"])
def test_case_and_spaces_do_not_matter(alice: Passport, spelled: str) -> None:
    r = visit(alice, "walk_to", to=spelled)
    assert r.is_error is False
    assert r.structured["here"]["name"] == "The Post Office"


@pytest.mark.parametrize(
    "to",
    [
        "Atlantis",
        "Everywhere",
        "The",
        "Post",
        "The The Tavern",
        "Tavern!",
        "T\u200bavern",
        "\u202eTavern",
        "x" * 200,
        # No house is named with NUL (PostgreSQL's text cannot even hold it).
    ],
)
def test_it_refuses_a_place_that_is_not_there(alice: Passport, to: str) -> None:
    before = alice.place
    r = visit(alice, "walk_to", to=to)
    assert r.is_error is True
    assert r.structured["say"] == NO_PLACE
    assert r.structured["districts"] == NAMES
    alice.refresh_from_db()
    assert alice.place == before
    assert outcome(r) == "refused:no-place"


def test_a_district_not_built_says_when_it_opens(alice: Passport) -> None:
    waiting = [d for d in DISTRICTS if not d.is_open]
    if not waiting:
        pytest.skip("every district is open")
    r = visit(alice, "walk_to", to=waiting[0].name)
    assert r.structured["here"]["status"] == "not open yet"
    assert r.structured["here"]["opens"] == waiting[0].opens


def test_walking_changes_only_the_walkers_place(alice: Passport, bob: Passport) -> None:
    visit(alice, "walk_to", to="Post Office")
    bob.refresh_from_db()
    alice.refresh_from_db()
    assert alice.place == "The Post Office"
    assert bob.place != "The Post Office"
