"""The town's clock starts from now in every test, and `allow` records a person's yes the way the
hall does after checking the passkey (the passkey itself is tested in hall/tests)."""

from collections.abc import Callable, Iterator

import pytest

from clockford.town import clock, holds
from clockford.town.models import Hold


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
