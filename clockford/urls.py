from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import include, path

from clockford.metrics.views import metrics
from clockford.reads import reads_only
from clockford.town import desk


@reads_only
def status(request: HttpRequest) -> JsonResponse:
    """GET /status: the town's mode, for clients deciding whether to wait."""
    return JsonResponse({"mode": desk.town_mode()})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Any path the town does not serve: "Not found." in plain text (001 section 02), and for a person's
    browser in the hall, a page of the hall that says so and where to go instead."""
    if request.path.startswith(("/hall/", "/oauth/")) and "text/html" in request.headers.get("Accept", ""):
        return render(request, "hall/not_found.html", status=404)
    return HttpResponse("Not found.", status=404, content_type="text/plain; charset=utf-8")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A request Django cannot read (a Host header of two names, say): "Bad request." in plain text (001
    section 02), not Django's own page."""
    return HttpResponse("Bad request.", status=400, content_type="text/plain; charset=utf-8")


@reads_only
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever a page links: the hall's own icon."""
    return redirect("/static/hall/icon.svg", permanent=True)


urlpatterns = [
    path("status", status),
    path("metrics", metrics),
    path("favicon.ico", favicon),
    # The read API (clockford/api, docs/api.md).
    path("api/", include("clockford.api.views")),
    # The public town (clockford/public): the map at the root, the feed; before the hall, whose
    # static route would otherwise answer for the public pages' own files.
    path("", include("clockford.public.urls")),
    path("", include("hall.urls")),
    path("", include("hall.oauth_urls")),
]

handler400 = "clockford.urls.bad_request"
handler404 = "clockford.urls.not_found"
