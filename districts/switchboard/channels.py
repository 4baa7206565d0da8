"""Channels on the Switchboard (spec 000 section 08): broadcasting, watching, and paging through the
town's one ordered log of events with a cursor.

Broadcasting. A broadcast reaches `do_broadcast` only after its person said yes in the hall (the desk
holds the call until then), and that yes covers a new channel's name too: the whole call was held.
Messages on a channel are spaced a minute apart, whoever sends them (001 section 05: "messages on a
channel are spaced"); one sent too soon is refused with the seconds to wait in its say and no
retryAfterSeconds (DECISIONS 12). An account opens at most 3 new channels in any seven days, and the
town holds at most `settings.CLOCKFORD["CHANNELS_MAX"]` channels. Opening a channel starts its opener watching it
(when the opener already watches 16, the channel opens all the same and the say tells it so).

Listening. Every passport has a cursor (`Cursor.acked`): everything up to it was acknowledged. A page
holds the events after the cursor, oldest first, at most 50:

- on the channels the passport watches, the ones that happened after its watch began (messages, and
  the record events of parcels and beacons on that channel, which carry no words);
- in its inbox, wherever they happened: events addressed to the passport itself, or to its account
  (a parcel's publisher, a beacon's asker).

`since` acknowledges. It never moves the cursor backwards, and a since beyond the last event the town
has numbered is taken as that last event (clamped, not refused): the cursor can never pass an event
still to come, and a client whose `next` came from a town restored from a backup is not stuck. Until a
page is acknowledged, the same items come again (at least once). `next` is the last event of the page
when there are more; on the last page it is the last event the town had numbered when the page was
read (everything up to it that this passport may get is on the page), so passing it back also clears
what was missed. An empty page's `next` is that same number.

Event numbers are handed out under a lock held until the writing transaction commits
(common.next_seq), and the number the page is read up to is the committed last number: every event
at or below it is already visible, so a cursor never passes an event that is still to commit.

`removed`: events in the page a person took down (Event.removed), by number, never their words; they
count towards the page's 50 and are acknowledged with it. `missed`: the events after the cursor this
passport may no longer get because they are older than the `KEEP_DAYS` days listen delivers (a passport
that comes back after a month is told how many it missed, not flooded with them).

Joining or leaving a channel is a write: the desk counts it as a call that changes things (plans,
probation), and it will spend one of the hour's writes once the Bank exists. It needs no sign-in
(DECISIONS 9). Time is read from clockford.town.clock.
"""

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q

from clockford.town import clock
from clockford.town.models import Passport, lock, locked
from clockford.town.tooling import Refused, changed_since_asked, counted
from districts.switchboard import common
from districts.switchboard.models import Channel, Cursor, Event, Sequence, Watch

TEXT_CAP = 280
SPACING = timedelta(minutes=1)
NEW_CHANNELS_A_WEEK = 3
WEEK = timedelta(days=7)
WATCH_MAX = 16
NAMES_A_CALL = 16
PAGE = 50
MESSAGES_SHOWN = 50
BUSIEST = 10
KEEP_DAYS = 7
POLL_AFTER_SECONDS = 30
VISITOR = "visitor"  # who a message is from when its sender flies no pennant

EMPTY_SAY = "The message is empty."
ROOM_SAY = (
    "The Switchboard has no room for more channels right now. Broadcast on a channel that exists, or try again later."
)
BOTH_SAY = "A channel cannot be joined and left in one call."


def channels_max() -> int:
    return settings.CLOCKFORD["CHANNELS_MAX"]


# -- Broadcasting ------------------------------------------------------------------------------------


def check_broadcast(passport: Passport, name: str) -> None:
    """Everything that refuses a broadcast whatever its person says: sign-in first, then the name's rule,
    then, for a channel that does not exist yet, the account's week of new channels and the town's room.
    The tool asks it before holding the call for a yes, so a call that would be refused anyway is refused
    at once and never waits for a person; do_broadcast asks again when it goes through. The minute
    between messages is not among them: it passes while the person decides."""
    account = common.require_sign_in(passport)
    common.check_name(name)
    if not Channel.objects.filter(pk=name).exists():
        _check_room(account.pk, clock.now())


def check_unheld_broadcast(passport: Passport, name: str) -> None:
    """For a broadcast the desk let through without the person's yes (`check_broadcast` refused it then):
    its refusal, or, when it would go out now (the channel was opened, or room came, since the desk
    asked), busy. A message nobody allowed is never broadcast."""
    check_broadcast(passport, name)
    raise changed_since_asked()


def _locked_channel(name: str) -> Channel | None:
    # NO KEY: a passport joining the channel meanwhile (a Watch naming it) need not wait.
    return locked(Channel.objects.filter(pk=name), no_key=True).first()


def _one_opening_at_a_time() -> None:
    """Take the event sequence's lock: every broadcast takes it anyway when its message is numbered,
    so taking it first for a new channel costs nothing more, and it makes the weekly and town-wide
    counts of channels exact (two openings cannot both see room for one)."""
    Sequence.objects.get_or_create(pk=1)
    lock(Sequence.objects.filter(pk=1))


