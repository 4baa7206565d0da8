"""The hall's live queue (hall/live.py) through the town's real ASGI application: a signed-in
person's socket hears the first stamp at once and a new one within a poll of something new waiting
for them (a hold, a letter, a plan); anyone not signed in, a page of another origin, another host and
another path are refused; a socket whose session ends is closed.

The socket's watch reads on threads of its own, so what it should see is committed first: these
tests run with transaction=True. tests/browser/test_hall_live.py shows the same over a real held
call made through /mcp."""

import time
from collections.abc import AsyncIterator
from datetime import timedelta
from importlib import import_module
from typing import Any
from urllib.parse import urlsplit

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections, transaction
from django.test import Client

from clockford.asgi import application
from clockford.credentials import secret_digest as digest
from clockford.town import clock, plans
from clockford.town.holds import call_digest, words_digest
from clockford.town.models import Hold, Passport, new_id
from districts.post_office import services as post_office
from districts.post_office.models import Letter
from districts.testing import new_passport
from hall import lifetime, live
from hall.models import Account, BrowserSession

pytestmark = pytest.mark.django_db(transaction=True)

HOST = urlsplit(settings.HALL_URL).netloc
ORIGIN = settings.HALL_URL
# A new item is seen on the next poll: within POLL_SECONDS, plus the look itself and a busy machine.
SOON = live.POLL_SECONDS + 4


@pytest.fixture(autouse=True)
def quick_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket polls four times a second here: what is tested is that a poll hears what is new, not
    how long the town waits between polls (the browser test keeps the town's own interval)."""
    monkeypatch.setattr(live, "POLL_SECONDS", 0.25)


@pytest.fixture(autouse=True)
async def close_connections() -> AsyncIterator[None]:
    """The connection of the thread that served the sockets is closed when the test ends, so that
    the test database can be dropped (PostgreSQL refuses while any connection is open)."""
    yield
    await database_sync_to_async(connections.close_all)()


@pytest.fixture
def owner() -> Account:
    return Account.objects.create_account("Ada", is_owner=True)


@pytest.fixture
def bea() -> Account:
    return Account.objects.create_account("Bea")


def session_cookie(account: Account) -> str:
    """Sign the account in as the hall does and hand back its session cookie."""
    client = Client(HTTP_HOST=HOST)
    client.force_login(account, backend="hall.backends.PasskeyBackend")
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def socket(
    cookie: str | None = None, origin: str | None = ORIGIN, host: str = HOST, path: str = live.PATH
) -> WebsocketCommunicator:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if cookie is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def opened(cookie: str) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    ws = socket(cookie)
    connected, _ = await ws.connect(timeout=10)
    assert connected
    first = await ws.receive_json_from(timeout=10)
    return ws, first


def hold_for(passport: Passport) -> Hold:
    """A held post_notice, written as the desk's gate writes one."""
    arguments = {"text": "Looking for a Postgres MCP server with read-only roles."}
    now = clock.now()
    return Hold.objects.create(
        id=new_id("H-"),
        passport=passport,
        account_id=passport.account_id,
        tool="post_notice",
        why="publish",
        call_digest=call_digest("post_notice", arguments),
        arguments=arguments,
        words_digest=words_digest("post_notice", arguments),
        created_at=now,
        waits_until=now + timedelta(hours=24),
    )


def send_letter(passport: Passport) -> Letter:
    with transaction.atomic():  # as the desk runs every call
        return post_office.do_send_letter(passport, "The census", "The census is in; three servers are new.", [], None)


async def test_the_owner_hears_a_new_hold_within_a_poll(owner: Account) -> None:
    cookie = await sync_to_async(session_cookie)(owner)
    passport = await database_sync_to_async(new_passport)()
    ws, first = await opened(cookie)
    assert first["waiting"] == 0
    assert isinstance(first["stamp"], str) and first["stamp"]

    hold = await database_sync_to_async(hold_for)(passport)
    made = time.monotonic()
    second = await ws.receive_json_from(timeout=SOON)
    took = time.monotonic() - made
    assert second["waiting"] == 1
    assert second["stamp"] != first["stamp"]
    assert took <= live.POLL_SECONDS + 1, took

    # Nothing new, nothing said: the socket speaks only when the stamp changes.
    assert await ws.receive_nothing(timeout=live.POLL_SECONDS + 0.5)

    # Decided in the hall (on another device, say): it no longer waits, and the page hears so.
    await database_sync_to_async(Hold.objects.filter(pk=hold.pk).update)(status="refused")
    third = await ws.receive_json_from(timeout=SOON)
    assert third["waiting"] == 0
    assert third["stamp"] != second["stamp"]
    assert third["stamp"] == first["stamp"]  # the same set of waiting things, the same stamp
    await ws.disconnect()


async def test_a_letter_and_a_plan_are_heard(owner: Account) -> None:
    # The districts' own services write them, as send_letter and declare_plan do. (Not through the
    # desk: a call's footstep is append-only, and a test that commits must be able to flush.)
    cookie = await sync_to_async(session_cookie)(owner)
    passport = await database_sync_to_async(new_passport)()
    ws, first = await opened(cookie)
    assert first["waiting"] == 0

    letter = await database_sync_to_async(send_letter)(passport)
    assert letter.status == "held"
    assert (await ws.receive_json_from(timeout=SOON))["waiting"] == 1

    plan = await database_sync_to_async(plans.do_declare)(passport, [{"tool": "remember", "times": 2}], 4)
    assert plan.status == "waiting"
    assert (await ws.receive_json_from(timeout=SOON))["waiting"] == 2
    await ws.disconnect()


async def test_another_persons_socket_hears_nothing_of_the_owners_queue(owner: Account, bea: Account) -> None:
    cookie = await sync_to_async(session_cookie)(bea)
    passport = await database_sync_to_async(new_passport)()  # no account: the owner decides for it
    ws, first = await opened(cookie)
    assert first["waiting"] == 0
    await database_sync_to_async(hold_for)(passport)
    assert await ws.receive_nothing(timeout=live.POLL_SECONDS + 1)
    await ws.disconnect()


async def closed_unheard(ws: WebsocketCommunicator) -> None:
    """The socket is taken and closed at once with NOT_SIGNED_IN, nothing said before (hall/live.py)."""
    assert await ws.connect(timeout=10) == (True, None)
    assert await ws.receive_output(timeout=10) == {"type": "websocket.close", "code": live.NOT_SIGNED_IN}


async def test_a_socket_without_a_signed_in_person_hears_nothing_and_is_closed(owner: Account) -> None:
    for cookie in (None, "not-a-session-of-this-town"):
        await closed_unheard(socket(cookie))


@pytest.mark.parametrize(
    "origin",
    [
        None,  # no Origin at all
        "null",  # a sandboxed frame or a file
        "http://evil.example",
        "https://" + HOST,  # the right host by the wrong scheme
        "http://127.0.0.1:" + str(urlsplit(ORIGIN).port),  # a loopback name the town answers, not the hall's
        ORIGIN + ".evil.example",
        ORIGIN + "0",  # another port
    ],
)
async def test_a_socket_from_another_origin_is_refused_even_signed_in(owner: Account, origin: str | None) -> None:
    cookie = await sync_to_async(session_cookie)(owner)
    ws = socket(cookie, origin=origin)
    assert await ws.connect(timeout=10) == (False, live.WRONG_ORIGIN)


async def test_the_hall_origin_is_matched_without_regard_to_case(owner: Account) -> None:
    cookie = await sync_to_async(session_cookie)(owner)
    ws = socket(cookie, origin=ORIGIN.upper().replace("HTTP://", "http://"))
    connected, _ = await ws.connect(timeout=10)
    assert connected
    await ws.disconnect()


async def test_another_host_and_another_path_are_refused(owner: Account) -> None:
    cookie = await sync_to_async(session_cookie)(owner)
    assert await socket(cookie, host="evil.example").connect(timeout=10) == (False, 4403)
    assert await socket(cookie, path="/hall/elsewhere").connect(timeout=10) == (False, 4404)


async def test_a_socket_is_closed_once_its_person_signs_out(owner: Account) -> None:
    cookie = await sync_to_async(session_cookie)(owner)
    ws, _ = await opened(cookie)
    # Signing out (here or on another device with the same session) deletes the session.
    await database_sync_to_async(BrowserSession.objects.filter(session_key=digest(cookie)).delete)()
    closed = await ws.receive_output(timeout=SOON)
    assert closed == {"type": "websocket.close", "code": live.NOT_SIGNED_IN}


def age(cookie: str, key: str, seconds: int) -> None:
    """Move one of the sign-in's times (hall/lifetime.py) `seconds` back, as the hall keeps it."""
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=cookie)
    store[key] = int(time.time()) - seconds
    store.save()


