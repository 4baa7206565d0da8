"""The Town Hall's personas and demo census serve the Signal House's tests too."""

from districts.town_hall.tests.conftest import alice, bob, demo, fresh_clerk

__all__ = ["alice", "bob", "demo", "fresh_clerk"]
