"""listen with join or leave (000 section 08, DECISIONS 9): up to 16 names a call, 16 watched channels;
each name checked by the channel rule and refused when no channel has it; joining or leaving is a
write (the desk treats the call as one that changes things) and needs no sign-in."""

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import ValidationError

from clockford.town import desk
from clockford.town.models import Passport
from districts.switchboard.models import Channel, Watch
from districts.switchboard.tools import LISTEN, ListenArgs
from districts.testing import outcome, visit

Message = Callable[[Passport, str, str], int]
NO_CHANNEL = "No channel by that name. listen without arguments shows the busiest."
RULE = "A channel's name is 2 to 32 lowercase letters, digits and hyphens, starting with a letter or digit."


def channels_named(*names: str, by: Passport) -> None:
    for name in names:
        Channel.objects.create(name=name, opened_at=by.issued_at, opened_by=by)


def watched(passport: Passport) -> list[str]:
    return sorted(Watch.objects.filter(passport=passport).values_list("channel_id", flat=True))


def test_it_joins_and_leaves(alice: Passport, bob: Passport) -> None:
    channels_named("lamps", "wells", "roads", by=alice)
    r = visit(bob, "listen", join=["lamps", "wells", "lamps"])
    assert r.is_error is False and outcome(r) == "ok"
    assert r.structured["say"].startswith(
        "You joined 2 channels and left 0; you watch 2 now. 0 items after your cursor."
    )
    assert r.structured["watching"] == ["lamps", "wells"] and "channels" not in r.structured
    r = visit(bob, "listen", join=["roads", "lamps"], leave=["wells"])
    assert r.structured["say"].startswith("You joined 1 channel and left 1; you watch 2 now.")
    assert watched(bob) == ["lamps", "roads"]
    # Leaving a channel one does not watch changes nothing, and is no error.
    r = visit(bob, "listen", leave=["wells"])
    assert r.is_error is False and r.structured["say"].startswith("You joined 0 channels and left 0; you watch 2 now.")


def test_joining_again_keeps_when_the_watch_began(alice: Passport, bob: Passport) -> None:
    channels_named("lamps", by=alice)
    visit(bob, "listen", join=["lamps"])
    since = Watch.objects.get(passport=bob).since
    visit(bob, "listen", join=["lamps"])
    assert Watch.objects.get(passport=bob).since == since


@pytest.mark.parametrize("where", ["join", "leave"])
def test_an_unknown_channel_is_refused_and_nothing_changes(alice: Passport, bob: Passport, where: str) -> None:
    channels_named("lamps", "wells", by=alice)
    visit(bob, "listen", join=["wells"])
    r = visit(bob, "listen", **{where: ["lamps", "nowhere"]})
    assert r.is_error is True
    assert r.structured["say"] == NO_CHANNEL
    assert r.structured["field"] == f"{where}[1]"
    assert outcome(r) == "refused:no-channel"
    assert watched(bob) == ["wells"]


@pytest.mark.parametrize(
    ("name", "say"),
    [
        ("Lamps", RULE),
        ("l", RULE),
        ("staff-room", "That channel name belongs to the town or its staff. Choose another."),
    ],
)
def test_a_name_the_rule_refuses_is_refused(bob: Passport, name: str, say: str) -> None:
    r = visit(bob, "listen", join=[name])
    assert r.is_error is True and r.structured["say"] == say
    assert r.structured["field"] == "join[0]"
    assert outcome(r) == "refused:channel-name"


def test_a_channel_cannot_be_joined_and_left_at_once(alice: Passport, bob: Passport) -> None:
    channels_named("lamps", by=alice)
    r = visit(bob, "listen", join=["lamps"], leave=["lamps"])
    assert r.is_error is True
    assert r.structured["say"] == "A channel cannot be joined and left in one call."
    assert outcome(r) == "refused:join-and-leave"
    assert watched(bob) == []


def test_a_passport_watches_at_most_16(alice: Passport, bob: Passport) -> None:
    names = [f"room-{i}" for i in range(20)]
    channels_named(*names, by=alice)
    assert visit(bob, "listen", join=names[:10]).is_error is False
    r = visit(bob, "listen", join=names[10:17])
    assert r.is_error is True
    assert r.structured["say"] == "A passport watches at most 16 channels, and you watch 10. Leave some first."
    assert r.structured["watching"] == sorted(names[:10])
    assert outcome(r) == "refused:watch-limit"
    assert len(watched(bob)) == 10
    # Leaving in the same call makes room.
    r = visit(bob, "listen", join=names[10:17], leave=names[:1])
    assert r.is_error is False and len(watched(bob)) == 16


def test_more_than_16_names_never_reach_the_town(bob: Passport) -> None:
    with pytest.raises(ValidationError):
        visit(bob, "listen", join=[f"room-{i}" for i in range(17)])
    with pytest.raises(ValidationError):
        visit(bob, "listen", leave=[""])


@pytest.mark.parametrize(
    ("args", "writes"),
    [
        ({}, False),
        ({"since": 3}, False),
        ({"join": []}, False),
        ({"join": ["lamps"]}, True),
        ({"leave": ["lamps"]}, True),
    ],
)
def test_joining_or_leaving_is_what_makes_it_a_write(args: dict[str, Any], writes: bool) -> None:
    assert LISTEN.changes(ListenArgs.model_validate(args)) is writes
    assert (LISTEN.kind, LISTEN.idempotent, LISTEN.private_reply) == ("mixed", True, True)


def test_in_a_read_only_town_joining_waits_and_listening_goes_on(alice: Passport, bob: Passport) -> None:
    channels_named("lamps", by=alice)
    desk.set_town_mode("read-only")
    try:
        r = visit(bob, "listen", join=["lamps"])
        assert r.is_error is True and outcome(r) == "busy" and r.structured["retryAfterSeconds"] == 30
        assert visit(bob, "listen").is_error is False
    finally:
        desk.set_town_mode("open")
    assert watched(bob) == []


def test_the_outsider_without_sign_in_joins_too(alice: Passport, charlie: Passport) -> None:
    channels_named("lamps", by=alice)
    r = visit(charlie, "listen", join=["lamps"])
    assert r.is_error is False and r.structured["watching"] == ["lamps"]


@pytest.mark.parametrize(
    ("args", "channel"),
    [
        ({"join": ["lamps"]}, "lamps"),
        ({"leave": ["lamps"]}, "lamps"),
        ({"join": ["lamps", "lamps"]}, "lamps"),
        ({"join": ["lamps"], "leave": ["wells"]}, None),
        ({}, None),
    ],
)
def test_a_plan_step_on_a_channel_sees_the_one_channel_joined_or_left(
    args: dict[str, Any], channel: str | None
) -> None:
    assert LISTEN.channel_of is not None
    assert LISTEN.channel_of(ListenArgs.model_validate(args)) == channel
