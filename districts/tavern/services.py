"""The Tavern's services: pinning a notice and reading the board.

A notice reaches `do_post` only after its person said yes in the hall: the desk holds post_notice
until then (Tool.needs_yes), so nothing here asks again.
"""

from datetime import datetime

from django.conf import settings
from django.db.models import Q

from clockford.town import clock, sweep
from clockford.town.models import Passport, new_id
from districts.tavern.models import Notice

TEXT_CAP = 280
READ_DEFAULT = 20
READ_MAX = 50

# The desk refuses a notice that says nothing with it (Words.empty, clockford/town/kept.py), before
# it is held: a person is never asked to approve an empty notice.
EMPTY_SAY = "The notice is empty."


def do_post(passport: Passport, text: str) -> Notice:
    """Pin a notice, and take the oldest off the board past the number it keeps."""
    kept = text  # the desk kept it: normal form, cut to TEXT_CAP, and refused it empty (clockford/town/kept.py)
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


def tidy(now: datetime) -> dict[str, int]:
    """For the sweep (clockford/town/sweep.py): the notices past the number the board keeps. Each post
    already takes them off; this catches up after NOTICES_KEPT was lowered. Nobody reads past it:
    `newest` reads at most READ_MAX, fewer than the board keeps."""
    board = Notice.objects.order_by("-at", "-id")
    cut = board.values_list("at", "id")[settings.CLOCKFORD["NOTICES_KEPT"] : settings.CLOCKFORD["NOTICES_KEPT"] + 1]
    edge = next(iter(cut), None)
    if edge is None:
        return {Notice._meta.db_table: 0}
    at, pk = edge
    older = Notice.objects.filter(Q(at__lt=at) | Q(at=at, id__lte=pk))
    return {Notice._meta.db_table: sweep.delete_in_batches(older)}
