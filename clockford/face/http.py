"""/mcp over streamable HTTP: every check of spec 001 section 02 before the SDK sees a request.

The face owns Mcp-Session-Id: it mints the id on initialize, keeps the session in the database, and
hands each request to the SDK's manager in stateless mode with the session's passport on the scope.
Host and Origin are checked here too, because the spec wants 403 and its own body where the SDK
would answer 421.

On a town with sign-in, the bearer token is checked before anything about sessions (clockford/face/
auth.py): no token or a refused one is 401, a token without the town scope 403. A session is then
usable only with a token of the account and client that opened it, and a 2026-07-28 request (one
complete request per POST, no session) is served with the passport of the token's (account, client).
"""

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import PROTOCOL_VERSION_META_KEY
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from clockford.face import auth, sessions
from clockford.face.server import Unchecked, Visitor, build_server, in_db
from clockford.town import desk
from clockford.town.models import McpSession, Passport

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

SPOKEN = ", ".join(HANDSHAKE_PROTOCOL_VERSIONS)
NOT_ACCEPTABLE = "Not Acceptable: Client must accept both application/json and text/event-stream"
SOMEONE_ELSE = "This session belongs to someone else."
NO_SESSION = "Session not found. Start a new one with initialize."
HEADER_ABSENT = "Bad Request: MCP-Protocol-Version header is absent; a 2026-07-28 request carries it on every request."


def build_manager() -> StreamableHTTPSessionManager:
    return StreamableHTTPSessionManager(
        app=build_server(),
        stateless=True,
        # The face has checked Host and Origin already, with the spec's statuses.
        security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=settings.CLOCKFORD["MAX_BODY_BYTES"],
    )


async def plain(send: Send, status: int, body: str, headers: dict[str, str] | None = None) -> None:
    """The town's own HTTP errors: a short plain-text body."""
    raw = body.encode()
    h = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(raw)).encode())]
    h += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": h})
    await send({"type": "http.response.body", "body": raw})


async def jsonrpc_error(send: Send, status: int, message: str, code: int = -32000) -> None:
    """The transport's own checks answer with a JSON-RPC error body (001 section 02)."""
    raw = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": message}}).encode()
    h = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": h})
    await send({"type": "http.response.body", "body": raw})


def host_ok(host: str) -> bool:
    host = host.lower().rstrip(".") if not host.endswith("]") else host.lower()
    name = host
    if host.startswith("["):
        name = host[: host.find("]") + 1] if "]" in host else host
        rest = host[len(name) :]
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return False
    elif ":" in host:
        name, _, port = host.rpartition(":")
        if not port.isdigit():
            return False
    name = name.rstrip(".")
    return name in {h.lower() for h in settings.ALLOWED_HOSTS}


def origin_ok(origin: str) -> bool:
    o = origin.lower()
    if o == settings.TOWN_URL.lower():
        return True
    for scheme in ("http://", "https://"):
        if o.startswith(scheme):
            return host_ok(o[len(scheme) :]) and "/" not in o[len(scheme) :]
    return False


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _well_formed(message: dict[str, Any]) -> bool:
    """A JSON-RPC request, notification or response whose id is a string or an integer."""
    if "id" in message:
        mid = message["id"]
        if isinstance(mid, bool) or not isinstance(mid, str | int):
            return False
    if "method" in message:
        return isinstance(message["method"], str) and "result" not in message and "error" not in message
    return "id" in message and ("result" in message) != ("error" in message)


