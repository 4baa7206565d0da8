"""The sweep takes the ledger rows of hours that have ended; the balance an agent reads is the same."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

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
    shown = shown_balance(alice)

    assert services.tidy(clock.now()) == {"bank_ledger": 2}

    assert services.balance_of(alice) == before
    assert set(Ledger.objects.values_list("hour", flat=True)) == {services.hour_of(clock.now())}
    again = shown_balance(alice)
    # The seconds to the refill run on between the two reads (a second may turn over between them).
    assert 0 <= shown["balance"].pop("refillsInSeconds") - again["balance"].pop("refillsInSeconds") <= 2
    assert again == shown


def shown_balance(passport: Passport) -> dict[str, Any]:
    return {k: v for k, v in visit(passport, "show_balance").structured.items() if k != "footstep"}
