import logging
import sys

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import include, path
from django.views import defaults

from clockford.api import views as api_views
from clockford.metrics.views import metrics
from clockford.reads import reads_only
from clockford.town import desk, tooling

log = logging.getLogger(__name__)


@reads_only
def status(request: HttpRequest) -> JsonResponse:
    """GET /status: the town's mode, for clients deciding whether to wait."""
    return JsonResponse({"mode": desk.town_mode()})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Any path the town does not serve: "Not found." in plain text (001 section 02), and for a person's
    browser a page that says so and where to go instead: the hall's under the hall, the public town's
    elsewhere. Clients of /mcp, the API and the metadata always get the plain words."""
    if "text/html" in request.headers.get("Accept", ""):
        if request.path.startswith(("/hall/", "/oauth/")):
            return render(request, "hall/not_found.html", status=404)
        if not request.path.startswith(("/mcp", "/api/", "/.well-known/")):
            return render(request, "public/not_found.html", {"town_name": settings.HALL_NAME}, status=404)
    return HttpResponse("Not found.", status=404, content_type="text/plain; charset=utf-8")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A request Django cannot read (a Host header of two names, say): "Bad request." in plain text (001
    section 02), not Django's own page."""
    return HttpResponse("Bad request.", status=400, content_type="text/plain; charset=utf-8")


# A page's database error that is not "busy" (a full disk, a file made read-only, a table gone): no time it is known
# to end, so no Retry-After. Django has logged the error with its traceback before this is said.
UNWRITABLE_SAY = (
    "The town cannot use its database just now. Try again later; if it goes on, tell whoever runs this town."
)


def server_error(request: HttpRequest) -> HttpResponse:
    """What escaped a page, the API or a middleware around them (a hall sign-in's session saved as the
    page went out): a database busy past the town's wait (a lock held too long, PostgreSQL restarting)
    is the clerk's 503 with Retry-After, as at /mcp (clockford/face/http.py); any other database error
    a 503 that says the town cannot use it. Plain text, both: a page of the hall would read the same
    database again to be drawn. Anything else is Django's own 500, logged by Django."""
    error = sys.exc_info()[1]
    if isinstance(error, DatabaseError) and desk.is_busy(error):
        log.warning("the database was busy for %s: %s", request.path, error)
        seconds = desk.BUSY_RETRY_SECONDS
        return HttpResponse(
            tooling.busy_say(seconds),
            status=503,
            content_type="text/plain; charset=utf-8",
            headers={"Retry-After": str(seconds)},
        )
    if isinstance(error, DatabaseError):
        return HttpResponse(UNWRITABLE_SAY, status=503, content_type="text/plain; charset=utf-8")
    return defaults.server_error(request)


@reads_only
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever a page links: the hall's own icon."""
    return redirect("/static/hall/icon.svg", permanent=True)


urlpatterns = [
    path("status", status),
    path("metrics", metrics),
    path("favicon.ico", favicon),
    # The read API (clockford/api, docs/api.md).
    path("api", api_views.to_index),
    path("api/", include("clockford.api.views")),
    # The public town (clockford/public): the map at the root, the feed; before the hall, whose
    # static route would otherwise answer for the public pages' own files.
    path("", include("clockford.public.urls")),
    path("", include("hall.urls")),
    path("", include("hall.oauth_urls")),
]

handler400 = "clockford.urls.bad_request"
handler404 = "clockford.urls.not_found"
handler500 = "clockford.urls.server_error"
