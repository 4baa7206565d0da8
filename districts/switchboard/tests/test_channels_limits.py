"""broadcast's limits (000 section 08, 001 section 05): messages on a channel are spaced a minute apart,
whoever sends them (refused:too-soon with the seconds in say and no retryAfterSeconds, DECISIONS 12);
3 new channels per account in seven days; a town-wide number of channels. A new channel the week's
three or the town's room refuses is refused at once, never held for a person's yes (docs/holds.md,
"Which calls wait")."""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import override_settings

from clockford.town import clock, desk
from clockford.town.models import Hold, Passport
from districts.switchboard import channels
from districts.switchboard.models import Channel, Event
from districts.testing import meanwhile, outcome, visit

Publish = Callable[..., desk.Rendered]
TEXT = "The lamps on lot 12 are lit again."


def test_a_second_message_within_the_minute_is_too_soon(alice: Passport, published: Publish) -> None:
    published(alice, "broadcast", channel="lamplighters", text=TEXT)
    clock.advance(timedelta(seconds=20))
    r = published(alice, "broadcast", channel="lamplighters", text="And lot 13.")
    assert r.is_error is True
    assert (
        r.structured["say"] == "Messages on a channel are spaced a minute apart. Wait 40 seconds, then broadcast again."
    )
    assert outcome(r) == "refused:too-soon"
    assert "retryAfterSeconds" not in r.structured and "hold" not in r.structured
    assert Event.objects.count() == 1 and Channel.objects.get().messages == 1


def test_the_seconds_round_up_and_say_one_second(alice: Passport, published: Publish) -> None:
    published(alice, "broadcast", channel="lamplighters", text=TEXT)
    clock.advance(timedelta(seconds=59, milliseconds=500))
    r = published(alice, "broadcast", channel="lamplighters", text="And lot 13.")
    assert (
        r.structured["say"] == "Messages on a channel are spaced a minute apart. Wait 1 second, then broadcast again."
    )
    assert outcome(r) == "refused:too-soon"


def test_the_spacing_is_the_channels_whoever_sends(alice: Passport, bob: Passport, published: Publish) -> None:
    published(alice, "broadcast", channel="lamplighters", text=TEXT)
    clock.advance(timedelta(seconds=30))
    r = published(bob, "broadcast", channel="lamplighters", text="Lot 12 is dark for me.")
    assert outcome(r) == "refused:too-soon"
    assert "Wait 30 seconds" in r.structured["say"]
    # Another channel is not held back by this one.
    assert published(bob, "broadcast", channel="night-watch", text="Lot 12 is dark for me.").is_error is False


def test_a_minute_later_it_goes_out(alice: Passport, published: Publish) -> None:
    published(alice, "broadcast", channel="lamplighters", text=TEXT)
    clock.advance(timedelta(minutes=1))
    r = published(alice, "broadcast", channel="lamplighters", text="And lot 13.")
    assert r.is_error is False and r.structured["created"] is False
    assert Channel.objects.get().messages == 2


def test_an_account_opens_3_new_channels_a_week(
    alice: Passport, alice2: Passport, bob: Passport, published: Publish
) -> None:
    for name in ("lamps-a", "lamps-b"):
        assert published(alice, "broadcast", channel=name, text=TEXT).structured["created"] is True
    clock.advance(timedelta(days=2))
    assert published(alice2, "broadcast", channel="lamps-c", text=TEXT).structured["created"] is True
    # The account's fourth in seven days, from either of its agents.
    for agent in (alice, alice2):
        r = published(agent, "broadcast", channel="lamps-d", text=TEXT)
        assert r.is_error is True
        assert r.structured["say"] == (
            "Your account opened 3 new channels in the last seven days, as many as a week allows. Broadcast on a "
            "channel that exists, or open a new one in 120 hours."
        )
        assert outcome(r) == "refused:channel-quota"
        assert "retryAfterSeconds" not in r.structured
    assert not Channel.objects.filter(name="lamps-d").exists()
    # Another account has its own three; and a channel that exists still takes the account's messages.
    assert published(bob, "broadcast", channel="bob-room", text=TEXT).is_error is False
    assert published(alice, "broadcast", channel="bob-room", text=TEXT).is_error is True  # too soon, not quota
    clock.advance(timedelta(minutes=1))
    assert published(alice, "broadcast", channel="bob-room", text=TEXT).is_error is False
    # Seven days after the first two, the account may open again.
    clock.advance(timedelta(days=5))
    assert published(alice, "broadcast", channel="lamps-d", text=TEXT).structured["created"] is True


