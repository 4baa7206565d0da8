"""A busy database is a busy answer, never a closed town (clockford/town/desk.py).

Another writer holding the database past the time the town waits (SQLite's one write lock, a
PostgreSQL row lock past lock_timeout) answers the call with the clerk's busy reply of 001 and its
retryAfterSeconds; the town stays open. Only a real failure to record a footstep closes it.
"""

import threading
from typing import Any

import pytest
from django.db import OperationalError, connection, connections
from django.utils import timezone

from clockford.town import desk
from clockford.town.models import Footstep, Passport, TownState
from clockford.town.tooling import Call, Reply
from districts.post_office.models import Note
from districts.testing import new_passport
from tests.test_desk import NoteArgs, _keep_then, _tool

pytestmark = pytest.mark.django_db

BUSY_SAY = f"The clerk is busy. Try again in {desk.BUSY_RETRY_SECONDS} seconds."


def _hold_the_archive() -> None:
    """This test's transaction takes the lock every call's footstep needs, until the test ends: on
    SQLite the one write lock (the test's transaction holds it from BEGIN IMMEDIATE, and a write makes
    sure), on PostgreSQL the footsteps' table against inserts."""
    with connection.cursor() as c:
        if connection.vendor == "postgresql":
            c.execute("LOCK TABLE town_footstep IN EXCLUSIVE MODE")
        else:
            c.execute("UPDATE town_townstate SET why = why")


def _from_another_connection(tool: Any, arguments: dict[str, Any], passport: Passport) -> desk.Rendered:
    """One call through the desk on a connection of its own, as a second request would make it."""
    out: list[desk.Rendered] = []
    failed: list[BaseException] = []

    def call() -> None:
        try:
            with connection.cursor() as c:
                if connection.vendor == "postgresql":
                    c.execute("SET lock_timeout = '300ms'")
                else:
                    # The in-memory test database is one shared cache: read what this test wrote,
                    # as the town's own database file lets every reader do beside the writer.
                    c.execute("PRAGMA read_uncommitted = 1")
            out.append(desk.run(tool, arguments, passport, None))
        except BaseException as exc:  # said below
            failed.append(exc)
        finally:
            connections.close_all()

    t = threading.Thread(target=call)
    t.start()
    t.join(30)
    assert not failed, failed
    return out[0]


def test_a_write_that_waits_out_another_writer_is_told_busy_and_the_town_stays_open() -> None:
    alice = new_passport()
    _hold_the_archive()
    r = _from_another_connection(_tool(_keep_then(None)), {"text": "Lot 12 is dark."}, alice)
    assert r.is_error is True, r.structured
    assert r.structured["say"] == BUSY_SAY and r.structured["retryAfterSeconds"] == desk.BUSY_RETRY_SECONDS
    assert "hold" not in r.structured
    # The other writer still holds the lock, so the busy reply has no footstep: nothing happened.
    assert r.footstep is None
    assert not TownState.objects.filter(mode="closed").exists()
    assert desk.town_mode() == "open"


def _locked_inside(call: Call, args: NoteArgs) -> Reply:
    Note.objects.create(box=call.passport.id, key="k", value=args.text, size=1, kept_at=timezone.now())
    raise OperationalError("database is locked")


def test_a_busy_database_inside_a_tool_rolls_the_call_back_and_records_a_busy_footstep() -> None:
    alice = new_passport()
    r = desk.run(_tool(_locked_inside), {"text": "hello"}, alice, None)
    assert r.structured["say"] == BUSY_SAY and r.is_error is True
    assert not Note.objects.exists()
    # Nothing held the database when the busy reply was written, so it has its footstep.
    assert r.footstep is not None and Footstep.objects.get(number=r.footstep).outcome == "busy"
    alice.refresh_from_db()
    assert alice.footsteps == 1  # the passport counts it, as the Archive does
    assert desk.town_mode() == "open"


def _broken(call: Call, args: Any) -> Reply:
    raise OperationalError("disk I/O error")


def test_a_real_failure_to_record_still_closes_the_town(monkeypatch: pytest.MonkeyPatch) -> None:
    alice = new_passport()

    def cannot_record(*_: Any) -> int:
        raise OperationalError("disk I/O error")

    monkeypatch.setattr(desk.archive, "record", cannot_record)
    try:
        r = desk.run(_tool(_broken), {"text": "hello"}, alice, None)
        assert r.structured["say"] == desk.UNRECORDED_SAY
        assert desk.town_mode() == "closed"
    finally:
        desk.set_town_mode("open")


@pytest.mark.parametrize(
    ("message", "busy"),
    [
        ("database is locked", True),
        ("database table is locked: town_passport", True),
        ("disk I/O error", False),
        ("no such table: town_footstep", False),
    ],
)
def test_only_a_lock_reads_as_busy(message: str, busy: bool) -> None:
    assert desk.is_busy(OperationalError(message)) is busy


def test_the_words_are_screened_before_the_call_opens_its_transaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """Screening is the costly part of a call: it runs before the write lock is taken, never inside."""
    alice = new_passport()
    outside = len(connection.atomic_blocks)
    depths: list[int] = []
    screen = desk.words.screen

    def screened(text: str, surface: str) -> Any:
        depths.append(len(connection.atomic_blocks))
        return screen(text, surface)

    monkeypatch.setattr(desk.words, "screen", screened)
    r = desk.run(_tool(_keep_then(None), words={"text": "public"}), {"text": "Lot 12 is dark."}, alice, None)
    assert r.is_error is False
    assert depths == [outside]


def test_a_fault_while_screening_fails_safe_with_its_footstep(monkeypatch: pytest.MonkeyPatch) -> None:
    """001 section 04: a screen that cannot run sends nothing and makes the town read-only (the rest is
    in tests/test_desk_safety.py)."""
    alice = new_passport()

    def broken(*_: Any) -> Any:
        raise RuntimeError("the screen broke")

    monkeypatch.setattr(desk.words, "screen", broken)
    r = desk.run(_tool(_keep_then(None), words={"text": "public"}), {"text": "Lot 12 is dark."}, alice, None)
    assert r.is_error is True and r.structured["say"] == desk.UNCHECKED_SAY
    assert r.footstep is not None and Footstep.objects.get(number=r.footstep).outcome == "error:safety-check"
    assert not Note.objects.exists() and desk.town_mode() == "read-only"
