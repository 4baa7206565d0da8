"""What every request to /api/ meets before its endpoint: the town's request limits (counted like every
other request, clockford/town/limits.py), reads only, and CORS for reads from any origin.

The API is anonymous and holds nothing private, so any page may read it: every answer says
`Access-Control-Allow-Origin: *` and never allows credentials; a preflight is answered for GET alone;
any other method is refused. The town's own security headers (nosniff, no framing, CSP) are added by
the middleware around this one, as on every page."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase

from clockford import files
from clockford.town import limits

PREFIX = "/api/"
ROOT = "/api"  # leads to the index, /api/: its redirect is the API's too (CORS, reads only, counted)
READS = ("GET", "HEAD")
ONLY_READS = "The API only reads: use GET."


def cors(response: HttpResponseBase) -> HttpResponseBase:
    response["Access-Control-Allow-Origin"] = "*"
    response["Access-Control-Expose-Headers"] = "Retry-After"
    return response


def public_reads(get_response: Callable[[HttpRequest], HttpResponseBase]) -> Callable[[HttpRequest], HttpResponseBase]:
    def middleware(request: HttpRequest) -> HttpResponseBase:
        if not request.path.startswith(PREFIX) and request.path != ROOT:
            return get_response(request)
        over = limits.count(request.META.get("REMOTE_ADDR", "unknown"), None)
        if over is not None:
            refused = HttpResponse(limits.TOO_MANY, status=429, content_type="text/plain; charset=utf-8")
            refused["Retry-After"] = str(over.retry_after)
            return cors(refused)
        if request.method == "OPTIONS":
            # A preflight: reads only, no credentials, no headers beyond the simple ones.
            answer = HttpResponse(status=204)
            answer["Access-Control-Allow-Methods"] = "GET"
            answer["Access-Control-Max-Age"] = "86400"
            answer["Allow"] = "GET, HEAD, OPTIONS"
            return cors(answer)
        if request.method not in READS:
            refused = HttpResponse(ONLY_READS, status=405, content_type="text/plain; charset=utf-8")
            refused["Allow"] = "GET, HEAD, OPTIONS"
            return cors(refused)
        if request.method == "HEAD":
            # The endpoints answer GET; a HEAD gets the same status and headers, without the body.
            request.method = "GET"
            response = validated(request, get_response(request))
            if isinstance(response, HttpResponse) and response.status_code != 304:
                length = len(response.content)
                response.content = b""
                response["Content-Length"] = str(length)
            return cors(response)
        return cors(validated(request, get_response(request)))

    return middleware


def validated(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """An answer with an ETag of its bytes, and 304 to a reader that already holds them: a witness or a
    monitor asks for the latest checkpoint again and again, and was sent it whole each time."""
    if response.status_code != 200 or not isinstance(response, HttpResponse):
        return response
    return files.validated(request, response)
