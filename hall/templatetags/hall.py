"""Small words for the hall's pages: times, and the words a rewrite box starts from."""

import re
from datetime import UTC, datetime, timedelta

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from clockford.town import clock
from hall import drawn, shown
from hall.models import Account
from hall.shown import MONTHS, span, stamp

register = template.Library()


@register.filter
def when(moment: datetime | None, how: str = "") -> str:
    """One format for every time the hall shows: date, time and zone ("1 May 2026 at 14:32 UTC"), in a
    <time> the page's script gives the person's own time beside (static/hall/times.js); with "ago",
    how long ago first ("5 minutes ago, 1 May 2026 at 14:32 UTC"); with "in", how far off after it
    ("1 May 2026 at 14:32 UTC, in 1 hour"), for a time that ends something ("until ...")."""
    if moment is None:
        return "never"
    said = stamp(moment)
    if how == "ago":
        said = f"{ago(moment)}, {said}"
    shown = format_html('<time class="when" datetime="{}">{}</time>', moment.astimezone(UTC).isoformat(), said)
    if how == "in":
        # After the <time>, so the person's own time (times.js) stays beside the town's.
        return format_html("{}, {}", shown, off(moment))
    return shown


# A moment in a message: in the hall's one format (shown.stamp), or as the rest of the town writes one
# ("2026-05-01 14:32 UTC": the rehab ward's end in hall/closures.py's message, the town's own sentences).
STAMPED = re.compile(
    rf"(?:(?P<day>\d{{1,2}}) (?P<month>{'|'.join(MONTHS)}) (?P<year>\d{{4}}) at"
    r"|(?P<iso_year>\d{4})-(?P<iso_month>\d\d)-(?P<iso_day>\d\d)) (?P<hour>\d\d):(?P<minute>\d\d) UTC"
)


@register.filter
def flash(message: object) -> SafeString:
    """A message of the hall (messages.success and the like), escaped, with each moment it names in the
    hall's one format (shown.stamp) or the town's ("2026-05-01 14:32 UTC") written in the hall's one
    format and put in a <time>, so every time on the page reads alike and the page's script says it in
    the person's own time beside it."""
    said = str(escape(str(message)))

    def timed(m: re.Match[str]) -> str:
        if m["month"]:
            year, month, day = int(m["year"]), MONTHS.index(m["month"]) + 1, int(m["day"])
        else:
            year, month, day = int(m["iso_year"]), int(m["iso_month"]), int(m["iso_day"])
        try:
            moment = datetime(year, month, day, int(m["hour"]), int(m["minute"]), tzinfo=UTC)
        except ValueError:  # no such day or hour ("2026-02-30"): the words are left as they are
            return m.group(0)
        return f'<time class="when" datetime="{moment.isoformat()}">{stamp(moment)}</time>'

    return mark_safe(STAMPED.sub(timed, said))  # noqa: S308 (escaped above; only the <time> is added)


def ago(when: datetime | None) -> str:
    """ "just now", "5 minutes ago", "1 day, 23 hours ago" (shown.span: to the minute, two units)."""
    if when is None:
        return "never"
    now = clock.now()  # the town's one clock, as `off` reads it: the same moment, whichever way it is told
    if now - when < timedelta(minutes=1):
        return "just now"
    return f"{span(when, now)} ago"


def off(moment: datetime) -> str:
    """How far off a moment is: "in 1 hour", "in 23 hours, 59 minutes"; once past, how long ago. Read on
    the town's clock, which sets what lapses (an allowance's end, a hold's)."""
    now = clock.now()
    if moment <= now:
        return f"{span(moment, now)} ago"
    return f"in {span(now, moment)}"


# The words a rewrite box starts from, and whether marks were left out of them (hall/shown.py few_marks).
register.filter("few_marks", shown.few_marks)
register.filter("stacked", shown.stacked)
# Words someone else wrote (a census lot's name, the publisher's words) drawn as the hall draws them:
# escaped, every hidden character a visible token (a right-to-left override in a registry's name turned
# the name the person proves around).
register.filter("drawn", shown.marked)


@register.simple_tag(takes_context=True)
def drawn_for(context: template.Context) -> str:
    """In a form of a signed-in person's page, beside its CSRF token: the mark of whom the page was drawn
    for (hall/drawn.py), so a form sent after another tab signed someone else in is refused in plain words."""
    user = getattr(context.get("request"), "user", None)
    if not isinstance(user, Account) or not user.is_authenticated:
        return ""
    return format_html('<input type="hidden" name="{}" value="{}">', drawn.FIELD, drawn.mark(user))
