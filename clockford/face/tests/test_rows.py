"""The passport the face reads by a plain SELECT on every request is the passport the ORM would read."""

import datetime as dt

import pytest
from django.db import connection

from clockford.face import sessions
from clockford.town.models import Passport

pytestmark = pytest.mark.django_db


def test_the_hot_path_reads_every_field_of_passport_in_the_models_order() -> None:
    # Model.from_db takes a plain SELECT's values in the order the model declares its fields, and a
    # field left out would be read again, a query at a time, whenever it is touched: a field added to
    # Passport must be added to PASSPORT_FIELDS too, in the same place.
    declared = tuple(f.attname for f in Passport._meta.concrete_fields)
    assert sessions.PASSPORT_FIELDS == declared


def test_the_session_lookup_gives_the_passport_the_orm_gives() -> None:
    now = dt.datetime(2026, 11, 2, 9, 30, tzinfo=dt.UTC)
    passport = Passport.objects.create(
        issued_at=now, last_seen=now, place="Tavern", pennant="blue", client_name="rows", calls_since=now, calls=3
    )
    opened = sessions.open_session("10.0.0.1", "rows", passport)
    assert isinstance(opened, sessions.Opened)
    found = sessions.find_session(opened.sid)
    assert found is not None
    read = found.passport
    orm = Passport.objects.get(pk=passport.pk)
    for name in sessions.PASSPORT_FIELDS:
        assert getattr(read, name) == getattr(orm, name), name
        assert type(getattr(read, name)) is type(getattr(orm, name)), name
    assert read.get_deferred_fields() == set()


def test_a_passport_never_seen_by_the_clerk_reads_its_empty_window_as_none() -> None:
    passport = Passport.objects.create(issued_at=dt.datetime.now(dt.UTC), last_seen=dt.datetime.now(dt.UTC))
    opened = sessions.open_session("10.0.0.2", "rows", passport)
    assert isinstance(opened, sessions.Opened)
    found = sessions.find_session(opened.sid)
    assert found is not None and found.passport.calls_since is None and found.passport.watched is False


def test_the_statement_names_its_columns_as_this_database_quotes_them() -> None:
    sql = sessions._find_sql()
    assert connection.ops.quote_name("town_passport") in sql
    assert all(connection.ops.quote_name(f.column) in sql for f in Passport._meta.concrete_fields)
