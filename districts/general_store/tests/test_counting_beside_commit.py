"""With the desk's `with_commit` (PostgreSQL), a gauge row this worker did not write last is never locked
inside the call's transaction: the passport's UPDATE goes with the COMMIT, and a call of the same
passport that holds the passport's lock waits for the gauge's at its own COMMIT. Taken the other way
round, two calls at once deadlocked (PostgreSQL broke it after a second, and one of them was busy)."""

from collections.abc import Callable
from typing import Any

from django.db import connection

from clockford.town.models import Passport
from clockford.town.prepared import spelled
from districts.general_store import services

Then = Callable[[int], None]


def counted(passport: Passport) -> tuple[list[str], list[tuple[str, list[Any], Then]]]:
    """One reply counted with a `with_commit` that keeps what it is handed: (the gauge's statements run
    inside the call, what was handed to go with the COMMIT)."""
    inside: list[str] = []
    handed: list[tuple[str, list[Any], Then]] = []

    def watch(execute: Any, text: str, params: Any, many: bool, context: Any) -> Any:
        inside.append(spelled(text))
        return execute(text, params, many, context)

    with connection.execute_wrapper(watch):
        services.count(
            None,
            tool="look_around",
            passport=passport,
            text=10,
            data=20,
            digest="ab" * 16,
            with_commit=lambda sql, params, then: handed.append((sql, params, then)),
        )
    return [s for s in inside if "general_store_gauge" in s], handed


def commit(handed: list[tuple[str, list[Any], Then]]) -> None:
    """What the desk does with it: the statement with the COMMIT, then `then` with its rowcount."""
    [(sql, params, then)] = handed
    with connection.cursor() as c:
        c.execute(sql, params)
        rows = c.rowcount
    then(rows)


def test_a_new_passports_row_is_inserted_with_the_commit(alice: Passport) -> None:
    services.forget_rows()
    inside, handed = counted(alice)
    assert inside == []
    commit(handed)
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and gauge["today"]["calls"] == 1


def test_a_row_another_worker_wrote_is_counted_after_the_commit(alice: Passport) -> None:
    services.forget_rows()
    commit(counted(alice)[1])
    services.forget_rows()  # another worker wrote it last
    inside, handed = counted(alice)
    assert inside == []
    commit(handed)
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and gauge["today"]["calls"] == 2 and gauge["recent"]["calls"] == 2
