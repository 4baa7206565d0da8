"""The town's clock starts from now in every test; `allow` records a person's yes the way the hall
does after checking the passkey (the passkey itself is tested in hall/tests); `staff` reads the
docket, and `member` is a person who is not staff."""

from collections.abc import Callable, Iterator

import pytest

from clockford.town import clock, holds
from clockford.town.models import Hold
from hall.models import Account


@pytest.fixture(autouse=True)
def _clock() -> Iterator[None]:
    clock.reset()
    yield
    clock.reset()


@pytest.fixture
def allow(db: None) -> Callable[[str], Hold]:
    def decide(hold_id: str) -> Hold:
        hold = Hold.objects.get(pk=hold_id)
        return holds.do_decide(hold, None, "allow", hold.words_digest, holds.decision_statement(hold, "allow"), {})

    return decide


@pytest.fixture
def staff(db: None) -> Account:
    return Account.objects.create_account("Staff", is_staff=True)


@pytest.fixture
def member(db: None) -> Account:
    """A person who is not staff: the docket's outsider."""
    return Account.objects.create_account("Member")
