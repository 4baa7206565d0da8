"""CORS for the authorization server's addresses that programs call: the metadata documents, the keys,
registration, tokens and revocation.

An MCP client that runs in a browser (the MCP Inspector, a web app using an MCP SDK's sign-in) reads
the metadata and posts to these endpoints from a page of another origin. Its discovery sends an
`MCP-Protocol-Version` header, and registration a JSON body, so the browser first asks with a
preflight (OPTIONS); without an answer naming the method and the headers, the client could not
register or redeem its code, and could not read the answers it got. The MCP Python SDK's own
authorization server wraps the same four kinds of endpoint this way.

None of these addresses reads a cookie or a session: every answer says `Access-Control-Allow-Origin: *`
and never `Access-Control-Allow-Credentials`, so a browser sends no cookie of the hall with them, and a
page elsewhere learns nothing it could not fetch itself. The consent page and the hall's pages are a
person's, with cookies and CSRF checks: they get no CORS at all (nothing here wraps them).
"""

from collections.abc import Awaitable, Callable, MutableMapping
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase

View = Callable[..., HttpResponseBase]

# What a browser client sends beyond the simple headers: MCP-Protocol-Version with its discovery (the
# TypeScript SDK's), Content-Type for a JSON registration, Authorization for a client that sends its
# bearer token with every request. Accept and the rest are listed too, as a preflight may name them.
HEADERS = "Accept, Accept-Language, Authorization, Content-Language, Content-Type, MCP-Protocol-Version"
# How long a browser may keep a preflight's answer: these never change while the town runs.
MAX_AGE = "86400"
# The addresses open to browsers (hall/oauth_urls.py, each view wrapped below), for the answers the town
# makes before or around any view (opening, below), which a page must read as well as the view's own.
OPEN = frozenset(
    {
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-authorization-server",
        "/.well-known/jwks.json",
        "/oauth/register",
        "/oauth/token",
        "/oauth/revoke",
    }
)
# Set on each view wrapped here, so a test can hold OPEN to the views that are.
MARK = "open_to_browsers"


def open_to_browsers(*methods: str) -> Callable[[View], View]:
    """The view answers pages of any origin for `methods` (and OPTIONS, a preflight, answered here
    without the view), on every answer it gives, refusals too."""
    allowed = ", ".join((*methods, "OPTIONS"))
    # A method also allowed as HEAD (GET's) is in the Allow header of HTTP, not in CORS's list.
    allow = ", ".join((*methods, *(["HEAD"] if "GET" in methods else []), "OPTIONS"))

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method == "OPTIONS":
                answer = HttpResponse(status=204)
                answer["Access-Control-Allow-Methods"] = allowed
                answer["Access-Control-Allow-Headers"] = HEADERS
                answer["Access-Control-Max-Age"] = MAX_AGE
                answer["Allow"] = allow
                return opened(answer)
            response = view(request, *args, **kwargs)
            if response.status_code == 405:
                # The view's refusal of another method names the methods it takes; OPTIONS is one.
                response["Allow"] = allow
            return opened(response)

        wrapped.__dict__[MARK] = True
        return wrapped

    return decorate


# What every answer of these addresses says, for a page of any origin. A refusal that says when to come
# back (429, 503) is read by the page as well as its body.
OPENED = (("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", "Retry-After"))


def opened(response: HttpResponseBase) -> HttpResponseBase:
    for name, value in OPENED:
        response[name] = value
    return response


Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
_OPENED = tuple((name.lower().encode(), value.encode()) for name, value in OPENED)


def opening(send: Send) -> Send:
    """`send` for a request to one of OPEN, which adds CORS to the answer's start whoever made it: the
    view (wrapped above), the door's refusals (clockford/nul.py), the 503 Django's handler gives when the
    database is busy or cannot write (clockford/urls.py), a 500, the body's 408 or 400 in the ASGI
    wrapper (clockford/face/deadline.py). A page of another origin reads each, instead of a network error
    (clockford/asgi.py wraps every such request, once)."""

    async def sending(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            has = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(name, value) for name, value in _OPENED if name not in has]
            if extra:
                message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return sending
