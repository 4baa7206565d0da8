"""Small words for times in the hall's pages."""

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

register = template.Library()


@register.filter
def ago(when: datetime | None) -> str:
    """ "just now", "5 minutes ago", "3 days ago": one unit is enough to read at a glance."""
    if when is None:
        return "never"
    if timezone.now() - when < timedelta(minutes=1):
        return "just now"
    return f"{timesince(when, depth=1)} ago"
