"""listen with a channel (000 section 08): the channel as it stands: its latest 50 messages (oldest
first, a removed one by seq without its words), its open parcels, lit beacons and recent work, and what
the caller watches. Every agent's words are labelled, the caller's own marked own. An unknown channel
is refused."""

from collections.abc import Callable
from typing import Any

import pytest

from clockford.town import clock
from clockford.town.models import Passport
from districts.switchboard import beacons, parcels
from districts.switchboard.models import Event
from districts.testing import outcome, visit

Message = Callable[[Passport, str, str], int]


def view(passport: Passport, channel: str, **args: Any) -> dict[str, Any]:
    r = visit(passport, "listen", channel=channel, **args)
    assert r.is_error is False, r.structured
    assert outcome(r) == "ok"
    return r.structured


def test_it_shows_the_channel_as_it_stands(alice: Passport, bob: Passport, message: Message) -> None:
    Passport.objects.filter(pk=bob.pk).update(pennant="owl")
    first = message(alice, "lamps", "The lamps are lit.")
    second = message(bob, "lamps", "Lot 13 is dark.")
    message(alice, "wells", "Another channel.")
    sc = view(alice, "lamps")
    assert sc["channel"] == "lamps"
    assert [(m["seq"], m["from"], m["words"]["text"]) for m in sc["messages"]] == [
        (first, "visitor", "The lamps are lit."),
        (second, "owl", "Lot 13 is dark."),
    ]
    assert sc["messages"][0] == {
        "seq": first,
        "kind": "message",
        "channel": "lamps",
        "at": clock.iso(Event.objects.get(seq=first).at),
        "from": "visitor",
        "words": {"text": "The lamps are lit."},
    }
    assert (sc["openParcels"], sc["litBeacons"], sc["recentWork"], sc["removed"]) == ([], [], [], [])
    assert sc["watching"] == ["lamps", "wells"]
    assert sc["say"] == "The channel as it stands: 2 messages, 0 open parcels, 0 lit beacons."
    assert sc["provenance"]["parts"] == [
        {"path": "messages[0].words.text", "label": "agent-written", "own": True},
        {"path": "messages[1].words.text", "label": "agent-written"},
        {"path": "messages[1].from", "label": "agent-written"},
        # alice opened both channels: their names are her own words read back.
        {"path": "channel", "label": "agent-written", "own": True},
        {"path": "messages[0].channel", "label": "agent-written", "own": True},
        {"path": "messages[1].channel", "label": "agent-written", "own": True},
        {"path": "watching[0]", "label": "agent-written", "own": True},
        {"path": "watching[1]", "label": "agent-written", "own": True},
    ]
    assert "items" not in sc and "next" not in sc


def test_it_shows_the_latest_50_and_sets_a_removed_one_apart(alice: Passport, message: Message) -> None:
    seqs = [message(alice, "lamps", f"note {i}") for i in range(55)]
    Event.objects.filter(seq=seqs[-2]).update(removed=True)
    sc = view(alice, "lamps")
    assert [m["seq"] for m in sc["messages"]] == seqs[5:-2] + seqs[-1:]
    assert sc["removed"] == [seqs[-2]]
    assert "note 53" not in str(sc)
    # Each label points at the message it is for, after the removed one too.
    texts = [p for p in sc["provenance"]["parts"] if p["path"].endswith(".words.text")]
    assert texts[-1] == {"path": "messages[48].words.text", "label": "agent-written", "own": True}
    assert sc["messages"][48]["words"]["text"] == "note 54"


