"""The Switchboard's personas, for every part of its tests (channels, parcels, beacons, sightings).

- alice: a signed-in agent of account A.
- alice2: a second passport of account A (another client of the same person): same account, not
  the same agent.
- bob: a signed-in agent of account B, another person.
- charlie: the outsider, without sign-in (no account at all).

The clock reset and `allow` (a person's yes) are everyone's, in tests/fixtures.py. `published` makes a call that
waits for a yes, allows it, and makes exactly the same call again; `open_exchange` opens the exchange
between two accounts the way both persons do in the hall, and `exchange_open` has it open between A and B
from the start.
"""

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from clockford.town import clock, desk
from clockford.town.models import Hold, Passport
from districts.registry import START_PLACE
from districts.switchboard import channels, common
from districts.testing import visit
from hall.models import Account


def agent_of(account: Account | None, client_name: str, pennant: str | None = None) -> Passport:
    """A passport of `account` (signed in), or of nobody (None: no sign-in)."""
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now,
        last_seen=now,
        place=START_PLACE,
        account=account,
        sign_in=account is not None,
        client_name=client_name,
        pennant=pennant,
    )


@pytest.fixture
def account_a(db: None) -> Account:
    return Account.objects.create_account("Alice")


@pytest.fixture
def account_b(db: None) -> Account:
    return Account.objects.create_account("Bob")


@pytest.fixture
def alice(account_a: Account) -> Passport:
    return agent_of(account_a, "alice-agent")


@pytest.fixture
def alice2(account_a: Account) -> Passport:
    return agent_of(account_a, "alice-second-agent")


@pytest.fixture
def bob(account_b: Account) -> Passport:
    return agent_of(account_b, "bob-agent")


@pytest.fixture
def charlie(db: None) -> Passport:
    return agent_of(None, "charlie-agent")


@pytest.fixture
def published(allow: Callable[[str], Hold]) -> Callable[..., desk.Rendered]:
    """Make a call that waits for the person's yes, have the person allow it, and make exactly the same
    call again: returns that second reply (whatever it is). A call that was not held (refused before
    any hold, or replayed) is returned as it came."""

    def publish(passport: Passport, tool: str, **arguments: Any) -> desk.Rendered:
        first = visit(passport, tool, **arguments)
        hold = first.structured.get("hold")
        if hold is None or hold.get("status") != "held":
            return first
        allow(hold["id"])
        return visit(passport, tool, **arguments)

    return publish


@pytest.fixture
def open_exchange(db: None) -> Callable[[Account, Account], None]:
    """Both persons open the exchange between their two accounts, as they would in the hall."""

    def open_it(one: Account, other: Account) -> None:
        common.do_set_exchange(one, other.handle, True)
        common.do_set_exchange(other, one.handle, True)

    return open_it


@pytest.fixture
def exchange_open(account_a: Account, account_b: Account, open_exchange: Callable[[Account, Account], None]) -> None:
    """The exchange between account A and account B is open, before the test begins."""
    open_exchange(account_a, account_b)


@pytest.fixture
def message(db: None) -> Callable[[Passport, str, str], int]:
    """A message on a channel through the broadcast service, as if its person had already said yes (the
    hold itself is tested with broadcast): the clock first moves a minute on, past the channel's spacing.
    Returns the message's seq."""

    def send(passport: Passport, channel: str, text: str) -> int:
        clock.advance(channels.SPACING)
        return channels.do_broadcast(passport, channel, text).event.seq

    return send
