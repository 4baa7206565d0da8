"""Two requests of one hall session at the same moment (two tabs, a page loading while another begins a
passkey request): neither loses what the other kept (hall/sessions.py). Real requests through Django's
test client, in two threads, against the test database (SQLite, or PostgreSQL with DATABASE_URL)."""

import hashlib
import threading
import time
from collections.abc import Callable
from copy import deepcopy
from datetime import timedelta
from importlib import import_module
from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from django.utils import timezone

from hall import lifetime, passkeys
from hall.models import Ceremony
from hall.tests.conftest import HOST, ORIGIN, Visitor

pytestmark = pytest.mark.django_db(transaction=True)
SessionStore = import_module(settings.SESSION_ENGINE).SessionStore


def stale_seen(visitor: Visitor) -> None:
    """The hall last saw this person two minutes ago: their next page writes the time again."""
    session = visitor.client.session
    session[lifetime.SEEN_AT] = int(time.time()) - 2 * lifetime.SEEN_EVERY
    session.save()


def while_a_page_loads(visitor: Visitor, monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], Any]) -> Any:
    """Load a page in a second tab of `visitor`'s session and, once that request has read the session and
    before it writes the last-seen time, run `meanwhile` (another request of the session) to its end.
    Returns what `meanwhile` returned, once the page's request has ended too."""
    read, done = threading.Event(), threading.Event()
    ended = lifetime.ended
    page = threading.Thread(name="page")

    def read_then_wait(session: Any, now: int) -> str | None:
        # Asked by the page's request once it has read the session, before it writes the time.
        if threading.current_thread() is page:
            read.set()
            assert done.wait(timeout=10)
        return ended(session, now)

    monkeypatch.setattr(lifetime, "ended", read_then_wait)
    tab = Client(HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    tab.cookies = deepcopy(visitor.client.cookies)
    statuses: list[int] = []

    def load() -> None:
        try:
            statuses.append(tab.get("/hall/passkeys").status_code)
        finally:
            connections.close_all()

    page.run = load  # type: ignore[method-assign]
    page.start()
    assert read.wait(timeout=10)
    try:
        answer = meanwhile()
    finally:
        done.set()
        page.join(timeout=10)
    assert statuses == [200]
    return answer


def test_a_passkey_request_begun_while_another_tab_loads_is_kept(ada: Visitor, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's request read the session before the confirmation began and wrote the last-seen time
    after it: it saved its own copy of the whole session, without the ceremony, and the person's answer
    was refused as expired."""
    stale_seen(ada)
    asked = while_a_page_loads(ada, monkeypatch, lambda: ada.options("/hall/passkeys/add/confirm", {"name": ""}))
    confirmation = ada.key.get(asked)
    options = ada.options("/hall/passkeys/add/begin", {"name": "", "confirmation": confirmation})
    assert ada.post("/hall/passkeys/add/finish", {"credential": ada.key.create(options)}) == (
        200,
        {"ok": True, "next": "/hall/passkeys"},
    )
    assert ada.client.session[lifetime.SEEN_AT] >= int(time.time()) - 5


def test_the_last_seen_time_keeps_what_another_request_stored_meanwhile(
    ada: Visitor, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale_seen(ada)
    key = ada.client.session.session_key

    def store_a_key() -> None:
        other = SessionStore(session_key=key)
        other["hall.elsewhere"] = "kept"
        other.save()
        connections.close_all()

    while_a_page_loads(ada, monkeypatch, store_a_key)
    stored = SessionStore(session_key=key)
    assert stored["hall.elsewhere"] == "kept"
    assert stored[lifetime.SEEN_AT] >= int(time.time()) - 5


def test_a_ceremony_is_bound_to_its_sessions_digest_and_goes_when_the_person_signs_out(ada: Visitor) -> None:
    ada.options("/hall/passkeys/add/confirm", {"name": ""})
    key = str(ada.client.session.session_key)
    ceremony = Ceremony.objects.get()
    assert ceremony.session == hashlib.sha256(key.encode()).hexdigest() != key
    ada.sign_out()
    assert not Ceremony.objects.exists()


def test_a_ceremony_begun_signed_out_does_not_outlive_the_sign_in(ada: Visitor) -> None:
    """Signing in gives the session a new key; a sign-up begun under the old one in another tab is not
    carried over, and its answer is told it expired."""
    ada.sign_out()
    signup = ada.options("/hall/signup/begin", {"name": "Bea"})
    assert ada.sign_in() == (200, {"ok": True, "next": "/hall/"})
    assert not Ceremony.objects.exists()
    assert ada.post("/hall/signup/finish", {"credential": ada.key.create(signup)}) == (
        400,
        {"ok": False, "say": passkeys.EXPIRED},
    )


def test_an_answer_to_a_confirmation_that_expired_is_told_so_not_that_another_replaced_it(ada: Visitor) -> None:
    """The session remembers the confirmations it replaced, not every one it began: one that expired and
    was swept away as another ceremony began was replaced by nothing."""
    asked = ada.options("/hall/passkeys/add/confirm", {"name": ""})
    Ceremony.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    ada.options("/hall/signin/begin")  # sweeps the expired confirmation away
    assert ada.post("/hall/passkeys/add/begin", {"name": "", "confirmation": ada.key.get(asked)}) == (
        400,
        {"ok": False, "say": passkeys.EXPIRED},
    )


def test_of_two_sign_ins_begun_at_once_in_one_session_the_later_is_the_one_waiting(
    ada: Visitor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another tab's begin makes its row between this begin's delete and its insert: the insert meets
    the one-per-purpose constraint, and this begin replaces that row, as a begin a moment later does."""
    if connections["default"].vendor != "postgresql":
        pytest.skip("SQLite's writes take turns (a transaction begins IMMEDIATE): two begins never meet")
    ada.sign_out()
    ada.options("/hall/signin/begin")  # a session, and its cookie for both tabs
    Ceremony.objects.all().delete()
    ours = threading.current_thread()
    create = Ceremony.objects.create
    tab = Client(HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    tab.cookies = deepcopy(ada.client.cookies)
    rival: list[dict[str, Any]] = []

    def other_tab_first(**fields: Any) -> Ceremony:
        if threading.current_thread() is ours and not rival:

            def begin() -> None:
                try:
                    r = tab.post("/hall/signin/begin", "{}", content_type="application/json")
                    rival.append(r.json()["options"])
                finally:
                    connections.close_all()

            other = threading.Thread(target=begin)
            other.start()
            other.join(timeout=10)
        return create(**fields)

    monkeypatch.setattr(Ceremony.objects, "create", other_tab_first)
    options = ada.options("/hall/signin/begin")
    assert len(rival) == 1 and rival[0]["challenge"] != options["challenge"]
    assert Ceremony.objects.count() == 1
    assert ada.post("/hall/signin/finish", {"credential": ada.key.get(options)}) == (
        200,
        {"ok": True, "next": "/hall/"},
    )
    assert ada.post("/hall/signin/finish", {"credential": ada.key.get(rival[0])}) == (
        400,
        {"ok": False, "say": passkeys.EXPIRED},
    )
