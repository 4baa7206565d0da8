"""Fixtures shared by every suite: real towns on loopback (see tests/support.py)."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import RawSession, Town, make_town


@pytest.fixture(scope="session")
def town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    """One town for the whole run, for tests that do not change its settings or mode."""
    t = make_town(tmp_path_factory.mktemp("town")).start()
    yield t
    t.close()


@pytest.fixture
def town_factory(tmp_path: Path) -> Iterator[object]:
    """Make towns of one's own: town_factory(env={...}, share=other) -> Town (not started)."""
    made: list[Town] = []

    def factory(env: dict[str, str] | None = None, share: Town | None = None) -> Town:
        t = make_town(tmp_path, env=env, share=share)
        made.append(t)
        return t

    yield factory
    for t in reversed(made):
        t.close()


@pytest.fixture
def session(town: Town) -> Iterator[RawSession]:
    s = RawSession(town.mcp)
    yield s
    s.delete()  # the shared town allows a limited number of open sessions per address
