"""`manage.py census sync` against a registry on loopback: a small server started by the test serves
the registry's list API (GET /v0.1/servers, cursor paging, updated_since) from the real snapshot.

The first sync reads every page and gives the same census as importing the same entries from a file;
the next asks only for what changed since and fetches exactly that; lot numbers never move; and a sync
cut off mid-way resumes from the page it stopped at. Skipped where ../shared is absent.
"""

import json
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.standins import Handler, serve, stop
from tests.support import SHARED, Town

SNAPSHOT = SHARED / "census" / "registry-snapshot.json"
pytestmark = pytest.mark.skipif(not SNAPSHOT.is_file(), reason="../shared/census is not here")

OFFICIAL = "io.modelcontextprotocol.registry/official"
FIRST_UNTIL = "2025-10-20T00:00:00Z"
THEN_UNTIL = "2025-11-10T00:00:00Z"


def updated(e: dict[str, Any]) -> str:
    return e["_meta"][OFFICIAL].get("updatedAt") or ""


def key(e: dict[str, Any]) -> str:
    return f"{e['server']['name']}:{e['server']['version']}"


class Registry:
    """The registry's list API over a list of entries, as its handlers answer it."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.requests: list[dict[str, str]] = []
        self.served = 0
        self.fail_on: int | None = None

    def page(self, q: dict[str, str]) -> tuple[int, dict[str, Any]]:
        self.requests.append(q)
        if self.fail_on is not None and len(self.requests) == self.fail_on:
            self.fail_on = None
            return 500, {"title": "Internal Server Error"}
        items = sorted(self.entries, key=key)
        if "updated_since" in q:
            items = [e for e in items if updated(e) > q["updated_since"]]
        start = 0
        if q.get("cursor"):
            start = next(i + 1 for i, e in enumerate(items) if key(e) == q["cursor"])
        limit = max(1, min(100, int(q.get("limit", "30"))))
        page = items[start : start + limit]
        self.served += len(page)
        meta: dict[str, Any] = {"count": len(page)}
        if start + limit < len(items):
            meta["nextCursor"] = key(page[-1])
        return 200, {"servers": page, "metadata": meta}


@pytest.fixture(scope="module")
def snapshot() -> list[dict[str, Any]]:
    return json.loads(SNAPSHOT.read_text())["servers"]


@pytest.fixture
def registry() -> Iterator[tuple[Registry, str]]:
    reg = Registry()

    class RegistryHandler(Handler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            parts = urllib.parse.urlsplit(self.path)
            if parts.path != "/v0.1/servers":
                self.send_error(404)
                return
            self.send_json(*reg.page(dict(urllib.parse.parse_qsl(parts.query))))

    server = serve(RegistryHandler)
    yield reg, f"http://127.0.0.1:{server.server_address[1]}"
    stop(server)


def lots(town: Town) -> dict[str, int]:
    code = "import json; from districts.town_hall.models import Lot; print(json.dumps(dict(Lot.objects.values_list('name', 'number'))))"
    return json.loads(town.manage("shell", "-c", code).stdout.strip().splitlines()[-1])


def root(town: Town) -> str:
    return json.loads(town.manage("census", "status").stdout)["seal"]["root"]


def test_a_sync_reads_every_page_then_only_what_changed(
    snapshot: list[dict[str, Any]], registry: tuple[Registry, str], town_factory: Callable[..., Town], tmp_path: Path
) -> None:
    reg, url = registry
    first = [e for e in snapshot if updated(e) and updated(e) <= FIRST_UNTIL]
    reg.entries = list(first)
    town = town_factory()
    out = town.manage("census", "sync", url).stdout
    assert f"{len(first):,} entries read (0 skipped), {len(first):,} new" in out
    assert all("updated_since" not in q for q in reg.requests)
    assert len(reg.requests) == -(-len(first) // 100) and reg.served == len(first)
    assert all(q["limit"] == "100" for q in reg.requests)

    # The same entries from a file make the same census, seal and all.
    same = tmp_path / "same.json"
    same.write_text(json.dumps({"servers": first}))
    twin = town_factory()
    twin.manage("census", "import", str(same))
    assert root(twin) == root(town)
    numbers = lots(town)

    # Later: new entries, and three old ones deprecated by their publishers.
    later = [e for e in snapshot if updated(e) and FIRST_UNTIL < updated(e) <= THEN_UNTIL]
    changed = []
    for e in first[:3]:
        e = json.loads(json.dumps(e))
        e["_meta"][OFFICIAL].update(status="deprecated", updatedAt="2025-11-09T12:00:00Z")
        changed.append(e)
    reg.entries = [e for e in first if key(e) not in {key(c) for c in changed}] + changed + later
    reg.requests, reg.served = [], 0
    out = town.manage("census", "sync", url).stdout
    since = max(updated(e) for e in first)
    assert reg.requests and all(q.get("updated_since", "")[:19] == since[:19] for q in reg.requests)
    assert reg.served == len(later) + len(changed)
    assert f"{len(later) + len(changed):,} entries read (0 skipped)" in out
    after = lots(town)
    assert all(after[name] == n for name, n in numbers.items())
    new_names = set(after) - set(numbers)
    assert sorted(after[n] for n in new_names) == list(range(len(numbers), len(after)))
    status = json.loads(town.manage("census", "status").stdout)
    assert status["registryEntriesBeforeDedup"] == len(first) + len(later)

    # Nothing changed since: one page, nothing fetched, nothing written.
    reg.requests, reg.served = [], 0
    before = root(town)
    out = town.manage("census", "sync", url).stdout
    assert len(reg.requests) == 1 and reg.served == 0
    assert "0 new, 0 changed" in out and root(town) == before


def test_an_interrupted_sync_resumes_where_it_stopped(
    snapshot: list[dict[str, Any]], registry: tuple[Registry, str], town_factory: Callable[..., Town], tmp_path: Path
) -> None:
    reg, url = registry
    reg.entries = [e for e in snapshot if updated(e) and updated(e) <= FIRST_UNTIL][:950]
    reg.fail_on = 4
    town = town_factory()
    cut = town.manage("census", "sync", url, check=False)
    assert cut.returncode != 0 and "did not answer" in cut.stderr
    failed_cursor = reg.requests[3]["cursor"]
    reg.requests = []
    resumed = town.manage("census", "sync", url).stdout
    assert "Resumed an interrupted sync where it stopped." in resumed
    assert reg.requests[0]["cursor"] == failed_cursor
    assert len(reg.requests) == 7  # pages 4 to 10 of 10

    whole = tmp_path / "whole.json"
    whole.write_text(json.dumps({"servers": reg.entries}))
    other = town_factory()
    other.manage("census", "import", str(whole))
    assert root(other) == root(town)
