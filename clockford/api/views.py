"""The read API: endpoints, each with its typed schema (clockford/api/schemas.py), and its docs page.

Everything here is what the town already shows every agent, or publishes for anyone to check: the
census and its seal, the public map, feed and counts (clockford/public/services.py, the same answers
the map page gives), and the Archive's signed checkpoints with their proofs. No endpoint reads a
passport, a person, a note, a letter or any words an agent wrote.
"""

import functools
import math
import re
from pathlib import Path
from typing import Annotated, Any

import ninja
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.urls import path
from django.utils.html import escape
from ninja import NinjaAPI, Query, Status
from ninja.errors import ValidationError
from ninja.openapi.docs import DocsBase
from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

from clockford.api import schemas as s
from clockford.public import services as public
from clockford.town import archive, witness
from clockford.town.models import Checkpoint
from districts.town_hall import public as census

PAGE_SIZE = 100
NINJA_STATIC = Path(ninja.__file__).parent / "static" / "ninja"
DOCS_FILES = {
    "swagger-ui.css": "text/css",
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui-init.js": "text/javascript",
}


class Docs(DocsBase):
    """Swagger UI served from the town itself (the CSP allows nothing else), with no inline script."""

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        # Constant JSON with no "<": safe inside the script element as it is.
        settings = '{"url": "/api/openapi.json", "layout": "BaseLayout", "deepLinking": true}'
        return HttpResponse(
            "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
            f"<title>{escape(api.title)}</title>"
            '<link rel=stylesheet href="/api/docs/swagger-ui.css"></head><body>'
            f'<script type="application/json" id="swagger-settings">{settings}</script>'
            '<div id="swagger-ui"></div>'
            '<script src="/api/docs/swagger-ui-bundle.js"></script>'
            '<script src="/api/docs/swagger-ui-init.js"></script>'
            "<noscript><p>The API's description is at <a href=/api/openapi.json>/api/openapi.json</a>.</p></noscript>"
            "</body></html>"
        )


api = NinjaAPI(
    title="Clockford read API",
    version="1",
    description=(
        "What anyone may read of the town: the census and its seal, the public map, the feed, the day's "
        "counts, and the Archive's signed checkpoints with inclusion and consistency proofs (RFC 6962). "
        "Reads only; nothing private. See docs/api.md."
    ),
    urls_namespace="api",
    docs=Docs(),
    docs_url="/docs",
    openapi_url="/openapi.json",
)


WHERE = {"query": "in the query", "path": "in the path"}
DIGITS = re.compile(r"-?[0-9]+")


def _written_in_digits(value: Any) -> Any:
    """A number in a path or a query is its digits alone: pydantic's lax reading also took "1_0" for
    10, "+1", " 1" and "1.0" for 1, so one footstep or lot had many addresses, and "1_0" read as ten."""
    if isinstance(value, str) and not DIGITS.fullmatch(value):
        raise PydanticCustomError(
            "int_parsing", "Input should be a valid integer, unable to parse string as an integer"
        )
    return value


# A whole number as an address writes it (the schema still says integer).
Whole = Annotated[int, BeforeValidator(_written_in_digits)]


