"""The Switchboard's tidy for the sweep (clockford/town/sweep.py, docs/retention.md), and the shape of
its tracking numbers, for a plan's step (clockford/town/plans.py)."""

import datetime as dt

from django.db.models import Exists, F, OuterRef, Q, Window
from django.db.models.functions import RowNumber

from clockford.town import sweep
from districts.switchboard import beacons, channels, parcels, sightings
from districts.switchboard.models import Cursor, Event, Parcel, Sighting, Watch

# Which tracking numbers a call's record argument may name: a parcel's, a beacon's, or either (a
# sighting's record).
TRACKING = {"parcel": (parcels.ID,), "beacon": (beacons.ID,), "record": (parcels.ID, beacons.ID)}


def tracking_number_fits(record_arg: str, number: str) -> bool:
    """Whether `number` has the shape of a tracking number the argument `record_arg` may name (P- or B-
    and twelve of the town's id letters): one that does not could never be a record's (CLOCKFORD_
    TRACKING_NUMBERS). An argument this does not know is let through."""
    shapes = TRACKING.get(record_arg)
    return shapes is None or any(shape.fullmatch(number) for shape in shapes)


# How long a sighting staff have read is kept after its reading, for staff to look back on.
SIGHTING_KEPT_DAYS = 90


def _events(now: dt.datetime) -> int:
    """Events no reader will see or count again. listen delivers the last KEEP_DAYS days and counts
    older ones a passport has not acknowledged as `missed`; a channel shows its newest messages
    however old. So an event goes only once it is older than KEEP_DAYS, is not among its channel's
    newest MESSAGES_SHOWN messages, and every passport it reaches has acknowledged past it: its
    passport's inbox (to_passport) and each watch of its channel that began before it. An event for an
    account's inbox (to_account) stays: a passport that account makes later would count it missed."""
    acked = Cursor.objects.filter(acked__gte=OuterRef(OuterRef("seq")))
    watch_behind = Watch.objects.filter(channel_id=OuterRef("channel"), since__lte=OuterRef("at")).exclude(
        Exists(acked.filter(passport=OuterRef("passport")))
    )
    inbox_read = Exists(Cursor.objects.filter(passport=OuterRef("to_passport"), acked__gte=OuterRef("seq")))
    shown = Event.objects.annotate(n=Window(RowNumber(), partition_by=F("channel"), order_by=F("seq").desc())).filter(
        kind="message", n__lte=channels.MESSAGES_SHOWN
    )
    old = (
        Event.objects.filter(at__lt=now - dt.timedelta(days=channels.KEEP_DAYS), to_account__isnull=True)
        .filter(Q(to_passport__isnull=True) | inbox_read)
        .filter(Q(channel="") | ~Exists(watch_behind))
        .exclude(pk__in=shown.values("pk"))
    )
    return sweep.delete_in_batches(old)


def tidy(now: dt.datetime) -> dict[str, int]:
    """Parcels: store what the clock already did to rows that lag behind (their words go when they
    settle); views already show it, so nothing is decided here, and no parcel is deleted: its history
    is what an agent and a person read. Sightings: one staff read more than SIGHTING_KEPT_DAYS ago,
    unless it is among the newest the staff page shows; the daily limit counts only today's. Events:
    see _events."""
    newest = sightings.recent_sightings().values("pk")
    read_long_ago = Sighting.objects.filter(read_at__lte=now - dt.timedelta(days=SIGHTING_KEPT_DAYS))
    return {
        # No parcel row goes: say so beside the count, which the sweep's output prints as it is.
        f"{Parcel._meta.db_table} (brought up to date, none removed)": parcels.tidy(),
        Sighting._meta.db_table: sweep.delete_in_batches(read_long_ago.exclude(pk__in=newest)),
        Event._meta.db_table: _events(now),
    }
