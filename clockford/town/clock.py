"""The town's clock. Everything that lapses (holds, plans, reports, claims) reads the time here, so a
test can move the clock forward instead of waiting a day (`advance`)."""

from datetime import UTC, datetime, timedelta

from django.utils import timezone

_offset = timedelta(0)


def now() -> datetime:
    return timezone.now() + _offset


def day_start(at: datetime) -> datetime:
    """The start of `at`'s day. The town's days are UTC days: the daily limits, the posting budgets
    and the public counts all turn over at 00:00 UTC."""
    return at.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def iso(at: datetime) -> str:
    """A moment as every reply and page of the town writes it: UTC, to the second, with Z
    (2026-12-05T17:25:00Z), one form everywhere. (The Archive's footsteps and signed exports keep
    their microseconds: what is signed is written as it was signed.)"""
    u = at.astimezone(UTC)
    # The year in four digits, as RFC 3339 writes it: strftime's %Y writes the year 1 as "1".
    return f"{u.year:04d}-{u:%m-%dT%H:%M:%S}Z"


def advance(by: timedelta) -> None:
    """Move this process's clock forward (tests only)."""
    global _offset
    _offset += by


def reset() -> None:
    global _offset
    _offset = timedelta(0)
