"""The desk's savepoints (desk.Savepoint) are made only when a statement runs inside them and left for
the transaction's end to release, and are otherwise what an atomic block inside the call's transaction
is: work that fails goes back to it, the rest of the transaction stands, and atomic blocks opened inside
it release and roll back their own."""

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from clockford.town.desk import Savepoint
from clockford.town.models import Passport
from tests.support import statements_seen

pytestmark = pytest.mark.django_db


class Broke(Exception):
    pass


def new() -> Passport:
    now = timezone.now()
    return Passport.objects.create(issued_at=now, last_seen=now)


@pytest.fixture
def sent() -> Iterator[list[str]]:
    sql: list[str] = []

    def count(execute: Any, text: str, params: Any, many: bool, context: Any) -> Any:
        done = execute(text, params, many, context)
        sql.append(text)  # once sent: a savepoint made on the way to this statement comes first
        return done

    with connection.execute_wrapper(count):
        yield sql


def stands(p: Passport) -> bool:
    return Passport.objects.filter(pk=p.pk).exists()


def test_a_block_that_sends_nothing_makes_no_savepoint(sent: list[str]) -> None:
    depth = len(connection.savepoint_ids)
    with Savepoint():
        pass
    with pytest.raises(Broke), Savepoint():
        raise Broke
    assert sent == [] and len(connection.savepoint_ids) == depth


def test_work_that_succeeds_stays_and_the_transaction_releases_the_savepoint(sent: list[str]) -> None:
    depth = len(connection.savepoint_ids)
    with Savepoint():
        kept = new()
    assert stands(kept) and len(connection.savepoint_ids) == depth
    if connection.vendor == "postgresql":
        # The SAVEPOINT rides in the same message as the INSERT, past this wrapper (the tests below
        # show it is made: work that fails goes back to it).
        assert [s.split()[0] for s in sent] == ["INSERT", "SELECT"]
    else:
        assert [s.split()[0] for s in sent] == ["SAVEPOINT", "INSERT", "SELECT"]


def test_work_that_fails_goes_back_and_the_rest_stands() -> None:
    before = new()
    with pytest.raises(Broke), Savepoint():
        lost = new()
        raise Broke
    assert stands(before) and not stands(lost)
    assert stands(new())  # the transaction goes on


def test_a_statement_that_fails_goes_back_and_the_rest_stands() -> None:
    before = new()
    with pytest.raises(DatabaseError), Savepoint():
        lost = new()
        with connection.cursor() as c:
            c.execute("SELECT no_such_column FROM town_passport")  # on PostgreSQL, aborts the transaction
    assert stands(before) and not stands(lost)
    assert stands(new())


def test_an_atomic_block_opened_first_inside_keeps_its_own_savepoint() -> None:
    depth = len(connection.savepoint_ids)
    with Savepoint():
        with pytest.raises(Broke), transaction.atomic():  # its SAVEPOINT is the first statement
            inner = new()
            raise Broke
        kept = new()
    assert not stands(inner) and stands(kept) and len(connection.savepoint_ids) == depth
    with pytest.raises(Broke), Savepoint():
        with transaction.atomic():
            lost = new()
        raise Broke
    assert not stands(lost) and len(connection.savepoint_ids) == depth


def test_a_failed_block_without_a_savepoint_inside_rolls_back_to_this_one() -> None:
    with Savepoint():
        with pytest.raises(Broke), transaction.atomic(savepoint=False):
            lost = new()
            raise Broke
        assert connection.needs_rollback
    assert not connection.needs_rollback and not stands(lost)
    assert stands(new())
    with Savepoint():  # the same, having sent nothing
        with pytest.raises(Broke), transaction.atomic(savepoint=False):
            raise Broke
    assert not connection.needs_rollback and stands(new())


def test_on_postgresql_the_savepoint_rides_with_the_first_statement() -> None:
    """One round trip where there were two: the SAVEPOINT and the first statement inside it in one
    message, as a wrapper inside the block sees them."""
    if connection.vendor != "postgresql":
        pytest.skip("on SQLite a statement is no round trip, and the SAVEPOINT goes on its own")
    with Savepoint(), statements_seen() as seen:
        kept = new()
    assert stands(kept)
    assert len(seen) == 1 and seen[0].startswith("SAVEPOINT ") and "; INSERT INTO" in seen[0], seen
