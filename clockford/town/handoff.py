"""The hand-off from an agent to its person: the one place that says where in the hall a person
decides what waits for them.

Every reply that waits for a person (a held call, a letter, a plan, a report, a request for authority)
carries `hallUrl`, the deep link to that item's page, built here and nowhere else; look_around carries
`hall: {url, claimed}`. The hall's pages are named routes (hall/urls.py, `hall:<kind>`); the core knows
their names, never the hall's code, so the wall between them stands (tests/test_house.py).
"""

import functools
from typing import Any

from django.conf import settings
from django.urls import reverse

# The kinds of thing that wait for a person, each with the name of its page in the hall.
PAGES = {
    "hold": "hall:hold",
    "letter": "hall:letter",
    "plan": "hall:plan",
    "report": "hall:report",
    "authority": "hall:authority",
}


def hall_path(kind: str, item_id: str) -> str:
    """The path of an item's page in the hall: /hall/holds/H-…"""
    return reverse(PAGES[kind], args=[item_id])


def hall_url(kind: str, item_id: str) -> str:
    """The deep link an agent hands its person: the hall's own address and the item's page."""
    return str(settings.HALL_URL) + hall_path(kind, item_id)


def front_url() -> str:
    """The hall's front door, where a person signs in and sees what waits for them."""
    return str(settings.HALL_URL) + _front_path()


@functools.cache
def _front_path() -> str:
    # One fixed route, asked for by every look_around: resolved once per process (reverse() walks the
    # URL patterns each time).
    return reverse("hall:front")


def waiting(kind: str, item_id: str) -> dict[str, Any]:
    """The field every reply that waits for a person carries: {hallUrl}."""
    return {"hallUrl": hall_url(kind, item_id)}
