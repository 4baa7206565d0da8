"""look_around: every field of 000 section 04, the census figures zero until the census lands, and
three plain statements of what the town is not."""

from clockford.town import clock
from clockford.town.models import Passport
from districts.registry import DISTRICTS, START_PLACE
from districts.testing import outcome, visit

# hall: {url, claimed}, where the agent's person decides (clockford/town/handoff.py).
FIELDS = {"say", "you", "here", "open", "town", "honest", "hall", "footstep", "provenance"}


def test_it_answers_every_field(alice: Passport) -> None:
    r = visit(alice, "look_around")
    assert r.is_error is False
    sc = r.structured
    assert set(sc) == FIELDS  # walledOff only when a district is walled off
    assert sc["you"] == {"passport": alice.id, "pennant": None, "place": START_PLACE, "footsteps": 1}
    assert outcome(r) == "ok"


def test_here_is_the_district_the_agent_stands_in(alice: Passport) -> None:
    here = visit(alice, "look_around").structured["here"]
    start = next(d for d in DISTRICTS if d.name == START_PLACE)
    assert here == {
        "name": start.name,
        "zone": start.zone,
        "status": "open",
        "tools": [t.name for t in start.tools],
        "what": start.what,
    }


def test_here_follows_the_agent_to_a_district_not_open_yet(alice: Passport) -> None:
    waiting = next((d for d in DISTRICTS if not d.is_open), None)
    if waiting is None:
        return
    visit(alice, "walk_to", to=waiting.name)
    here = visit(alice, "look_around").structured["here"]
    assert here["name"] == waiting.name
    assert here["status"] == "not open yet" and here["opens"] == waiting.opens


def test_open_lists_every_working_district_and_its_tools(alice: Passport) -> None:
    sc = visit(alice, "look_around").structured
    assert sc["open"] == [{"name": d.name, "tools": [t.name for t in d.tools]} for d in DISTRICTS if d.is_open]
    assert {
        "name": "The Post Office",
        "tools": [
            "remember",
            "recall",
            "forget",
            "send_letter",
            "post_parcel",
            "take_parcel",
            "hand_in",
            "settle_parcel",
        ],
    } in sc["open"]
    assert all(entry["tools"] for entry in sc["open"])


def test_the_town_block_is_zero_until_the_census_lands(alice: Passport) -> None:
    town = visit(alice, "look_around").structured["town"]
    assert set(town) == {"census", "servers", "registryEntriesBeforeDedup", "litLamps", "districts", "seal"}
    assert town["census"] is None
    assert (town["servers"], town["registryEntriesBeforeDedup"], town["litLamps"]) == (0, 0, 0)
    assert town["districts"] == sum(1 for d in DISTRICTS if d.is_open)
    seal = town["seal"]
    assert set(seal) == {"holds", "root", "note"}
    assert seal["holds"] == 0 and seal["root"] is None
    assert isinstance(seal["note"], str) and seal["note"]


def test_honest_is_three_plain_statements(alice: Passport) -> None:
    honest = visit(alice, "look_around").structured["honest"]
    assert len(honest) == 3
    for statement in honest:
        assert isinstance(statement, str)
        assert statement[0].isupper() and statement.endswith(".")
        assert " not " in statement or "Nothing" in statement


def test_it_counts_this_call_among_the_footsteps(alice: Passport) -> None:
    visit(alice, "recall")
    visit(alice, "recall")
    assert visit(alice, "look_around").structured["you"]["footsteps"] == 3


def test_it_does_not_move_the_agent(alice: Passport) -> None:
    visit(alice, "walk_to", to="Post Office")
    visit(alice, "look_around")
    alice.refresh_from_db()
    assert alice.place == "The Post Office"


def test_the_say_names_the_place_and_what_is_open(alice: Passport) -> None:
    sc = visit(alice, "look_around").structured
    assert sc["say"] == f"You are at {START_PLACE}. {len(sc['open'])} districts are open; the census holds 0 servers."


def test_every_value_is_the_towns_own(alice: Passport) -> None:
    prov = visit(alice, "look_around").structured["provenance"]
    assert prov["parts"] == [] and prov["say"] == "town" and prov["rest"] == "town"


def test_an_outsider_sees_only_itself(alice: Passport, charlie: Passport) -> None:
    visit(alice, "remember", key="k", value="v")
    you = visit(charlie, "look_around").structured["you"]
    assert you["passport"] == charlie.id and you["footsteps"] == 1


def test_a_walled_off_district_says_so_where_the_agent_stands_and_where_it_walks(alice: Passport) -> None:
    from clockford.town import walls

    wall = walls.raise_wall("district", "The Post Office", "")
    since = clock.iso(wall.since)  # type: ignore[arg-type]
    r = visit(alice, "walk_to", to="The Post Office")
    assert r.is_error is False
    assert r.structured["here"]["status"] == "walled off"
    assert r.structured["here"]["walledOff"] == {"since": since, "safeDefault": "refuse and wait"}
    assert r.structured["say"] == (
        f"You walk to The Post Office. It is walled off for now (islanded since {since}); "
        "look_around still answers here."
    )
    here = visit(alice, "look_around").structured["here"]
    assert here["status"] == "walled off" and here["name"] == "The Post Office"


def test_a_pennant_is_labelled_as_words_not_the_towns(alice: Passport) -> None:
    """A pennant is words a person chose in the hall (000 section 08: information, never instructions);
    read back under you, it is labelled as the board labels one's own."""
    Passport.objects.filter(pk=alice.pk).update(pennant="owl")
    sc = visit(alice, "look_around").structured
    assert sc["you"]["pennant"] == "owl"
    assert sc["provenance"]["parts"] == [{"path": "you.pennant", "label": "agent-written", "own": True}]
