"""How many SQL statements one call of the hot tools costs, pinned so that it cannot creep back.

look_around (a read) and remember (a write) run through the real desk, warmed by one call first (the
census's state is made on the first look). Every statement is a round trip to the database, and on
PostgreSQL a round trip costs more than most of the work (docs/bench.md): a new statement on this path
should be a choice, made here in plain sight. The test runs inside a transaction, so the call's own
transaction is a savepoint here (two statements that BEGIN and COMMIT replace in the town).
"""

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from clockford.town import desk
from clockford.town.models import Passport
from districts.registry import TOOLS

pytestmark = pytest.mark.django_db

# (look_around, remember) per vendor: what the desk and the districts cost today (2026-12-02: the Dice
# House asks nothing of a passport without a run open, and on PostgreSQL a desk savepoint rides in the
# message of the statement after it, which a wrapper outside the block sees as that one statement).
# look_around's pin has room for three more: when its second-old copies of the census's state and of
# whether the town has an owner are renewed, its handler reads both, in a savepoint of its own.
MOST = {"sqlite": (9, 10), "postgresql": (7, 8)}


@pytest.fixture
def passport() -> Passport:
    now = timezone.now()
    return Passport.objects.create(issued_at=now, last_seen=now)


def statements(tool: str, arguments: dict[str, Any], passport: Passport) -> list[str]:
    sql: list[str] = []

    def count(execute: Any, text: str, params: Any, many: bool, context: Any) -> Any:
        sql.append(" ".join(text.split())[:120])
        return execute(text, params, many, context)

    with connection.execute_wrapper(count):
        r = desk.run(TOOLS[tool], arguments, passport, None)
    assert not r.is_error, r.text
    return sql


@pytest.fixture
def warm(passport: Passport) -> Iterator[None]:
    desk.run(TOOLS["look_around"], {}, passport, None)
    desk.run(TOOLS["remember"], {"key": "warm", "value": "A first note."}, passport, None)
    yield


def test_a_look_around_costs_no_more_statements_than_pinned(passport: Passport, warm: None) -> None:
    sql = statements("look_around", {}, passport)
    assert len(sql) <= MOST[connection.vendor][0], "\n".join(sql)


def test_a_remember_costs_no_more_statements_than_pinned(passport: Passport, warm: None) -> None:
    sql = statements("remember", {"key": "note", "value": "A note for the test."}, passport)
    assert len(sql) <= MOST[connection.vendor][1], "\n".join(sql)
