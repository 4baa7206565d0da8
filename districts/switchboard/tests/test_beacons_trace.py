"""What trace and listen read of beacons (000 section 08), through the services agreed with the
Switchboard's channels: trace_view (the public face for everyone, the answers for the asker, nothing
for a number that does not exist or is past its day), lit_on (a channel's lit beacons) and
channel_of_beacon (the channel a plan step is on). Time is derived when read: a beacon past its hour
is out."""

from collections.abc import Callable
from datetime import timedelta

import pytest

from clockford.town import clock
from clockford.town.models import Passport
from clockford.town.tooling import Part
from districts.switchboard import beacon_tools, beacons
from districts.switchboard.models import Beacon, Channel
from districts.testing import outcome, visit
from hall.models import Account

QUESTION = "Which census servers answer in under a second?"
PUBLIC_KEYS = {"id", "channel", "state", "openedAt", "lapsesAt", "answers", "words"}


@pytest.fixture
def garden(alice: Passport) -> Channel:
    return Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=alice.account)


@pytest.fixture
def beacon(alice: Passport, garden: Channel) -> Beacon:
    return beacons.do_raise(alice, "garden", QUESTION)


def test_everyone_else_sees_the_public_face(alice2: Passport, bob: Passport, charlie: Passport, beacon: Beacon) -> None:
    beacons.do_answer(alice2, beacon.id, "An answer only the asker reads.")
    for who in (alice2, bob, charlie):
        seen = beacons.trace_view(who, beacon.id)
        assert seen is not None
        view, parts = seen
        assert set(view) == PUBLIC_KEYS
        assert view == {
            "id": beacon.id,
            "channel": "garden",
            "state": "lit",
            "openedAt": clock.iso(beacon.opened_at),
            "lapsesAt": clock.iso(beacon.opened_at + timedelta(hours=1)),
            "answers": 1,
            "words": {"question": QUESTION},
        }
        assert parts == [Part("beacon.words.question", "agent-written"), Part("beacon.channel", "agent-written")]


def test_the_asker_sees_the_answers_each_labelled(
    alice: Passport, alice2: Passport, bob: Passport, beacon: Beacon, open_exchange: Callable[[Account, Account], None]
) -> None:
    assert alice.account is not None and bob.account is not None
    open_exchange(alice.account, bob.account)
    Passport.objects.filter(pk=bob.pk).update(pennant="owl")
    bob.refresh_from_db()
    beacons.do_answer(alice2, beacon.id, "From the same account.")
    beacons.do_answer(bob, beacon.id, "From another person's agent.")
    seen = beacons.trace_view(alice, beacon.id)
    assert seen is not None
    view, parts = seen
    assert view["you"] == "asker" and view["state"] == "lit" and view["words"] == {"question": QUESTION}
    answers = view["answers"]
    assert [(a["number"], a["from"], a["words"], a["dismissed"]) for a in answers] == [
        (1, None, {"answer": "From the same account."}, False),
        (2, "owl", {"answer": "From another person's agent."}, False),
    ]
    assert view["youCan"] == ["settle_beacon close", "settle_beacon dismiss"]
    assert parts == [
        Part("beacon.words.question", "agent-written", own=True),
        Part("beacon.channel", "agent-written", own=True),
        Part("beacon.answers[0].words.answer", "agent-written", private=True),
        Part("beacon.answers[1].words.answer", "agent-written", private=True),
        Part("beacon.answers[1].from", "agent-written"),
    ]


