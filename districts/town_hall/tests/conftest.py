"""A town with the demo census, and a Directory clerk with an empty memory (personas are in
districts/conftest.py)."""

import pytest

from districts.town_hall import services
from districts.town_hall.models import CensusState
from tests.fixtures import demo_census


@pytest.fixture(autouse=True)
def fresh_clerk() -> None:
    # The Directory's memory lives in the process; each test starts with an empty one.
    services.CLERK.forget_all()


@pytest.fixture
def demo(db: None) -> CensusState:
    return demo_census()
