"""The Tavern's services: pinning a notice and reading the board.

A notice reaches `do_post` only after its person said yes in the hall: the desk holds post_notice
until then (Tool.needs_yes), so nothing here asks again.
"""

from django.conf import settings

from clockford.town import clock, words
from clockford.town.models import Passport, new_id
from clockford.town.tooling import Refused
from districts.tavern.models import Notice

TEXT_CAP = 280
READ_DEFAULT = 20
READ_MAX = 50

EMPTY_SAY = "The notice is empty."


def is_empty(text: str) -> bool:
    """Nothing a reader could see: only whitespace and hidden characters (zero-width, bidi, NUL)."""
    return not words.for_matching(text.replace("\x00", "")).strip()


def do_post(passport: Passport, text: str) -> Notice:
    """Pin a notice, and take the oldest off the board past the number it keeps."""
    kept = text  # the desk kept it: normal form, cut to TEXT_CAP (clockford/town/kept.py)
    if is_empty(kept):
        raise Refused(EMPTY_SAY, "empty")
    notice = Notice.objects.create(
        id=new_id("N-"), passport=passport, pennant=passport.pennant, text=kept, at=clock.now()
    )
    # Usually this finds nothing or one notice: the board is pruned on every post.
    board = Notice.objects.order_by("-at", "-id").values_list("pk", flat=True)
    old = list(board[settings.CLOCKFORD["NOTICES_KEPT"] :])
    if old:
        Notice.objects.filter(pk__in=old).delete()
    return notice


def newest(limit: int = READ_DEFAULT) -> list[Notice]:
    """The board, newest first. Everyone reads the same board: there is nothing private on it."""
    return list(Notice.objects.order_by("-at", "-id")[: max(1, min(limit, READ_MAX))])
