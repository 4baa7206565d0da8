"""The public map, live: a websocket at /town/live that says when the map changed, so an open map page
fetches its fresh town (views.town_now) without a reload.

Read-only and public: no sign-in, no cookie read, nothing sent but a stamp (services.stamp), and
whatever a page sends is ignored. Any origin may listen, since everything it can learn is on the map
for anyone to read.

Cost does not grow with the number of pages open. One watcher per process asks the database every
POLL_SECONDS for a cheap key (the Archive's newest footstep number, the walls standing and the minute);
only when that moved does it compute the map's stamp, and only when the stamp moved does it tell the
sockets, all of them at once. A private call writes a footstep, so the key moves, but the stamp does
not: nothing is sent, and nothing on the page changes.
"""

import asyncio
import json
import logging
from collections import Counter
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from clockford.public import services
from clockford.town import clock, limits

log = logging.getLogger(__name__)

PATH = "/town/live"
POLL_SECONDS = 0.5
SOCKETS_MAX = 2000  # per process; past it a new socket is refused and the page still works
# Per visitor's address (behind a trusted proxy, the address it forwards for: clockford/face/proxy.py),
# per process: without it one visitor could take all SOCKETS_MAX and leave every other map unlive. A
# household or an office behind one address opens a few maps, not dozens.
SOCKETS_PER_VISITOR = 32
# Closed before it is accepted, a socket is refused at its handshake (uvicorn and daphne answer 403):
# this code is what Channels is given, and no client sees it. Accepted first and closed with it, the
# client would see 1013, but daphne's WebSocket library takes only 1000 and 3000 to 4999 and logs
# every other code as an error.
TRY_AGAIN_LATER = 1013
TROUBLE = 1011


def look(last_key: Any) -> tuple[Any, str | None]:
    """One turn of the watcher: (the cheap key, the stamp when the key moved, else None)."""
    now = clock.now()
    key = services.cheap_key(now)
    if key == last_key:
        return key, None
    return key, services.stamp(now)


class Watcher:
    """The one watch of this process, shared by every open socket."""

    def __init__(self) -> None:
        self.sockets: set[asyncio.Queue[str]] = set()
        self.by_visitor: Counter[str] = Counter()
        self.stamp: str | None = None
        self.task: asyncio.Task[None] | None = None

    def join(self) -> asyncio.Queue[str]:
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        self.sockets.add(queue)
        if self.stamp is not None:
            queue.put_nowait(self.stamp)
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run())
        return queue

    def leave(self, queue: asyncio.Queue[str]) -> None:
        self.sockets.discard(queue)

    def tell(self, stamp: str) -> None:
        for queue in self.sockets:
            if queue.full():  # a page that has not taken the last stamp needs only the newest
                queue.get_nowait()
            queue.put_nowait(stamp)

    async def run(self) -> None:
        look_async = database_sync_to_async(look)
        key: Any = None
        try:
            while self.sockets:
                try:
                    key, stamp = await look_async(key)
                except Exception:  # the database went away, say: look again on the next turn
                    log.exception("the public map's watcher could not look")
                    key, stamp = None, None
                if stamp is not None and stamp != self.stamp:
                    self.stamp = stamp
                    self.tell(stamp)
                await asyncio.sleep(POLL_SECONDS)
        finally:
            self.stamp = None  # nobody watches: the next socket starts afresh


watcher = Watcher()


class PublicLive(AsyncWebsocketConsumer):
    """Sends {"stamp": "..."} on connect and whenever the map's stamp changes."""

    queue: asyncio.Queue[str] | None = None
    forward: asyncio.Task[None] | None = None
    visitor: str | None = None

    async def connect(self) -> None:
        client = self.scope.get("client")
        # Counted as every limit per address counts it: an IPv6 address by its /64, which a host holds whole.
        visitor = limits.counted_as(str(client[0])) if client else "unknown"
        if len(watcher.sockets) >= SOCKETS_MAX or watcher.by_visitor[visitor] >= SOCKETS_PER_VISITOR:
            await self.close(code=TRY_AGAIN_LATER)
            return
        await self.accept()
        self.visitor = visitor
        watcher.by_visitor[visitor] += 1
        self.queue = watcher.join()
        self.forward = asyncio.create_task(self.keep_telling(self.queue))

    async def disconnect(self, code: int) -> None:
        if self.forward is not None:
            self.forward.cancel()
            self.forward = None
        if self.queue is not None:
            watcher.leave(self.queue)
            self.queue = None
        if self.visitor is not None:
            watcher.by_visitor[self.visitor] -= 1
            if watcher.by_visitor[self.visitor] <= 0:
                del watcher.by_visitor[self.visitor]
            self.visitor = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page has nothing to say; whatever it sends is ignored."""

    async def keep_telling(self, queue: asyncio.Queue[str]) -> None:
        try:
            while True:
                stamp = await queue.get()
                await self.send(text_data=json.dumps({"stamp": stamp}))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the public map's socket stopped")
            await self.close(code=TROUBLE)


application = PublicLive.as_asgi()
