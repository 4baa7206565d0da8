"""The Bank's personas: alice is a signed-in agent of account A (alice2 another of the same account),
charlie an agent without sign-in. `hourly` lowers the Bank's amounts so a test can spend an hour."""

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from clockford.town.models import Passport
from districts.registry import START_PLACE
from hall.models import Account


def agent_of(account: Account | None) -> Passport:
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now, last_seen=now, place=START_PLACE, account=account, sign_in=account is not None
    )


@pytest.fixture
def account_a(db: None) -> Account:
    return Account.objects.create_account("Alice")


@pytest.fixture
def alice(account_a: Account) -> Passport:
    return agent_of(account_a)


@pytest.fixture
def alice2(account_a: Account) -> Passport:
    return agent_of(account_a)


@pytest.fixture
def charlie(db: None) -> Passport:
    return agent_of(None)


@pytest.fixture
def hourly(settings: Any) -> Callable[..., None]:
    """Set the hourly amounts for the rest of the test: hourly(3) or hourly(3, account=4)."""

    def set_to(per_passport: int, account: int = 1000) -> None:
        settings.CHANGES_PER_HOUR = per_passport
        settings.CHANGES_PER_HOUR_PER_ACCOUNT = account

    return set_to
