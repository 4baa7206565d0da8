"""The whole suite's set-up, for every folder pytest collects (tests/, districts/, hall/, clockford/).

- The fixtures every suite shares live in tests/fixtures.py, loaded here as a plugin.
- Two markers say what a test needs beyond Python and the test database, so `./town test --fast`
  (`-m "not live and not browser and not heavy"`) can leave those out. They are given by folder and
  by fixture here, not written on each test, so a new test in tests/e2e or tests/browser cannot
  forget them: `live` for a test that serves a real town in another process (daphne, stdio, a
  manage.py server), `browser` for one that drives Chromium. The third, `heavy` (a check at full
  size), is written on the test itself: only its author knows.
- A run's live towns start from one migrated template (tests/support.py); the folder that keeps it
  is named here, once, so pytest-xdist's workers share it, and removed when the run ends.
- The in-process tests' database is made as pytest-django makes it, but on SQLite its migrated
  schema is copied from the one kept between runs (tests/schemas.py) rather than migrated again.
  Django's permission rows are not made after each transactional test's flush: nothing in the town
  reads them (hall/backends.py grants no permission), and making them again was a tenth of a second
  of every such test.
"""

import os
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests import schemas, support

pytest_plugins = ["tests.fixtures"]

# Property tests check what holds for every input, not how fast an input is made or checked: on a
# machine shared with other work, Hypothesis's deadline and its slow-input health check fail for
# reasons that are not the code's (the benchmarks hold the timings).
settings.register_profile("clockford", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("clockford")

HERE = Path(__file__).resolve().parent
# Folders whose every test serves a town of its own (tests/bench runs `./town bench`, which does).
LIVE_FOLDERS = ("tests/e2e", "tests/bench", "tests/browser")
BROWSER_FOLDERS = ("tests/browser",)
# Fixtures that start a town; a test using one is live wherever it lives.
LIVE_FIXTURES = {"town", "town_factory", "session", "hall_town", "browser", "person"}


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    # The first process of the run (the only one without pytest-xdist, the controller with it) names
    # the templates' folder before any worker starts; workers inherit it through the environment.
    if not _is_worker(config) and not os.environ.get(support.TEMPLATES_ENV):
        folder = tempfile.mkdtemp(prefix="clockford-templates-")
        os.environ[support.TEMPLATES_ENV] = folder
        config.stash[_TEMPLATES] = Path(folder)


_TEMPLATES = pytest.StashKey[Path]()
DAY = 24 * 60 * 60
# Longer than a test that counts within a day takes (the live ones start a town: seconds).
DAY_MARGIN = 60.0


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_TEMPLATES, None)
    if folder is not None:
        support.drop_templates(folder)
        os.environ.pop(support.TEMPLATES_ENV, None)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    # Before the test's fixtures are set up: make_town refuses to start a town for a test that is not
    # marked live, so a test serving a town outside tests/e2e is caught, not quietly slow in --fast.
    support.live_allowed = item.get_closest_marker("live") is not None
    # The town's daily limits, posting budgets and public counts turn over at 00:00 UTC
    # (clockford/town/clock.py), on the same clock the tests read: a test that counts within a day
    # must not start in its last minute, where its count would start over halfway.
    support.clear_of_a_window_edge(DAY, DAY_MARGIN)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        where = item.path.relative_to(HERE).as_posix() if item.path.is_relative_to(HERE) else ""
        fixtures = set(getattr(item, "fixturenames", ()))
        if where.startswith(BROWSER_FOLDERS):
            item.add_marker(pytest.mark.browser)
        if where.startswith(LIVE_FOLDERS) or fixtures & LIVE_FIXTURES:
            item.add_marker(pytest.mark.live)
    # The order pytest-xdist hands out files in (./town test passes --no-loadscope-reorder, so it keeps
    # this one): first the files that serve a town or drive a browser, the longest of the run (some a
    # minute or more), so that none is left to one worker at the end while the others idle; then the
    # unit-test files, the largest first, which even the workers out. Within a file, pytest's order.
    live = {item.path for item in items if item.get_closest_marker("live")}
    size = Counter(item.path for item in items)
    items.sort(key=lambda item: (0, 0) if item.path in live else (1, -size[item.path]))


@pytest.fixture(scope="session")
def django_db_setup(
    request: pytest.FixtureRequest,
    django_test_environment: None,
    django_db_blocker: Any,
    django_db_modify_db_settings: None,
) -> Iterator[None]:
    """pytest-django's own set-up of the test database (no --reuse-db or --no-migrations here: the
    suite always runs on migrations), with SQLite's migrate served from the kept schema."""
    from django.contrib.auth.management import create_permissions
    from django.db.models.signals import post_migrate
    from django.test.utils import setup_databases, teardown_databases

    post_migrate.disconnect(create_permissions, dispatch_uid="django.contrib.auth.management.create_permissions")

    verbosity = request.config.option.verbose
    with django_db_blocker.unblock(), schemas.migrate_from_cache():
        made = setup_databases(verbosity=verbosity, interactive=False, aliases={"default"}, serialized_aliases=set())
    yield
    # The call counts the tests' calls left in this process's buffer would be written at its exit
    # (clockford/metrics/counting.py), into a database gone by then: on PostgreSQL psycopg logged the
    # failure into pytest's closed streams, tracebacks at the end of every run.
    from clockford.face import server
    from clockford.metrics import counting

    counting.discard()
    # On PostgreSQL the tests that run a call in process leave its connections open, kept for the
    # worker's life (clockford/postgresql/green.py): the database cannot be dropped while they are.
    if server.IN_GREENLETS is not None:
        server.IN_GREENLETS.close()
    with django_db_blocker.unblock():
        teardown_databases(made, verbosity=verbosity)
