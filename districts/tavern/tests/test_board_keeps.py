"""The board keeps the newest 300 notices: publishing the 301st takes the oldest off, in the same call."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from clockford.town import clock
from clockford.town.models import Hold, Passport, new_id
from districts.tavern.models import Notice
from districts.testing import visit


def _publish(passport: Passport, text: str, allow: Callable[[str], Hold]) -> dict[str, Any]:
    allow(visit(passport, "post_notice", text=text).structured["hold"]["id"])
    r = visit(passport, "post_notice", text=text)
    assert r.is_error is False, r.structured
    return r.structured


def _old_board(passport: Passport, n: int) -> list[str]:
    """n notices already on the board, oldest first, an hour and more ago."""
    start = clock.now() - timedelta(hours=2)
    notices = [
        Notice(id=new_id("N-"), passport=passport, text=f"old notice {i}", at=start + timedelta(seconds=i))
        for i in range(n)
    ]
    Notice.objects.bulk_create(notices)
    return [n.id for n in notices]


def test_the_board_keeps_300(settings: Any) -> None:
    assert settings.CLOCKFORD["NOTICES_KEPT"] == 300


def test_the_301st_takes_the_oldest_off(alice: Passport, bob: Passport, allow: Callable[[str], Hold]) -> None:
    old = _old_board(bob, 300)
    new = _publish(alice, "A fresh notice on a full board.", allow)
    assert Notice.objects.count() == 300
    assert not Notice.objects.filter(pk=old[0]).exists()
    assert Notice.objects.filter(pk=old[1]).exists()
    assert Notice.objects.filter(pk=new["id"]).exists()


def test_a_board_below_the_number_keeps_everything(
    alice: Passport, bob: Passport, allow: Callable[[str], Hold]
) -> None:
    _old_board(bob, 299)
    _publish(alice, "The three hundredth notice.", allow)
    assert Notice.objects.count() == 300


def test_it_prunes_by_the_operators_number(alice: Passport, settings: Any, allow: Callable[[str], Hold]) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "NOTICES_KEPT": 2}
    ids = []
    for i in range(4):
        ids.append(_publish(alice, f"Notice number {i} of four.", allow)["id"])
        clock.advance(timedelta(seconds=1))
    assert set(Notice.objects.values_list("pk", flat=True)) == set(ids[2:])
    shown = visit(alice, "read_notices").structured["notices"]
    assert [n["id"] for n in shown] == [ids[3], ids[2]]