def test_the_town_holds_a_number_of_channels(alice: Passport, bob: Passport, published: Publish) -> None:
    with override_settings(CLOCKFORD={**settings.CLOCKFORD, "CHANNELS_MAX": 2}):
        published(alice, "broadcast", channel="lamps-a", text=TEXT)
        published(alice, "broadcast", channel="lamps-b", text=TEXT)
        r = published(bob, "broadcast", channel="lamps-c", text=TEXT)
        assert r.is_error is True
        assert (
            r.structured["say"]
            == channels.ROOM_SAY
            == (
                "The Switchboard has no room for more channels right now. Broadcast on a channel that exists, or try "
                "again later."
            )
        )
        assert outcome(r) == "refused:room"
        # Channels that exist still carry messages.
        clock.advance(timedelta(minutes=1))
        assert published(bob, "broadcast", channel="lamps-a", text=TEXT).is_error is False
    assert Channel.objects.count() == 2


def test_a_new_channel_past_the_weeks_three_is_refused_at_once_never_held(
    alice: Passport, alice2: Passport, published: Publish
) -> None:
    # Its person would be asked to allow a call that is refused after their yes: the quota does not
    # lift while they decide. A channel that exists still waits for the yes.
    for name in ("lamps-a", "lamps-b", "lamps-c"):
        assert published(alice, "broadcast", channel=name, text=TEXT).structured["created"] is True
    for agent in (alice, alice2):
        r = visit(agent, "broadcast", channel="lamps-d", text=TEXT)
        assert r.is_error is True and "hold" not in r.structured and "awaits" not in r.structured
        assert outcome(r) == "refused:channel-quota"
        assert r.structured["say"].startswith("Your account opened 3 new channels in the last seven days")
    assert not Hold.objects.filter(tool="broadcast", arguments__channel="lamps-d").exists()
    assert not Channel.objects.filter(name="lamps-d").exists()
    clock.advance(timedelta(minutes=1))
    r = visit(alice, "broadcast", channel="lamps-a", text="And lot 13.")
    assert r.structured["hold"]["status"] == "held"


def test_a_new_channel_the_town_has_no_room_for_is_refused_at_once_never_held(
    alice: Passport, bob: Passport, published: Publish
) -> None:
    with override_settings(CLOCKFORD={**settings.CLOCKFORD, "CHANNELS_MAX": 1}):
        published(alice, "broadcast", channel="lamps-a", text=TEXT)
        r = visit(bob, "broadcast", channel="lamps-b", text=TEXT)
        assert r.is_error is True and "hold" not in r.structured
        assert (outcome(r), r.structured["say"]) == ("refused:room", channels.ROOM_SAY)
        assert not Hold.objects.filter(passport=bob).exists()


@pytest.mark.parametrize("asked", ["repeated", "gate"])
def test_a_new_channel_found_refused_is_never_opened_nor_held_unread_when_room_comes_before_it_runs(
    alice: Passport, published: Publish, monkeypatch: pytest.MonkeyPatch, asked: str
) -> None:
    # The week's three are spent when the desk asks, and the oldest leaves the seven days before the
    # call runs: the call neither opens a channel nobody allowed nor waits unread. It is busy, and the
    # same call again waits for the person's yes.
    for name in ("lamps-a", "lamps-b", "lamps-c"):
        published(alice, "broadcast", channel=name, text=TEXT)
    meanwhile(monkeypatch, asked, lambda: clock.advance(timedelta(days=7)))
    r = visit(alice, "broadcast", channel="lamps-d", text=TEXT)
    assert (outcome(r), r.structured["say"]) == ("busy", "The clerk is busy. Try again in 2 seconds.")
    assert r.structured["retryAfterSeconds"] == 2 and "hold" not in r.structured
    assert not Channel.objects.filter(name="lamps-d").exists()
    assert not Hold.objects.filter(tool="broadcast", arguments__channel="lamps-d").exists()
    monkeypatch.undo()
    assert outcome(visit(alice, "broadcast", channel="lamps-d", text=TEXT)) == "held"
