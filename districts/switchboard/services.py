"""The Switchboard's tidy for the sweep (clockford/town/sweep.py, docs/retention.md)."""

import datetime as dt

from districts.switchboard import parcels
from districts.switchboard.models import Parcel


def tidy(now: dt.datetime) -> dict[str, int]:
    """Store what the clock already did to parcels whose rows lag behind (their words go when they
    settle): views already show it, so nothing is decided here. Parcels are never deleted: their
    history is what an agent and a person read."""
    return {Parcel._meta.db_table: parcels.tidy()}
