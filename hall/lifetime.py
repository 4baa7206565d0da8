"""How long a sign-in to the hall lasts: it ends after a while unused (CLOCKFORD_HALL_IDLE_SECONDS,
12 hours), and in any case a while after the passkey signed the person in (CLOCKFORD_HALL_SIGN_IN_SECONDS,
7 days); then the person signs in again with their passkey (ASVS 5.0 V7.3: an inactivity timeout and an
absolute lifetime).

A sign-in is only a way in: every decision asks for a fresh passkey assertion all the same. But a
signed-in browser can read letters and what waits, open exchanges and invite people, so a cookie left on
a shared or lost device must not stay good for ever. Django's own session age is neither bound: it
starts again whenever the session changes (a passkey ceremony, a message), and never for being unused.

The two times are kept in the session itself: when the person signed in (set as they sign in, on
Django's user_logged_in signal) and when the hall last saw them (written at most once a minute, so a
page's requests do not each write the session; and not by what a page's script asks for on its own).
The last-seen time is written into the stored session alone (hall/sessions.py), not by saving the
request's copy of the whole, which would undo what another tab's request stored meanwhile."""

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY, logout
from django.contrib.auth.signals import user_logged_in
from django.contrib.sessions.backends.base import SessionBase
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.cache import add_never_cache_headers

from hall import sessions
from hall.models import Account

SIGNED_IN_AT = "hall_signed_in_at"
SEEN_AT = "hall_seen_at"
# How stale the last-seen time may get before a request writes it again, in seconds.
SEEN_EVERY = 60
ENDED_IDLE = "You were away from the hall for a while, so you are signed out. Sign in again with your passkey."
# The header a page's script sends with a request it makes by itself, without the person (the live
# queue's redraw, static/hall/live.js): such a request is not use. Without it, a "Waiting for you" tab
# left open on a shared computer would keep its sign-in for the whole 7 days while an agent kept working.
UNATTENDED = "X-Hall-Unattended"
SIGNED_OUT_ELSEWHERE = (
    "A passkey of your account was removed in another browser, so this browser was signed out. Sign in again "
    "with a passkey you still have."
)
ENDED_LONG = "Your sign-in has lasted as long as a sign-in lasts here. Sign in again with your passkey."


def _now() -> int:
    # The machine's time, not the town's clock (clockford/town/clock.py), which tests move on by days
    # to lapse holds and plans while their person stays signed in.
    return int(time.time())


@receiver(user_logged_in)
def _signed_in(sender: object, request: HttpRequest | None, **kwargs: object) -> None:
    if request is not None and hasattr(request, "session"):
        request.session[SIGNED_IN_AT] = request.session[SEEN_AT] = _now()
        # A session begun signed out was given a short life (hall/http.py ceremony); signed in, it lasts
        # as a sign-in does.
        request.session.set_expiry(None)


def ended(session: SessionBase, now: int) -> str | None:
    """Why a signed-in session has ended (the sentence the person is told), or None while it lasts. A
    session signed in before these times were kept has neither, and is ended as too old."""
    signed_in, seen = session.get(SIGNED_IN_AT), session.get(SEEN_AT)
    if not isinstance(signed_in, int) or now - signed_in > settings.HALL_SIGN_IN_SECONDS:
        return ENDED_LONG
    if not isinstance(seen, int) or now - seen > settings.HALL_IDLE_SECONDS:
        return ENDED_IDLE
    return None


def _signed_out_elsewhere(account_id: str) -> bool:
    """Whether a session that named `account_id` and no longer signs it in was signed out by its hash of
    the account changing, which removing a passkey does (hall/passkey_changes.py): the account is still
    there and may sign in. A session flushed for another reason (an account closed) says nothing here."""
    try:
        return Account.objects.filter(pk=account_id, is_active=True).exists()
    except (ValueError, TypeError):
        return False


def lasting(get_response: Callable[[HttpRequest], HttpResponseBase]) -> Callable[[HttpRequest], HttpResponseBase]:
    """Middleware, after authentication and messages: a sign-in past its time is signed out before any
    view reads it, and the person is told why on the page they land on. And whatever a signed-in person
    is answered, unless it says itself how to be cached, is cached nowhere (`unstored`)."""

    def middleware(request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        # Read before the user is: Django flushes a session whose hash of the account no longer matches.
        named = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
        if user is not None and not user.is_authenticated and named is not None and _signed_out_elsewhere(str(named)):
            messages.info(request, SIGNED_OUT_ELSEWHERE)
            if UNATTENDED in request.headers:
                return HttpResponse(SIGNED_OUT_ELSEWHERE, status=401, content_type="text/plain; charset=utf-8")
        elif user is not None and user.is_authenticated:
            now = _now()
            why = ended(request.session, now)
            if why is not None:
                logout(request)
                messages.info(request, why)
                if UNATTENDED in request.headers:
                    # Drawn for nobody, the front door would spend the sentence why. This answer draws
                    # no page, so the sentence waits; the script reloads its tab, which shows the front
                    # door with it, and no longer the queue of a person who is not there.
                    return HttpResponse(why, status=401, content_type="text/plain; charset=utf-8")
            elif now - request.session.get(SEEN_AT, now) >= SEEN_EVERY and UNATTENDED not in request.headers:
                # Into the stored session alone: saving this request's whole copy for it would undo what
                # another request of the session (another tab) stored meanwhile.
                sessions.change(request.session, SEEN_AT, lambda seen: max(now, seen) if isinstance(seen, int) else now)
        return unstored(request, get_response(request))

    return middleware


def unstored(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """A signed-in person's answer is theirs (their holds, letters, an invite link shown once; and every
    hall page, the 404 page and a refused form's page among them, shows their name and account number):
    kept by no shared cache, and not in the browser's once they have left it. Here rather than around the
    hall's views, since Django draws those two pages itself, past any view. An answer that says how to be
    cached (the hall's scripts and styles, the public feed) is the same for everyone, and keeps its own.
    The user was read above, before the view: asking again costs nothing."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and not response.has_header("Cache-Control"):
        add_never_cache_headers(response)
    return response
