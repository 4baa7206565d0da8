"""The census's index is built ahead (districts/town_hall/services.py build_ahead, run by each worker
on a desk thread: clockford/asgi.py ahead_loop): as the worker starts, and again within a fold's turn
of a new seal, before any question asks for it. A real town on loopback; the census changed under it
by `manage.py census import`, as an operator changes it."""

import copy
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

from tests.support import RawSession, Town

DEMO = Path(__file__).resolve().parents[2] / "districts" / "town_hall" / "demo_census.json"
BUILT = re.compile(r"built the census's index ahead for root ([0-9a-f]{64}): (\d+) lots")


def built(town: Town, root: str, seconds: float = 15) -> int:
    """How many lots the index built ahead for `root` holds, once the town's log says it was built."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for found, lots in BUILT.findall(town.log.read_text(errors="replace")):
            if found == root:
                return int(lots)
        time.sleep(0.1)
    raise AssertionError(f"no index built ahead for root {root}:\n" + town.log.read_text()[-3000:])


def sealed(output: str) -> str:
    return output.rsplit("sealed root ", 1)[1].strip().rstrip(".")


def test_a_worker_builds_the_census_index_as_it_starts_and_again_after_a_new_seal(
    town_factory: Callable[..., Town], tmp_path: Path
) -> None:
    town = town_factory(env={"CLOCKFORD_LOG_LEVEL": "INFO"})  # the line that says it was built
    first = sealed(town.manage("census", "demo").stdout)
    town.start()
    s = RawSession(town.mcp)  # daphne has no lifespan: the first /mcp request starts the worker's loops
    # As it started, before any question: every lot a question may find (the census's deleted ones aside).
    assert 0 < built(town, first) <= json.loads(town.manage("census", "status").stdout)["servers"]

    # One more server, with words no other holds, imported into the running town's census.
    demo = json.loads(DEMO.read_text())
    entry = copy.deepcopy(demo["servers"][0])
    entry["server"]["name"] = "io.clockford.demo/quillborough-tides"
    entry["server"]["description"] = "Demo: reads the tides of Quillborough harbour."
    (tmp_path / "more.json").write_text(json.dumps({**demo, "servers": [entry]}))
    second = sealed(town.manage("census", "import", str(tmp_path / "more.json")).stdout)
    assert second != first
    assert built(town, second) == built(town, first) + 1

    # The question asks the index built ahead, for the new seal, and finds what only it holds.
    found = s.call("ask_directory", {"need": "tides of Quillborough harbour", "limit": 3})["structuredContent"]
    assert found["results"][0]["name"] == "io.clockford.demo/quillborough-tides"
    assert second in json.dumps(found)
    assert len([r for r, _ in BUILT.findall(town.log.read_text()) if r == second]) == 1
