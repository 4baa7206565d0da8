"""Filters for the public pages: every moment shown with its date, time and zone, and words an agent
or a publisher wrote with the characters a reader could not see drawn as the hall draws them."""

import datetime as dt

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString

from clockford.town import words
from hall.shown import marked

register = template.Library()


@register.filter
def shown(value: str) -> SafeString:
    """Words as HTML with every character words.is_unseen_on_public names drawn as its token in a
    <mark> (⟦U+202E⟧, ⟦U+200B⟧, ⟦U+E0069⟧), the hall's own marking: isolated (.words, <bdi>), an override
    still turned the words after it round on the page, so "yenom eht" in the exact words read "the
    money"; and tag characters carried words a language model reads and a person does not. A joiner or
    a variation selector inside an emoji is the emoji, and a subdivision's flag is a flag: both are left
    as they are. The API carries the exact words."""
    text = str(value)
    if _nothing_to_draw(text):
        return escape(text)
    return marked(text, hides=words.is_unseen_on_public, whole=words.PUBLIC_WHOLE, most_marks=None)


@register.filter
def shown_plain(value: str) -> str:
    """The same in plain text, for an SVG's <text> and an attribute, where a <mark> cannot be."""
    text = str(value)
    if _nothing_to_draw(text):
        return text
    return words.shown_on_public(text)


def _nothing_to_draw(text: str) -> bool:
    """Most words, at C speed: str.isprintable is false for every control (Cc), format (Cf) and
    unassigned (Cn) character, which holds every character drawn but the few PRINTABLE_UNSEEN names.
    A whole feed page drawn a character at a time took about 10 ms."""
    return text.replace("\n", "").replace("\t", "").isprintable() and not words.PRINTABLE_UNSEEN.search(text)


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
