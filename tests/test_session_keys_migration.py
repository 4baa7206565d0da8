"""Migration 0020 carries the sessions of a running town: each row's id becomes its key, and the client,
which still sends the id, is served as before (clockford/face/sessions.py key_of)."""

import datetime as dt
import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from clockford.face import sessions
from clockford.town.models import McpSession

BEFORE = [("town", "0019_replay_digest")]
AFTER = [("town", "0020_session_keys")]


@pytest.mark.django_db(transaction=True)
def test_the_sessions_open_before_the_upgrade_are_found_by_their_id_after_it() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Passport, Session = old.get_model("town", "Passport"), old.get_model("town", "McpSession")
    now = dt.datetime.now(dt.UTC)
    passport = Passport.objects.create(issued_at=now, last_seen=now, place="Tavern")
    ids = [f"{n:064x}" for n in (7, 8)]
    for sid in ids:
        Session.objects.create(id=sid, passport_id=passport.pk, address="192.0.2.1", created_at=now, last_seen=now)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)

    keys = {hashlib.sha256(sid.encode()).hexdigest() for sid in ids}
    assert set(McpSession.objects.values_list("id", flat=True)) == keys
    for sid in ids:
        found = sessions.find_session(sid)
        assert found is not None and found.passport.pk == passport.pk
    assert sessions.end_session(ids[0]) and sessions.find_session(ids[0]) is None
    assert sessions.find_session(next(iter(keys))) is None  # a key sent as an id opens nothing
