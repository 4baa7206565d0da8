"""The Dice House's tests run in a town with the demo census (personas are in districts/conftest.py)."""

import pytest

from tests.fixtures import demo_census


@pytest.fixture(autouse=True)
def demo(db: None) -> None:
    demo_census()
