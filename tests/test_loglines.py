"""The log's lines are bounded (clockford/loglines.py): a request cannot make the town write what it
sent at any length."""

import io
import logging
from collections.abc import Iterator

import pytest
from django.test import Client

from clockford import loglines

pytestmark = pytest.mark.django_db


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the town's own log handler (settings.LOGGING's console) writes, while the test runs."""
    handler = next(
        h
        for h in logging.getLogger().handlers
        if isinstance(h, logging.StreamHandler) and any(isinstance(f, loglines.Bounded) for f in h.filters)
    )
    written = io.StringIO()
    was = handler.setStream(written)
    try:
        yield written
    finally:
        handler.setStream(was)


def test_a_long_path_makes_a_bounded_line(client: Client, console: io.StringIO) -> None:
    path = "/hall/" + "x" * 60_000
    assert client.get(path).status_code == 404
    lines = console.getvalue().splitlines()
    said = [line for line in lines if "Not Found" in line]
    assert len(said) == 1
    assert said[0].startswith("Not Found: /hall/xxx")
    assert said[0].endswith(" characters more)")
    assert len(said[0]) < loglines.MOST + 50


def test_a_short_line_is_left_as_it_is(console: io.StringIO) -> None:
    logging.getLogger("clockford.anything").warning("the database was busy for %s", "a request")
    assert console.getvalue() == "the database was busy for a request\n"


def test_the_cut_says_how_much_was_left_out() -> None:
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "%s", ("y" * (loglines.MOST + 7),), None)
    assert loglines.Bounded().filter(record)
    assert record.getMessage() == "y" * loglines.MOST + "… (7 characters more)"