def test_a_beacon_is_out_after_its_hour_and_traced_a_day_more(alice: Passport, bob: Passport, beacon: Beacon) -> None:
    clock.advance(timedelta(minutes=59, seconds=59))
    seen = beacons.trace_view(bob, beacon.id)
    assert seen is not None and seen[0]["state"] == "lit"
    clock.advance(timedelta(seconds=1))
    seen = beacons.trace_view(bob, beacon.id)
    assert seen is not None and seen[0]["state"] == "out"
    # Derived when read: nothing was written.
    assert Beacon.objects.get().state == "lit"
    mine = beacons.trace_view(alice, beacon.id)
    assert mine is not None and mine[0]["youCan"] == ["trace"]
    clock.advance(timedelta(days=1) - timedelta(seconds=1))
    assert beacons.trace_view(bob, beacon.id) is not None
    clock.advance(timedelta(seconds=1))
    assert beacons.trace_view(bob, beacon.id) is None and beacons.trace_view(alice, beacon.id) is None


@pytest.mark.parametrize(
    "number", ["B-222222222222", "B-1", "P-222222222222", "B-22222222222\x00", "", "B-" + "2" * 30]
)
def test_an_unknown_or_malformed_number_is_none(bob: Passport, beacon: Beacon, number: str) -> None:
    assert beacons.trace_view(bob, number) is None
    assert beacons.channel_of_beacon(number) is None


def test_lit_on_lists_a_channels_lit_beacons_newest_first(
    alice: Passport, bob: Passport, garden: Channel, beacon: Beacon
) -> None:
    Channel.objects.create(name="orchard", opened_at=clock.now(), opened_by=bob, account=bob.account)
    clock.advance(timedelta(minutes=1))
    bobs = beacons.do_raise(bob, "garden", "Bob asks the garden?")
    beacons.do_raise(bob, "orchard", "Bob asks the orchard?")
    listed = beacons.lit_on("garden", alice)
    assert [(item["id"], own) for item, own in listed] == [(bobs.id, False), (beacon.id, True)]
    assert all(set(item) == PUBLIC_KEYS for item, _ in listed)
    assert [own for _, own in beacons.lit_on("garden", bob)] == [True, False]
    # Closed and out beacons are not lit.
    beacons.do_close(bob, bobs.id)
    assert [item["id"] for item, _ in beacons.lit_on("garden", alice)] == [beacon.id]
    clock.advance(timedelta(hours=1))
    assert beacons.lit_on("garden", alice) == []
    assert beacons.lit_on("nowhere", alice) == []


def test_channel_of_beacon_names_its_channel(beacon: Beacon) -> None:
    assert beacons.channel_of_beacon(beacon.id) == "garden"
    tools = {t.name: t for t in beacon_tools.TOOLS}
    for name in ("answer_beacon", "settle_beacon"):
        channel_of = tools[name].channel_of
        assert channel_of is not None
        args = tools[name].args.model_validate(
            {"beacon": beacon.id, "answer": "x"}
            if name == "answer_beacon"
            else {"beacon": beacon.id, "action": "close"}
        )
        assert channel_of(args) == "garden"


def test_trace_hands_each_its_own_view_labelled(
    alice: Passport, alice2: Passport, charlie: Passport, beacon: Beacon
) -> None:
    """Through the Switchboard's trace: the asker reads the answers, each labelled agent-written; a
    stranger without sign-in reads the public face; a number past its day is not seen."""
    beacons.do_answer(alice2, beacon.id, "An answer only the asker reads.")
    mine = visit(alice, "trace", id=beacon.id)
    assert mine.is_error is False and outcome(mine) == "ok"
    assert mine.structured["beacon"]["answers"][0]["words"] == {"answer": "An answer only the asker reads."}
    parts = mine.structured["provenance"]["parts"]
    assert {"path": "beacon.words.question", "label": "agent-written", "own": True} in parts
    assert {"path": "beacon.answers[0].words.answer", "label": "agent-written"} in parts
    theirs = visit(charlie, "trace", id=beacon.id)
    assert theirs.is_error is False and set(theirs.structured["beacon"]) == PUBLIC_KEYS
    assert "An answer only the asker reads." not in theirs.text
    clock.advance(timedelta(days=1, hours=1))
    gone = visit(alice, "trace", id=beacon.id)
    assert gone.structured["say"] == "Nothing in town has that tracking number that you can see."
    assert outcome(gone) == "refused:not-found"
