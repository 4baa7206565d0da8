"""Work that gives way to another writer (clockford/sqlite/base.py giving_way): on the server's event
loop a connection must not sleep long in SQLite's busy handler, so until it has written something, a
lock another connection holds past a few milliseconds stops it with GaveWay and nothing written; once
it has written, it waits for the lock as any connection does, since running it again would write
twice, unless what it wrote is remembered (give_way_again).

On a database file of its own (the test database is in memory, where a second connection meets a
table's lock, not the file's), with the town's own backend and its settings."""

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection, connections

from clockford.settings import sqlite_settings
from clockford.sqlite.base import LOOP_WAIT_MS, DatabaseWrapper, GaveWay, give_way_again, giving_way, waiting_briefly


@pytest.fixture
def db(tmp_path: Path, django_db_blocker: Any) -> Iterator[DatabaseWrapper]:
    name = str(tmp_path / "town.sqlite3")
    wrapper = DatabaseWrapper({**connection.settings_dict, **sqlite_settings(name), "NAME": name}, alias="giving")
    connections["giving"] = wrapper  # for transaction.atomic(using=...)
    with django_db_blocker.unblock():
        wrapper.ensure_connection()
        wrapper.connection.execute("CREATE TABLE note (body TEXT)")
        yield wrapper
        wrapper.close()
    del connections["giving"]


@pytest.fixture
def other(db: DatabaseWrapper) -> Iterator[sqlite3.Connection]:
    """Another writer on the same file, as another worker's connection would be."""
    c = sqlite3.connect(db.settings_dict["NAME"], isolation_level=None, check_same_thread=False)
    yield c
    c.close()


def busy_timeout(db: DatabaseWrapper) -> int:
    return int(db.connection.execute("PRAGMA busy_timeout").fetchone()[0])


def notes(other: sqlite3.Connection) -> int:
    return int(other.execute("SELECT count(*) FROM note").fetchone()[0])


def test_a_lock_held_before_anything_is_written_stops_the_work_at_once(
    db: DatabaseWrapper, other: sqlite3.Connection
) -> None:
    other.execute("BEGIN IMMEDIATE")
    began = time.monotonic()
    with pytest.raises(GaveWay), giving_way(db), db.cursor() as c:
        c.execute("SELECT count(*) FROM note")  # a read goes on beside the writer (WAL)
        assert c.fetchone() == (0,)
        c.execute("INSERT INTO note VALUES ('kept')")
    assert time.monotonic() - began < 0.5  # not the connection's wait of 20 s
    other.execute("ROLLBACK")
    assert notes(other) == 0
    assert busy_timeout(db) == 20_000  # the usual wait again, for whoever uses the connection next


def test_a_transaction_that_cannot_begin_gives_way_and_leaves_the_connection_clean(
    db: DatabaseWrapper, other: sqlite3.Connection
) -> None:
    """BEGIN IMMEDIATE is where a call's transaction takes the lock: met held, it gives way, and the
    connection is left outside any transaction, ready for the next work."""
    from django.db import transaction

    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(GaveWay), giving_way(db), transaction.atomic(using="giving"):
        db.cursor().execute("INSERT INTO note VALUES ('kept')")
    other.execute("ROLLBACK")
    assert not db.in_atomic_block and not db.connection.in_transaction
    with transaction.atomic(using="giving"):
        db.cursor().execute("INSERT INTO note VALUES ('kept')")
    assert notes(other) == 1


def test_once_it_has_written_it_waits_for_the_lock_as_any_connection_does(
    db: DatabaseWrapper, other: sqlite3.Connection
) -> None:
    def hold_briefly() -> None:
        other.execute("BEGIN IMMEDIATE")
        time.sleep(0.3)
        other.execute("COMMIT")

    holder = threading.Thread(target=hold_briefly)
    with giving_way(db), db.cursor() as c:
        assert busy_timeout(db) == 20_000  # nothing run on it yet: nothing changed
        c.execute("SELECT count(*) FROM note")
        assert busy_timeout(db) == LOOP_WAIT_MS  # a read does not end the giving way
        c.execute("INSERT INTO note VALUES ('first')")  # its first write: the usual wait from now on
        assert busy_timeout(db) == 20_000
        holder.start()
        time.sleep(0.05)
        began = time.monotonic()
        c.execute("INSERT INTO note VALUES ('second')")  # waits for the holder, never gives way
        assert time.monotonic() - began >= 0.2
    holder.join()
    assert notes(other) == 2


def test_a_brief_wait_inside_gives_way_too_and_the_usual_wait_comes_back(
    db: DatabaseWrapper, other: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """waiting_briefly (a request's count) inside giving_way waits no longer than it: the work gives
    way as a whole, and is counted where it runs again."""
    import clockford.sqlite.base as backend

    monkeypatch.setattr(backend, "connection", db)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(GaveWay), giving_way(db), waiting_briefly(), db.cursor() as c:
        c.execute("INSERT INTO note VALUES ('count')")
    other.execute("ROLLBACK")
    assert busy_timeout(db) == 20_000
    with waiting_briefly(), db.cursor() as c:  # outside, the brief wait as before
        assert busy_timeout(db) == backend.BRIEF_WAIT_MS
        c.execute("INSERT INTO note VALUES ('count')")
    assert busy_timeout(db) == 20_000 and notes(other) == 1


def test_given_way_again_once_what_it_wrote_is_remembered_it_gives_way_at_the_next_lock(
    db: DatabaseWrapper, other: sqlite3.Connection
) -> None:
    """The request's count is written first; the face remembers it (server.Unchecked.counted) and gives
    way again, so a lock another writer takes before the call's transaction is not slept on."""
    with pytest.raises(GaveWay), giving_way(db), db.cursor() as c:
        c.execute("INSERT INTO note VALUES ('count')")
        assert busy_timeout(db) == 20_000
        give_way_again()
        assert busy_timeout(db) == LOOP_WAIT_MS
        other.execute("BEGIN IMMEDIATE")
        began = time.monotonic()
        c.execute("INSERT INTO note VALUES ('call')")
    assert time.monotonic() - began < 0.5
    other.execute("ROLLBACK")
    assert notes(other) == 1 and busy_timeout(db) == 20_000
    give_way_again()  # outside giving_way: nothing
    assert busy_timeout(db) == 20_000