@pytest.mark.parametrize(
    ("key", "seconds"),
    [(lifetime.SEEN_AT, settings.HALL_IDLE_SECONDS + 1), (lifetime.SIGNED_IN_AT, settings.HALL_SIGN_IN_SECONDS + 1)],
)
async def test_a_sign_in_past_its_time_gets_no_socket_and_an_open_one_is_closed(
    owner: Account, key: str, seconds: int
) -> None:
    cookie = await sync_to_async(session_cookie)(owner)
    ws, _ = await opened(cookie)
    await database_sync_to_async(age)(cookie, key, seconds)
    closed = await ws.receive_output(timeout=SOON)
    assert closed == {"type": "websocket.close", "code": live.NOT_SIGNED_IN}
    # Nor does the same cookie open a new one, though the session is still in the database.
    await closed_unheard(socket(cookie))


def test_origin_ok_takes_only_the_halls_exact_origin() -> None:
    assert live.origin_ok(ORIGIN)
    assert not live.origin_ok(ORIGIN + "/")  # an Origin never carries a path
    assert not live.origin_ok("")
    assert not live.origin_ok("ws://" + HOST)


def unusable_password_again(account: Account) -> None:
    """What removing a passkey does to the account (hall/passkey_changes.py): every other browser's
    session hash of it no longer matches."""
    account.set_unusable_password()
    account.save(update_fields=["password"])


async def test_a_socket_is_closed_once_a_passkey_removed_elsewhere_signs_its_browser_out(owner: Account) -> None:
    """Removing a passkey signs every other browser out (their session's hash of the account no longer
    matches), but a socket opened before went on telling that browser (a lost phone) what waited, for as
    long as its sign-in would have lasted: Django checks the hash only when a request reads the user."""
    cookie = await sync_to_async(session_cookie)(owner)
    ws, _ = await opened(cookie)
    await database_sync_to_async(unusable_password_again)(owner)
    closed = await ws.receive_output(timeout=SOON)
    assert closed == {"type": "websocket.close", "code": live.NOT_SIGNED_IN}
    await closed_unheard(socket(cookie))
