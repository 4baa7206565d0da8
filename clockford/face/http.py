"""/mcp over streamable HTTP: every check of spec 001 section 02 before the SDK sees a request.

The checks are named and ordered in clockford/face/checks.py; this module runs them and then serves
the request by its road. The face owns Mcp-Session-Id: it mints the id on initialize, keeps the
session in the database under the id's SHA-256 (never the id itself: clockford/face/sessions.py), and hands each request to the SDK's manager in stateless mode with the
session's passport on the scope, but for a plain tools/call, which it answers itself in the SDK's own
bytes (Face.call). Host and Origin are the face's checks too, because the spec wants 403 and its own
body where the SDK would answer 421.

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
from django.db import DatabaseError
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types import DEFAULT_NEGOTIATED_VERSION
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from clockford.face import answers, checks, sessions
from clockford.face.checks import Request
from clockford.face.server import (
    Unchecked,
    Visitor,
    admit,
    build_server,
    call_error,
    call_reply,
    in_db,
    plain_call,
    rendered_reply,
    run_tool,
)
from clockford.metrics import counting
from clockford.town import desk

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
log = logging.getLogger(__name__)
# How the face serves a request once its checks let it through.
Serve = Callable[[Request, Send], Awaitable[None]]


def build_manager() -> StreamableHTTPSessionManager:
    return StreamableHTTPSessionManager(
        app=build_server(),
        stateless=True,
        # The face has checked Host and Origin already, with the spec's statuses.
        security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=settings.CLOCKFORD["MAX_BODY_BYTES"],
    )


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
        self.routes: dict[str, Serve] = {"GET": self.no_stream, "DELETE": self.end, "POST": self.post}
        self.roads: dict[str, Serve] = {
            "modern": self.modern,
            "initialize": self.open,
            "call": self.call,
            "session": self.on_session,
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        r = Request.of(scope, receive)
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            answer = await checks.run(checks.ROUTES.get(r.method, checks.OTHER_METHODS), r)
            if answer is not None:
                return await answer.send(watched)
            await self.routes[r.method](r, watched)
        except DatabaseError as error:
            # A check or a road could not reach the database (a lock held too long, a PostgreSQL
            # server restarting): the clerk is busy, never a 500 and never a closed town.
            if started or not desk.is_busy(error):
                raise
            log.warning("the database was busy for a request on /mcp: %s", error)
            if r.method == "POST" and not r.message and not r.body:
                # Refused before its body was read (the town's mode): read it, to answer a tools/call
                # in its own words. A body too large or not JSON simply leaves the message empty.
                if await checks.whole_body(r) is None:
                    await checks.one_json_object(r)
            await busy(r).send(send)

    async def no_stream(self, r: Request, send: Send) -> None:
        await answers.NO_STREAM.send(send)

    async def end(self, r: Request, send: Send) -> None:
        ended = await in_db(sessions.end_session, r.sid)
        await (answers.SESSION_ENDED if ended else answers.SESSION_NOT_FOUND).send(send)

    async def post(self, r: Request, send: Send) -> None:
        road = checks.road(r)
        answer = await checks.run(checks.ROADS[road], r)
        if answer is not None:
            return await answer.send(send)
        await self.roads[road](r, send)

    async def modern(self, r: Request, send: Send) -> None:
        assert r.passport is not None  # checks.token_passport found it
        await self.visit(r, send, f"passport:{r.passport.id}", Visitor(r.passport, None))

    async def on_session(self, r: Request, send: Send) -> None:
        assert r.session is not None  # checks.token_owns_session or checks.session_there found it
        visitor = Visitor(r.session.passport, r.session.id)
        if r.message.get("method") == "tools/call":
            # A signed-in tools/call: its session and token are checked already, so a plain one is
            # answered as one without sign-in is (Face.call), by the face itself in the SDK's bytes.
            return await self.visit(r, send, r.sid, visitor, answered=True)
        await self.visit(r, send, r.sid, visitor)

    async def visit(self, r: Request, send: Send, key: str, visitor: Visitor, answered: bool = False) -> None:
        """Forward the request (or, `answered`, answer a tools/call: answer_call), unless its session
        (or passport) has too many in flight already."""
        if not self.in_flight.enter(key):
            return await answers.TOO_MANY_AT_ONCE.send(send)
        try:
            if not answered:
                return await self.forward(r.scope, r.body, r.receive, send, visitor)
            for message in await self.answer_call(r, visitor):
                await send(message)
        finally:
            self.in_flight.leave(key)

    async def open(self, r: Request, send: Send) -> None:
        """An initialize: a new session (with the signed-in passport, if any), its id sent back only if
        the SDK answered with a result."""
        params = r.message.get("params")
        info = params.get("clientInfo") if isinstance(params, dict) else None
        name = info.get("name") if isinstance(info, dict) else None
        address = (r.scope.get("client") or ["unknown"])[0]
        opened = await in_db(sessions.open_session, address, name if isinstance(name, str) else "", r.passport)
        if isinstance(opened, sessions.NoRoom):
            return await answers.too_many_sessions(opened.retry_after).send(send)
        session = opened.session
        await self.initialize(r.scope, r.body, r.receive, send, opened.sid, Visitor(session.passport, session.id))

    async def call(self, r: Request, send: Send) -> None:
        """A tools/call without sign-in, the town's hottest road. The desk's own trip to the database
        counts the request against its address's limit and looks its session up (server.Unchecked),
        and the reply (one short event) is held until then, so that an address over its limit gets
        its 429 and an unknown or ended session its 404, and nothing else.

        A plain call (server.plain_call) is answered here, by the same run_tool the SDK's handler
        runs and in the SDK's own bytes (server.rendered_reply), without the SDK's machinery for one
        request (a transport, a task group, streams, a dispatcher): that machinery cost more than the
        rest of the face and the desk together. Anything else about a tools/call goes through the SDK."""
        sid = r.sid
        if not self.in_flight.enter(sid):
            return await (await checks.within_limits(r) or answers.TOO_MANY_AT_ONCE).send(send)
        with counting.lines_after():  # the call's log line once its reply is out
            unchecked = Unchecked(sid, checks.address(r))
            try:
                held = await self.answer_call(r, unchecked)
            finally:
                self.in_flight.leave(sid)
            if unchecked.found is None and unchecked.over is None:  # the desk never ran (no such tool)
                await in_db(admit, unchecked)
            if unchecked.over is not None:
                return await answers.too_many_requests(unchecked.over.retry_after).send(send)
            if not unchecked.found:
                return await answers.SESSION_NOT_FOUND.send(send)
            for message in held:
                await send(message)

    async def answer_call(self, r: Request, visitor: Visitor | Unchecked) -> list[Message]:
        """The whole reply to a tools/call, held: the face's own for a plain call, else the SDK's."""
        version = reply_version(r)
        params = plain_call(r.message, r.body, version)
        if params is None:
            return await self.held_reply(r.scope, r.body, r.receive, visitor)
        try:
            ran = await run_tool(visitor, params.name, params.arguments)
        except Exception as error:  # the SDK's dispatcher answers a handler that raised so, never a 500
            log.exception("tools/call of %s raised", params.name)
            return answers.event(call_error(r.message["id"], error)).messages()
        if isinstance(ran, desk.Rendered):
            return answers.event(rendered_reply(r.message["id"], version, ran)).messages()
        return answers.event(call_reply(r.message["id"], version, ran)).messages()

    async def held_reply(
        self, scope: Scope, body: bytes, receive: Receive, visitor: Visitor | Unchecked
    ) -> list[Message]:
        """The SDK's whole reply to a request, held instead of sent: replies to a POST are one short
        event, so the face can still decide what goes out (a session id, or a 404 instead)."""
        held: list[Message] = []

        async def hold(message: Message) -> None:
            held.append(message)

        await self.manager.handle_request(_for_sdk(scope, visitor), _replay(body, receive), hold)
        return held

    async def forward(self, scope: Scope, body: bytes, receive: Receive, send: Send, visitor: Visitor) -> None:
        """Hand the checked request to the SDK, with the body it was read from and the visitor."""
        await self.manager.handle_request(_for_sdk(scope, visitor), _replay(body, receive), send)

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


def busy(r: Request) -> answers.Answer:
    """The clerk's busy answer when the database could not be reached before the desk: a tools/call is
    answered as the desk answers busy (a CallToolResult with retryAfterSeconds, no footstep), anything
    else with 503 and Retry-After."""
    message = r.message
    if message.get("method") == "tools/call" and "id" in message:
        return answers.event(rendered_reply(message["id"], reply_version(r), desk.busy_unrecorded()))
    return answers.clerk_busy(desk.BUSY_RETRY_SECONDS)


def reply_version(r: Request) -> str:
    """The revision a reply to a POST is shaped for, as the SDK's stateless transport chooses it: the
    MCP-Protocol-Version header, or its default when there is none (or one the face has not let by)."""
    version = r.headers.get("mcp-protocol-version", DEFAULT_NEGOTIATED_VERSION)
    return version if version in HANDSHAKE_PROTOCOL_VERSIONS else DEFAULT_NEGOTIATED_VERSION


def _for_sdk(scope: Scope, visitor: Visitor | Unchecked) -> Scope:
    """The request as the SDK is handed it: with its visitor, and its headers as the checks read them
    (checks.Request.of). The SDK reads only the first of a header sent twice (Accept as two lines passed
    the face's check, then the SDK refused it with a 406 of its own, code -32600 where 001 gives
    -32000), and compares a media type and MCP-Protocol-Version as sent (Application/JSON was its 415)."""
    return {**scope, "clockford.visitor": visitor}


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
