"""Calls in process through the real desk, as the face hands them over, for every district's tests
(after healthchecks' hc/test.py): personas are in districts/conftest.py."""

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from clockford.town import desk, holds, reports
from clockford.town.models import Footstep, Hold, Passport
from districts.registry import START_PLACE, TOOLS


def new_passport() -> Passport:
    now = timezone.now()
    return Passport.objects.create(issued_at=now, last_seen=now, place=START_PLACE)


def on_probation(passport: Passport) -> None:
    """Put the passport's agent on probation, as a person upholding its report in the hall does: every
    call of its that changes things then waits for the person."""
    report = reports.do_report(passport, "Post my secret", "read_notices", "")
    reports.do_review(report, None, "upheld", reports.review_statement(report, "upheld"), {})


def visit(passport: Passport, tool: str, **arguments: Any) -> desk.Rendered:
    """One call of `tool` by `passport`, with arguments the face has already let through. The passport
    is read anew first, as each HTTP request reads it (a person may have decided in between)."""
    passport.refresh_from_db()
    return desk.run(TOOLS[tool], arguments, passport, None)


def meanwhile(monkeypatch: pytest.MonkeyPatch, asked: str, change: Callable[[], object]) -> None:
    """Make `change` happen right after the desk asks holds.<asked> (Safe Harbour's `repeated`, before
    the call's transaction, or the `gate`, inside it) and before the tool runs: what a call of another
    agent could do in that moment. Undone with monkeypatch.undo()."""
    question = getattr(holds, asked)

    def then(*args: Any, **kwargs: Any) -> Any:
        found = question(*args, **kwargs)
        change()
        return found

    monkeypatch.setattr(holds, asked, then)


def outcome(r: desk.Rendered) -> str:
    """The outcome code the Archive recorded for this reply's footstep."""
    assert r.footstep is not None
    return Footstep.objects.get(number=r.footstep).outcome


def racing() -> list[pytest.MarkDecorator]:
    """The marks of a module of races: a database that commits (each thread has its own connection),
    on PostgreSQL only, since the tests' SQLite database lives in one connection's memory (CI runs the
    suite on PostgreSQL too)."""
    return [
        pytest.mark.django_db(transaction=True),
        pytest.mark.skipif(
            connections["default"].vendor != "postgresql",
            reason="races between connections need PostgreSQL (the tests' SQLite lives in one connection)",
        ),
    ]


def race(calls: list[tuple[Passport, str, dict[str, Any]]]) -> list[desk.Rendered]:
    """Run the calls at once through the desk, each on a thread of its own with its own passport object
    and database connection (a test marked django_db(transaction=True), on PostgreSQL: the tests'
    SQLite database lives in one connection's memory). Returns the replies in order."""
    start = threading.Barrier(len(calls))
    replies: list[desk.Rendered | None] = [None] * len(calls)
    errors: list[BaseException] = []

    def one(i: int, passport: Passport, tool: str, arguments: dict[str, Any]) -> None:
        try:
            mine = Passport.objects.get(pk=passport.pk)
            start.wait()
            replies[i] = visit(mine, tool, **arguments)
        except BaseException as error:  # noqa: BLE001 (reported below, in the test's thread)
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one, args=(i, *call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [], errors
    done = [r for r in replies if r is not None]
    assert len(done) == len(calls), "a call was not answered"
    return done


# Sessions of this database waiting on a row lock (or any other lock) right now.
_WAITING = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"


def past_every_check(hold: Hold, calls: list[tuple[Passport, str, dict[str, Any]]]) -> list[desk.Rendered]:
    """Run the calls through the desk, each on a thread and connection of its own, while this thread
    holds `hold`'s row lock (a test marked `racing()`): each starts once the one before it waits on a
    lock (on that one, or on a row a call waiting on it holds: the record its Tool.before_hold read) or
    was answered without waiting, and the lock is let go then. The calls meet deterministically: the
    first, allowed by `hold`, has passed its checks and waits to go through while the next makes its
    own. Returns the replies, in order."""
    replies: list[desk.Rendered | None] = [None] * len(calls)
    errors: list[BaseException] = []

    def one(i: int, passport: Passport, tool: str, arguments: dict[str, Any]) -> None:
        try:
            replies[i] = visit(Passport.objects.get(pk=passport.pk), tool, **arguments)
        except BaseException as error:  # noqa: BLE001 (reported below, in the test's thread)
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one, args=(i, *call)) for i, call in enumerate(calls)]
    with transaction.atomic():
        Hold.objects.select_for_update().get(pk=hold.pk)
        for waiting, thread in enumerate(threads, start=1):
            thread.start()
            deadline = time.monotonic() + 20
            with connection.cursor() as c:
                while True:
                    c.execute("SELECT pg_stat_clear_snapshot()")  # else a transaction reads the view once
                    c.execute(_WAITING)
                    if c.fetchone()[0] >= waiting or not thread.is_alive():  # or it was answered at once
                        break
                    assert time.monotonic() < deadline, f"call {waiting} did not wait on a lock"
                    time.sleep(0.01)
    for thread in threads:
        thread.join(60)
    assert errors == [], errors
    done = [r for r in replies if r is not None]
    assert len(done) == len(calls), "a call was not answered"
    return done


def begins_on_probation(tool: str, run_field: str, spent: Passport, resuming: Passport, fresh: Passport) -> None:
    """A run district's begin on probation (docs/holds.md: a person is never asked about a call their yes
    could not change): past the day's limits it is refused at once, and one that resumes the run in
    progress goes ahead at once, neither held; one that would begin a run waits for the person. `spent`
    has used up the day's runs; `run_field` names the run's id in the tool's reply."""
    on_probation(spent)
    refused = visit(spent, tool, begin=True)
    assert outcome(refused) == "refused:limit" and "hold" not in refused.structured, refused.structured["say"]

    run = visit(resuming, tool, begin=True).structured[run_field]
    on_probation(resuming)
    again = visit(resuming, tool, begin=True)
    assert outcome(again) == "ok" and again.structured[run_field] == run
    assert not Hold.objects.filter(passport__in=[spent, resuming]).exists()

    on_probation(fresh)
    assert outcome(visit(fresh, tool, begin=True)) == "held"
