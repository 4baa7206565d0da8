"""The Town Hall's demo census and clerk serve the Arena's tests too (personas are in
districts/conftest.py)."""

from districts.town_hall.tests.conftest import demo, fresh_clerk

__all__ = ["demo", "fresh_clerk"]
