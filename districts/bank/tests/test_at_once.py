"""The Bank under a crowd, on PostgreSQL (where calls truly run at once): twelve changes of one passport
at once with three left make exactly three withdrawals, and twelve agents of one account at once with
four left on the account make exactly four. Each withdrawal runs as the desk runs it, in a transaction
of its own; the desk itself is tested in test_spending.py (a test that commits cannot flush the
Archive's append-only footsteps)."""

from collections.abc import Callable

import pytest
from django.db import connection

from clockford.town.models import Passport
from districts.bank import services
from districts.bank.tests.conftest import agent_of
from hall.models import Account
from tests.fixtures import at_once

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite runs one writer at a time: nothing happens at once there"
)


def crowd(passports: list[Passport]) -> tuple[int, int]:
    """One withdrawal per passport, all at once; returns (drawn, refused). A refusal other than the
    Bank's fails the test."""
    drawn, refused = at_once([lambda p=p: services.withdraw(p) for p in passports])
    assert {r.outcome for r in refused} <= {"refused:authority"}, [r.say for r in refused]
    return drawn, len(refused)


@pytest.mark.django_db(transaction=True)
def test_one_passport_at_once_draws_no_more_than_is_left(hourly: Callable[..., None]) -> None:
    hourly(3)
    alice = agent_of(Account.objects.create_account("Alice"))
    assert crowd([alice] * 12) == (3, 9)
    assert services.balance_of(alice).drawn == 3


@pytest.mark.django_db(transaction=True)
def test_one_account_at_once_draws_no_more_than_is_left(hourly: Callable[..., None]) -> None:
    hourly(100, account=4)
    account = Account.objects.create_account("Alice")
    agents = [agent_of(account) for _ in range(12)]
    assert crowd(agents) == (4, 8)
