"""Live updates of the hall's queue: a websocket at /hall/live that says when what waits for a person
has changed, so that an open "Waiting for you" page redraws its queue without a reload.

The town may be served by several processes at once (daphne workers, a stdio process) over one
database, so no process can learn of a new hold from memory or a channel layer: the database is the
only place every call leaves its mark. Each open socket therefore asks the database every
POLL_SECONDS for a cheap "stamp" of what waits for its person (how many of each kind in the queue's
one table of sources, hall/queue.py, and the newest of each) and says so only when the stamp changed.
The socket carries no words of any item: the page fetches the queue itself, as the person, to redraw.

Only a signed-in person of the hall, on a page of the hall's own origin, gets a socket: a browser
opens websockets across sites and sends the site's cookies with them, so the Origin check is what
keeps another site's page from listening in on a person's queue (cross-site websocket hijacking).
"""

import asyncio
import hashlib
import json
import logging
import time
from importlib import import_module
from typing import Any
from urllib.parse import urlsplit

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.db import connection
from django.db.models import F
from django.utils.crypto import constant_time_compare

from hall import lifetime
from hall.models import Account
from hall.queue import SOURCES, Source

log = logging.getLogger(__name__)

PATH = "/hall/live"
POLL_SECONDS = 2.0
# Close codes (4000-4999 are the application's own): the page stops for a wrong origin, which
# cannot mend itself, and tries again later for anything else.
NOT_SIGNED_IN = 4401
WRONG_ORIGIN = 4403
TROUBLE = 1011  # the standard "server met an unexpected condition"; the page reconnects


# -- What waits, as one stamp -------------------------------------------------------------------------


def _counted(source: Source, account: Account) -> tuple[str, list[Any]]:
    """One row for one kind of waiting item: how many, the newest time and the greatest id (as text:
    exchanges are numbered, the rest are lettered, and one UNION holds both).

    The rows are the queue's own query (source.waiting), compiled by Django, inside a plain count:
    asking Django to build the count itself (values, annotate, Cast) took ten times as long as the
    database took to answer it, on every hall page."""
    rows = source.waiting(account).order_by().values(waiting_id=F("pk"), waiting_at=F(source.at))
    sql, params = rows.query.sql_with_params()
    return (
        f"SELECT %s, COUNT(*), MAX(waiting_at), MAX(CAST(waiting_id AS text)) FROM ({sql}) w",  # noqa: S608 (Django's SQL)
        [source.kind, *params],
    )


def stamp_for(account: Account) -> tuple[int, str]:
    """(how many things wait for this person, a stamp that changes whenever the set of them does).

    One round trip: a count per source of the queue (hall/queue.py SOURCES) in one UNION ALL. A new
    item raises a count and the newest time; a decided or lapsed one lowers a count; so the stamp
    changes with either. The queries are the ones the queue page reads, so the socket and the page
    never disagree about what waits.
    """
    parts = [_counted(source, account) for source in SOURCES]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(sql for sql, _ in parts), [p for _, params in parts for p in params])
        seen = {kind: (n, newest, last) for kind, n, newest, last in cursor.fetchall()}
    stamped = []
    waiting = 0
    for source in SOURCES:
        n, newest, last = seen.get(source.kind, (0, None, None))
        waiting += n
        # str() of the newest time: SQLite hands MAX() of a datetime back as text, PostgreSQL as a
        # datetime; either is only compared with itself from the same database.
        stamped.append(f"{source.kind}:{n}:{newest}:{last}")
    stamp = hashlib.sha256("|".join(stamped).encode()).hexdigest()[:20]
    return waiting, stamp


