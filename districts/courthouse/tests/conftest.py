"""`staff` reads the docket, and `member` is a person who is not staff. (The clock reset and `allow`
are everyone's, in tests/fixtures.py.)"""

import pytest

from hall.models import Account


@pytest.fixture
def staff(db: None) -> Account:
    return Account.objects.create_account("Staff", is_staff=True)


@pytest.fixture
def member(db: None) -> Account:
    """A person who is not staff: the docket's outsider."""
    return Account.objects.create_account("Member")
