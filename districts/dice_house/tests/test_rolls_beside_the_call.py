"""The roll and the gauge's count share one savepoint beside the call (desk.Beside): a roll that breaks
loses the roll, never the call or the count after it, and a count that breaks never takes back a roll
already recorded."""

from typing import Any

import pytest
from django.db import connection

from clockford.town import desk
from clockford.town.models import Footstep, Passport
from districts.dice_house.models import Roll
from districts.general_store import services as store
from districts.testing import visit


def _broken_dice(*_: Any) -> None:
    with connection.cursor() as c:
        c.execute("SELECT no_such_column FROM dice_house_dicerun")  # on PostgreSQL, aborts the savepoint


def _broken_counter(sender: Any, **_: Any) -> None:
    raise RuntimeError("the counter broke")


def test_a_roll_that_breaks_loses_the_roll_not_the_call_or_its_count(
    alice: Passport, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(desk, "_dice", lambda: _broken_dice)
    r = visit(alice, "look_around")
    assert not r.is_error and "diceHouse" not in r.structured
    assert Footstep.objects.filter(number=r.footstep).exists()
    gauge = store.find_gauge(alice.id)
    assert gauge is not None and gauge["today"]["calls"] == 1


def test_a_count_that_breaks_keeps_the_roll(alice: Passport) -> None:
    run = visit(alice, "dice_house", begin=True).structured["run"]
    desk.replied.connect(_broken_counter, dispatch_uid="test.broken")
    try:
        r = visit(alice, "look_around")
    finally:
        desk.replied.disconnect(dispatch_uid="test.broken")
    assert r.structured["diceHouse"]["run"] == run
    assert Roll.objects.filter(run_id=run, footstep=r.footstep).exists()
    gauge = store.find_gauge(alice.id)
    assert gauge is not None and gauge["today"]["calls"] == 1  # dice_house's reply; look_around's rolled back
