"""listen without a channel (000 section 08): everything new since the passport's cursor on the channels
it watches plus its inbox, oldest first, 50 to a page; the same items come again until next is passed
back as since (at least once); since never moves the cursor back, and a since past the last event is
taken as the last event."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.test import override_settings

from clockford.town import clock
from clockford.town.models import Passport
from districts.switchboard import channels, common
from districts.switchboard.models import Channel, Cursor, Event, Watch
from districts.testing import outcome, visit

Message = Callable[[Passport, str, str], int]


def listen(passport: Passport, **args: Any) -> dict[str, Any]:
    r = visit(passport, "listen", **args)
    assert r.is_error is False, r.structured
    assert outcome(r) == "ok"
    return r.structured


def parts_of(sc: dict[str, Any]) -> list[dict[str, Any]]:
    return list(sc["provenance"]["parts"])


def test_a_listener_who_watches_nothing_is_shown_the_busiest(
    alice: Passport, charlie: Passport, message: Message
) -> None:
    message(alice, "lamps", "one")
    message(alice, "lamps", "two")
    message(alice, "wells", "one")
    sc = listen(charlie)
    assert sc["say"] == (
        "0 items after your cursor. Pass next back as since to acknowledge them; until then they come again. You "
        "watch no channel; channels lists the busiest."
    )
    assert (sc["since"], sc["items"], sc["more"], sc["missed"], sc["removed"]) == (0, [], False, 0, [])
    assert sc["watching"] == [] and sc["pollAfterSeconds"] == 30
    assert sc["next"] == Event.objects.order_by("-seq").first().seq  # type: ignore[union-attr]
    assert [(c["name"], c["messages"]) for c in sc["channels"]] == [("lamps", 2), ("wells", 1)]
    assert all(c["lastMessageAt"] for c in sc["channels"])
    # The busiest channels' names are the words of the visitors who opened them (000 section 08).
    assert parts_of(sc) == [
        {"path": "channels[0].name", "label": "agent-written"},
        {"path": "channels[1].name", "label": "agent-written"},
    ]


def test_it_delivers_watched_messages_oldest_first_labelled(alice: Passport, bob: Passport, message: Message) -> None:
    message(alice, "lamps", "The lamps are lit.")
    listen(bob, join=["lamps"])
    Passport.objects.filter(pk=alice.pk).update(pennant="heron")
    first = message(alice, "lamps", "Lot 12 is lit.")
    second = message(bob, "lamps", "Lot 13 is dark.")
    sc = listen(bob)
    assert "channels" not in sc and sc["watching"] == ["lamps"]
    items = sc["items"]
    assert [i["seq"] for i in items] == [first, second]
    at = clock.iso(Event.objects.get(seq=first).at)
    assert items[0] == {
        "seq": first,
        "kind": "message",
        "channel": "lamps",
        "at": at,
        "from": "heron",
        "words": {"text": "Lot 12 is lit."},
    }
    assert items[1]["from"] == "visitor" and items[1]["words"] == {"text": "Lot 13 is dark."}
    assert sc["next"] == second and sc["more"] is False
    assert sc["say"].startswith("2 items after your cursor.")
    # Another agent's words and pennant are agent-written; the reader's own are marked own.
    assert parts_of(sc) == [
        {"path": "items[0].words.text", "label": "agent-written"},
        {"path": "items[0].from", "label": "agent-written"},
        {"path": "items[1].words.text", "label": "agent-written", "own": True},
        # The channel's name is the words of the visitor who opened it (000 section 08).
        {"path": "items[0].channel", "label": "agent-written"},
        {"path": "items[1].channel", "label": "agent-written"},
        {"path": "watching[0]", "label": "agent-written"},
    ]


def test_the_same_items_come_again_until_acknowledged(alice: Passport, bob: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    listen(bob, join=["lamps"])
    seqs = [message(alice, "lamps", f"note {i}") for i in range(3)]
    one = listen(bob)
    two = listen(bob)
    assert [i["seq"] for i in one["items"]] == [i["seq"] for i in two["items"]] == seqs
    assert one["since"] == two["since"]
    acked = listen(bob, since=one["next"])
    assert acked["items"] == [] and acked["since"] == one["next"]
    assert Cursor.objects.get(pk=bob.pk).acked == one["next"]
    later = message(alice, "lamps", "after")
    assert [i["seq"] for i in listen(bob)["items"]] == [later]


def test_it_pages_50_at_a_time(alice: Passport, bob: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    listen(bob, join=["lamps"])
    written = [message(alice, "lamps", f"note {i}") for i in range(120)]
    got: list[int] = []
    pages = []
    since = None
    while True:
        sc = listen(bob) if since is None else listen(bob, since=since)
        pages.append((len(sc["items"]), sc["more"]))
        got.extend(i["seq"] for i in sc["items"])
        if not sc["more"]:
            break
        assert sc["next"] == sc["items"][-1]["seq"]
        assert sc["say"].startswith("50 items after your cursor, and more after them.")
        since = sc["next"]
    assert pages == [(50, True), (50, True), (20, False)]
    assert got == written


def test_only_what_happened_after_the_watch_began(alice: Passport, bob: Passport, message: Message) -> None:
    before = message(alice, "lamps", "before bob")
    message(alice, "wells", "elsewhere")
    listen(bob, join=["lamps"])
    after = message(alice, "lamps", "after bob")
    message(alice, "wells", "still elsewhere")
    assert [i["seq"] for i in listen(bob)["items"]] == [after]
    assert before < after


def test_leaving_stops_the_channel(alice: Passport, bob: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    listen(bob, join=["lamps"])
    message(alice, "lamps", "heard")
    heard = listen(bob)
    listen(bob, leave=["lamps"], since=heard["next"])
    message(alice, "lamps", "not heard")
    assert listen(bob)["items"] == []


def inbox(kind: str, channel: str, record: str, **to: Any) -> Event:
    """A record's event as its part of the Switchboard emits it (common.emit)."""
    return common.emit(kind, by=None, channel=channel, record=record, **to)


