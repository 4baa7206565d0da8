"""What every request to the town's pages meets first: a NUL character anywhere it says something (its
path, its query, its form, a JSON body, a cookie) is refused with 001's "Bad request.".

No field of the town can hold one: PostgreSQL's text refuses the character outright (a DataError, so
a 500, at whichever query met it first), and SQLite would keep what PostgreSQL cannot. No person types
one, and a browser never sends one of its own. Refusing it at the door, once, answers every view
alike instead of each view learning it. An agent's call carrying one is refused by the desk, in the
town's voice and with a footstep (clockford/town/kept.py).

Being the first to read a request, the door also reads its body whole before any form is parsed
from it, so every view after it can still read the body, and refuses what Django cannot read (a body
too large, a multipart form without its boundary, too many fields) without the traceback Django logs
for each."""

import functools
from collections.abc import Callable, Iterable

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.http.multipartparser import MultiPartParserError

from clockford.face.answers import Answer

NUL = "\x00"
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
OAUTH = "/oauth/"
API = "/api/"
OAUTH_SAY = "A request may hold no NUL character."
TOO_BIG_SAY = "The request is too large."
UNREADABLE_SAY = "The request could not be read."


def _any_nul(texts: Iterable[str]) -> bool:
    return any(NUL in text for text in texts)


def _in_pairs(pairs: Iterable[tuple[str, list[str]]]) -> bool:
    return any(NUL in key or _any_nul(values) for key, values in pairs)


def says_nul(request: HttpRequest) -> bool:
    if NUL in request.path or _in_pairs(request.GET.lists()) or _any_nul(request.COOKIES.values()):
        return True
    if request.method not in ("POST", "PUT", "PATCH"):
        return False
    # Read before the form is parsed: a multipart form parsed from the request's stream leaves no body
    # to read after it (RawPostDataException, a 500 wherever a JSON address was sent a form), and one
    # parsed from the body read here leaves both. The town takes no uploads, so no body it serves is
    # more than DATA_UPLOAD_MAX_MEMORY_SIZE to hold.
    body = request.body
    if request.content_type in FORMS:
        return _in_pairs(request.POST.lists())
    # JSON, or anything else read as text: the character itself, or JSON's escape for it.
    return b"\x00" in body or b"\\u0000" in body


def refuse_nul(get_response: Callable[[HttpRequest], HttpResponseBase]) -> Callable[[HttpRequest], HttpResponseBase]:
    def middleware(request: HttpRequest) -> HttpResponseBase:
        # Refused here as Django would refuse each, but without the traceback Django logs for it:
        # anyone could fill the log with them.
        try:
            nul = says_nul(request)
        except RequestDataTooBig:
            # A body past DATA_UPLOAD_MAX_MEMORY_SIZE.
            why = TOO_BIG_SAY
        except (SuspiciousOperation, MultiPartParserError):
            # A query or form of more than DATA_UPLOAD_MAX_NUMBER_FIELDS fields (TooManyFieldsSent), a
            # multipart body Django cannot parse.
            why = UNREADABLE_SAY
        else:
            if not nul:
                return get_response(request)
            why = OAUTH_SAY
        return refusal(request.path, why)

    return middleware


def refusal(path: str, why: str) -> HttpResponse:
    """The door's 400 for a request to `path`, in the words its askers read. Where the view would have
    answered with CORS, the town's ASGI application adds it to this too (hall/cors.py, opening), so that a
    page of another origin reads why."""
    if path.startswith(OAUTH):
        # OAuth's clients read an error as JSON (RFC 6749 section 5.2, RFC 7591 section 3.2.2).
        refused = JsonResponse({"error": "invalid_request", "error_description": why}, status=400)
        refused["Cache-Control"] = "no-store"
        return refused
    if path.startswith(API):
        # The read API's refusals are {"say": ...}, as its description says (docs/api.md); its
        # middleware, around this one, adds CORS so a page that asked can read why.
        return JsonResponse({"say": why}, status=400)
    return HttpResponse("Bad request.", status=400, content_type="text/plain; charset=utf-8")


def too_big(path: str) -> Answer:
    """The same refusal of a body past DATA_UPLOAD_MAX_MEMORY_SIZE, as the ASGI wrapper sends it when the
    body's first bytes past the limit arrive (clockford/face/deadline.py), before Django would read the
    rest; the connection is closed, since the rest may still be on its way."""
    # One for each kind of asker (CORS, where a page may read it, is added as it is sent: hall/cors.py).
    return _too_big(OAUTH if path.startswith(OAUTH) else API if path.startswith(API) else "/")


@functools.cache
def _too_big(where: str) -> Answer:
    # Made once for each kind of asker: every request of the town's pages is given one, in case.
    response = refusal(where, TOO_BIG_SAY)
    body = response.content
    headers = [(name.lower().encode(), value.encode()) for name, value in response.items()]
    headers += [(b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    return Answer(response.status_code, body, headers)
