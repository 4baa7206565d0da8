from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.views.decorators.http import require_GET

from clockford.metrics.views import metrics
from clockford.town import desk


@require_GET
def status(request: HttpRequest) -> JsonResponse:
    """GET /status: the town's mode, for clients deciding whether to wait."""
    return JsonResponse({"mode": desk.town_mode()})


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return HttpResponse("Not found.", status=404, content_type="text/plain; charset=utf-8")


urlpatterns = [
    path("status", status),
    path("metrics", metrics),
    path("", include("hall.urls")),
    path("", include("hall.oauth_urls")),
]

handler404 = "clockford.urls.not_found"
