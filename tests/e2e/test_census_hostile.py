"""A town pointed at a registry that breaks or attacks, as `./town up` syncs before it serves
(`manage.py census ensure --url`): the sync stops in words, the command ends well (`./town up` runs
under `set -e`, so a traceback there was a town that never served), and the town serves its agents
the census it sealed before, ask_directory and verify over MCP included."""

import json
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from districts.town_hall.tests.base import listing
from tests.standins import Handler, serve, stop
from tests.support import RawSession, Town

BROKEN = {
    # Arrays nested past the JSON reader.
    "/deep/v0.1/servers": b"HTTP/1.1 200 OK\r\nContent-Length: 400000\r\n\r\n" + b"[" * 200_000 + b"]" * 200_000,
    # Shorter than it says.
    "/short/v0.1/servers": b'HTTP/1.1 200 OK\r\nContent-Length: 900\r\n\r\n{"servers": [',
    # A terminal's escape in its reason.
    "/escape/v0.1/servers": b"HTTP/1.1 502 \x1b]0;owned\x07Bad\r\nContent-Length: 0\r\n\r\n",
}


@pytest.fixture
def registry() -> Iterator[str]:
    class Broken(Handler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            self.wfile.write(BROKEN[urllib.parse.urlsplit(self.path).path])
            self.close_connection = True

    server = serve(Broken)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    stop(server)


def test_a_broken_registry_leaves_the_town_serving_its_sealed_census(
    registry: str, town_factory: Callable[..., Town], tmp_path: Path
) -> None:
    snapshot = tmp_path / "census.json"
    snapshot.write_text(
        json.dumps(
            {
                "servers": [
                    listing("com.acme/postgres-reader"),
                    listing("com.acme/weather", description="Weather forecasts for any city, by the hour."),
                ]
            }
        )
    )
    town = town_factory()
    town.manage("census", "import", str(snapshot))
    sealed = json.loads(town.manage("census", "status").stdout)["seal"]
    for path in ("deep", "short", "escape"):
        run = town.manage("census", "ensure", "--url", f"{registry}/{path}", check=False)
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr[-2000:]
        assert run.stdout.startswith("Census sync failed, serving the census as it was: The registry did not answer")
        assert "\x1b" not in run.stdout and "\x07" not in run.stdout
    assert "HTTP Error 502: ⟦U+001B⟧]0;owned⟦U+0007⟧Bad" in run.stdout
    assert json.loads(town.manage("census", "status").stdout)["seal"] == sealed

    town.start()
    s = RawSession(town.mcp)
    real = s.call("verify", {"server": "com.acme/postgres-reader"})["structuredContent"]
    assert real["real"] is True and real["server"]["lot"] == 0
    found = s.call("ask_directory", {"need": "weather forecasts"})["structuredContent"]
    assert [r["name"] for r in found["results"]][:1] == ["com.acme/weather"]
