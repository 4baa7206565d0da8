"""What the parcel tests share (no tests of its own): a channel to post on, a posted parcel, and the
shape of a refusal. The personas are the Switchboard's (conftest.py): alice and alice2 on account A,
bob on account B, charlie without sign-in."""

from collections.abc import Callable
from typing import Any

from clockford.town import clock, desk
from clockford.town.models import Passport
from districts.switchboard.models import Channel
from districts.testing import outcome

WORK = {
    "title": "Sort the lantern list",
    "brief": "Put the lantern servers of the census in order of their integrity score, best first.",
    "done_when": "A list of lot numbers, best first.",
}
RESULT = "Lots 12, 7 and 3, in that order."
NOTE = "Lot 7 scores lower than lot 3 now; check again."

Publish = Callable[..., desk.Rendered]


def open_channel(by: Passport, name: str = "lanterns") -> Channel:
    """A channel as a broadcast opens it (broadcast is another part's tool)."""
    return Channel.objects.get_or_create(
        name=name, defaults={"opened_at": clock.now(), "opened_by": by, "account_id": by.account_id}
    )[0]


def post(published: Publish, passport: Passport, channel: str = "lanterns", **more: Any) -> dict[str, Any]:
    """A parcel posted through the desk: held, allowed by the person, and called again."""
    r = published(passport, "post_parcel", channel=channel, **{**WORK, **more})
    assert r.is_error is False, r.structured
    return dict(r.structured["parcel"])


def refused(r: desk.Rendered, say: str, why: str) -> None:
    """A refusal in the town's voice, with its footstep's outcome."""
    assert r.is_error is True, r.structured
    assert r.structured["say"] == say
    assert "hold" not in r.structured and "retryAfterSeconds" not in r.structured
    assert outcome(r) == f"refused:{why}"
