"""Words as a person reads them in the hall: exactly, escaped, never linkified, with every hidden
character drawn as a visible token (⟦U+200B⟧ and the like), and flags for what to look at twice.

One rule decides which characters become tokens (words.token_of, which the town's own sentences use
too), for the queue's one-line previews (plain text) and for the decision pages (HTML, each token
inside <mark class="hidden-char">).
"""

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince

from clockford.town import clock, holds, words
from clockford.town.models import Plan
from clockford.town.tooling import registry
from clockford.town.words import shown_text, token_of

PREVIEW_CHARS = 140


def preview(text: str, cap: int = PREVIEW_CHARS) -> str:
    """A short preview on one line: hidden characters shown, runs of space folded, cut with an ellipsis.

    Drawn from the text's beginning only, longer each turn until there is more than `cap` to show (every
    character shows as one or more, but a run of space as one): a letter's whole body was drawn, token
    by token, for its first 140 characters, on every row of the queue."""
    take = 4 * cap
    while True:
        one_line = " ".join(shown_text(text[:take]).split())
        if len(one_line) > cap or take >= len(text):
            break
        take *= 4
    return one_line if len(one_line) <= cap else one_line[: cap - 1].rstrip() + "…"


# Combining marks drawn as they are on one letter: four is more than any script stacks (Vietnamese two,
# Hebrew with its cantillation four, Thai three); past that, each is drawn as its token. A letter with
# fifty marks ("Zalgo") drew them far above and below its line, over the buttons a person decides with,
# and a box clipped to its words would hide marks that are part of the exact words: as tokens, every
# one is shown, on the line it belongs to.
MOST_MARKS = 4
_MARKS = ("Mn", "Me")


def marked(
    text: str,
    hides: Callable[[str], bool] = words.is_hidden,
    whole: re.Pattern[str] | None = None,
    most_marks: int | None = MOST_MARKS,
) -> SafeString:
    """Escaped text with every hidden character (every one `hides` names) drawn as a visible token in a
    <mark>, and every combining mark past `most_marks` on one letter too, but inside what `whole`
    matches, left as it is. The public pages draw only the characters words.is_unseen_on_public names
    so, keep a flag whole, and keep a letter's marks inside its box with CSS (most_marks None:
    clockford/public/templatetags)."""
    out: list[str] = []
    for piece, kept in words.pieces(text, whole):
        if kept:
            out.append(escape(piece))
            continue
        run: list[str] = []
        marks = 0  # combining marks drawn as they are on the letter before them
        for ch in piece:
            token = token_of(ch, hides=hides)
            if token is None:
                marks = marks + 1 if unicodedata.category(ch) in _MARKS else 0
                if most_marks is None or marks <= most_marks:
                    run.append(ch)
                    continue
                token, title = f"⟦U+{ord(ch):04X}⟧", STACKED_MARK
            else:
                marks = 0  # a token is a letter of its own: the marks after it sit on it
                title = "A control character" if unicodedata.category(ch) == "Cc" else "A hidden character"
            out.append(escape("".join(run)))
            run = []
            out.append(format_html('<mark class="hidden-char" title="{}">{}</mark>', title, token))
        out.append(escape("".join(run)))
    return mark_safe("".join(out))  # noqa: S308 (every piece above was escaped or built by format_html)


STACKED_MARK = "A combining mark past the fourth on one letter"


def stacked(text: str, most_marks: int = MOST_MARKS) -> bool:
    """Whether a letter of the text carries more than `most_marks` combining marks (marked draws them)."""
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.category(ch) in _MARKS and not words.is_hidden(ch) else 0
        if marks > most_marks:
            return True
    return False


def few_marks(text: str, most_marks: int = MOST_MARKS) -> str:
    """The text with each combining mark past `most_marks` on one letter left out: the words a box that
    cannot draw a token starts from (the rewrite box on a hold's page). Left in, fifty marks on a letter
    drew over the box's other lines; the page above it shows every one as its token."""
    out: list[str] = []
    marks = 0
    for ch in text:
        marks = marks + 1 if unicodedata.category(ch) in _MARKS and not words.is_hidden(ch) else 0
        if marks <= most_marks:
            out.append(ch)
    return "".join(out)


# Named here, not by strftime's %B, which names a month in the server's locale.
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def stamp(when: datetime) -> str:
    """A moment as the hall writes it everywhere, pages and messages alike: "1 May 2026 at 14:32 UTC".
    The month by its name and the year in full: "2026-05-01" or "01/05" is the fifth of January to
    some readers, and a person deciding in a hurry should not have to know which convention the page
    keeps. The page's script (static/hall/times.js) says it again beside it in the person's own time."""
    at = when.astimezone(UTC)
    return f"{at.day} {MONTHS[at.month - 1]} {at.year} at {at:%H:%M} UTC"


LESS_THAN_A_MINUTE = "less than a minute"


