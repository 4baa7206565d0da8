"""trace (000 section 08): one parcel (P-...) or beacon (B-...). Anyone sees the public face; a parcel's
publisher and claimant, and a beacon's asker, see more. A number that does not exist, a malformed one,
and one the caller may not see all get the same reply. Works without sign-in; the reply counts against
the day's private budget."""

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from pydantic import ValidationError

from clockford.town import clock, holds
from clockford.town.models import Passport
from districts.switchboard import beacons, common, parcels
from districts.switchboard.models import Channel
from districts.testing import outcome, visit


@pytest.fixture
def lamps(alice: Passport) -> Channel:
    return Channel.objects.create(name="lamps", opened_at=alice.issued_at, opened_by=alice, account=alice.account)


def trace(passport: Passport, id: str) -> dict[str, Any]:
    r = visit(passport, "trace", id=id)
    assert r.is_error is False, r.structured
    assert outcome(r) == "ok"
    return r.structured


@pytest.mark.parametrize(
    "id",
    ["P-NOSUCHPARCEL", "B-NOSUCHBEACON", "P-", "B-", "X-123", "hello", "p-lowercase", "P-" + "A" * 38, "'; DROP TABLE"],
)
def test_a_number_that_does_not_exist_gets_the_one_reply(bob: Passport, id: str) -> None:
    r = visit(bob, "trace", id=id)
    assert r.is_error is True
    assert r.structured["say"] == common.NOT_SEEN_SAY == "Nothing in town has that tracking number that you can see."
    assert set(r.structured) == {"say", "footstep", "provenance"}
    assert outcome(r) == "refused:not-found"


def test_a_beacon_past_its_day_gets_the_same_reply_as_none(alice: Passport, bob: Passport, lamps: Channel) -> None:
    beacon = beacons.do_raise(alice, "lamps", "Who lit lot 12?")
    clock.advance(timedelta(hours=1, days=1, minutes=1))
    gone = visit(bob, "trace", id=beacon.id)
    never = visit(bob, "trace", id="B-NOSUCHBEACON")
    assert gone.structured["say"] == never.structured["say"] == common.NOT_SEEN_SAY
    assert outcome(gone) == outcome(never) == "refused:not-found"


def test_a_beacon_shows_everyone_its_public_face(
    alice: Passport, alice2: Passport, bob: Passport, charlie: Passport, lamps: Channel
) -> None:
    beacon = beacons.do_raise(alice, "lamps", "Who lit lot 12?")
    beacons.do_answer(alice2, beacon.id, "The night watch did.")
    for who in (alice2, bob, charlie):
        sc = trace(who, beacon.id)
        assert sc["say"] == f"Beacon {beacon.id} is lit."
        assert sc["beacon"]["id"] == beacon.id and sc["beacon"]["words"] == {"question": "Who lit lot 12?"}
        assert sc["beacon"]["answers"] == 1 and "you" not in sc["beacon"]
        assert "The night watch did." not in str(sc)
        assert sc["provenance"]["parts"] == [
            {"path": "beacon.words.question", "label": "agent-written"},
            {"path": "beacon.channel", "label": "agent-written"},
        ]


def test_a_beacons_asker_sees_the_answers(alice: Passport, alice2: Passport, lamps: Channel) -> None:
    beacon = beacons.do_raise(alice, "lamps", "Who lit lot 12?")
    beacons.do_answer(alice2, beacon.id, "The night watch did.")
    sc = trace(alice, beacon.id)
    assert sc["beacon"]["you"] == "asker"
    assert sc["beacon"]["answers"][0]["words"] == {"answer": "The night watch did."}
    parts = sc["provenance"]["parts"]
    assert {"path": "beacon.words.question", "label": "agent-written", "own": True} in parts
    assert {"path": "beacon.answers[0].words.answer", "label": "agent-written"} in parts


def test_a_parcel_shows_everyone_its_public_face(
    alice: Passport, bob: Passport, charlie: Passport, lamps: Channel
) -> None:
    parcel = parcels.do_post(alice, "lamps", "Count the lamps", "Walk lots 1 to 20.", "A number for each lot.")
    for who in (bob, charlie):
        sc = trace(who, parcel.id)
        assert sc["say"] == f"Parcel {parcel.id} is open."
        seen = sc["parcel"]
        assert (seen["id"], seen["state"], seen["channel"]) == (parcel.id, "open", "lamps")
        assert seen["words"] == {
            "title": "Count the lamps",
            "brief": "Walk lots 1 to 20.",
            "doneWhen": "A number for each lot.",
        }
        assert "you" not in seen
        parts = sc["provenance"]["parts"]
        assert {"path": "parcel.words.title", "label": "agent-written"} in parts
        assert all(p["path"].startswith("parcel.") and "own" not in p for p in parts)


def test_a_parcels_parties_see_more(alice: Passport, alice2: Passport, lamps: Channel) -> None:
    parcel = parcels.do_post(alice, "lamps", "Count the lamps", "Walk lots 1 to 20.", "A number for each lot.")
    parcels.do_take(alice2, parcel.id)
    parcels.do_hand_in(alice2, parcel.id, "deliver", "Lot 1: 4 lamps.", None, harbour_read=True)
    mine = trace(alice, parcel.id)
    assert mine["parcel"]["you"] == "publisher" and mine["say"] == f"Parcel {parcel.id} is delivered."
    assert mine["parcel"]["attempts"][0]["words"] == {"result": "Lot 1: 4 lamps."}
    assert {"path": "parcel.attempts[0].words.result", "label": "agent-written"} in mine["provenance"]["parts"]
    theirs = trace(alice2, parcel.id)
    assert theirs["parcel"]["you"] == "claimant"
    assert {"path": "parcel.attempts[0].words.result", "label": "agent-written", "own": True} in theirs["provenance"][
        "parts"
    ]


def test_a_trace_over_the_days_private_budget_waits_for_the_person(
    alice: Passport, alice2: Passport, lamps: Channel
) -> None:
    beacon = beacons.do_raise(alice, "lamps", "Who lit lot 12?")
    beacons.do_answer(alice2, beacon.id, "The lamplighter of the east ward lit it, " + "at dusk " * 6)
    with override_settings(CLOCKFORD={**settings.CLOCKFORD, "PRIVATE_BYTES_A_DAY": 50}):
        # The public face carries no private content: anyone may trace it, however often.
        assert visit(alice2, "trace", id=beacon.id).is_error is False
        # The asker's view carries the answers, which only the asker reads: they count.
        r = visit(alice, "trace", id=beacon.id)
    assert r.is_error is True and outcome(r) == "held"
    assert r.structured["say"].startswith(holds.SAYS["budget"])
    assert "beacon" not in r.structured


def test_the_schema_bounds_the_id(bob: Passport) -> None:
    for bad in ("", "P-" + "A" * 39):
        with pytest.raises(ValidationError):
            visit(bob, "trace", id=bad)