def too_soon_say(seconds: int) -> str:
    return (
        f"Messages on a channel are spaced a minute apart. Wait {counted(seconds, 'second', 'seconds')}, "
        "then broadcast again."
    )


def _check_room(account_id: int, now: Any) -> None:
    opened = list(
        Channel.objects.filter(account_id=account_id, opened_at__gt=now - WEEK)
        .order_by("opened_at")
        .values_list("opened_at", flat=True)
    )
    if len(opened) >= NEW_CHANNELS_A_WEEK:
        # The oldest of the week's openings leaves the seven days first.
        hours = max(1, math.ceil((opened[0] + WEEK - now).total_seconds() / 3600))
        raise Refused(
            f"Your account opened {NEW_CHANNELS_A_WEEK} new channels in the last seven days, as many as a week "
            f"allows. Broadcast on a channel that exists, or open a new one in {counted(hours, 'hour', 'hours')}.",
            "channel-quota",
        )
    if Channel.objects.count() >= channels_max():
        raise Refused(ROOM_SAY, "room")


@dataclass
class Broadcast:
    event: Event
    created: bool
    watching: bool  # whether the sender watches the channel after this broadcast


def do_broadcast(passport: Passport, name: str, text: str) -> Broadcast:
    """Put a message on a channel, opening the channel when the name is new."""
    account = common.require_sign_in(passport)
    common.check_name(name)
    # The desk kept the text: normal form, cut to TEXT_CAP, and refused it empty (clockford/town/kept.py).
    now = clock.now()
    channel = _locked_channel(name)
    if channel is None:
        _one_opening_at_a_time()
        channel = _locked_channel(name)  # opened while we waited for the lock?
    created = channel is None
    if channel is None:
        _check_room(account.pk, now)
        channel = Channel.objects.create(
            name=name, opened_at=now, opened_by=passport, account_id=account.pk, last_message_at=now, messages=1
        )
        _lock_cursor(passport)  # as do_watch does: the 16 counted one call at a time
        if Watch.objects.filter(passport=passport).count() < WATCH_MAX:
            Watch.objects.get_or_create(passport=passport, channel=channel, defaults={"since": now})
    else:
        if channel.last_message_at is not None and now - channel.last_message_at < SPACING:
            wait = math.ceil((channel.last_message_at + SPACING - now).total_seconds())
            raise Refused(too_soon_say(max(1, wait)), "too-soon")
        Channel.objects.filter(pk=name).update(last_message_at=now, messages=F("messages") + 1)
    event = common.emit("message", by=passport, channel=name, text=text)
    watching = Watch.objects.filter(passport=passport, channel=channel).exists()
    return Broadcast(event, created, watching)


# -- Watching ----------------------------------------------------------------------------------------


def named_channel(name: str, field: str) -> Channel:
    """An existing channel named in an argument, or the refusal (the rule's sentence for a malformed
    name, the town's sentence for one that does not exist), naming the argument it was in."""
    try:
        common.check_name(name)
        return common.existing_channel(name)
    except Refused as refusal:
        refusal.fields["field"] = field
        raise


def watching(passport: Passport) -> list[str]:
    return sorted(Watch.objects.filter(passport=passport).values_list("channel_id", flat=True))


def _cursor(passport: Passport) -> Cursor:
    cursor, _ = Cursor.objects.get_or_create(passport=passport)
    return cursor


def _lock_cursor(passport: Passport) -> None:
    """The passport's cursor, made if need be and locked: its watches are counted one call at a time."""
    _cursor(passport)
    lock(Cursor.objects.filter(pk=passport.pk))


def check_watch(join: list[str], leave: list[str]) -> None:
    """Refuse joining or leaving what no call could: a name the rule refuses, a channel that does not
    exist, or one channel both joined and left. The call alone decides it, whoever the person is, so the
    desk asks it before any hold too (Tool.before_hold)."""
    for field, names in (("join", join), ("leave", leave)):
        for i, name in enumerate(names):
            named_channel(name, f"{field}[{i}]")
    if set(join) & set(leave):
        raise Refused(BOTH_SAY, "join-and-leave")


def check_watch_room(passport: Passport, join: list[str], leave: list[str]) -> tuple[list[str], bool]:
    """The channels of `join` this passport does not watch yet, and whether it watches any of `leave`;
    or the refusal when the joins would take it past WATCH_MAX (the ones the same call leaves make room).
    The tool asks it before any hold too, so a join no person's yes could let through is refused at
    once, and one that would change nothing (no new channel, none left) is not held either.

    Counted under the passport's cursor lock, held until the call's transaction ends: one passport's
    joins one at a time, so two calls at once cannot pass the 16 between them, and the count a call's
    Tool.before_hold found is the one it runs on. Read unlocked there, a join made while an allowed join
    or leave of the same passport went through was held for a seventeenth channel, or refused for a
    limit the leave had just made room under."""
    _lock_cursor(passport)
    watched = set(Watch.objects.filter(passport=passport).values_list("channel_id", flat=True))
    current = watched - set(leave)
    new = [name for name in dict.fromkeys(join) if name not in current]
    if len(current) + len(new) > WATCH_MAX:
        raise Refused(
            f"A passport watches at most {WATCH_MAX} channels, and you watch {len(current)}. Leave some first.",
            "watch-limit",
            watching=sorted(current),
        )
    return new, bool(watched & set(leave))