@api.exception_handler(ValidationError)
def unreadable(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """An argument the API cannot read (a page of "abc", a lot of "1e3"): 422 with a `say` in plain
    words, as every refusal of the API has, and pydantic's `detail` beside it for programs. The
    default answer was the detail alone."""
    parts = []
    for error in exc.errors:
        loc = [str(part) for part in error.get("loc", ())]
        name = loc[-1] if loc else "an argument"
        where = WHERE.get(loc[0], "") if loc else ""
        parts.append(f"{name}{f' ({where})' if where else ''}: {str(error.get('msg', 'unreadable')).lower()}")
    say = f"The API could not read {'; '.join(parts)}. What each endpoint takes is at /api/docs."
    return api.create_response(request, {"say": say, "detail": exc.errors}, status=422)


# What any endpoint may answer besides its own: the town's door refuses a request holding a NUL
# (clockford/nul.py, 400), and an endpoint that takes arguments refuses one it cannot read (`unreadable`
# above, 422). Said in each endpoint's description so that a client made from it expects them.
DOOR = {400: s.Refusal}
READING = {**DOOR, 422: s.Unreadable}


def pages(total: int) -> int:
    return max(1, math.ceil(total / PAGE_SIZE))


# -- The index -------------------------------------------------------------------------------------

PREFIX = "/api"


@functools.cache
def endpoints() -> list[dict[str, Any]]:
    """Every endpoint but the index, read from the API's own OpenAPI description once a process: the
    index never names an endpoint the API lacks, nor misses one it has."""
    described = api.get_openapi_schema(path_prefix=PREFIX)["paths"]
    return [
        {
            "path": where,
            "query": [p["name"] for p in op["get"].get("parameters", []) if p["in"] == "query"],
            "summary": op["get"]["summary"],
        }
        for where, op in described.items()
        if where != PREFIX + "/"
    ]


@api.get("/", response={200: s.Index, **DOOR}, summary="This index: every endpoint of the read API", tags=["index"])
def index(request: HttpRequest) -> dict[str, Any]:
    """/api/ itself, where /api leads: it was a 404, the one address of the API a person tries first."""
    return {
        "name": api.title,
        "version": api.version,
        "docs": PREFIX + "/docs",
        "openapi": PREFIX + "/openapi.json",
        "endpoints": endpoints(),
    }


# -- The census ------------------------------------------------------------------------------------


@api.get("/census", response={200: s.Census, **DOOR}, summary="The census: its name, counts and seal", tags=["census"])
def census_summary(request: HttpRequest) -> dict[str, Any]:
    return census.summary()


@api.get(
    "/census/lots", response={200: s.LotPage, **READING}, summary="The census's lots, a page at a time", tags=["census"]
)
def census_lots(request: HttpRequest, page: Whole = Query(1, ge=1, le=10**6)) -> dict[str, Any]:  # noqa: B008
    total, items = census.lots_page(page)
    return {"page": page, "pages": max(1, math.ceil(total / census.PAGE_SIZE)), "lots": total, "items": items}


@api.get(
    "/census/lots/{lot}",
    response={200: s.LotDetail, 404: s.Refusal, **READING},
    summary="One lot: its record, its integrity with every deduction, and its seal proof",
    tags=["census"],
    by_alias=True,
)
def census_lot(request: HttpRequest, lot: Whole) -> Status[dict[str, Any]]:
    found = census.lot(lot)
    if found is None:
        return Status(404, {"say": "No lot by that number."})
    return Status(200, found)


# -- The public town: the map, the feed, the day's counts ---------------------------------------------


def public_get(path: str, response: Any, summary: str) -> Any:
    """The public town's reads: camelCase names as the MCP tools give them, and fields left unset
    (a district with nothing to show) left out rather than sent as null."""
    return api.get(path, response=response, summary=summary, tags=["public"], by_alias=True, exclude_unset=True)


@public_get(
    "/map",
    {200: s.TownMap, **DOOR},
    "The public map: districts, agents present by pennant, the Studios, the Market, the day's counts",
)
def town_map(request: HttpRequest) -> dict[str, Any]:
    return public.the_map()


@public_get("/feed", {200: s.Feed, **READING}, "The public feed: published notices and channel messages, newest first")
def feed(request: HttpRequest, page: Whole = Query(1, ge=1, le=10**6)) -> dict[str, Any]:  # noqa: B008
    return public.the_feed(page)


@public_get(
    "/counts",
    {200: s.DailyCounts, **DOOR},
    "The day's rounded counts: kits drawn, course attendance, runs per district",
)
def counts(request: HttpRequest) -> dict[str, Any]:
    return public.daily_counts()


# -- The Archive -----------------------------------------------------------------------------------


def view(cp: Checkpoint) -> dict[str, Any]:
    v = archive.checkpoint_view(cp)
    return {**v, "cosignatures": witness.shown(cp.size, v["checkpoint"])}


NO_CHECKPOINT = {"say": "No checkpoint yet: the Archive is empty."}
FIRST_AFTER_SECOND = "The first size must be no larger than the second. What each endpoint takes is at /api/docs."


@api.get(
    "/archive/checkpoint",
    response={200: s.Checkpoint, 404: s.Refusal, **DOOR},
    summary="The Archive's latest signed checkpoint",
    tags=["archive"],
)
def latest_checkpoint(request: HttpRequest) -> Status[dict[str, Any]]:
    cp = archive.latest_checkpoint()
    return Status(200, view(cp)) if cp is not None else Status(404, NO_CHECKPOINT)


@api.get(
    "/archive/checkpoints",
    response={200: s.CheckpointPage, **READING},
    summary="Every signed checkpoint, newest first, a page at a time",
    tags=["archive"],
)
def checkpoints(request: HttpRequest, page: Whole = Query(1, ge=1, le=10**6)) -> dict[str, Any]:  # noqa: B008
    total = Checkpoint.objects.count()
    start = (page - 1) * PAGE_SIZE
    items = [view(cp) for cp in Checkpoint.objects.order_by("-size")[start : start + PAGE_SIZE]]
    return {"page": page, "pages": pages(total), "checkpoints": total, "items": items}


@api.get(
    "/archive/checkpoints/{size}",
    response={200: s.Checkpoint, 404: s.Refusal, **READING},
    summary="The signed checkpoint of one tree size",
    tags=["archive"],
)
def checkpoint(request: HttpRequest, size: Whole) -> Status[dict[str, Any]]:
    cp = Checkpoint.objects.filter(size=size).first()
    if cp is None:
        return Status(404, {"say": f"The town signed no checkpoint of size {size}."})
    return Status(200, view(cp))


@api.get(
    "/archive/proof/{footstep}",
    response={200: s.Inclusion, 404: s.Refusal, 503: s.Refusal, **READING},
    summary="An inclusion proof for one footstep against the latest checkpoint",
    tags=["archive"],
)
def inclusion(request: HttpRequest, footstep: Whole) -> Status[dict[str, Any]]:
    if footstep < 1:
        # "(yet)" would promise a footstep that can never come.
        return Status(404, {"say": f"There is no footstep #{footstep}: footsteps are numbered from 1."})
    if not archive.in_tree(footstep):
        return Status(404, {"say": f"Footstep #{footstep} is not in the tree (yet)."})
    try:
        proof = archive.inclusion(footstep)
    except archive.Damaged as exc:
        return Status(503, {"say": str(exc)})
    except ValueError as exc:
        return Status(404, {"say": str(exc)})
    return Status(200, {**proof, "verifies": archive.verify_inclusion(proof)})


@api.get(
    "/archive/consistency",
    response={200: s.Consistency, 404: s.Refusal, 503: s.Refusal, **READING},
    summary="A consistency proof (RFC 6962 2.1.2) between two signed tree sizes",
    tags=["archive"],
)
def consistency(
    request: HttpRequest,
    first: Whole = Query(..., ge=1, description="The older signed tree size."),  # noqa: B008
    second: Whole = Query(..., ge=1, description="The newer signed tree size."),  # noqa: B008
) -> Status[dict[str, Any]] | HttpResponse:
    if first > second:
        # Arguments the API cannot use together (docs/api.md: 422), not a checkpoint it lacks (404).
        # Answered as it is, not through the schema, which would add `detail: null`: there is no
        # argument pydantic could not read.
        return api.create_response(request, {"say": FIRST_AFTER_SECOND}, status=422)
    try:
        proof = archive.consistency(first, second)
    except archive.Damaged as exc:
        return Status(503, {"say": str(exc)})
    except ValueError as exc:
        return Status(404, {"say": str(exc)})
    proof["first"]["cosignatures"] = witness.shown(first, proof["first"]["checkpoint"])
    proof["second"]["cosignatures"] = witness.shown(second, proof["second"]["checkpoint"])
    return Status(200, {**proof, "verifies": archive.verify_consistency(proof)})


# -- The docs page's own files ---------------------------------------------------------------------


def docs_file(request: HttpRequest, name: str) -> HttpResponse:
    if name not in DOCS_FILES:
        raise Http404(name)
    response = HttpResponse((NINJA_STATIC / name).read_bytes(), content_type=DOCS_FILES[name])
    response["Cache-Control"] = "public, max-age=86400"
    return response


def to_index(request: HttpRequest) -> HttpResponse:
    """/api, where a person types the API's address: to its index. Django's own slash-adding redirect
    was made around the API's middleware, without its CORS, so a page elsewhere could not follow it,
    and a POST to /api was redirected rather than refused."""
    return HttpResponsePermanentRedirect(PREFIX + "/")


urlpatterns = [
    path("docs/<str:name>", docs_file),
    path("", api.urls),
]