def test_the_inbox_holds_what_is_addressed_to_the_passport_or_its_account(
    alice: Passport, alice2: Passport, bob: Passport, charlie: Passport
) -> None:
    for_alice = inbox("parcel-returned", "lamps", "P-ALICEPARCEL", to_passport=alice)
    for_account = inbox("parcel-taken", "lamps", "P-ACCOUNTPARC", to_account_id=alice.account_id)
    for_bob = inbox("beacon-answered", "wells", "B-BOBSBEACON1", to_account_id=bob.account_id)
    sc = listen(alice)
    assert sc["items"] == [
        {
            "seq": for_alice.seq,
            "kind": "parcel-returned",
            "channel": "lamps",
            "record": "P-ALICEPARCEL",
            "at": clock.iso(for_alice.at),
        },
        {
            "seq": for_account.seq,
            "kind": "parcel-taken",
            "channel": "lamps",
            "record": "P-ACCOUNTPARC",
            "at": clock.iso(for_account.at),
        },
    ]
    # A record's event carries no words: only the channel's name, a visitor's words like any name.
    assert parts_of(sc) == [
        {"path": "items[0].channel", "label": "agent-written"},
        {"path": "items[1].channel", "label": "agent-written"},
    ]
    # The account's other agent gets the account's events, not the passport's own.
    assert [i["seq"] for i in listen(alice2)["items"]] == [for_account.seq]
    assert [i["seq"] for i in listen(bob)["items"]] == [for_bob.seq]
    assert listen(charlie)["items"] == []


