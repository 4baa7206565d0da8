"""Beacons under a crowd, on PostgreSQL (where calls truly run at once): twenty accounts answering one
beacon at once leave exactly five answers, numbered 1 to 5; ten beacons raised at once by one
account's agents leave exactly two lit. The services run as the desk runs them, each call in a
transaction of its own; the desk itself is tested elsewhere (a test that commits cannot flush the
Archive's append-only footsteps)."""

from collections.abc import Callable

import pytest
from django.db import connection, transaction

from clockford.town import clock
from districts.switchboard import beacons, common
from districts.switchboard.models import Answer, Beacon, Channel
from hall.models import Account
from tests.fixtures import agent, at_once

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite runs one writer at a time: nothing happens at once there"
)


def crowd(calls: list[Callable[[], object]]) -> tuple[int, list[str]]:
    """Run every call at once (tests/fixtures.py at_once); returns (how many went through, the says of
    those refused)."""
    went, refused = at_once(calls)
    return went, [r.say for r in refused]


def raised() -> tuple[Account, Beacon]:
    """The asker's account and a beacon its agent raised on its channel, garden."""
    clock.reset()
    asker_account = Account.objects.create_account("Asker")
    asker = agent(asker_account)
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=asker, account=asker_account)
    with transaction.atomic():
        return asker_account, beacons.do_raise(asker, "garden", "Which servers answer quickly?")


def exchanging(asker_account: Account, name: str) -> Account:
    """A new account, named `name`, that has the exchange open with the asker's (both persons opened it)."""
    account = Account.objects.create_account(name)
    common.do_set_exchange(asker_account, account.handle, True)
    common.do_set_exchange(account, asker_account.handle, True)
    return account


@pytest.mark.django_db(transaction=True)
def test_twenty_answers_at_once_leave_five() -> None:
    asker_account, beacon = raised()
    answerers = []
    for i in range(20):
        answerers.append(agent(exchanging(asker_account, f"Answerer {i}")))
    went, refused = crowd([lambda a=a: beacons.do_answer(a, beacon.id, f"From {a.id}.") for a in answerers])
    assert went == 5 and len(refused) == 15
    assert set(refused) == {beacons.FULL_SAY}
    assert sorted(Answer.objects.filter(beacon=beacon).values_list("number", flat=True)) == [1, 2, 3, 4, 5]


@pytest.mark.django_db(transaction=True)
def test_ten_beacons_raised_at_once_by_one_account_leave_two_lit() -> None:
    clock.reset()
    account = Account.objects.create_account("Asker")
    agents = [agent(account) for _ in range(10)]
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=agents[0], account=account)
    went, refused = crowd([lambda a=a: beacons.do_raise(a, "garden", f"Question from {a.id}?") for a in agents])
    assert went == 2 and set(refused) == {beacons.LIT_LIMIT_SAY}
    assert Beacon.objects.filter(account=account, state="lit").count() == 2


@pytest.mark.django_db(transaction=True)
def test_one_account_answering_at_once_from_ten_agents_answers_once() -> None:
    asker_account, beacon = raised()
    other = exchanging(asker_account, "Other")
    agents = [agent(other) for _ in range(10)]
    went, refused = crowd([lambda a=a: beacons.do_answer(a, beacon.id, f"From {a.id}.") for a in agents])
    assert went == 1 and set(refused) == {beacons.ANSWERED_SAY}
    assert Answer.objects.filter(beacon=beacon).count() == 1
