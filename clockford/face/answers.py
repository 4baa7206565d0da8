"""Every answer the face gives of its own, before the SDK sees a request (spec 001 section 02).

Each is a status, a body and its headers, written once here: the checks (clockford/face/checks.py)
and the roads (clockford/face/http.py) name them. The town's own errors are short plain text; the
transport's checks that the MCP transport itself defines answer with a JSON-RPC error body.
"""

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from clockford.face import auth
from clockford.town import limits, tooling

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

SPOKEN = ", ".join(HANDSHAKE_PROTOCOL_VERSIONS)


class Answer:
    """One whole HTTP reply: sent as a start and a body."""

    __slots__ = ("body", "headers", "status")

    def __init__(self, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
        self.status = status
        self.body = body
        self.headers = headers

    def __repr__(self) -> str:
        return f"Answer({self.status}, {self.body!r})"

    def messages(self) -> list[MutableMapping[str, Any]]:
        """The ASGI messages that send it (none for GONE: nobody is left to answer)."""
        if not self.status:
            return []
        # A fresh list each time: the answers below are shared by every request.
        return [
            {"type": "http.response.start", "status": self.status, "headers": list(self.headers)},
            {"type": "http.response.body", "body": self.body},
        ]

    async def send(self, send: Send) -> None:
        for message in self.messages():
            await send(message)


def plain(status: int, body: str, headers: dict[str, str] | None = None) -> Answer:
    """The town's own HTTP errors: a short plain-text body."""
    raw = body.encode()
    h = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(raw)).encode())]
    h += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    return Answer(status, raw, h)