def still_signed_in(session_key: str | None, account_id: int) -> bool:
    """Whether the session the socket opened with still signs this account in (not signed out,
    expired or flushed since, not past a sign-in's time, hall/lifetime.py, and not signed out by a
    passkey removed elsewhere)."""
    if not session_key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)
    # A socket passes no middleware, so lifetime.lasting never sees it: without asking here, a socket
    # opened with a sign-in past its time, or left open while it ran out, would go on saying what waits.
    # Asking changes nothing: the socket is not the person using the hall, so it keeps no sign-in alive.
    if str(store.get(SESSION_KEY, "")) != str(account_id) or lifetime.ended(store, int(time.time())) is not None:
        return False
    # Nor once the account's hash changed, as Django's own check on each request (removing a passkey signs
    # every other browser out, hall/passkey_changes.py): the socket was opened before, and a browser signed
    # in with the passkey removed (a lost phone) would go on hearing what waits.
    account = Account.objects.filter(pk=account_id, is_active=True).only("password").first()
    return account is not None and constant_time_compare(
        str(store.get(HASH_SESSION_KEY, "")), account.get_session_auth_hash()
    )


def look(account: Account, session_key: str | None) -> tuple[int, str] | None:
    """One turn of a socket's watch: None once the person is no longer signed in."""
    if not still_signed_in(session_key, account.pk):
        return None
    return stamp_for(account)


# -- The socket ------------------------------------------------------------------------------------------


class Live(AsyncWebsocketConsumer):
    """Sends {"waiting": N, "stamp": "..."} on connect and whenever the stamp changes."""

    account: Account
    session_key: str | None
    watch: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        session_key = self.scope["session"].session_key
        # Signed in, and not past the sign-in's time (hall/lifetime.py).
        if (
            isinstance(user, Account)
            and user.is_authenticated
            and user.is_active
            and await database_sync_to_async(still_signed_in)(session_key, user.pk)
        ):
            self.account = user
            self.session_key = session_key
            await self.accept()
            self.watch = asyncio.create_task(self.keep_watch())
            return
        # Otherwise taken, then closed at once with nothing said. A handshake refused reaches the page
        # as a bare failure (code 1006, and an error in the person's console) that it can only try
        # again, where 4401 tells it to ask the queue's page, which takes a signed-out tab to the front
        # door. And a socket asked for just as its person signed out (Sign out's form and the socket's
        # handshake crossing on the way) leaves no error behind.
        await self.accept()
        await self.close(code=NOT_SIGNED_IN)

    async def disconnect(self, code: int) -> None:
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page has nothing to say; whatever it sends is ignored."""

    async def keep_watch(self) -> None:
        # Every socket of this process looks on channels' one database thread, so all of them
        # together hold one connection; a look is two small queries, so they queue only briefly.
        look_async = database_sync_to_async(look)
        last: tuple[int, str] | None = None
        try:
            while True:
                seen = await look_async(self.account, self.session_key)
                if seen is None:
                    await self.close(code=NOT_SIGNED_IN)
                    return
                if seen != last:
                    waiting, stamp = seen
                    await self.send(text_data=json.dumps({"waiting": waiting, "stamp": stamp}))
                    last = seen
                await asyncio.sleep(POLL_SECONDS)
        except asyncio.CancelledError:
            raise
        except Exception:  # the database went away, say: the page reconnects and we start afresh
            log.exception("the hall's live queue stopped watching")
            await self.close(code=TROUBLE)


# -- Only the hall's own pages ----------------------------------------------------------------------------


def _origin(url: str) -> str:
    """scheme://host[:port], lower case, without the scheme's default port."""
    parts = urlsplit(url.strip().lower())
    default = {"http": 80, "https": 443}.get(parts.scheme)
    try:
        port = parts.port
    except ValueError:
        return ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None and port != default else "")


def origin_ok(origin: str) -> bool:
    """The page that opens the socket must be the hall's own: the exact origin of HALL_URL."""
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        return False  # absent, "null" (a sandboxed frame, a file), or not an origin at all
    hall = _origin(settings.HALL_URL)
    return bool(hall) and _origin(origin) == hall


class HallOrigin:
    """Refuses, before any cookie is read, a socket opened by a page of any other origin."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        origin = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"origin"), "")
        if not origin_ok(origin):
            await receive()  # the websocket.connect the server hands over first
            await send({"type": "websocket.close", "code": WRONG_ORIGIN})
            return
        await self.inner(scope, receive, send)


application = HallOrigin(AuthMiddlewareStack(Live.as_asgi()))
