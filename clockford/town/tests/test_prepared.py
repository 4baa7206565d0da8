"""The hot path's statements prepared once on each PostgreSQL connection (clockford/town/prepared.py):
prepared only outside any transaction, then sent as EXECUTE with the same rows as the text; a text the
server will not prepare, or one with a percent sign, a new connection, the setting that turns it off."""

import logging
import uuid
from collections.abc import Iterator

import pytest
from django.db import connection, transaction

from clockford.town import prepared as P
from clockford.town.prepared import prepared, spelled

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgresql() -> Iterator[None]:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no PREPARE: a statement there is a call into the library, planned by it")
    connection.ensure_connection()
    yield


def fresh(sql: str = "SELECT %s::text || 'x' AS {tag}") -> str:
    """A text no other test has met (a process prepares each text once, by its text)."""
    return sql.replace("{tag}", "t_" + uuid.uuid4().hex[:12])


def on_server() -> set[str]:
    with connection.cursor() as c:
        c.execute("SELECT name FROM pg_prepared_statements")
        return {row[0] for row in c.fetchall()}


def rows(sql: str, params: list[object]) -> list[tuple[object, ...]]:
    with connection.cursor() as c:
        c.execute(sql, params)
        return list(c.fetchall())


def test_a_text_met_outside_a_transaction_is_prepared_at_once_and_answers_alike(postgresql: None) -> None:
    sql = fresh()
    sent = prepared(sql)
    assert sent.startswith("EXECUTE clockford_") and sent.endswith("(%s)")
    assert sent.split()[1].split("(")[0] in on_server()
    assert rows(sent, ["a"]) == rows(sql, ["a"]) == [("ax",)]
    assert prepared(sql) == sent  # once: the next time is the same EXECUTE, no PREPARE again
    assert spelled(f"BEGIN; {sent}; COMMIT") == f"BEGIN; {sql}(%s); COMMIT"


def test_a_text_met_in_a_transaction_waits_for_the_next_moment_outside_one(postgresql: None) -> None:
    """A PREPARE is undone with the transaction around it: one is never sent inside a transaction."""
    sql = fresh()
    before = on_server()
    with transaction.atomic():
        assert prepared(sql) == sql
        assert rows(sql, ["b"]) == [("bx",)]
    assert on_server() == before
    other = fresh()
    assert prepared(other).startswith("EXECUTE ")  # outside: both are prepared now
    assert prepared(sql).startswith("EXECUTE ")
    with transaction.atomic():
        assert rows(prepared(sql), ["c"]) == [("cx",)]  # prepared before, used inside


def test_a_text_the_server_will_not_prepare_goes_as_text(postgresql: None, caplog: pytest.LogCaptureFixture) -> None:
    sql = fresh("SELECT %s + %s AS {tag}")  # unknown + unknown: the server cannot tell the types
    with caplog.at_level(logging.WARNING, logger="clockford.town.prepared"):
        assert prepared(sql) == sql
        assert prepared(sql) == sql
    assert rows(sql, [1, 2]) == [(3,)]
    assert len([r for r in caplog.records if "could not prepare" in r.getMessage()]) == 1


def test_a_percent_sign_is_one_in_the_prepared_text(postgresql: None) -> None:
    sql = fresh("SELECT 'a%%b' || %s AS {tag}")
    sent = prepared(sql)
    assert sent.startswith("EXECUTE ")
    assert rows(sent, ["c"]) == rows(sql, ["c"]) == [("a%bc",)]


def test_a_new_connection_prepares_again(postgresql: None) -> None:
    sql = fresh()
    assert prepared(sql).startswith("EXECUTE ")
    connection.close()
    connection.ensure_connection()
    assert not any(n.startswith("clockford_") for n in on_server())
    sent = prepared(sql)
    assert sent.startswith("EXECUTE ") and rows(sent, ["d"]) == [("dx",)]


def test_off_it_sends_every_text_as_written(postgresql: None, settings: object) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "PG_PREPARE": False}  # type: ignore[attr-defined]
    sql = fresh()
    assert prepared(sql) == sql


def test_a_process_prepares_a_bounded_number_of_texts(postgresql: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(P, "MOST", len(P._wanted))
    sql = fresh()
    assert prepared(sql) == sql and sql not in P._known


@pytest.mark.django_db
def test_on_sqlite_a_text_is_itself() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's case")
    sql = fresh()
    assert prepared(sql) == sql


def test_a_statement_gone_from_the_server_makes_one_busy_call_then_text(
    postgresql: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A pooler in transaction mode, or DISCARD ALL, takes the prepared statements away: the call that
    meets it is answered busy with the town open, and from then on the process sends text."""
    from django.utils import timezone

    from clockford.town import desk, limits
    from clockford.town.models import Passport
    from districts.post_office.models import Note
    from districts.registry import TOOLS

    monkeypatch.setattr(P, "_off", False)
    now = timezone.now()
    passport = Passport.objects.create(issued_at=now, last_seen=now)
    assert not desk.run(TOOLS["remember"], {"key": "warm", "value": "A first note."}, passport, None).is_error
    limits.count("192.0.2.9", None)  # outside any call: what the call met is prepared now
    from clockford.town.models import _LOCK_PASSPORT

    assert prepared(_LOCK_PASSPORT).startswith("EXECUTE ")
    connection.connection.execute("DEALLOCATE ALL")  # as a pooler's next server connection would be
    with caplog.at_level(logging.ERROR, logger="clockford.town.prepared"):
        r = desk.run(TOOLS["remember"], {"key": "lost", "value": "A note."}, passport, None)
    assert r.is_error and r.outcome == "busy" and desk.town_mode() == "open", r.structured
    assert not Note.objects.filter(box=passport.id, key="lost").exists()
    assert [rec for rec in caplog.records if "CLOCKFORD_PG_PREPARE=0" in rec.getMessage()]
    again = desk.run(TOOLS["remember"], {"key": "kept", "value": "A note."}, passport, None)
    assert not again.is_error and Note.objects.filter(box=passport.id, key="kept").exists()
    assert prepared(fresh()).startswith("SELECT")  # text from now on