class InFlight:
    """Requests in flight per session, in this worker: a client that floods one session is told to wait."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def enter(self, sid: str) -> bool:
        n = self.counts.get(sid, 0)
        if n >= settings.CLOCKFORD["IN_FLIGHT_PER_SESSION"]:
            return False
        self.counts[sid] = n + 1
        return True

    def leave(self, sid: str) -> None:
        n = self.counts.get(sid, 1) - 1
        if n <= 0:
            self.counts.pop(sid, None)
        else:
            self.counts[sid] = n


class Face:
    def __init__(self, manager: StreamableHTTPSessionManager) -> None:
        self.manager = manager
        self.in_flight = InFlight()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers: dict[str, str] = {}
        for k, v in scope.get("headers", []):
            name = k.decode("latin-1").lower()
            value = v.decode("latin-1")
            headers[name] = f"{headers[name]}, {value}" if name in headers else value

        if not host_ok(headers.get("host", "")):
            return await plain(send, 403, "This town answers only on this machine.")
        if "origin" in headers and not origin_ok(headers["origin"]):
            return await plain(send, 403, "Forbidden origin.")
        method = scope["method"]
        if method not in ("POST", "GET", "DELETE"):
            return await plain(send, 405, "Method not allowed.", {"Allow": "POST, GET, DELETE"})
        mode = desk.cached_town_mode()
        if mode is None:
            mode = await in_db(desk.town_mode)
        if mode == "closed":
            return await plain(send, 503, "The town is closed for now. Try again later.", {"Retry-After": "60"})

        bearer: auth.Bearer | None = None
        if settings.CLOCKFORD_SIGN_IN:
            read = auth.read(headers.get("authorization"))
            if isinstance(read, auth.Refusal):
                return await refuse(send, read)
            bearer = read

        version = headers.get("mcp-protocol-version")
        modern = False
        if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
            if version in MODERN_PROTOCOL_VERSIONS:
                if bearer is None:
                    # Without sign-in nothing would name the caller between requests. Not a JSON-RPC
                    # body, which tells a client to fall back to initialize.
                    return await plain(send, 400, "No valid session. Start with initialize.")
                if method != "POST":
                    return await plain(send, 405, "Method not allowed.", {"Allow": "POST"})
                modern = True
            else:
                return await jsonrpc_error(
                    send,
                    400,
                    f"Bad Request: Unsupported protocol version: {version[:40]}. Supported versions: {SPOKEN}",
                )

        if method in ("DELETE", "GET"):
            # Without a session id there is no session to name: the same 400 as a POST without one
            # (the MCP transport's rule for any request but initialize).
            sid = headers.get("mcp-session-id", "")
            if not sid:
                return await plain(send, 400, "No valid session. Start with initialize.")
            if bearer is not None:
                refusal, session = await in_db(_signed_in_session, bearer, sid)
                if refusal is not None:
                    return await refuse(send, refusal)
                if session is None:
                    return await plain(send, 404, NO_SESSION)
            if method == "DELETE":
                if not await in_db(sessions.end_session, sid):
                    return await plain(send, 404, NO_SESSION)
                return await plain(send, 200, "The session has ended.")
            # The town never speaks unasked, so it offers no stream to listen on; clients
            # that open one take a 405 to mean exactly that.
            if bearer is None and await in_db(sessions.find_session, sid) is None:
                return await plain(send, 404, NO_SESSION)
            return await plain(send, 405, "Method not allowed.", {"Allow": "POST, DELETE"})
        await self.post(scope, receive, send, headers, bearer, modern)

    async def post(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        headers: dict[str, str],
        bearer: auth.Bearer | None = None,
        modern: bool = False,
    ) -> None:
        limit = settings.CLOCKFORD["MAX_BODY_BYTES"]
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            if not length.isdigit():
                return await plain(send, 400, "Bad request.")
            return await plain(send, 413, "Too large.")
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return await plain(send, 413, "Too large.")
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)

        accept = headers.get("accept", "").lower()
        if "application/json" not in accept or "text/event-stream" not in accept:
            if "*/*" not in accept:
                return await jsonrpc_error(send, 406, NOT_ACCEPTABLE)
        if not headers.get("content-type", "").lower().startswith("application/json"):
            return await plain(send, 400, "Bad request.")
        try:
            message_obj = json.loads(body, parse_constant=_no_constants)
        except (ValueError, RecursionError):
            return await plain(send, 400, "Bad request.")
        if isinstance(message_obj, list):
            return await plain(send, 400, "One message per request.")
        if not isinstance(message_obj, dict):
            return await plain(send, 400, "Bad request.")
        if not _well_formed(message_obj):
            # The SDK would take these silently (a 202 and no answer), and a method sent with a
            # result would even run: refuse them here, so every request gets an answer.
            return await jsonrpc_error(send, 400, "Invalid Request", code=-32600)

        sid = headers.get("mcp-session-id")
        address = (scope.get("client") or ["unknown"])[0]
        if modern:
            # A 2026-07-28 request names its caller by its token alone: no session, the passport
            # of the token's (account, client).
            assert bearer is not None
            refusal, passport = await in_db(auth.admit_with_passport, bearer)
            if refusal is not None:
                return await refuse(send, refusal)
            assert passport is not None
            key = f"passport:{passport.id}"
            if not self.in_flight.enter(key):
                return await plain(send, 429, "Too many requests at once on this session.", {"Retry-After": "1"})
            try:
                return await self.forward(scope, body, receive, send, Visitor(passport, None))
            finally:
                self.in_flight.leave(key)
        if bearer is not None and not sid and _names_a_modern_version(message_obj):
            return await jsonrpc_error(send, 400, HEADER_ABSENT, code=-32020)
        # Only an initialize request (with an id) opens a session; a notification named initialize
        # gets no answer, so it could never hand the client its session id.
        if message_obj.get("method") == "initialize" and "id" in message_obj and not sid:
            params = message_obj.get("params")
            info = params.get("clientInfo") if isinstance(params, dict) else None
            name = info.get("name") if isinstance(info, dict) else None
            signed_in: Passport | None = None
            if bearer is not None:
                refusal, signed_in = await in_db(auth.admit_with_passport, bearer)
                if refusal is not None:
                    return await refuse(send, refusal)
            session = await in_db(sessions.open_session, address, name if isinstance(name, str) else "", signed_in)
            if session is None:
                return await plain(send, 429, "Too many sessions. Try again later.", {"Retry-After": "60"})
            await self.initialize(scope, body, receive, send, session.id, Visitor(session.passport, session.id))
            return
        if not sid:
            return await plain(send, 400, "No valid session. Start with initialize.")
        if bearer is None and message_obj.get("method") == "tools/call":
            return await self.call(scope, body, receive, send, sid)
        if bearer is not None:
            refusal, session = await in_db(_signed_in_session, bearer, sid)
            if refusal is not None:
                return await refuse(send, refusal)
        else:
            session = await in_db(sessions.find_session, sid)
        if session is None:
            return await plain(send, 404, NO_SESSION)
        if not self.in_flight.enter(sid):
            return await plain(send, 429, "Too many requests at once on this session.", {"Retry-After": "1"})
        try:
            await self.forward(scope, body, receive, send, Visitor(session.passport, session.id))
        finally:
            self.in_flight.leave(sid)

    async def call(self, scope: Scope, body: bytes, receive: Receive, send: Send, sid: str) -> None:
        """A tools/call without sign-in, the town's hottest road: its session is looked up in the desk's
        own trip to the database (server.Unchecked), and its reply (one short event) is held until
        then, so that an unknown or ended session still gets its 404 and nothing else."""
        if not self.in_flight.enter(sid):
            return await plain(send, 429, "Too many requests at once on this session.", {"Retry-After": "1"})
        unchecked = Unchecked(sid)
        try:
            held = await self.held_reply(scope, body, receive, unchecked)
        finally:
            self.in_flight.leave(sid)
        if unchecked.found is None:  # the SDK answered without the desk (no such tool)
            unchecked.found = await in_db(sessions.find_session, sid) is not None
        if not unchecked.found:
            return await plain(send, 404, NO_SESSION)
        for message in held:
            await send(message)

    async def held_reply(
        self, scope: Scope, body: bytes, receive: Receive, visitor: Visitor | Unchecked
    ) -> list[Message]:
        """The SDK's whole reply to a request, held instead of sent: replies to a POST are one short
        event, so the face can still decide what goes out (a session id, or a 404 instead)."""
        held: list[Message] = []

        async def hold(message: Message) -> None:
            held.append(message)

        await self.manager.handle_request({**scope, "clockford.visitor": visitor}, _replay(body, receive), hold)
        return held

    async def forward(self, scope: Scope, body: bytes, receive: Receive, send: Send, visitor: Visitor) -> None:
        """Hand the checked request to the SDK, with the body it was read from and the visitor."""
        await self.manager.handle_request({**scope, "clockford.visitor": visitor}, _replay(body, receive), send)

    async def initialize(
        self, scope: Scope, body: bytes, receive: Receive, send: Send, sid: str, visitor: Visitor
    ) -> bool:
        """Forward an initialize; the session's id goes out only if the SDK answered it with a result.

        The reply is one short event, so it is held back until it is whole: an initialize the SDK
        refused (bad params, a JSON-RPC error in a 200) must not leave a session and a passport
        behind, nor count against the address's limit. Returns whether the session was opened.
        """
        held = await self.held_reply(scope, body, receive, visitor)
        start = next((m for m in held if m["type"] == "http.response.start"), None)
        if start is None:
            await in_db(sessions.discard, sid)
            return False
        reply = b"".join(m.get("body", b"") for m in held if m["type"] == "http.response.body")
        opened = start["status"] == 200 and _is_result(reply)
        if opened:
            start = {**start, "headers": [*start.get("headers", []), (b"mcp-session-id", sid.encode())]}
        else:
            # Gone before the client hears back, so its next request never meets it.
            await in_db(sessions.discard, sid)
        await send(start)
        await send({"type": "http.response.body", "body": reply})
        return opened


async def refuse(send: Send, refusal: auth.Refusal) -> None:
    await plain(
        send, refusal.status, refusal.body, {"WWW-Authenticate": refusal.challenge} if refusal.challenge else {}
    )


def _signed_in_session(bearer: auth.Bearer, sid: str) -> tuple[auth.Refusal | None, McpSession | None]:
    """The token's record and the session, in one trip to the database: a refusal for a token the
    town no longer honours, or for a session another account and client opened (403)."""
    admitted = auth.admit(bearer)
    if isinstance(admitted, auth.Refusal):
        return admitted, None
    session = sessions.find_session(sid)
    if session is not None and session.passport_id != admitted.passport_id:
        return auth.Refusal(403, SOMEONE_ELSE, ""), None
    return None, session


def _names_a_modern_version(message: dict[str, Any]) -> bool:
    """Whether a request's envelope names a 2026-07-28 protocol version (params._meta)."""
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    return isinstance(meta, dict) and meta.get(PROTOCOL_VERSION_META_KEY) in MODERN_PROTOCOL_VERSIONS


def _replay(body: bytes, receive: Receive) -> Receive:
    """The request's body again, as the SDK reads it, then whatever the connection says next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _is_result(reply: bytes) -> bool:
    """Whether a reply (a short event stream, or plain JSON) carries a JSON-RPC result."""
    text = reply.decode("utf-8", "replace")
    data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
    try:
        message = json.loads(data[-1] if data else text)
    except ValueError:
        return False
    return isinstance(message, dict) and "result" in message
