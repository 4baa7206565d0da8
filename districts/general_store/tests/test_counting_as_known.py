"""A worker writes a gauge row it wrote last with one statement, and only where the row still holds
what it wrote: a row another worker counted on since is read first, and no count is lost."""

from typing import Any

import pytest
from django.db import connection, transaction

from clockford.town.models import Passport
from clockford.town.prepared import spelled
from districts.general_store import services
from districts.testing import visit


def sent(tool: str, passport: Passport) -> list[str]:
    sql: list[str] = []

    def count(execute: Any, text: str, params: Any, many: bool, context: Any) -> Any:
        sql.append(spelled(text))  # a prepared statement goes as EXECUTE: read as written
        return execute(text, params, many, context)

    with connection.execute_wrapper(count):
        visit(passport, tool)
    return [s for s in sql if "general_store_gauge" in s]


def test_a_row_this_worker_wrote_last_is_written_without_a_read(alice: Passport) -> None:
    visit(alice, "look_around")
    assert [s.split()[0] for s in sent("look_around", alice)] == ["UPDATE"]
    services.forget_rows()  # a worker that has not written it: read, then write
    assert [s.split()[0] for s in sent("look_around", alice)] == ["SELECT", "UPDATE"]
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and gauge["today"]["calls"] == 3


def test_a_row_another_worker_counted_on_since_is_read_first(alice: Passport) -> None:
    visit(alice, "look_around")
    mine = dict(services._known)
    services.forget_rows()
    visit(alice, "look_around")  # another worker's count: this one's copy is now behind the row
    services._known.clear()
    services._known.update(mine)
    assert [s.split()[0] for s in sent("look_around", alice)] == ["UPDATE", "SELECT", "UPDATE"]
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and gauge["today"]["calls"] == 3 and gauge["recent"]["calls"] == 3


def test_a_count_whose_transaction_rolled_back_is_not_taken_for_the_row(alice: Passport) -> None:
    """The worker's copy of a write that rolled back holds a stamp the row never had, so the next count
    reads the row first, even when another worker has written it since (a stamp, not a count of writes:
    that count would match the other worker's write)."""
    visit(alice, "look_around")
    with pytest.raises(RuntimeError), transaction.atomic():
        visit(alice, "look_around")  # counted, then rolled back with the block around it
        raise RuntimeError("rolled back")
    mine = dict(services._known)
    services.forget_rows()
    visit(alice, "look_around")  # another worker's count, on the row as it stands
    services._known.clear()
    services._known.update(mine)
    assert [s.split()[0] for s in sent("look_around", alice)] == ["UPDATE", "SELECT", "UPDATE"]
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and gauge["today"]["calls"] == 3 and gauge["recent"]["calls"] == 3
