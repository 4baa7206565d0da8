"""The whole suite's set-up, for every folder pytest collects (tests/, districts/, hall/, clockford/).

- The fixtures every suite shares live in tests/fixtures.py, loaded here as a plugin.
- Two markers say what a test needs beyond Python and the test database, so `./town test --fast`
  (`-m "not live and not browser and not heavy"`) can leave those out. They are given by folder and
  by fixture here, not written on each test, so a new test in tests/e2e or tests/browser cannot
  forget them: `live` for a test that serves a real town in another process (daphne, stdio, a
  manage.py server), `browser` for one that drives Chromium. The third, `heavy` (a check at full
  size), is written on the test itself: only its author knows.
- A fourth, `nodb`, is given here too, to a test that cannot reach a database, so CI's PostgreSQL run
  leaves it out (`-m "(not browser or postgresql) and not nodb"`): on PostgreSQL it would only repeat
  the SQLite run.
  `nodb_reason` says why a test is not one; the README's "Tests and benchmarks" says the rule. While
  a `nodb` test runs, starting a process is refused (an audit hook): a process is how a test reaches
  a database that pytest-django does not govern, so a test that starts one must run on both.
- A run's live towns start from one migrated template (tests/support.py); the folder that keeps it
  is named here, once, so pytest-xdist's workers share it, and removed when the run ends.
- The in-process tests' database is made as pytest-django makes it, but on SQLite its migrated
  schema is copied from the one kept between runs (tests/schemas.py) rather than migrated again.
  Django's permission rows are not made after each transactional test's flush: nothing in the town
  reads them (hall/backends.py grants no permission), and making them again was a tenth of a second
  of every such test.
"""

import ast
import functools
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests import schemas, source, support

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
# pytest-django's fixtures that open the test database (each of its db fixtures, django_user_model,
# admin_client and the like, asks for _django_db_helper). Its own autouse fixtures ask for
# django_db_blocker, which every test has; any other fixture that asks for it may lift the block.
DB_FIXTURES = {
    "_django_db_helper",
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "django_db_setup",
    "live_server",
}
# What, named in a test's file (as code: an import, a name, an attribute; or the string "DATABASE_URL"),
# says it may reach a database outside pytest-django's block: a process of its own (which reads
# DATABASE_URL; tests/support.py's helpers that start one), PostgreSQL's driver, or the database's
# address. A file that names any of them runs on both databases whole.
REACHES_OUT = frozenset(
    {
        "subprocess",
        "Popen",
        "multiprocessing",
        "create_subprocess_exec",
        "create_subprocess_shell",
        "system",
        "fork",
        "forkpty",
        "posix_spawn",
        "posix_spawnp",
        *(f"exec{v}" for v in ("l", "le", "lp", "lpe", "v", "ve", "vp", "vpe")),
        *(f"spawn{v}" for v in ("l", "le", "lp", "lpe", "v", "ve", "vp", "vpe")),
        "own_town_run",
        "npm_install",
        "verify_file",
        "make_town",
        "Town",
        "psycopg",
        "DATABASE_URL",
    }
)
# The audit events of a process being started (os.fork for multiprocessing's children).
PROCESS_EVENTS = {"subprocess.Popen", "os.system", "os.exec", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn"}


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
    global _in_nodb_test
    _in_nodb_test = item.nodeid if item.get_closest_marker("nodb") is not None else None
    # The town's daily limits, posting budgets and public counts turn over at 00:00 UTC
    # (clockford/town/clock.py), on the same clock the tests read: a test that counts within a day
    # must not start in its last minute, where its count would start over halfway.
    support.clear_of_a_window_edge(DAY, DAY_MARGIN)


# The nodeid of the nodb test now running in this process, if one is.
_in_nodb_test: str | None = None


def pytest_runtest_teardown(item: pytest.Item) -> None:
    global _in_nodb_test
    _in_nodb_test = None


def _no_process_in_nodb_tests(event: str, args: tuple[Any, ...]) -> None:
    if _in_nodb_test is not None and event in PROCESS_EVENTS:
        raise RuntimeError(
            f"{_in_nodb_test} starts a process ({event}) but is marked nodb, so CI would not run it on "
            "PostgreSQL: have its file name what it runs (conftest.py's REACHES_OUT), and it runs on both."
        )


sys.addaudithook(_no_process_in_nodb_tests)


def nodb_reason(item: pytest.Item, live: bool, named: frozenset[str]) -> str | None:
    """Why `item` may reach a database (then it runs on both), or None: pytest-django refuses it the
    database (no django_db marker, none of its database fixtures, not a Django TestCase that has
    one), it serves no town, and its file starts no process and names no database (REACHES_OUT)."""
    if live:
        return "it serves a town"
    if item.get_closest_marker("django_db") is not None:
        return "it is marked django_db"
    if DB_FIXTURES & set(getattr(item, "fixturenames", ())):
        return "it uses a database fixture"
    info = getattr(item, "_fixtureinfo", None)
    for defs in info.name2fixturedefs.values() if info is not None else ():
        for fixture in defs:
            if "django_db_blocker" in fixture.argnames and not fixture.func.__module__.startswith("pytest_django"):
                return f"its fixture {fixture.argname} may unblock the database"
    cls = getattr(item, "cls", None)
    if cls is not None and any(c.__module__.startswith("django.test") for c in cls.__mro__):
        return "it is a Django TestCase"
    found = sorted(named & REACHES_OUT)
    if found:
        return f"its file names {found[0]}"
    return None


@functools.cache
def named_in(path: Path) -> frozenset[str]:
    """What a file names as code: modules and names it imports (each dotted part), names, attributes,
    and the string "DATABASE_URL" (an environment's key); not its comments or other strings."""
    found: set[str] = set()
    for node in source.nodes(path):
        if isinstance(node, ast.Import | ast.ImportFrom):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.update(node.module.split("."))
            for alias in node.names:
                found.update(alias.name.split("."))
        elif isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and node.value == "DATABASE_URL":
            found.add(node.value)
    return frozenset(found)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        where = item.path.relative_to(HERE).as_posix() if item.path.is_relative_to(HERE) else ""
        fixtures = set(getattr(item, "fixturenames", ()))
        if where.startswith(BROWSER_FOLDERS):
            item.add_marker(pytest.mark.browser)
        live = where.startswith(LIVE_FOLDERS) or bool(fixtures & LIVE_FIXTURES)
        if live:
            item.add_marker(pytest.mark.live)
        if nodb_reason(item, live, named_in(item.path)) is None:
            item.add_marker(pytest.mark.nodb)
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
