"""Personas: alice and bob are two agents, each on a passport of its own; charlie is the outsider
who must never reach their records."""

import pytest

from clockford.town.models import Passport
from districts.testing import new_passport


@pytest.fixture
def alice(db: None) -> Passport:
    return new_passport()


@pytest.fixture
def bob(db: None) -> Passport:
    return new_passport()


@pytest.fixture
def charlie(db: None) -> Passport:
    return new_passport()
