"""The sweep takes the ledger rows of hours that have ended; the balance an agent reads is the same."""

from collections.abc import Callable
from datetime import timedelta

from clockford.town import clock
from clockford.town.models import Passport
from districts.bank import services
from districts.bank.models import Ledger
from districts.testing import visit


def test_past_hours_go_and_the_balance_reads_the_same(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(5)
    assert not visit(alice, "remember", key="a", value="a note").is_error
    clock.advance(timedelta(hours=1))
    assert not visit(alice, "remember", key="b", value="a note").is_error
    assert Ledger.objects.count() == 4  # the passport and its account, for each of two hours
    before = services.balance_of(alice)
    shown = {k: v for k, v in visit(alice, "show_balance").structured.items() if k != "footstep"}

    assert services.tidy(clock.now()) == {"bank_ledger": 2}

    assert services.balance_of(alice) == before
    assert set(Ledger.objects.values_list("hour", flat=True)) == {services.hour_of(clock.now())}
    assert {k: v for k, v in visit(alice, "show_balance").structured.items() if k != "footstep"} == shown
