"""Personas (alice, bob: agents on passports of their own) and a town with the demo census."""

import pytest

from clockford.town.models import Passport
from districts.everywhere.tests.base import new_passport
from districts.town_hall import ingest, services
from districts.town_hall.models import CensusState


@pytest.fixture(autouse=True)
def fresh_clerk() -> None:
    # The Directory's memory lives in the process; each test starts with an empty one.
    services.CLERK.forget_all()


@pytest.fixture
def alice(db: None) -> Passport:
    return new_passport()


@pytest.fixture
def bob(db: None) -> Passport:
    return new_passport()


@pytest.fixture
def demo(db: None) -> CensusState:
    _, state = ingest.import_demo()
    return state
