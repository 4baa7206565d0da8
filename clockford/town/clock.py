"""The town's clock. Everything that lapses (holds, plans, reports, claims) reads the time here, so a
test can move the clock forward instead of waiting a day (`advance`)."""

from datetime import datetime, timedelta

from django.utils import timezone

_offset = timedelta(0)


def now() -> datetime:
    return timezone.now() + _offset


def advance(by: timedelta) -> None:
    """Move this process's clock forward (tests only)."""
    global _offset
    _offset += by


def reset() -> None:
    global _offset
    _offset = timedelta(0)
