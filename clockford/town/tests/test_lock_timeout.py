"""On PostgreSQL a call waits for a lock no longer than on SQLite (CLOCKFORD_SQLITE_WAIT_SECONDS, as
lock_timeout on every connection: clockford/settings.py), and a call that waits past it is answered as
SQLite's is: the clerk's busy reply, with retryAfterSeconds, and nothing of the call kept. PostgreSQL only: the tests' SQLite lives in one connection."""

import threading
import time

from django.conf import settings
from django.db import connection, connections, transaction

from clockford.town.models import Footstep, Passport
from districts.post_office.models import Note
from districts.testing import new_passport, racing, visit

pytestmark = racing()


def test_every_connection_waits_for_a_lock_as_long_as_the_setting_says() -> None:
    assert settings.DATABASES["default"]["OPTIONS"]["options"].startswith(
        f"-c lock_timeout={settings.DATABASE_WAIT_SECONDS * 1000}"
    )
    with connection.cursor() as c:
        c.execute("SHOW lock_timeout")
        assert c.fetchone() == (f"{settings.DATABASE_WAIT_SECONDS}s",)


def test_a_call_that_waits_past_the_lock_timeout_is_answered_busy() -> None:
    alice = new_passport()
    visit(alice, "remember", key="k", value="first")
    held, done = threading.Event(), threading.Event()

    def hold_the_passport() -> None:
        # Another transaction holds alice's passport row, as a long call of hers would.
        try:
            with transaction.atomic():
                Passport.objects.select_for_update().get(pk=alice.pk)
                held.set()
                done.wait(30)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_passport)
    holder.start()
    try:
        assert held.wait(30)
        with connection.cursor() as c:
            c.execute("SET lock_timeout = '300ms'")  # the setting's 20 seconds, shortened for the test
        began = time.monotonic()
        r = visit(alice, "remember", key="k", value="kept")
        took = time.monotonic() - began
    finally:
        done.set()
        holder.join(30)
        with connection.cursor() as c:
            c.execute("RESET lock_timeout")
    assert r.is_error is True
    assert r.structured["say"] == "The clerk is busy. Try again in 2 seconds."
    assert r.structured["retryAfterSeconds"] == 2
    assert "hold" not in r.structured
    # Its footstep waited only briefly (sqlite.waiting_briefly), not the whole wait again: the row it
    # counts on was still held, so the reply says by having no footstep that nothing of the call happened.
    assert r.footstep is None and took < 3, took
    assert [n.value for n in Note.objects.all()] == ["first"]
    assert Footstep.objects.count() == 1
