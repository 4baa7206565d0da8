"""The town's ASGI application: /mcp goes to the face, the websocket /hall/live to the hall's live
queue (hall/live.py), /town/live to the public map's (clockford/public/live.py), everything else to
Django.

Django's ASGIHandler refuses lifespan scopes, so the lifespan is handled here: it starts the SDK's
manager (once per process), the Archive's folding loop, the work made ahead (`ahead_loop`) and the sweep.
"""

import asyncio
import contextlib
import logging
import os
import threading
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clockford.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.db import connections  # noqa: E402
from django.utils.module_loading import import_string  # noqa: E402

from clockford import nul, plain  # noqa: E402
from clockford.face.answers import WRONG_HOST, Answer  # noqa: E402
from clockford.face.answers import plain as plain_answer  # noqa: E402
from clockford.face.checks import host_ok  # noqa: E402
from clockford.face.deadline import BodyDeadline  # noqa: E402
from clockford.face.http import Face, build_manager  # noqa: E402
from clockford.face.proxy import through  # noqa: E402
from clockford.face.server import on_desk_thread  # noqa: E402
from clockford.metrics import counting  # noqa: E402
from clockford.public import live as public_live  # noqa: E402
from clockford.serve import end_with_parent  # noqa: E402
from clockford.town import archive, desk, sweep  # noqa: E402
from clockford.wire import security_headers  # noqa: E402
from hall import cors, live, push  # noqa: E402

log = logging.getLogger(__name__)

django_app = get_asgi_application()
manager = build_manager()
face = Face(manager)


async def each_turn(work: Any, failed: str, failing: set[str], unsaid: type[Exception] | None = None) -> None:
    """One turn of a loop's work on a desk thread. Work that fails is tried again on the next turn
    (calls go on meanwhile), and said once when it starts failing, with its traceback, not at every
    turn of an outage (the database gone a while); `failing` is the loop's own. An `unsaid` failure
    is said elsewhere, and passes silently."""
    try:
        await on_desk_thread(work)
    except Exception as error:
        if unsaid is not None and isinstance(error, unsaid):
            return
        if failed not in failing:
            log.exception("%s; trying again at every turn, and saying so once", failed)
        failing.add(failed)
    else:
        failing.discard(failed)


async def fold_loop() -> None:
    """Fold settled footsteps into the Archive's tree now and then, apart from any call."""
    failing: set[str] = set()
    while True:
        await asyncio.sleep(settings.CLOCKFORD["FOLD_SECONDS"])
        # Behind is said once at start, and the town is closed until a person looks.
        await each_turn(archive.fold_all, "the Archive could not fold", failing, unsaid=archive.Behind)
        # This worker's call counts (clockford/metrics/counting.py), even when no call comes to write them.
        await each_turn(counting.flush, "could not write the call counts", failing)


async def ahead_loop(every: float) -> None:
    """What the calls will need, made ahead on a desk thread (CLOCKFORD_AHEAD: the census's index once a
    seal): as the worker starts, then every `every` seconds. Each piece that fails is tried again on the
    next turn; the calls that need it make it themselves meanwhile, as they always could."""
    pieces = [import_string(name) for name in settings.CLOCKFORD_AHEAD]
    failing: set[str] = set()
    while True:
        for piece in pieces:
            await each_turn(piece, f"could not make {piece.__qualname__} ahead", failing)
        await asyncio.sleep(every)


async def sweep_loop(every: float) -> None:
    """Tidy storage now and then (clockford/town/sweep.py): a sweep decides nothing, so one that fails
    is simply tried again on the next turn."""
    failing: set[str] = set()
    while True:
        await asyncio.sleep(every)
        await each_turn(sweep.run, "the sweep could not tidy", failing)


def check_at_start() -> None:
    """desk.close_if_behind, as the server loads the town, before it answers anything (servers without
    lifespan support, daphne among them, start the loops only on the first /mcp request). On a thread of
    its own, waited for: uvicorn imports the app inside its running event loop, where Django refuses a
    query, and the check never ran there. A database that cannot be read now is the face's to answer
    busy or closed when calls come; this check only must not stop the load."""

    def check() -> None:
        try:
            desk.close_if_behind()
        except Exception:
            log.exception("could not compare the Archive with its head at start")
        finally:
            connections.close_all()  # this thread's, which ends here

    thread = threading.Thread(target=check, name="clockford-head-check")
    thread.start()
    thread.join()


check_at_start()
# A worker of several (uvicorn's --workers) stops once `./town up` is gone, even killed with SIGKILL.
end_with_parent()


# The headers every page gets from the settings' middleware (X-Frame-Options, the CSP, nosniff), for the
# answers given without Django: a Host the town does not answer to, a body too slow to arrive
# (clockford/face/deadline.py), and every answer of /mcp (JSON and event streams, which the face and the
# SDK send). Without them another site could frame these answers, and a browser sniff them, as it may no
# page of the town. uvicorn's own answers get them from clockford/wire.py.
SECURITY_HEADERS = security_headers()


