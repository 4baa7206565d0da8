"""A hall session's key is the signed-in person's credential: the cookie holds it, and the town keeps
only its SHA-256 (hall/sessions.py). After a real sign-up and sign-in (Django's test client holding a
software passkey), the key is in no column of any table, the person stays signed in, the stored
digest sent as a cookie opens nothing, and signing out ends the session. On SQLite, or PostgreSQL
with DATABASE_URL."""

import hashlib
from importlib import import_module

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.sessions.backends import base
from django.db import connection, connections
from django.test import Client

from hall.tests.conftest import HOST, ORIGIN, Visitor

pytestmark = pytest.mark.django_db(transaction=True)
SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
Stored = SessionStore.get_model_class()
SIGNED_IN = "Signed in as <strong>Ada</strong>"
FRONT_DOOR = "<h1>Welcome to the hall</h1>"


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def cookie(visitor: Visitor) -> str:
    return visitor.client.cookies[settings.SESSION_COOKIE_NAME].value


def holding(needle: str) -> list[str]:
    """Every table.column of the database holding `needle` anywhere in a value (read as text)."""
    found = []
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            for column in connection.introspection.get_table_description(cursor, table):
                where = f"CAST({q(column.name)} AS TEXT) LIKE %s"
                cursor.execute(f"SELECT count(*) FROM {q(table)} WHERE {where}", [f"%{needle}%"])  # noqa: S608 (the database's own names)
                if cursor.fetchone()[0]:
                    found.append(f"{table}.{column.name}")
    return found


def with_cookie(value: str) -> Client:
    client = Client(HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    client.cookies[settings.SESSION_COOKIE_NAME] = value
    return client


def test_a_signed_in_persons_key_is_kept_only_as_its_digest(ada: Visitor) -> None:
    key = cookie(ada)
    assert holding(key) == []
    assert list(Stored.objects.values_list("session_key", flat=True)) == [digest(key)]
    # Signed in across requests, the cookie the same; the last-seen time is written into the same row.
    for _ in range(2):
        assert SIGNED_IN in ada.page("/hall/")
    assert cookie(ada) == key and holding(key) == []
    assert SessionStore(session_key=key).get("_auth_user_id") == str(ada.account.pk if ada.account else None)


def test_the_stored_digest_sent_as_a_cookie_is_no_session(ada: Visitor) -> None:
    """What a copy of the database holds opens nothing: not as a sign-in, nor to the store itself."""
    stored = Stored.objects.get().session_key
    page = with_cookie(stored).get("/hall/").content.decode()
    assert SIGNED_IN not in page and FRONT_DOOR in page
    assert SessionStore().exists(cookie(ada)) and not SessionStore().exists(stored)
    assert SessionStore(session_key=stored).load() == {}
    assert SIGNED_IN in ada.page("/hall/")


def test_signing_out_ends_the_session_and_its_key_opens_nothing_after(ada: Visitor) -> None:
    key = cookie(ada)
    assert Stored.objects.filter(session_key=digest(key)).count() == 1
    ada.sign_out()
    assert not Stored.objects.filter(session_key=digest(key)).exists()
    page = with_cookie(key).get("/hall/").content.decode()
    assert SIGNED_IN not in page and FRONT_DOOR in page


def test_signing_in_keeps_the_new_keys_digest_and_forgets_the_old_key(ada: Visitor) -> None:
    ada.sign_out()
    ada.options("/hall/signin/begin")  # the ceremony's session, stored to have a key
    before = cookie(ada)
    assert list(Stored.objects.values_list("session_key", flat=True)) == [digest(before)]
    assert ada.sign_in() == (200, {"ok": True, "next": "/hall/"})
    after = cookie(ada)
    assert after != before and holding(after) == [] and holding(before) == []
    assert list(Stored.objects.values_list("session_key", flat=True)) == [digest(after)]
    assert SIGNED_IN in ada.page("/hall/")


def test_a_new_key_that_meets_a_stored_one_is_drawn_again(ada: Visitor, monkeypatch: pytest.MonkeyPatch) -> None:
    taken, fresh = cookie(ada), "k" * 32
    drawn = iter([taken, fresh])
    monkeypatch.setattr(base, "get_random_string", lambda *_: next(drawn))
    new = SessionStore()
    new["hall.elsewhere"] = "new"
    new.create()
    assert new.session_key == fresh
    assert sorted(Stored.objects.values_list("session_key", flat=True)) == sorted([digest(taken), digest(fresh)])
    assert SessionStore(session_key=taken).get("hall.elsewhere") is None and SIGNED_IN in ada.page("/hall/")


async def test_the_async_paths_keep_the_digest_too() -> None:
    try:
        await async_paths()
    finally:
        # The thread Django's async calls ran in keeps its connection, which would outlive the test
        # database on PostgreSQL.
        await sync_to_async(connections.close_all)()


async def async_paths() -> None:
    made = SessionStore()
    await made.aset("who", "ada")
    await made.asave()
    key = str(made.session_key)
    assert await Stored.objects.filter(session_key=digest(key)).aexists()
    assert not await Stored.objects.filter(session_key=key).aexists()
    assert await SessionStore().aexists(key) and not await SessionStore().aexists(digest(key))
    again = SessionStore(session_key=key)
    assert await again.aget("who") == "ada"
    await again.aset("who", "bea")
    await again.asave()
    assert await SessionStore(session_key=key).aget("who") == "bea"
    await again.adelete()
    assert not await Stored.objects.filter(session_key=digest(key)).aexists()
