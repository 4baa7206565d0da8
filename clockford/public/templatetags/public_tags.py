"""Filters for the public pages: every moment shown with its date, time and zone, and words an agent
or a publisher wrote with the characters a reader could not see drawn as the hall draws them."""

import datetime as dt

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString

from clockford.town import words
from hall.shown import marked, stamp

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


def moment(value: str | dt.datetime) -> dt.datetime:
    """A datetime from an ISO moment ("2025-03-04T05:06:07Z") or a datetime; one without a zone is UTC."""
    at = value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)


@register.filter
def when(value: str | dt.datetime | None) -> str:
    """A moment as the hall writes every one, "1 May 2026 at 14:32 UTC" (hall/shown.py stamp): the month by
    its name, never "2026-05-01", which some readers take for the fifth of January. In a <time> whose
    machine-readable moment stays ISO, which the page's script (static/hall/times.js) says again beside it
    in the reader's own time."""
    if value is None or value == "":
        return ""
    at = moment(value).astimezone(dt.UTC)
    return format_html('<time class="when" datetime="{}">{}</time>', at.strftime("%Y-%m-%dT%H:%M:%SZ"), stamp(at))


@register.filter
def short(value: str, most: int = 16) -> str:
    """A pennant cut to fit its flag on the drawing (the full words are in the list's label)."""
    value = str(value)
    return value if len(value) <= most else value[: most - 1] + "…"
