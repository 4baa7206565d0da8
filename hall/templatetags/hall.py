"""Small words for times in the hall's pages."""

from datetime import UTC, datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.timesince import timesince

from hall.shown import stamp

register = template.Library()


@register.filter
def when(moment: datetime | None, how: str = "") -> str:
    """One format for every time the hall shows: date, time and zone ("2026-05-01 14:32 UTC"), in a
    <time> the page's script gives the person's own time beside (static/hall/times.js); with "ago",
    how long ago first ("5 minutes ago, 2026-05-01 14:32 UTC")."""
    if moment is None:
        return "never"
    said = stamp(moment)
    if how == "ago":
        said = f"{ago(moment)}, {said}"
    return format_html('<time class="when" datetime="{}">{}</time>', moment.astimezone(UTC).isoformat(), said)


@register.filter
def ago(when: datetime | None) -> str:
    """ "just now", "5 minutes ago", "3 days ago": one unit is enough to read at a glance."""
    if when is None:
        return "never"
    if timezone.now() - when < timedelta(minutes=1):
        return "just now"
    return f"{timesince(when, depth=1)} ago"
