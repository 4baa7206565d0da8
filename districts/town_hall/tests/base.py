"""Registry entries written for tests (calls through the real desk are in districts/testing.py).

`listing(...)` builds one entry in the registry's list shape; `take(...)` imports entries in process
through the same code as `manage.py census import`.
"""

from typing import Any

from districts.town_hall import ingest, services
from districts.town_hall.models import CensusState, Lot

OFFICIAL = "io.modelcontextprotocol.registry/official"


def listing(
    name: str,
    version: str = "1.0.0",
    *,
    description: str = "Reads and writes rows of a PostgreSQL database with read-only roles.",
    title: str | None = "A title",
    repo: str | None = "https://github.com/acme/thing",
    remotes: list[dict[str, Any]] | None = None,
    packages: list[dict[str, Any]] | None = None,
    status: str | None = "active",
    published: str | None = "2026-05-01T10:00:00Z",
    updated: str | None = None,
    census_meta: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    server: dict[str, Any] = {"name": name, "description": description, "version": version}
    if title is not None:
        server["title"] = title
    if repo is not None:
        server["repository"] = {"url": repo, "source": "github"}
    if remotes is not None:
        server["remotes"] = remotes
    if packages is None and remotes is None:
        packages = [
            {"registryType": "npm", "identifier": "@acme/thing", "version": version, "transport": {"type": "stdio"}}
        ]
    if packages is not None:
        server["packages"] = packages
    server.update(extra or {})
    official: dict[str, Any] = {"isLatest": True}
    if status is not None:
        official["status"] = status
    if published is not None:
        official["publishedAt"] = published
        official["updatedAt"] = updated or published
    meta: dict[str, Any] = {OFFICIAL: official}
    if census_meta is not None:
        meta["census"] = census_meta
    return {"server": server, "_meta": meta}


def take(items: list[dict[str, Any]], source: str = "tests") -> tuple[ingest.Tally, CensusState]:
    return ingest.import_items(items, source)


def lot(name: str) -> Lot:
    return Lot.objects.get(name=name)


def found_names(need: str, limit: int = 8) -> list[str]:
    """The names ask_directory's reading finds for a need, best first: the need read, its unwanted
    kinds left out."""
    terms, cased = services.read_need(need)
    found = services.find(terms, limit, cased=cased, excluded=services.excluded_of(need))
    return [r["name"] for r in found.records]
