"""The values the town writes into its statements' text itself (clockford/postgresql/literals.py): each
must reach PostgreSQL as the same value psycopg's adapters would have sent, and anything else is left
to psycopg. Against a real server: every value goes through `SELECT %s` both ways and comes back."""

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import psycopg
import pytest
from django.db import connection

from clockford.postgresql import literals

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's client-side cursor only"),
]

UTC = dt.UTC
WRITTEN = [
    "",
    "plain",
    "it's",
    "''",
    "a \\ backslash, \\' and \\\\",
    "100% and %s and %% and %(name)s",
    "-- not a comment",
    "$$ dollar $$",
    "tab\tand\nnewline and \x01 control",
    0,
    7,
    -5,
    -(2**63),
    2**63 - 1,
    2**70,
    None,
    dt.datetime(2026, 12, 6, 5, 5, 41, 111350, tzinfo=UTC),
    dt.datetime(2026, 12, 6, 5, 5, 41, tzinfo=UTC),
    dt.datetime(1969, 7, 20, 20, 17, tzinfo=ZoneInfo("America/New_York")),
    dt.datetime(1900, 1, 1, tzinfo=ZoneInfo("Europe/Amsterdam")),  # an offset with seconds (+00:19:32)
]
LEFT_TO_PSYCOPG = [
    "café",
    "lamp \U0001f56f lit",
    True,
    1.5,
    b"bytes",
    dt.datetime(2026, 12, 6, 5, 5, 41),  # naive
    dt.date(2026, 12, 6),
    [1, 2, 3],
    dt.timedelta(seconds=90),
]


def both_ways(value: Any) -> tuple[Any, Any]:
    """`SELECT %s` with the value, through the town's cursor and through psycopg's own."""
    connection.ensure_connection()
    raw = connection.connection
    with raw.cursor() as ours, psycopg.ClientCursor(raw) as theirs:
        assert isinstance(ours, literals.LiteralCursor)
        ours.execute("SELECT %s", [value])
        theirs.execute("SELECT %s", [value])
        return ours.fetchone()[0], theirs.fetchone()[0]


@pytest.mark.parametrize("value", WRITTEN, ids=repr)
def test_a_value_written_by_the_town_arrives_as_psycopg_would_send_it(value: Any) -> None:
    assert literals.literal(value) is not None
    ours, theirs = both_ways(value)
    assert ours == theirs == value  # an int past int8's range comes back numeric, a Decimal equal to it


@pytest.mark.parametrize("value", WRITTEN, ids=repr)
def test_a_value_is_written_byte_for_byte_as_psycopg_writes_it_but_a_backslash(value: Any) -> None:
    connection.ensure_connection()
    with psycopg.ClientCursor(connection.connection) as theirs:
        psycopgs = theirs.mogrify("%s", [value]).encode()
    if isinstance(value, str) and "\\" in value:  # psycopg doubles it inside E'...': the same value
        psycopgs = psycopgs.removeprefix(b" E").replace(b"\\\\", b"\\")
    assert literals.literal(value) == psycopgs


@pytest.mark.parametrize("value", LEFT_TO_PSYCOPG, ids=repr)
def test_any_other_value_is_left_to_psycopg(value: Any) -> None:
    assert literals.literal(value) is None
    ours, theirs = both_ways(value)
    assert ours == theirs


def test_a_negative_number_after_a_minus_is_not_a_comment() -> None:
    with connection.cursor() as c:
        c.execute("SELECT 1 - %s, 2 -%s", [-5, -1])
        assert c.fetchone() == (6, 3)


def test_a_statement_with_several_values_keeps_its_percent_signs_and_their_order() -> None:
    with connection.cursor() as c:
        c.execute("SELECT %s, '100%%', %s, %s", ["it's", -3, None])
        assert c.fetchone() == ("it's", "100%", -3, None)
        with pytest.raises(psycopg.ProgrammingError, match="placeholders"):
            c.cursor.execute("SELECT %s, %s", ["one"])


def test_without_standard_conforming_strings_psycopg_writes_every_value() -> None:
    tricky = "a \\' b"
    with connection.cursor() as c:
        c.execute("SET standard_conforming_strings = off")
        try:
            c.execute("SELECT %s, %s", [tricky, 5])
            assert c.fetchone() == (tricky, 5)
        finally:
            c.execute("SET standard_conforming_strings = on")
        c.execute("SELECT %s", [tricky])
        assert c.fetchone() == (tricky,)
