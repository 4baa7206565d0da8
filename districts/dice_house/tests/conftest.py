"""The Dice House's tests run in a town with the demo census (personas are in districts/conftest.py)."""

import pytest

from districts.dice_house import catalogue
from tests.fixtures import demo_census


@pytest.fixture(autouse=True)
def demo(db: None) -> None:
    demo_census()


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow reply waits a hundredth of a second here, not three: any test that begins a run can roll
    one, and a test that did waited the whole three seconds (about one run in four of this folder)."""
    monkeypatch.setattr(catalogue, "SLOW_SECONDS", 0.01)
