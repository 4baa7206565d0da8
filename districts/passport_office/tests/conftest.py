from typing import Any

import pytest


@pytest.fixture
def owner(db: None) -> Any:
    """The town's owner, who approves plans in the hall."""
    from hall.models import Account

    return Account.objects.create_account("Olive", is_owner=True, is_staff=True)
