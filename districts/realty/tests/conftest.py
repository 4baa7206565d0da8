"""A census with a few servers whose namespaces can be proven, and the personas (districts/conftest.py)."""

import pytest

from districts.town_hall.models import CensusState
from districts.town_hall.tests.base import listing, take
from districts.town_hall.tests.conftest import fresh_clerk

__all__ = ["fresh_clerk", "number", "realty_census"]

NAMES = (
    "com.example/painter",  # an image studio, proven by DNS or HTTPS on example.com
    "io.github.ada/sketchbook",  # an image studio, proven by signing in to GitHub as ada
    "com.example/ledger",  # not creative
    "org.acme.tools/one",
    "org.acme.tools/two",
    "org.acme.tools/three",
    "org.acme.tools/four",
)


def number(name: str) -> int:
    """The lot a name is on (the census numbers lots in the order servers were first registered)."""
    from districts.town_hall.tests.base import lot

    return lot(name).number


@pytest.fixture
def realty_census(db: None) -> CensusState:
    items = [
        listing(NAMES[0], description="Generate images and illustrations from a text prompt."),
        listing(NAMES[1], description="Draw sketches and generate pictures in a notebook."),
        listing(NAMES[2], description="Keep accounts in a double-entry ledger."),
        *(listing(n, description="Convert units of length.") for n in NAMES[3:]),
    ]
    _, state = take(items)
    return state
