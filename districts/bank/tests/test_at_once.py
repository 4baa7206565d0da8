"""The Bank under a crowd, on PostgreSQL (where calls truly run at once): twelve changes of one passport
at once with three left make exactly three withdrawals, and twelve agents of one account at once with
four left on the account make exactly four. Each withdrawal runs as the desk runs it, in a transaction
of its own; the desk itself is tested in test_spending.py (a test that commits cannot flush the
Archive's append-only footsteps)."""

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections, transaction

from clockford.town.models import Passport
from clockford.town.tooling import TownReply
from districts.bank import services
from districts.bank.tests.conftest import agent_of
from hall.models import Account

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite runs one writer at a time: nothing happens at once there"
)


def crowd(passports: list[Passport]) -> tuple[int, int]:
    """One withdrawal per passport, all at once; returns (drawn, refused). Anything else fails the test."""
    start = threading.Barrier(len(passports))
    lock = threading.Lock()
    seen = {"drawn": 0, "refused": 0}
    errors: list[str] = []

    def run(passport: Passport) -> None:
        try:
            start.wait()
            try:
                with transaction.atomic():
                    services.withdraw(passport)
                with lock:
                    seen["drawn"] += 1
            except TownReply as exc:
                assert exc.outcome == "refused:authority", exc.say
                with lock:
                    seen["refused"] += 1
        except Exception as exc:  # noqa: BLE001 (reported, then the test fails)
            with lock:
                errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(p,)) for p in passports]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    return seen["drawn"], seen["refused"]


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
