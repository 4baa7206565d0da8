"""A counter that fails loses its count, never the call: the reply and its footstep stand, and the
gauge counts the next reply as usual."""

from typing import Any

from clockford.town import desk
from clockford.town.models import Footstep, Passport
from districts.general_store import services
from districts.testing import visit


def _broken(sender: Any, **_: Any) -> None:
    raise RuntimeError("the counter broke")


def test_a_broken_counter_loses_its_count_not_the_call(alice: Passport) -> None:
    desk.replied.connect(_broken, dispatch_uid="test.broken")
    try:
        r = visit(alice, "look_around")
    finally:
        desk.replied.disconnect(dispatch_uid="test.broken")
    assert not r.is_error and r.footstep is not None
    assert Footstep.objects.filter(number=r.footstep).exists()
    # The store's receiver ran before the broken one and its count rolled back with the savepoint.
    assert services.find_gauge(alice.id) is None
    visit(alice, "look_around")
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and gauge["today"]["calls"] == 1