def test_it_shows_open_parcels_lit_beacons_and_recent_work(
    alice: Passport, alice2: Passport, bob: Passport, message: Message
) -> None:
    message(alice, "lamps", "opening")
    open_one = parcels.do_post(alice, "lamps", "Count the lamps", "Walk lots 1 to 20.", "A number for each lot.")
    taken = parcels.do_post(alice, "lamps", "Trim the wicks", "Lots 1 to 5.", "Five trimmed wicks.")
    parcels.do_take(alice2, taken.id)
    lit = beacons.do_raise(bob, "lamps", "Who lit lot 12?")
    sc = view(alice, "lamps")
    assert [p["id"] for p in sc["openParcels"]] == [open_one.id]
    assert sc["openParcels"][0]["words"] == {
        "title": "Count the lamps",
        "brief": "Walk lots 1 to 20.",
        "doneWhen": "A number for each lot.",
    }
    assert [p["id"] for p in sc["recentWork"]] == [taken.id]
    assert [(b["id"], b["words"]) for b in sc["litBeacons"]] == [(lit.id, {"question": "Who lit lot 12?"})]
    assert sc["say"] == "The channel as it stands: 1 message, 1 open parcel, 1 lit beacon."
    parts = sc["provenance"]["parts"]
    # The caller's own parcels are its own words; another account's beacon is not.
    for key in ("title", "brief", "doneWhen"):
        assert {"path": f"openParcels[0].words.{key}", "label": "agent-written", "own": True} in parts
        assert {"path": f"recentWork[0].words.{key}", "label": "agent-written", "own": True} in parts
    assert {"path": "litBeacons[0].words.question", "label": "agent-written"} in parts
    # Seen by another account's agent, none of it is its own.
    other = view(bob, "lamps")["provenance"]["parts"]
    assert {"path": "openParcels[0].words.title", "label": "agent-written"} in other
    assert {"path": "litBeacons[0].words.question", "label": "agent-written", "own": True} in other


def test_every_channel_name_in_the_view_is_labelled(alice: Passport, bob: Passport, message: Message) -> None:
    """A channel's name is the words of the visitor who opened it (000 section 08): wherever the view
    names it, a message's channel as much as a parcel's or a beacon's, it is labelled, never the town's."""
    message(alice, "lamps", "opening")
    parcels.do_post(alice, "lamps", "Count the lamps", "Walk lots 1 to 20.", "A number for each lot.")
    beacons.do_raise(alice, "lamps", "Who lit lot 12?")
    sc = view(bob, "lamps")
    labelled = {p["path"]: p for p in sc["provenance"]["parts"]}
    for path in ("channel", "messages[0].channel", "openParcels[0].channel", "litBeacons[0].channel"):
        assert labelled[path] == {"path": path, "label": "agent-written"}


def test_the_outsider_reads_the_same_channel(alice: Passport, charlie: Passport, message: Message) -> None:
    message(alice, "lamps", "For everyone.")
    sc = view(charlie, "lamps")
    assert [m["words"]["text"] for m in sc["messages"]] == ["For everyone."]
    assert sc["watching"] == []


def test_an_acknowledgement_with_a_channel_still_counts(alice: Passport, bob: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    visit(bob, "listen", join=["lamps"])
    heard = message(alice, "lamps", "heard")
    page = visit(bob, "listen").structured
    view(bob, "lamps", since=page["next"])
    assert visit(bob, "listen").structured["since"] == heard


def test_it_joins_and_shows_in_one_call(alice: Passport, bob: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    sc = view(bob, "lamps", join=["lamps"])
    assert sc["watching"] == ["lamps"]
    assert sc["say"].startswith("You joined 1 channel and left 0; you watch 1 now. The channel as it stands:")


@pytest.mark.parametrize(
    ("name", "say", "why"),
    [
        ("nowhere", "No channel by that name. listen without arguments shows the busiest.", "no-channel"),
        (
            "No Where",
            "A channel's name is 2 to 32 lowercase letters, digits and hyphens, starting with a letter or digit.",
            "channel-name",
        ),
    ],
)
def test_an_unknown_channel_is_refused(bob: Passport, name: str, say: str, why: str) -> None:
    r = visit(bob, "listen", channel=name)
    assert r.is_error is True
    assert r.structured["say"] == say and r.structured["field"] == "channel"
    assert outcome(r) == f"refused:{why}"


def test_a_closed_exchange_does_not_hide_a_channels_parcels(alice: Passport, bob: Passport, message: Message) -> None:
    """Everyone can read every channel: what another account offers is listed whether or not the
    exchange between the two accounts is open (taking it is what the exchange governs)."""
    message(alice, "lamps", "opening")
    posted = parcels.do_post(alice, "lamps", "Count the lamps", "Walk lots 1 to 20.", "A number for each lot.")
    assert [p["id"] for p in view(bob, "lamps")["openParcels"]] == [posted.id]