def declared_length(scope: dict[str, Any]) -> int:
    """What the request's Content-Length says (0 when it says nothing readable: uvicorn has refused a
    request whose Content-Length is not a number, and a chunked body is counted as it comes)."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            return plain.size(value.decode("latin-1")) or 0
    return 0


def with_security_headers(send: Any) -> Any:
    """`send`, adding each of SECURITY_HEADERS an answer's start does not carry (Django's own carry them)."""

    async def sending(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            has = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(name, value) for name, value in SECURITY_HEADERS if name not in has]
            if extra:
                message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return sending


# A websocket asked for at a path that has none, in the words of every other path the town does not serve.
NO_SOCKET = plain_answer(404, "Not found.")


async def refuse_socket(scope: dict[str, Any], receive: Any, send: Any, answer: Answer, code: int) -> None:
    """A websocket handshake refused with the town's own HTTP answer, its words and security headers,
    where the server can send one (ASGI's websocket.http.response, which uvicorn takes); elsewhere
    closed with `code`, which the server answers with a bare 403."""
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": code})
        return
    await receive()  # the websocket.connect the server hands over first
    headers = [*answer.headers, *SECURITY_HEADERS]
    await send({"type": "websocket.http.response.start", "status": answer.status, "headers": headers})
    await send({"type": "websocket.http.response.body", "body": answer.body})


class Town:
    def __init__(self) -> None:
        self.stack: contextlib.AsyncExitStack | None = None
        self.folder: asyncio.Task[None] | None = None
        self.ahead: asyncio.Task[None] | None = None
        self.sweeper: asyncio.Task[None] | None = None
        self.pusher: asyncio.Task[None] | None = None
        self.starting: asyncio.Future[None] | None = None  # done once started; None again after a failure

    @property
    def started(self) -> bool:
        return self.starting is not None and self.starting.done()

    async def start(self) -> None:
        """Once per process, from the lifespan's startup or the first /mcp request. Requests that come
        while it starts wait for it: the SDK's manager refuses a request before its task group runs,
        and a first request that starts it may yield before then (daphne, which has no lifespan,
        answered three of twelve initializes at once 500)."""
        if self.started:
            return
        if self.starting is not None:
            await asyncio.shield(self.starting)
            return
        starting = self.starting = asyncio.get_running_loop().create_future()
        try:
            await self._start()
        except BaseException as exc:
            starting.set_exception(exc)  # the requests waiting for it fail with it
            starting.exception()  # and it is said here, not again as never retrieved
            self.starting = None  # the next request tries again
            raise
        starting.set_result(None)

    async def _start(self) -> None:
        self.stack = contextlib.AsyncExitStack()
        await self.stack.enter_async_context(manager.run())
        self.folder = asyncio.create_task(fold_loop())
        self.ahead = asyncio.create_task(ahead_loop(settings.CLOCKFORD["FOLD_SECONDS"]))
        # Web Push (hall/push.py): notifications of what waits, sent after the calls' transactions.
        self.pusher = asyncio.create_task(push.loop())
        # 0 when the sweep runs as its own service (manage.py sweep --every).
        if settings.CLOCKFORD_SWEEP_SECONDS > 0:
            self.sweeper = asyncio.create_task(sweep_loop(settings.CLOCKFORD_SWEEP_SECONDS))

    async def stop(self) -> None:
        if self.folder:
            self.folder.cancel()
        if self.ahead:
            self.ahead.cancel()
        if self.sweeper:
            self.sweeper.cancel()
        if self.pusher:
            self.pusher.cancel()
        if self.stack:
            await self.stack.aclose()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # Behind a trusted proxy, the visitor's own address and scheme (clockford/face/proxy.py).
        scope = dict(through(scope))
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    try:
                        await self.start()
                    except Exception as exc:
                        await send({"type": "lifespan.startup.failed", "message": str(exc)})
                        return
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await self.stop()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] == "http":
            send = with_security_headers(send)
        if scope["type"] in ("http", "websocket"):
            # Every Host header, joined as Django joins them: two (one the town's, one not) are no name
            # of the town's, where the first alone passed and Django then refused the pair with a traceback.
            host = ", ".join(v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host")
            if not host_ok(host):
                # Every path answers only to the town's own names (a defence against DNS rebinding).
                if scope["type"] == "http":
                    await WRONG_HOST.send(send)
                else:
                    await refuse_socket(scope, receive, send, WRONG_HOST, 4403)
                return
        if scope["type"] == "websocket":
            # Two websockets: the hall's live queue, and the public map's (read-only, no sign-in);
            # Django itself speaks only HTTP.
            if scope["path"] == live.PATH:
                await live.application(scope, receive, send)
            elif scope["path"] == public_live.PATH:
                await public_live.application(scope, receive, send)
            else:
                await refuse_socket(scope, receive, send, NO_SOCKET, 4404)
            return
        to_face = scope["type"] == "http" and scope["path"].rstrip("/") == "/mcp"
        if scope["type"] == "http" and scope["path"] in cors.OPEN:
            # The authorization server's addresses a page of any origin calls: CORS on every answer,
            # here once, whichever part of the town answers (hall/cors.py). A Host refused above gets none.
            send = cors.opening(send)
        if scope["type"] == "http":
            # Every request's body, on every path, has CLOCKFORD_BODY_SECONDS to arrive, or is answered
            # 408 (clockford/face/deadline.py): a hall page's POST or /oauth's as much as /mcp's. Django's
            # is also refused once it is longer than Django would read (the face has its own, smaller
            # limit, MAX_BODY_BYTES), before Django writes the rest to disk.
            most = None if to_face else settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            timed = BodyDeadline(receive, send, most, nul.too_big(scope["path"]), declared_length(scope))
            receive, send = timed.receive, timed.send
        if to_face:
            # A server without lifespan support (some test servers) still gets a working face.
            await self.start()
            await face(scope, receive, send)
            return
        await django_app(scope, receive, send)


application = Town()
