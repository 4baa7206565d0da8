"""The town's public addresses that only read (the map, the feed, their files, /status, /metrics): GET,
and HEAD as GET without the body (a link checker or a monitor asks HEAD); any other method is a 405
with its Allow header and words that say why, as the hall's pages (hall/http.py) and the API
(clockford/api/middleware.py) answer. Django's require_GET refused HEAD and said nothing."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

ONLY_READ = "This address is only to be read: use GET. Nothing sent to it is taken."
ALLOW = "GET, HEAD"

View = Callable[..., HttpResponseBase]


def reads_only(view: View) -> View:
    # Exempt from the CSRF check, which ran before the view and answered a POST with the hall's
    # "This page was open too long" page: nothing here takes what is sent, so a POST is refused below
    # for what it is, a method the address does not take.
    @csrf_exempt
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method not in ("GET", "HEAD"):
            refused = HttpResponse(ONLY_READ, status=405, content_type="text/plain; charset=utf-8")
            refused["Allow"] = ALLOW
            return refused
        return view(request, *args, **kwargs)

    return wrapped
