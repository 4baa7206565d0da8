"""Filters for the public pages: every moment shown with its date, time and zone."""

import datetime as dt

from django import template

register = template.Library()


def _in_utc(value: str | dt.datetime | None, form: str) -> str:
    """An ISO moment or a datetime (one without a zone is UTC), written in UTC by strftime's `form`."""
    if value is None or value == "":
        return ""
    at = value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    if at.tzinfo is None:
        at = at.replace(tzinfo=dt.UTC)
    return at.astimezone(dt.UTC).strftime(form)


@register.filter
def utc(value: str | dt.datetime | None) -> str:
    """ "2025-03-04 05:06:07 UTC" from an ISO moment or a datetime."""
    return _in_utc(value, "%Y-%m-%d %H:%M:%S UTC")


@register.filter
def iso_utc(value: str | dt.datetime | None) -> str:
    """The machine-readable form for <time datetime>: 2025-03-04T05:06:07Z."""
    return _in_utc(value, "%Y-%m-%dT%H:%M:%SZ")


@register.filter
def short(value: str, most: int = 16) -> str:
    """A pennant cut to fit its flag on the drawing (the full words are in the list's label)."""
    value = str(value)
    return value if len(value) <= most else value[: most - 1] + "…"
