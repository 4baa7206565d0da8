"""The same town over stdio, for desktop agents: one process, one session, one passport.

Run by `./town stdio`. Nothing but MCP may reach standard output, so logs go to standard error.
"""

import json
import os
from types import TracebackType
from typing import Any, Self

import anyio
import django
import mcp_types as types
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

UNREADABLE = "Parse error: the town cannot read this line as JSON ({why}). Nothing was done."
NOT_A_REQUEST = "Invalid request: this is not a JSON-RPC 2.0 request ({why}). Nothing was done."
ONE_PER_LINE = "Invalid request: the town takes one JSON-RPC message per line, not a batch. Nothing was done."

Unreadable = list[tuple[types.RequestId, types.ErrorData]]


def _unreadable(item: Exception) -> Unreadable:
    """The ids of the requests the SDK's reader could not read, and the error to answer each with, when
    the ids can still be read: Python's JSON takes a lone surrogate (\\ud800) or deeper nesting where
    the SDK's parser does not (a parse error), a line that is JSON but no JSON-RPC 2.0 message (a
    "jsonrpc" of "1.0", a method that is a number) still names its id (an invalid request), and so does
    each request of a batch, which MCP no longer has (over HTTP: 400, "One message per request.")."""
    if not isinstance(item, ValidationError):
        return []
    errors = item.errors()
    invalid = next((e for e in errors if e.get("type") == "json_invalid"), None)
    if invalid is not None:
        line = invalid.get("input")
        if not isinstance(line, str):
            return []
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):  # not JSON at all, or nested past Python's own limit
            return []
        code, said = (
            types.PARSE_ERROR,
            UNREADABLE.format(why=str(invalid.get("msg", "")).removeprefix("Invalid JSON: ")),
        )
    else:
        # The SDK's parser read the JSON, and each way it tried to take the message says why not,
        # some with the message itself as the input they refused: an object, or a batch's list (where
        # loc names only the type tried; a list deeper in is a field's, params: []).
        message = next((e["input"] for e in errors if _whole(e)), None)
        first: dict[str, Any] = dict(errors[0]) if errors else {}
        where = ".".join(str(part) for part in first.get("loc", ())[1:]) or "the message"
        code, said = types.INVALID_REQUEST, NOT_A_REQUEST.format(why=f"{where}: {first.get('msg', 'unreadable')}")
    if isinstance(message, list):
        # A batch: the SDK's reader dropped the whole line, and each request in it waited for an
        # answer that never came.
        code, said = types.INVALID_REQUEST, ONE_PER_LINE
    else:
        message = [message]
    error = types.ErrorData(code=code, message=said)
    return [(ident, error) for m in message if (ident := _id_of(m)) is not None]


def _whole(error: Any) -> bool:
    """Whether a validation error's input is the whole message the line held."""
    given = error.get("input")
    return isinstance(given, dict) or (isinstance(given, list) and len(error.get("loc", ())) <= 1)


def _id_of(message: Any) -> types.RequestId | None:
    """The id of a message that asks for something (it names a method), when it can be written back."""
    ident = message.get("id") if isinstance(message, dict) and "method" in message else None
    if isinstance(ident, int) and not isinstance(ident, bool) and abs(ident) < 2**63:
        return ident
    if isinstance(ident, str) and len(ident) <= 256:
        try:
            ident.encode()
        except UnicodeEncodeError:  # an id that is itself a lone surrogate cannot be written back
            return None
        return ident
    return None


class Answering:
    """The SDK's read stream, answering the requests it cannot read. The SDK's stdio reader drops
    such a line, and a request dropped unanswered leaves its client waiting until it times out; here
    it gets a parse error or an invalid request for its id, as JSON-RPC asks, and nothing is done. (Over HTTP the same body
    is answered 400.) Like every protocol error, it leaves no footstep (spec 001, section 03)."""

    def __init__(self, inner: ReadStream[SessionMessage | Exception], write: WriteStream[SessionMessage]) -> None:
        self.inner = inner
        self.write = write

    @property
    def last_context(self) -> Any:
        # The SDK carries the sender's context on its own streams; pass it on.
        return getattr(self.inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        while True:
            item = await self.inner.receive()
            unreadable = _unreadable(item) if isinstance(item, Exception) else []
            if not unreadable:
                return item
            for ident, error in unreadable:
                await self.write.send(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=ident, error=error)))

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        await self.aclose()
        return None


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clockford.settings")
    django.setup()
    from django.utils import timezone
    from mcp.server.stdio import stdio_server

    from clockford.face import server
    from clockford.town.models import Passport
    from districts.registry import START_PLACE

    now = timezone.now()
    # Without sign-in, each session gets a new passport; over stdio the process is the session.
    passport = Passport.objects.create(issued_at=now, last_seen=now, place=START_PLACE)
    mcp_server = server.build_server(server.Visitor(passport=passport, session_id=None, kept=True))

    async def run() -> None:
        async with stdio_server() as (read, write):
            await mcp_server.run(Answering(read, write), write, mcp_server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    main()
