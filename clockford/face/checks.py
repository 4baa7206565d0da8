"""The face's checks of spec 001 section 02, one small function each, in the order they run.

A check reads the request, may note on it what it learned (the token, the message, the session), and
returns the answer that ends the request, or None to let it go on. ROUTES and ROADS below list the
order once, and the order is the security order: where a request comes from before anything it says;
whether the town is open before who calls; who calls before how much it has asked;
the token before any session is named; a body's size
before it is read, and its form before its meaning.
"""

import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from mcp_types import PROTOCOL_VERSION_META_KEY
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from clockford import plain
from clockford.face import answers, auth, sessions
from clockford.face.answers import Answer
from clockford.face.server import SURROGATE, in_db
from clockford.leaves import deeper_than, leaves
from clockford.town import desk, limits
from clockford.town.models import McpSession, Passport

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]


@dataclass(slots=True)
class Request:
    """A request on /mcp, and what the checks have learned about it so far."""

    scope: MutableMapping[str, Any]
    receive: Receive
    headers: dict[str, str]
    method: str
    sid: str
    bearer: auth.Bearer | None = None  # the caller's token, on a town with sign-in
    modern: bool = False  # a 2026-07-28 request: one complete request per POST, no session
    unspoken: str | None = None  # a POST's MCP-Protocol-Version the town does not speak
    body: bytes = b""
    message: dict[str, Any] = field(default_factory=dict)
    session: McpSession | None = None
    passport: Passport | None = None  # a signed-in caller's, once its token's record is found
    # Counted against the limits (within_limits); a POST's count is due from count_later on, and taken
    # with its first trip to the database.
    count_due: bool = False
    counted: bool = False

    @property
    def request_id(self) -> str | int | None:
        """The message's id, for an error that answers it: None when it has none a reply could carry
        (well_formed refuses the rest before any check that answers with it)."""
        mid = self.message.get("id")
        return mid if isinstance(mid, str | int) else None

    @classmethod
    def of(cls, scope: MutableMapping[str, Any], receive: Receive) -> "Request":
        """The request with its headers as HTTP defines them, read once for the checks and handed to the
        SDK in the same form (http._for_sdk): a header sent twice is one list, a value has no space or
        tab around it (RFC 9110, section 5.5: "2025-11-25 " is 2025-11-25, a session id with a space
        after it is that session), and a media type is the same in any case (Application/JSON)."""
        headers: dict[str, str] = {}
        for k, v in scope.get("headers", []):
            name = k.decode("latin-1").lower()
            value = v.decode("latin-1").strip(" \t")
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        if "content-type" in headers:
            media, semicolon, parameters = headers["content-type"].partition(";")
            headers["content-type"] = media.strip(" \t").lower() + semicolon + parameters
        scope = {**scope, "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]}
        return cls(scope, receive, headers, scope["method"], headers.get("mcp-session-id", ""))


Check = Callable[[Request], Awaitable[Answer | None]]


async def run(checks: Sequence[Check], r: Request) -> Answer | None:
    """The first answer of the checks, in order; None when every check let the request through. A
    request whose count is due is counted before it is answered, and is told to wait if it is over."""
    for check in checks:
        answer = await check(r)
        if answer is not None:
            return (await within_limits(r) or answer) if r.count_due else answer
    return None


def host_ok(host: str) -> bool:
    """Whether a Host header (or an Origin's host) names the town, read as Django reads it for every
    other path: a name or an IPv6 literal, then a port of digits, and one trailing dot on the name at
    most (a fully qualified name). A name with two, or a dot after the port, was served here and then
    met Django's DisallowedHost, a 400 with a traceback where every other name gets the 403."""
    host = host.lower()
    name = host
    if host.startswith("["):
        name = host[: host.find("]") + 1] if "]" in host else host
        rest = host[len(name) :]
        if rest and not (rest.startswith(":") and plain.digits(rest[1:])):
            return False
    elif ":" in host:
        name, _, port = host.rpartition(":")
        if not plain.digits(port):
            return False
    name = name.removesuffix(".")
    return name in {h.lower() for h in settings.ALLOWED_HOSTS}


def origin_ok(origin: str) -> bool:
    o = origin.lower()
    if o == settings.TOWN_URL.lower():
        return True
    for scheme in ("http://", "https://"):
        if o.startswith(scheme):
            return host_ok(o[len(scheme) :]) and "/" not in o[len(scheme) :]
    return False


# Where the request comes from.


async def right_host(r: Request) -> Answer | None:
    return None if host_ok(r.headers.get("host", "")) else answers.WRONG_HOST


async def right_origin(r: Request) -> Answer | None:
    origin = r.headers.get("origin")
    return None if origin is None or origin_ok(origin) else answers.WRONG_ORIGIN


@cache
def _front_door(town_url: str) -> tuple[str, bool] | None:
    """The public address's host and whether it is https; None when the town's address is on this
    machine (a loopback name or address), which has no door but its own."""
    parts = urlsplit(town_url)
    host = (parts.hostname or "").lower().rstrip(".")
    if host in ("", "localhost") or host.endswith(".localhost"):
        return None
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass  # a name, not an address
    return host, parts.scheme == "https"


def _request_host(host: str) -> str:
    """The Host header's name, without its port (right_host has found it well formed)."""
    host = host.lower()
    if host.startswith("["):  # an IPv6 address, named without its brackets as urlsplit names it
        return host[1 : host.find("]")]
    return (host.rpartition(":")[0] if ":" in host else host).rstrip(".")


async def front_door(r: Request) -> Answer | None:
    """When CLOCKFORD_URL names a public address, a request came through it: it names that host, and
    if the address is https it arrived over https, said by the proxy in front (X-Forwarded-Proto, as
    Django's SECURE_PROXY_SSL_HEADER reads it) or by the server itself. A request that reached the
    town's own port another way (a loopback name, plain http past the proxy) would meet a town whose
    tokens, links and cookies all name the public address: sent to the front door instead."""
    door = _front_door(settings.TOWN_URL)
    if door is None:
        return None
    host, https = door
    if _request_host(r.headers.get("host", "")) != host:
        return answers.FRONT_DOOR
    if https:
        proto = r.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
        if proto != "https" and r.scope.get("scheme") != "https":
            return answers.FRONT_DOOR
    return None


async def method_not_allowed(r: Request) -> Answer:
    return answers.METHOD_NOT_ALLOWED


# The town, the caller, the protocol.


async def town_open(r: Request) -> Answer | None:
    mode = desk.cached_town_mode()
    if mode is None:
        mode = await in_db(desk.town_mode)
    return answers.CLOSED if mode == "closed" else None


def address(r: Request) -> str:
    """The caller's address, as the server saw it."""
    return str((r.scope.get("client") or ["unknown"])[0])


async def refused(r: Request, refusal: auth.Refusal) -> Answer:
    """A token or session refused. A 401 counts as a failure of the address, and one failure too many
    holds the address back: it is then told to wait, not to sign in again (001 "held back after
    repeated failures")."""
    if refusal.status == 401:
        over = await in_db(limits.failed, address(r))
        if over is not None:
            return answers.too_many_requests(over.retry_after)
    return answers.refused(refusal)


async def token(r: Request) -> Answer | None:
    """On a town with sign-in, a token whose signature and claims hold (its record is read later)."""
    if not settings.CLOCKFORD_SIGN_IN:
        return None
    read = auth.read(r.headers.get("authorization"))
    if isinstance(read, auth.Refusal):
        return await refused(r, read)
    r.bearer = read
    return None


async def within_limits(r: Request) -> Answer | None:
    """The address, and a signed-in caller's account, are under their limits in this window and not
    held back: one upsert, shared by every worker (clockford/town/limits.py). Once a request."""
    if r.counted:
        return None
    r.counted = True
    over = await in_db(limits.count, address(r), r.bearer.sub if r.bearer is not None else None)
    return None if over is None else answers.too_many_requests(over.retry_after)


async def count_later(r: Request) -> Answer | None:
    """A POST is counted as within_limits counts, but with its first trip to the database rather than
    in a trip of its own: the answer of any later check (run), a road's first check, or, on the
    hottest road, the desk's own trip (http.Face.call). Its body is read and parsed first, bounded by
    declared_size and whole_body; nothing it asks is run before it is counted."""
    r.count_due = True
    return None


async def protocol_version(r: Request) -> Answer | None:
    version = r.headers.get("mcp-protocol-version")
    if version is None or version in HANDSHAKE_PROTOCOL_VERSIONS:
        return None
    if version not in MODERN_PROTOCOL_VERSIONS:
        if r.method == "POST":
            # Answered once the body is read (version_spoken), so the error carries the request's id.
            r.unspoken = version
            return None
        return answers.unsupported_version(version)
    if r.bearer is None:
        # Without sign-in nothing would name the caller between requests.
        return answers.NO_SESSION
    if r.method != "POST":
        return answers.POST_ONLY
    r.modern = True
    return None


# A session named by Mcp-Session-Id.


async def session_named(r: Request) -> Answer | None:
    # Without a session id there is no session to name (the MCP transport's rule for any request but
    # initialize).
    return None if r.sid else answers.NO_SESSION


async def token_owns_session(r: Request) -> Answer | None:
    """Signed in: the session is there, and the token's account and client opened it."""
    if r.bearer is None:
        return None
    refusal, r.session = await in_db(_signed_in_session, r.bearer, r.sid)
    if refusal is not None:
        return await refused(r, refusal)
    return answers.SESSION_NOT_FOUND if r.session is None else None


async def session_there(r: Request) -> Answer | None:
    """Without sign-in: the session is there (signed in, token_owns_session found it)."""
    if r.bearer is not None:
        return None
    r.session = await in_db(sessions.find_session, r.sid)
    return answers.SESSION_NOT_FOUND if r.session is None else None


async def initialized_once(r: Request) -> Answer | None:
    """An initialize on a session: a session is initialized once, by the request that opened it. The
    SDK would answer a second one, with another revision than the session speaks, and the session
    would go on as before."""
    if r.message.get("method") != "initialize":
        return None
    return answers.initialized_already(r.request_id)


def _signed_in_session(bearer: auth.Bearer, sid: str) -> tuple[auth.Refusal | None, McpSession | None]:
    """The token's record and the session, in one trip to the database: a refusal for a token the
    town no longer honours, or for a session another account and client opened (403)."""
    admitted = auth.admit(bearer)
    if isinstance(admitted, auth.Refusal):
        return admitted, None
    session = sessions.find_session(sid)
    if session is not None and session.passport_id != admitted.passport_id:
        return answers.SOMEONE_ELSE, None
    return None, session


# A POST's body: its size before it is read, then its form.


async def declared_size(r: Request) -> Answer | None:
    length = r.headers.get("content-length")
    if length is None:
        return None
    size = plain.size(length)
    if size is None:
        return answers.BAD_REQUEST
    return answers.TOO_LARGE if size > settings.CLOCKFORD["MAX_BODY_BYTES"] else None


async def whole_body(r: Request) -> Answer | None:
    """The body, read to its end, never past the limit whatever Content-Length said. Nor past its
    time: the ASGI wrapper gives every request's body BODY_SECONDS (clockford/face/deadline.py) and
    answers 408 itself when that time is up, telling the face the client has gone (GONE)."""
    limit = settings.CLOCKFORD["MAX_BODY_BYTES"]
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await r.receive()
        if message["type"] == "http.disconnect":
            return answers.GONE
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return answers.TOO_LARGE
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    r.body = b"".join(chunks)
    return None


async def accepts_both(r: Request) -> Answer | None:
    """Accept names both media types, each itself or by its wildcard (RFC 9110, section 12.5.1), as the
    SDK reads it after: a type that only begins with one (application/jsonx, text/event-streamy) passed
    here and met the SDK's own 406 (code -32600, where 001 gives -32000). A type refused with q=0 is not
    accepted (section 12.4.2), and the most specific range naming a type is the one that counts
    ("text/*;q=0, text/event-stream" accepts the stream; "*/*, text/event-stream;q=0" does not)."""
    ranges: dict[str, float] = {}
    for media in r.headers.get("accept", "").split(","):
        kind, weighed, params = media.partition(";")
        kind = kind.strip().lower()
        weight = _q(params) if weighed else 1.0
        ranges[kind] = max(weight, ranges.get(kind, 0.0))  # a range named twice: its kinder weight
    if _accepted("application/json", ranges) and _accepted("text/event-stream", ranges):
        return None
    return answers.NOT_ACCEPTABLE


def _q(params: str) -> float:
    """A media range's weight, its q parameter (RFC 9110, section 12.4.2): 0 to 1 with up to three
    decimals. One not written, or not a number, is read as 1: only a weight that says 0 refuses a type."""
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                weight = float(value.strip()[:8])
            except ValueError:
                return 1.0
            return weight if 0.0 <= weight <= 1.0 else 1.0
    return 1.0


def _accepted(media: str, ranges: dict[str, float]) -> bool:
    for named in (media, media.split("/", 1)[0] + "/*", "*/*"):  # the most specific first
        if named in ranges:
            return ranges[named] > 0
    return False


async def body_as_is(r: Request) -> Answer | None:
    """No Content-Encoding but identity (RFC 9110, section 8.4): checked before the body is read."""
    coding = r.headers.get("content-encoding")
    if coding is None or coding.strip(" \t").lower() in ("", "identity"):
        return None
    return answers.ENCODED_BODY


async def json_content(r: Request) -> Answer | None:
    """Content-Type application/json, parameters allowed (a charset): the media type itself, not a
    prefix of another (application/jsonx, application/json-seq)."""
    media = r.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return None if media == "application/json" else answers.BAD_REQUEST


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


async def one_json_object(r: Request) -> Answer | None:
    """The body as one JSON object, read as the SDK's parser reads a message: UTF-8 alone, without a
    byte-order mark (json.loads would also read UTF-16 and UTF-32 bytes, and the mark), no NaN or
    Infinity, and no lone surrogate, which Python reads into a str that cannot be written out again (in
    a reply's id, a passport's client name). Anything else is not JSON to the town: Bad request."""
    try:
        message = json.loads(r.body.decode("utf-8"), parse_constant=_no_constants)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return answers.BAD_REQUEST
    if isinstance(message, list):
        return answers.ONE_MESSAGE
    if not isinstance(message, dict):
        return answers.BAD_REQUEST
    if SURROGATE.search(r.body) and _holds_a_lone_surrogate(message):
        return answers.BAD_REQUEST
    r.message = message
    return None


def _holds_a_lone_surrogate(message: dict[str, Any]) -> bool:
    """Whether a key or a string anywhere in the message is not writable as UTF-8. Read only for a body
    with a surrogate's escape in it; one pass over the message, without recursion."""
    return any(isinstance(value, str) and not value.isascii() and not _utf8(value) for value in leaves(message))


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


async def well_formed(r: Request) -> Answer | None:
    """A JSON-RPC request, notification or response whose id is a string or an integer. The SDK would
    take the others silently (a 202 and no answer), and a method sent with a result would even run:
    refused here, so every request gets an answer. So is a message that does not say it is JSON-RPC 2.0,
    or a response whose error is no object: JSON-RPC's Invalid Request, where the SDK would answer
    with its validator's whole report."""
    message = r.message
    if message.get("jsonrpc") != "2.0":
        return answers.INVALID_REQUEST
    if "id" in message:
        mid = message["id"]
        if isinstance(mid, bool) or not isinstance(mid, str | int):
            return answers.INVALID_REQUEST
    if "method" in message:
        ok = isinstance(message["method"], str) and "result" not in message and "error" not in message
        if ok and "params" in message and not isinstance(message["params"], dict):
            return answers.invalid_params(message.get("id"))
    else:
        ok = "id" in message and ("result" in message) != ("error" in message)
        ok = ok and isinstance(message.get("error", {}), dict)
    return None if ok else answers.INVALID_REQUEST


# Objects and arrays nest at most this deep in a message. The SDK's parser reads about 200 levels and
# then calls the message unreadable, without its id; no message of MCP's nests a tenth as deep.
MAX_LEVELS = 100


async def shallow_enough(r: Request) -> Answer | None:
    """A message nested deeper than MAX_LEVELS is refused whatever it asks, with its id. (Counting the
    brackets first keeps the walk off every usual message.)"""
    if r.body.count(b"[") + r.body.count(b"{") <= MAX_LEVELS or not deeper_than(r.message, MAX_LEVELS):
        return None
    return answers.nested_too_deep(MAX_LEVELS, r.request_id)


async def version_spoken(r: Request) -> Answer | None:
    """A POST naming a revision the town does not speak (protocol_version): 001's 400, with the
    request's id, and nothing of the request is run."""
    if r.unspoken is None:
        return None
    return answers.unsupported_version(r.unspoken, r.request_id)


# What a POST's message asks, and for whom.


async def version_in_header(r: Request) -> Answer | None:
    """Signed in, a request without a session whose envelope names a 2026-07-28 version (params._meta)
    must say so in its MCP-Protocol-Version header too. Such a request reaches here only with the
    header absent or naming a handshake revision (protocol_version takes the rest), and is told which."""
    if r.bearer is None or r.sid:
        return None
    params = r.message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and meta.get(PROTOCOL_VERSION_META_KEY) in MODERN_PROTOCOL_VERSIONS:
        if r.headers.get("mcp-protocol-version") is None:
            return answers.header_absent(r.request_id)
        return answers.header_mismatch(r.request_id)
    return None


async def room_in_town(r: Request) -> Answer | None:
    """A new session only while the town takes new visitors and has room for one (001 503 rows);
    the sessions already open go on either way."""
    why = await in_db(sessions.room_in_town)
    if why is None:
        return None
    return answers.FULL if why == "full" else answers.NOT_WELCOMING


async def token_passport(r: Request) -> Answer | None:
    """Signed in: the token's record, and the passport of its (account, client), made on first entry."""
    if r.bearer is None:
        return None
    refusal, r.passport = await in_db(auth.admit_with_passport, r.bearer)
    return None if refusal is None else await refused(r, refusal)


# Every request, in this order. Host and Origin come first, so a page that rebinds a name to this
# machine learns nothing more, then the front door; a method the face does not serve is refused right
# after them.
WHERE_FROM: tuple[Check, ...] = (right_host, right_origin, front_door)
# Then whether the town is open, the token (its signature alone, no database), and how much this
# address and account have asked, before anything the request asks is read (a POST: before anything
# it asks is run, see count_later).
EVERY: tuple[Check, ...] = (*WHERE_FROM, town_open, token, within_limits, protocol_version)

ROUTES: dict[str, tuple[Check, ...]] = {
    "GET": (*EVERY, session_named, token_owns_session, session_there),
    "DELETE": (*EVERY, session_named, token_owns_session),
    "POST": (
        *WHERE_FROM,
        town_open,
        token,
        count_later,
        protocol_version,
        body_as_is,
        declared_size,
        whole_body,
        accepts_both,
        json_content,
        one_json_object,
        well_formed,
        shallow_enough,
        version_spoken,
    ),
}
OTHER_METHODS: tuple[Check, ...] = (*WHERE_FROM, method_not_allowed)

# A POST that passed ROUTES["POST"] then takes one of these roads (road() chooses), each with the rest
# of its checks.
# Each road but the hottest takes the count that came due with count_later first.
ROADS: dict[str, tuple[Check, ...]] = {
    # A 2026-07-28 request names its caller by its token alone: the passport of the token's
    # (account, client), no session.
    "modern": (within_limits, token_passport),
    # Only an initialize request (with an id) opens a session; a notification named initialize gets
    # no answer, so it could never hand the client its session id.
    # Room in the town before the passport: a town that takes no new visitors makes no passport.
    "initialize": (within_limits, version_in_header, room_in_town, token_passport),
    # A tools/call without sign-in, the town's hottest road: the desk counts it and looks its session
    # up in its own trip to the database (server.Unchecked), so no check here reads the database.
    "call": (session_named,),
    "session": (
        within_limits,
        version_in_header,
        session_named,
        token_owns_session,
        session_there,
        initialized_once,
    ),
}


def road(r: Request) -> str:
    if r.modern:
        return "modern"
    method = r.message.get("method")
    if method == "initialize" and "id" in r.message and not r.sid:
        return "initialize"
    if method == "tools/call" and r.bearer is None:
        return "call"
    return "session"