def rpc_error(
    status: int, message: str, code: int = -32000, request_id: str | int | None = None, data: Any = None
) -> Answer:
    """The transport's own checks answer with a JSON-RPC error body (001 section 02): with the
    request's id when the request was read far enough to have one."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    raw = json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error}).encode()
    return Answer(status, raw, [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())])


def event(data: str) -> Answer:
    """One JSON-RPC message as a short event stream, the way the SDK answers a POST: its event and its
    headers (sse-starlette's), but a length instead of chunks, since the reply is whole."""
    raw = f"event: message\r\ndata: {data}\r\n\r\n".encode()
    return Answer(
        200,
        raw,
        [
            (b"cache-control", b"no-cache, no-transform"),
            (b"connection", b"keep-alive"),
            (b"content-type", b"text/event-stream"),
            (b"x-accel-buffering", b"no"),
            (b"content-length", str(len(raw)).encode()),
        ],
    )


def clerk_busy(retry_after: int) -> Answer:
    """The database could not be reached before the desk, for anything but a tools/call (which is
    answered in the desk's busy words, 001 section 04): wait Retry-After and try again."""
    return plain(503, tooling.busy_say(retry_after), {"Retry-After": str(retry_after)})


def refused(refusal: auth.Refusal) -> Answer:
    """A token or a session the caller may not use: 401 or 403, with a challenge when there is one."""
    return plain(refusal.status, refusal.body, {"WWW-Authenticate": refusal.challenge} if refusal.challenge else {})


def supported() -> list[str]:
    """The revisions a client that reads an unsupported version's data may pick from and be served.
    Signed in, the revisions server/discover names (the conformance suite holds the two to the same
    list). Without sign-in a 2026-07-28 request cannot be served (400, No valid session), so the
    revisions an initialize negotiates, newest first."""
    if settings.CLOCKFORD_SIGN_IN:
        return list(MODERN_PROTOCOL_VERSIONS)
    return list(reversed(HANDSHAKE_PROTOCOL_VERSIONS))


def unsupported_version(version: str, request_id: str | int | None = None) -> Answer:
    """001's row for a revision the town does not speak. The data names the revisions the town serves
    this caller (supported) and echoes the one asked for, as an UnsupportedProtocolVersionError does
    (SEP-2575); the message lists the handshake revisions, as 001 words it."""
    return rpc_error(
        400,
        f"Bad Request: Unsupported protocol version: {version[:40]}. Supported versions: {SPOKEN}",
        request_id=request_id,
        data={"supported": supported(), "requested": version[:40]},
    )


# The client left before its request was whole: nothing is sent.
GONE = Answer(0, b"", [])

WRONG_HOST = plain(403, "This town answers only on this machine.")
WRONG_ORIGIN = plain(403, "Forbidden origin.")
FRONT_DOOR = plain(403, "Come in through the front door.")
METHOD_NOT_ALLOWED = plain(405, "Method not allowed.", {"Allow": "POST, GET, DELETE"})
CLOSED = plain(503, "The town is closed for now. Try again later.", {"Retry-After": "60"})

# Not a JSON-RPC body, which tells a client to fall back to initialize.
NO_SESSION = plain(400, "No valid session. Start with initialize.")
SESSION_NOT_FOUND = plain(404, "Session not found. Start a new one with initialize.")
SESSION_ENDED = plain(200, "The session has ended.")
# A 2026-07-28 request is one POST; there is no session to end nor stream to open.
POST_ONLY = plain(405, "Method not allowed.", {"Allow": "POST"})
# The town never speaks unasked, so it offers no stream to listen on; clients that open one take a
# 405 to mean exactly that.
NO_STREAM = plain(405, "Method not allowed.", {"Allow": "POST, DELETE"})

BAD_REQUEST = plain(400, "Bad request.")
# A body sent compressed (Content-Encoding): the town reads bodies as they are, and says so as RFC 7694
# asks, rather than reading gzip's bytes as JSON (a Bad request that does not say why) or a plain body
# labelled gzip as if it were not labelled.
ENCODED_BODY = plain(
    415, "Send the body as it is: this town reads no Content-Encoding.", {"Accept-Encoding": "identity"}
)
# 001's words for a body over MAX_BODY_BYTES; stdio says them of a line over the same limit
# (clockford/face/stdio.py).
TOO_LARGE_WORDS = "Too large."
TOO_LARGE = plain(413, TOO_LARGE_WORDS)
# A body begun and not finished within CLOCKFORD_BODY_SECONDS, on any path (clockford/face/deadline.py).
# 001 has no row for it: HTTP's own 408, and the connection closed, since the rest of that body may
# still be on its way.
TOO_SLOW = plain(408, "The request's body did not arrive in time.", {"Connection": "close"})
NOT_ACCEPTABLE = rpc_error(406, "Not Acceptable: Client must accept both application/json and text/event-stream")
ONE_MESSAGE = plain(400, "One message per request.")
# JSON-RPC's words for a message that is no request it can take; stdio says them, with a null id, of
# a request whose id is no string nor integer (clockford/face/stdio.py), as HTTP answers its body.
INVALID_REQUEST_WORDS = "Invalid Request"
INVALID_REQUEST = rpc_error(400, INVALID_REQUEST_WORDS, code=-32600)


def initialized_already(request_id: str | int | None) -> Answer:
    return rpc_error(
        400,
        "Invalid Request: this session is initialized already. To initialize again, start a new session"
        " (an initialize without Mcp-Session-Id).",
        code=-32600,
        request_id=request_id,
    )


NESTED_TOO_DEEP = "Invalid Request: the message nests more than {levels} levels deep."


def nested_too_deep(levels: int, request_id: str | int | None) -> Answer:
    return rpc_error(400, NESTED_TOO_DEEP.format(levels=levels), code=-32600, request_id=request_id)


def invalid_params(request_id: str | int | None) -> Answer:
    """A request whose params are no object: MCP's params are an object (a JSON-RPC array of them
    names no field), and the SDK would answer with its parser's whole account of four message types."""
    return rpc_error(400, "Invalid params: params must be an object.", code=-32602, request_id=request_id)


def header_absent(request_id: str | int | None) -> Answer:
    """001's -32020 row: a 2026-07-28 envelope without its MCP-Protocol-Version header."""
    return rpc_error(
        400,
        "Bad Request: MCP-Protocol-Version header is absent; a 2026-07-28 request carries it on every request.",
        code=-32020,
        request_id=request_id,
    )


def header_mismatch(request_id: str | int | None) -> Answer:
    """A 2026-07-28 envelope whose header names another revision (a handshake one: any other is
    unsupported_version's), in the SDK's own words, as the SDK answers a 2026-07-28 header on an
    envelope naming another revision."""
    return rpc_error(
        400,
        "mcp-protocol-version header does not match the request envelope's protocol version",
        code=-32020,
        request_id=request_id,
    )


TOO_MANY_AT_ONCE = plain(429, "Too many requests at once on this session.", {"Retry-After": "1"})


def too_many_sessions(retry_after: int) -> Answer:
    """The address's new or open sessions are at the cap until `retry_after` seconds from now."""
    return plain(429, "Too many sessions. Try again later.", {"Retry-After": str(retry_after)})


def too_many_requests(retry_after: int) -> Answer:
    """The address or account is over its limit, or held back after repeated failures, until
    `retry_after` seconds from now."""
    return plain(429, limits.TOO_MANY, {"Retry-After": str(retry_after)})


# No room for a new session: the town's open sessions are at their ceiling, or staff have stopped new
# visitors in the hall (those already in go on).
FULL = plain(503, "The town is full. Try again later.", {"Retry-After": "60"})
NOT_WELCOMING = plain(503, "The town is not taking new visitors right now.", {"Retry-After": "60"})

SOMEONE_ELSE = auth.Refusal(403, "This session belongs to someone else.", "")
