"""The Dice House's tests run in a town with the demo census (personas are in districts/conftest.py)."""

import pytest

from districts.town_hall import ingest


@pytest.fixture(autouse=True)
def demo(db: None) -> None:
    ingest.import_demo()
