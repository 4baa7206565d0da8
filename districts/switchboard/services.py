"""The Switchboard's tidy for the sweep (clockford/town/sweep.py, docs/retention.md)."""

import datetime as dt

from clockford.town import sweep
from districts.switchboard import parcels, sightings
from districts.switchboard.models import Parcel, Sighting

# How long a sighting staff have read is kept after its reading, for staff to look back on.
SIGHTING_KEPT_DAYS = 90


def tidy(now: dt.datetime) -> dict[str, int]:
    """Parcels: store what the clock already did to rows that lag behind (their words go when they
    settle); views already show it, so nothing is decided here, and no parcel is deleted: its history
    is what an agent and a person read. Sightings: one staff read more than SIGHTING_KEPT_DAYS ago,
    unless it is among the newest the staff page shows; the daily limit counts only today's."""
    newest = sightings.recent_sightings().values("pk")
    read_long_ago = Sighting.objects.filter(read_at__lte=now - dt.timedelta(days=SIGHTING_KEPT_DAYS))
    return {
        # No parcel row goes: say so beside the count, which the sweep's output prints as it is.
        f"{Parcel._meta.db_table} (brought up to date, none removed)": parcels.tidy(),
        Sighting._meta.db_table: sweep.delete_in_batches(read_long_ago.exclude(pk__in=newest)),
    }
