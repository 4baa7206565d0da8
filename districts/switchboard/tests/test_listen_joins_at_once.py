"""listen joins near the 16 watched channels at once, on PostgreSQL: while an allowed join or leave of
the same passport goes through, another join is answered as it would be after it, from the channels
watched then: refused at once when the 16 are taken, held for the person when the other made room.

The calls meet deterministically (districts.testing.past_every_check): the allowed call has passed its
Tool.before_hold and waits on its hold's row lock, which the test holds, while the other asks its own.
Until listen's before_hold counted the watched channels under the passport's cursor lock (as do_watch
counts them), the other read the watches before the allowed call changed them: it was held for a join
no yes could let through (the person asked about a seventeenth channel), or refused for a limit the
allowed leave had just made room under."""

from collections.abc import Callable

from clockford.town import clock
from clockford.town.models import Hold, Passport
from districts.switchboard.models import Channel, Watch
from districts.testing import on_probation, outcome, past_every_check, racing, visit
from hall.models import Account

pytestmark = racing()
Allow = Callable[[str], Hold]


def watching_on_probation(alice: Passport, account: Account, watched: int) -> None:
    """alice watches the first `watched` of room-0 to room-16, then is put on probation: every join or
    leave of hers waits for her person."""
    for i in range(17):
        Channel.objects.create(name=f"room-{i}", opened_at=clock.now(), opened_by=alice, account=account)
    assert not visit(alice, "listen", join=[f"room-{i}" for i in range(watched)]).is_error
    on_probation(alice)


def allowed(allow: Allow, passport: Passport, **arguments: list[str]) -> Hold:
    held = visit(passport, "listen", **arguments)
    assert outcome(held) == "held", held.structured["say"]
    return allow(held.structured["hold"]["id"])


def test_a_join_while_an_allowed_join_takes_the_16th_channel_is_refused_at_once_not_held(
    account_a: Account, alice: Passport, allow: Allow
) -> None:
    watching_on_probation(alice, account_a, 15)
    hold = allowed(allow, alice, join=["room-15"])

    first, other = past_every_check(
        hold, [(alice, "listen", {"join": ["room-15"]}), (alice, "listen", {"join": ["room-16"]})]
    )
    assert outcome(first) == "ok", first.structured["say"]
    assert first.structured["say"].startswith("You joined 1 channel and left 0; you watch 16 now.")
    assert outcome(other) == "refused:watch-limit", other.structured["say"]
    assert other.structured["say"] == "A passport watches at most 16 channels, and you watch 16. Leave some first."
    assert other.structured["watching"] == sorted(f"room-{i}" for i in range(16))
    assert "hold" not in other.structured
    # No second hold: the person is never asked about a seventeenth channel.
    assert list(Hold.objects.filter(passport=alice).values_list("id", "status")) == [(hold.id, "used")]
    assert Watch.objects.filter(passport=alice).count() == 16


def test_a_join_while_an_allowed_leave_makes_room_waits_for_the_person(
    account_a: Account, alice: Passport, allow: Allow
) -> None:
    watching_on_probation(alice, account_a, 16)
    hold = allowed(allow, alice, leave=["room-0"])

    first, other = past_every_check(
        hold, [(alice, "listen", {"leave": ["room-0"]}), (alice, "listen", {"join": ["room-16"]})]
    )
    assert outcome(first) == "ok", first.structured["say"]
    assert first.structured["say"].startswith("You joined 0 channels and left 1; you watch 15 now.")
    assert outcome(other) == "held", other.structured["say"]
    assert other.structured["hold"]["status"] == "held"
    assert Watch.objects.filter(passport=alice).count() == 15


def test_an_allowed_join_sent_twice_at_once_joins_once_and_the_second_changes_nothing_unheld(
    account_a: Account, alice: Passport, allow: Allow
) -> None:
    watching_on_probation(alice, account_a, 15)
    hold = allowed(allow, alice, join=["room-15"])
    call = (alice, "listen", {"join": ["room-15"]})

    first, second = past_every_check(hold, [call, call])
    assert first.structured["say"].startswith("You joined 1 channel and left 0; you watch 16 now.")
    assert outcome(second) == "ok" and "harbour" not in second.structured
    assert second.structured["say"].startswith("You joined 0 channels and left 0; you watch 16 now.")
    # No second hold: the person is never asked about a join that changes nothing.
    assert list(Hold.objects.filter(passport=alice).values_list("id", "status")) == [(hold.id, "used")]