def span(since: datetime, until: datetime) -> str:
    """How long from `since` to `until`, to the nearest minute, in at most two adjacent units: "23 hours,
    59 minutes", "1 hour", "3 days, 2 hours". One unit, cut down, read 23 h 59 min as "23 hours"
    and an hour's allowance drawn a second later as "59 minutes"; rounding up to "24 hours" would
    promise time that is not there. Every relative time of the hall (time left, "ago", "in") says it so."""
    minutes = round((until - since).total_seconds() / 60)
    if minutes <= 0:
        # Not "0 minutes": a hold that "lapses in 0 minutes" reads as lapsed already, while it can still
        # be decided, and "in 0 minutes" or "0 minutes ago" says nothing a person can act on.
        return LESS_THAN_A_MINUTE
    return timesince(since, since + timedelta(minutes=minutes), depth=2)


def time_left(until: datetime) -> str:
    """The time left before something lapses: "23 hours, 59 minutes", "5 minutes"."""
    return span(clock.now(), until)


# -- The words of a call --------------------------------------------------------------------------------


def strings_of(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every string in the arguments with where it sits (text, notes[0], steps[1].channel)."""
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [found for k, v in value.items() for found in strings_of(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, list):
        return [found for i, v in enumerate(value) for found in strings_of(v, f"{path}[{i}]")]
    return []


def words_of(arguments: dict[str, Any]) -> list[tuple[str, str]]:
    """The free words of a call: every string argument but request_id, which only names a retry."""
    return [(path, text) for path, text in strings_of(arguments) if path != "request_id"]


def other_arguments(arguments: dict[str, Any]) -> list[tuple[str, str]]:
    """Arguments that are not words (numbers, true or false), each as JSON."""
    return [
        (k, json.dumps(v, ensure_ascii=False)) for k, v in arguments.items() if not strings_of(v) and k != "request_id"
    ]


def raw_json(value: Any) -> SafeString:
    return marked(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True))


def whose(label: str) -> str:
    """Whose words an agent repeated, from the label the town handed them with."""
    return holds.WHOSE.get(label, "someone else's words")


def shown_steps(plan: Plan) -> list[dict[str, Any]]:
    """A plan's steps with the channel or record an agent named drawn as words are (hidden shown), and
    whether the step's words for others still wait for the person's yes: a plan never loosens that
    hold (000 section 06), so the page must not say such a step goes ahead without asking."""
    tools = registry()
    return [
        {
            **step,
            "where": marked(step.get("channel") or step.get("record") or ""),
            "asks_yes": bool(tools[step["tool"]].needs_yes) if step["tool"] in tools else False,
        }
        for step in plan.steps
    ]


# -- Flags: what to look at twice ------------------------------------------------------------------------

FLAG_WORDS = {
    "link": "A link. It is not clickable here; check where it leads before you act on it.",
    "email": "An email address.",
    "staff-voice": "Words in a town staff voice: the town's staff never speak through an agent's words.",
    "hidden": "Hidden characters, drawn above as ⟦U+…⟧: they can change what words say without being seen.",
    "stacked-marks": (
        "A letter with more than four combining marks stacked on it: each past the fourth is drawn above as "
        "⟦U+…⟧, so none draws over the page."
    ),
}
_HOST = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*://)?(?P<host>[^/:?#\s@]+)", re.IGNORECASE)


def punycode(link: str) -> str | None:
    """The link with an international domain written as the DNS sees it (xn--...), or None."""
    m = _HOST.match(link)
    if m is None or m.group("host").isascii():
        return None
    try:
        host = m.group("host").encode("idna").decode("ascii")
    except UnicodeError:
        return None
    return link[: m.start("host")] + host + link[m.end("host") :]


@dataclass(frozen=True)
class Passage:
    text: SafeString
    punycode: str | None  # for a link to an international domain: how the DNS spells it


@dataclass(frozen=True)
class ShownFlag:
    """One kind of thing to look at in a field, with every passage of that kind, in order."""

    kind: str
    words: str
    passages: list[Passage]


@dataclass(frozen=True)
class ShownField:
    name: str
    text: SafeString
    flags: list[ShownFlag]


def flags_of(text: str) -> list[ShownFlag]:
    by_kind: dict[str, list[Passage]] = {}
    for flag in words.flags(text):
        link = punycode(flag.matched) if flag.kind == "link" else None
        by_kind.setdefault(flag.kind, []).append(Passage(marked(flag.matched), link))
    found = [ShownFlag(kind, FLAG_WORDS.get(kind, kind), passages) for kind, passages in by_kind.items()]
    if stacked(text):
        found.append(ShownFlag("stacked-marks", FLAG_WORDS["stacked-marks"], []))
    return found


def shown_fields(pairs: list[tuple[str, str]]) -> list[ShownField]:
    return [ShownField(name, marked(text), flags_of(text)) for name, text in pairs]


def shown_field(name: str, text: str) -> ShownField:
    return ShownField(name, marked(text), flags_of(text))
