"""studios (000 section 17): the last finished day's gallery of creative servers whose deed holders
said yes; counts in fives; the same answer for everyone; private (it does not move the agent)."""

from datetime import UTC, timedelta

import pytest

from clockford.town import clock
from districts.realty import services as realty
from districts.realty.tests.conftest import NAMES, number
from districts.realty.tests.test_claim_deed import give_deed
from districts.studios import services
from districts.testing import visit
from districts.town_hall.models import CensusState
from districts.town_hall.tests.base import listing, take
from tests.fixtures import agent

pytestmark = pytest.mark.django_db


def say_yes(deed: realty.Deed) -> None:
    realty.do_show(deed, realty.show_statement(deed), {"signed": "in a test"})


def without_footstep(r: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in r.items() if k != "footstep"}


def test_only_with_the_deed_holders_yes_from_the_next_day(realty_census: CensusState) -> None:
    ada, reader = agent("ada"), agent("bob")
    painter, ledger = number(NAMES[0]), number(NAMES[2])
    deed = give_deed(ada, painter)
    empty = visit(reader, "studios").structured
    assert empty["results"] == [] and empty["showings"] == {"count": 0, "counted": "down to 5s", "capped": False}
    assert empty["day"] == (clock.now().astimezone(UTC).date() - timedelta(days=1)).isoformat()
    say_yes(deed)
    give_deed(ada, ledger)  # deeded but not creative: never in the Studios, yes or no
    say_yes(realty.find_deed(ledger))  # type: ignore[arg-type]
    # Today's yes shows from the next day shown (the last finished day is what everyone sees today).
    assert visit(reader, "studios").structured["results"] == []
    clock.advance(timedelta(days=1))
    shown = visit(reader, "studios").structured
    lot = realty.lot_of(painter)
    assert lot is not None
    assert shown["results"] == [
        {"lot": painter, "name": NAMES[0], "title": "A title", "kind": "image", "house": lot.record["house"]}
    ]
    assert shown["showings"]["count"] == 0  # one shown server, in fives
    assert {"path": "results[].name", "label": "publisher-words"} in shown["provenance"]["parts"]
    assert shown["never"][0].startswith("A server's work is never fetched or shown")
    # Everyone gets the same answer, signed in or not.
    other = visit(agent(None), "studios").structured
    assert without_footstep(other) == without_footstep(shown)
    # The yes taken back, or the deed lapsed: gone from the next day shown.
    realty.do_unshow(deed)
    assert visit(reader, "studios").structured["results"] != []
    clock.advance(timedelta(days=1))
    assert visit(reader, "studios").structured["results"] == []


def test_a_lapsed_deed_is_not_shown(realty_census: CensusState) -> None:
    deed = give_deed(agent("ada"), number(NAMES[0]))
    say_yes(deed)
    realty.do_checked(deed, False, "the proof is gone")
    clock.advance(timedelta(days=1))
    assert visit(agent("bob"), "studios").structured["results"] == []


def test_counts_are_in_fives(realty_census: CensusState) -> None:
    # Two creative servers in this census (the painter and the sketchbook): rounded down to 0.
    assert services.creative() == {
        "count": 0,
        "byKind": {"video": 0, "audio": 0, "image": 0, "design": 0, "writing": 0},
        "counted": "down to 5s",
    }
    more = [listing(f"org.songs/s{i}", description="Compose music for a film scene.") for i in range(6)]
    take([*more, listing("org.songs/old", description="Compose music.", status="deleted")])
    # 6 audio (the deleted one never counts), 2 image: 8 creative in all.
    assert services.creative() == {
        "count": 5,
        "byKind": {"video": 0, "audio": 5, "image": 0, "design": 0, "writing": 0},
        "counted": "down to 5s",
    }
    owner = agent("ada")
    for i in range(6):
        say_yes(give_deed(owner, number(f"org.songs/s{i}")))
    clock.advance(timedelta(days=1))
    shown = visit(agent("bob"), "studios").structured
    assert len(shown["results"]) == 6 and {r["kind"] for r in shown["results"]} == {"audio"}
    assert shown["showings"] == {"count": 5, "counted": "down to 5s", "capped": False}


def test_it_does_not_move_the_agent(realty_census: CensusState) -> None:
    reader = agent("bob")
    before = reader.place
    visit(reader, "studios")
    reader.refresh_from_db()
    assert reader.place == before