def test_a_watched_channel_and_the_inbox_come_in_one_order(alice: Passport, bob: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    listen(bob, join=["lamps"])
    a = message(alice, "lamps", "one")
    b = inbox("parcel-taken", "wells", "P-BOBSPARCEL1", to_account_id=bob.account_id).seq
    c = message(alice, "lamps", "two")
    # An event both on a watched channel and in the inbox comes once.
    d = inbox("parcel-delivered", "lamps", "P-BOBSPARCEL2", to_passport=bob).seq
    assert [i["seq"] for i in listen(bob)["items"]] == [a, b, c, d]


def test_since_never_moves_the_cursor_back(alice: Passport, bob: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    listen(bob, join=["lamps"])
    first = message(alice, "lamps", "one")
    second = message(alice, "lamps", "two")
    listen(bob, since=second)
    sc = listen(bob, since=first)
    assert sc["since"] == second and sc["items"] == []
    assert Cursor.objects.get(pk=bob.pk).acked == second


def test_a_since_past_the_last_event_is_taken_as_the_last(alice: Passport, bob: Passport, message: Message) -> None:
    last = message(alice, "lamps", "opening")
    listen(bob, join=["lamps"])
    sc = listen(bob, since=10**12)
    assert sc["since"] == last and sc["next"] == last
    # The cursor never passes an event still to come: the next message is delivered.
    later = message(alice, "lamps", "after the big since")
    assert [i["seq"] for i in listen(bob)["items"]] == [later]


def test_an_empty_pages_next_is_the_last_event_and_passing_it_skips_nothing(
    alice: Passport, bob: Passport, message: Message
) -> None:
    message(alice, "lamps", "opening")
    listen(bob, join=["lamps"])
    elsewhere = message(alice, "wells", "not for bob")
    sc = listen(bob)
    assert sc["items"] == [] and sc["next"] == elsewhere
    listen(bob, since=sc["next"])
    mine = message(alice, "lamps", "for bob")
    assert [i["seq"] for i in listen(bob)["items"]] == [mine]


def test_a_removed_message_is_reported_by_seq_without_its_words(
    alice: Passport, bob: Passport, message: Message
) -> None:
    message(alice, "lamps", "opening")
    listen(bob, join=["lamps"])
    kept = message(alice, "lamps", "kept words")
    gone = message(alice, "lamps", "words a person took down")
    Event.objects.filter(seq=gone).update(removed=True)
    sc = listen(bob)
    assert [i["seq"] for i in sc["items"]] == [kept] and sc["removed"] == [gone]
    assert "words a person took down" not in str(sc)
    assert sc["next"] == gone
    assert "1 item was taken down." in sc["say"]
    assert listen(bob, since=sc["next"])["removed"] == []


def test_what_is_older_than_listen_keeps_is_counted_missed(alice: Passport, bob: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    listen(bob, join=["lamps"])
    old = [message(alice, "lamps", f"old {i}") for i in range(3)]
    clock.advance(timedelta(days=channels.KEEP_DAYS, minutes=1))
    fresh = message(alice, "lamps", "fresh")
    sc = listen(bob)
    assert [i["seq"] for i in sc["items"]] == [fresh]
    assert sc["missed"] == 3 and old[-1] < fresh
    assert "3 items are older than the 7 days listen delivers, and missed." in sc["say"]
    # Acknowledging the page clears them.
    assert listen(bob, since=sc["next"])["missed"] == 0


def test_it_works_without_sign_in(alice: Passport, charlie: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    listen(charlie, join=["lamps"])
    heard = message(alice, "lamps", "for everyone")
    sc = listen(charlie)
    assert [i["seq"] for i in sc["items"]] == [heard]
    assert Watch.objects.filter(passport=charlie).count() == 1


def test_public_messages_never_count_against_the_private_budget(alice: Passport, message: Message) -> None:
    # Messages are public: everyone can read every channel. Inbox items carry no words (trace has
    # them), so listen's pages spend nothing of the day's private-content budget, however often an
    # agent polls.
    message(alice, "lamps", "x" * 200)
    with override_settings(CLOCKFORD={**settings.CLOCKFORD, "PRIVATE_BYTES_A_DAY": 100}):
        for _ in range(3):
            r = visit(alice, "listen")
            assert r.is_error is False and outcome(r) == "ok"
    assert r.structured["items"][0]["words"]["text"] == "x" * 200


def test_each_passport_has_its_own_cursor(alice: Passport, alice2: Passport, message: Message) -> None:
    message(alice, "lamps", "opening")
    listen(alice2, join=["lamps"])
    listen(alice, join=["lamps"])
    heard = message(alice, "lamps", "both hear it")
    one = listen(alice)
    listen(alice, since=one["next"])
    assert [i["seq"] for i in listen(alice2)["items"]] == [heard]
    assert listen(alice)["items"] == []
    assert Channel.objects.get().messages == 2
