"""A sign-in to the hall ends after a while unused, and a while after the passkey signed the person in
(hall/lifetime.py); then the person is told why, and signs in again with the passkey."""

import time

import pytest
from django.conf import settings

from hall import lifetime
from hall.http import SIGNED_OUT
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db


def aged(visitor: Visitor, **ago: int) -> None:
    """Move the session's times back: signed_in and seen, in seconds before now."""
    session = visitor.client.session
    now = int(time.time())
    if "signed_in" in ago:
        session[lifetime.SIGNED_IN_AT] = now - ago["signed_in"]
    if "seen" in ago:
        session[lifetime.SEEN_AT] = now - ago["seen"]
    session.save()


def test_signing_in_with_the_passkey_starts_both_times(visitor: Visitor) -> None:
    before = int(time.time())
    status, data = visitor.sign_up("Ada")
    assert status == 200 and data["ok"] is True
    session = visitor.client.session
    assert before <= session[lifetime.SIGNED_IN_AT] <= int(time.time())
    assert session[lifetime.SEEN_AT] == session[lifetime.SIGNED_IN_AT]
    visitor.sign_out()
    aged(visitor, signed_in=10**6)  # what an old sign-in left behind is no sign-in once signed out
    before = int(time.time())
    status, data = visitor.sign_in()
    assert status == 200 and data["ok"] is True
    assert visitor.client.session[lifetime.SIGNED_IN_AT] >= before


def test_a_sign_in_unused_for_longer_than_the_idle_time_ends(ada: Visitor) -> None:
    aged(ada, seen=settings.HALL_IDLE_SECONDS - 30)
    assert ada.client.get("/hall/letters").status_code == 200  # still within it
    aged(ada, seen=settings.HALL_IDLE_SECONDS + 1)
    r = ada.client.get("/hall/letters")
    assert r.status_code == 302 and r["Location"] == "/hall/?next=/hall/letters"
    assert ada.account is None
    assert lifetime.ENDED_IDLE in ada.page("/hall/")
    # A decision's POST from that browser is refused as from anyone signed out.
    assert ada.client.post("/hall/signout").status_code == 302
    r = ada.client.post("/hall/invites/make")
    assert r.status_code == 403 and SIGNED_OUT in r.content.decode()


def test_a_sign_in_ends_after_its_whole_time_however_busy(ada: Visitor) -> None:
    aged(ada, signed_in=settings.HALL_SIGN_IN_SECONDS - 30, seen=0)
    assert ada.client.get("/hall/letters").status_code == 200
    aged(ada, signed_in=settings.HALL_SIGN_IN_SECONDS + 1, seen=0)
    assert ada.client.get("/hall/letters").status_code == 302 and ada.account is None
    assert lifetime.ENDED_LONG in ada.page("/hall/")


def test_using_the_hall_keeps_it_and_writes_the_time_at_most_once_a_minute(ada: Visitor) -> None:
    aged(ada, seen=lifetime.SEEN_EVERY - 20)
    was = ada.client.session[lifetime.SEEN_AT]
    assert ada.client.get("/hall/letters").status_code == 200
    assert ada.client.session[lifetime.SEEN_AT] == was  # not written again within the minute
    aged(ada, seen=settings.HALL_IDLE_SECONDS - 30)
    assert ada.client.get("/hall/letters").status_code == 200
    assert ada.client.session[lifetime.SEEN_AT] >= int(time.time()) - 2
    assert ada.account is not None


def test_the_live_queues_own_redraw_is_not_use(ada: Visitor) -> None:
    """An open "Waiting for you" tab redraws its queue by itself (static/hall/live.js) whenever an agent
    adds to it; left open on a shared computer, it must not keep the sign-in for 7 days."""
    aged(ada, seen=settings.HALL_IDLE_SECONDS - 30)
    was = ada.client.session[lifetime.SEEN_AT]
    assert ada.client.get("/hall/", headers={lifetime.UNATTENDED: "1"}).status_code == 200
    assert ada.client.session[lifetime.SEEN_AT] == was
    aged(ada, seen=settings.HALL_IDLE_SECONDS + 1)
    r = ada.client.get("/hall/", headers={lifetime.UNATTENDED: "1"})
    # No page drawn, so the sentence why waits for the front door the script reloads to.
    assert r.status_code == 401 and r.content.decode() == lifetime.ENDED_IDLE and ada.account is None
    assert lifetime.ENDED_IDLE in ada.page("/hall/")


def test_a_sign_in_kept_before_these_times_were_kept_ends(ada: Visitor) -> None:
    session = ada.client.session
    del session[lifetime.SIGNED_IN_AT]
    session.save()
    assert ada.client.get("/hall/letters").status_code == 302 and ada.account is None


def test_the_cookie_lasts_no_longer_than_a_sign_in(ada: Visitor) -> None:
    cookie = ada.client.cookies[settings.SESSION_COOKIE_NAME]
    assert int(cookie["max-age"]) == settings.HALL_SIGN_IN_SECONDS == settings.SESSION_COOKIE_AGE
    assert settings.HALL_IDLE_SECONDS == 12 * 3600 and settings.HALL_SIGN_IN_SECONDS == 7 * 24 * 3600
