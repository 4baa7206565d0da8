"""A request's body has CLOCKFORD_BODY_SECONDS to arrive, on every HTTP path: /mcp, the hall's pages,
/oauth, everything Django serves.

Under `./town up` nothing stands in front of uvicorn, which hands the town a body as it comes and
sets no limit of its own on how long that takes: a request that sent its headers and then a body it
never finished held its connection, and its task, for ever. The ASGI wrapper (clockford/asgi.py) reads
every request's body through a BodyDeadline. Once the town starts reading a body, the body has
BODY_SECONDS to be whole. If it is not whole by then, the request is answered 408 (answers.TOO_SLOW,
with Connection: close, since the rest of that body may still be on its way), and the application
reading it is told the client has gone (http.disconnect): Django drops the request unanswered, the
face answers nothing more (checks.whole_body), and whatever either sends after that is dropped here.

A body may also be given a size (`most`, in bytes): Django reads a request's whole body before it
routes it, into a file on disk past 2.5 MB, whatever its length, and only then refuses one past
DATA_UPLOAD_MAX_MEMORY_SIZE; so one request could write gigabytes to the disk within its seconds. A
body that says it is longer than `most` (Content-Length) is answered `too_large` at its first read,
and one that grows past it (sent in chunks) as soon as it has; the application is told the client has
gone, as above, and the rest of the body is never read.
"""

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings

from clockford.face import answers

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

GONE: Message = {"type": "http.disconnect"}


class BodyDeadline:
    """One request's receive and send, with its body's deadline."""

    __slots__ = (
        "answered",
        "declared",
        "inner_receive",
        "inner_send",
        "late",
        "left",
        "started",
        "too_large",
        "until",
        "whole",
    )

    def __init__(
        self,
        receive: Receive,
        send: Send,
        most: int | None = None,
        too_large: answers.Answer | None = None,
        declared: int = 0,
    ) -> None:
        self.inner_receive = receive
        self.inner_send = send
        # The bytes of body still allowed (None: any number), what to answer past them, and the length
        # the request's Content-Length says.
        self.left = most
        self.too_large = too_large or answers.TOO_LARGE
        self.declared = declared
        self.until: float | None = None  # the deadline, set at the first read of the body
        self.whole = False  # the body has ended, or the client has gone: no deadline any more
        self.started = False  # the application has begun its answer
        self.late = False  # the deadline has passed: to the application, the client has gone
        self.answered = False  # and the 408 was sent, which is the request's answer

    async def receive(self) -> Message:
        if self.whole:
            return await self.inner_receive()
        if self.late:
            return dict(GONE)
        if self.until is None:
            self.until = asyncio.get_running_loop().time() + settings.CLOCKFORD["BODY_SECONDS"]
            if self.left is not None and self.declared > self.left:
                return await self.refuse(self.too_large)
        try:
            async with asyncio.timeout_at(self.until):
                message = await self.inner_receive()
        except TimeoutError:
            return await self.refuse(answers.TOO_SLOW)
        if self.left is not None and message.get("type") == "http.request":
            self.left -= len(message.get("body", b""))
            if self.left < 0:
                return await self.refuse(self.too_large)
        if message.get("type") != "http.request" or not message.get("more_body"):
            self.whole = True
        return message

    async def refuse(self, answer: answers.Answer) -> Message:
        """Answer `answer` (unless an answer has begun, which cannot be replaced) in the application's
        stead, and tell it the client has gone."""
        self.late = True
        if not self.started:
            self.answered = True
            await answer.send(self.inner_send)
        return dict(GONE)

    async def send(self, message: Message) -> None:
        if self.answered:
            return
        if message.get("type") == "http.response.start":
            self.started = True
        await self.inner_send(message)