def do_watch(passport: Passport, join: list[str], leave: list[str]) -> tuple[int, int]:
    """Start watching the channels in `join` and stop watching those in `leave`. Returns how many were
    joined and left (a channel already watched, or not watched, changes nothing)."""
    check_watch(join, leave)
    new, _ = check_watch_room(passport, join, leave)
    left = Watch.objects.filter(passport=passport, channel_id__in=set(leave)).delete()[0] if leave else 0
    now = clock.now()
    Watch.objects.bulk_create([Watch(passport=passport, channel_id=name, since=now) for name in new])
    return len(new), left


# -- Paging ------------------------------------------------------------------------------------------


@dataclass
class Page:
    since: int  # the cursor this page starts after (once `since` was acknowledged)
    events: list[Event]  # the page's events that still have their words, oldest first
    removed: list[int]  # the page's events a person took down, by number
    next: int
    more: bool
    missed: int


def last_seq() -> int:
    """The last event number committed: every event at or below it is already visible."""
    return int(Sequence.objects.filter(pk=1).values_list("last", flat=True).first() or 0)


def acknowledge(passport: Passport, since: int | None, last: int) -> int:
    """Move the cursor forward to `since` (never back, never past `last`); returns the cursor."""
    cursor = _cursor(passport)
    if since is not None and min(since, last) > cursor.acked:
        # Conditional, so two pages acknowledged at once leave the cursor at the larger.
        Cursor.objects.filter(pk=passport.pk, acked__lt=min(since, last)).update(acked=min(since, last))
        return int(Cursor.objects.filter(pk=passport.pk).values_list("acked", flat=True).get())
    return cursor.acked


def _reaches(passport: Passport) -> Q:
    """Which events reach this passport: its watched channels since each watch began, and its inbox."""
    q = Q(to_passport=passport)
    if passport.account_id is not None:
        q |= Q(to_account_id=passport.account_id)
    for name, since in Watch.objects.filter(passport=passport).values_list("channel_id", "since"):
        q |= Q(channel=name, at__gte=since)
    return q


def page(passport: Passport, since: int | None) -> Page:
    """One page of what reached this passport after its cursor (acknowledging `since` first)."""
    last = last_seq()
    acked = acknowledge(passport, since, last)
    horizon = clock.now() - timedelta(days=KEEP_DAYS)
    after = Event.objects.filter(_reaches(passport), seq__gt=acked, seq__lte=last)
    rows = list(after.filter(at__gte=horizon).select_related("by").order_by("seq")[: PAGE + 1])
    more = len(rows) > PAGE
    rows = rows[:PAGE]
    missed = after.filter(at__lt=horizon).count()
    return Page(
        since=acked,
        events=[e for e in rows if not e.removed],
        removed=[e.seq for e in rows if e.removed],
        next=rows[-1].seq if more else last,
        more=more,
        missed=missed,
    )


def busiest(n: int = BUSIEST) -> list[dict[str, Any]]:
    """The channels with the most messages, for a passport that watches none."""
    rows = Channel.objects.order_by("-messages", "name")[:n]
    return [
        {
            "name": c.name,
            "messages": c.messages,
            "lastMessageAt": clock.iso(c.last_message_at) if c.last_message_at else None,
        }
        for c in rows
    ]


def latest_messages(name: str, n: int = MESSAGES_SHOWN) -> list[Event]:
    """A channel's latest messages, oldest first (removed ones included, for the caller to set apart)."""
    rows = Event.objects.filter(channel=name, kind="message").select_related("by").order_by("-seq")[:n]
    return list(reversed(rows))


# -- What a reader sees of an event ---------------------------------------------------------------------


def item_of(event: Event) -> dict[str, Any]:
    """An event as listen shows it: a message with its sender's pennant and words; any other event
    with its record and no words (the record's own words are read with trace)."""
    if event.kind == "message":
        pennant = event.by.pennant if event.by is not None else None
        return {
            "seq": event.seq,
            "kind": "message",
            "channel": event.channel,
            "at": clock.iso(event.at),
            "from": pennant or VISITOR,
            "words": {"text": event.text},
        }
    return {
        "seq": event.seq,
        "kind": event.kind,
        "channel": event.channel,
        "record": event.record,
        "at": clock.iso(event.at),
    }


def has_pennant(event: Event) -> bool:
    return event.kind == "message" and event.by is not None and bool(event.by.pennant)
