"""The deployment of docker-compose.yml, run without docker: Debian's caddy with the very Caddyfile the
compose file mounts (templated only by the variables the compose file sets on the proxy), two town
workers served as the town's image serves them, PostgreSQL and the sweep beside them. A real MCP client
and Chromium's hall go through the proxy; the compose file itself validates with docker-compose.

It runs on PostgreSQL, as the deployment does: in CI's PostgreSQL pass (marked postgresql), or with
`DATABASE_URL=postgresql://... ./town test tests/browser/test_deployment.py`.
"""

import asyncio
import os
import re
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation, TextContent
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Person
from tests.support import PYTHON, ROOT, RawSession, Town, free_port, get, make_town, stop_process, which

COMPOSE = ROOT / "docker-compose.yml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
MOUNT = "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"
# CI's PostgreSQL run leaves the hall's browser tests out (they ran on SQLite) but takes this file.
pytestmark = pytest.mark.postgresql


def need(thing: str, why: str) -> None:
    """Skip where a part of the deployment is missing here, but fail in CI, which installs it."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{thing} is missing: {why}")
    pytest.skip(f"{thing} is missing: {why}")


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def caddyfile_variables() -> set[str]:
    return set(re.findall(r"\{\$([A-Z_]+)\}", CADDYFILE.read_text()))


def test_the_compose_file_validates() -> None:
    exe = which("docker-compose")
    if exe is None:
        need("docker-compose", "apt-get install -y docker-compose (.ci/run installs it)")
    done = subprocess.run([exe, "-f", str(COMPOSE), "config", "-q"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_proxy_is_the_mounted_caddyfile_templated_by_the_compose_files_variables() -> None:
    services = compose()["services"]
    proxy = services["proxy"]
    assert MOUNT in proxy["volumes"]
    assert caddyfile_variables() == set(proxy["environment"])
    # The town believes forwarded headers only from the proxy's own address.
    trusted = services["town"]["environment"]["CLOCKFORD_TRUSTED_PROXIES"]
    assert trusted == proxy["networks"]["inside"]["ipv4_address"]
    assert services["sweep"]["command"].strip().endswith('exec python manage.py sweep --every 300"')
    assert services["town"]["environment"]["CLOCKFORD_SWEEP_SECONDS"] == "0"
    assert list(proxy["ports"]) and all("ports" not in services[s] for s in ("town", "sweep", "db"))


@dataclass
class Deployment:
    site: str
    port: int
    town: Town
    sweep_log: Path
    proxy_log: Path


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        pytest.skip("the deployment runs on PostgreSQL: set DATABASE_URL (CI's PostgreSQL pass does)")
    caddy = which("caddy")
    if caddy is None:
        need("caddy", "apt-get install -y caddy (.ci/run installs it)")
    tmp = tmp_path_factory.mktemp("deploy")
    port = free_port()
    site = f"http://localhost:{port}"
    town_env = compose()["x-town-env"]
    env = {
        # As the compose file sets them, for this machine: the proxy is on loopback here.
        "CLOCKFORD_URL": site,
        "CLOCKFORD_TRUSTED_PROXIES": "127.0.0.1",
        "CLOCKFORD_SWEEP_SECONDS": town_env["CLOCKFORD_SWEEP_SECONDS"],
    }
    town = make_town(tmp, env=env, server="uvicorn", workers=2).start()
    sweep_log, proxy_log = tmp / "sweep.log", tmp / "caddy.log"
    with open(sweep_log, "ab") as out:
        sweep = subprocess.Popen(
            [PYTHON, "manage.py", "sweep", "--every", "2"], cwd=ROOT, env=town.env, stdout=out, stderr=subprocess.STDOUT
        )
    proxy_env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp),
        "XDG_DATA_HOME": str(tmp / "caddy-data"),
        "XDG_CONFIG_HOME": str(tmp / "caddy-config"),
        "CLOCKFORD_SITE": site,
        "CLOCKFORD_UPSTREAM": f"127.0.0.1:{town.port}",
        "CLOCKFORD_BIND": "127.0.0.1",
    }
    assert {k for k in proxy_env if k.startswith("CLOCKFORD_")} == caddyfile_variables()
    with open(proxy_log, "ab") as out:
        proxy = subprocess.Popen(
            [caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            env=proxy_env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if get(site + "/status")[0] == 200:
                    break
            except OSError:
                pass
            assert proxy.poll() is None, proxy_log.read_text()[-3000:]
            assert time.monotonic() < deadline, proxy_log.read_text()[-3000:]
            time.sleep(0.2)
        yield Deployment(site, port, town, sweep_log, proxy_log)
    finally:
        stop_process(proxy)
        stop_process(sweep)
        town.close()


def calls_counted(text: str, tool: str) -> int:
    return sum(
        int(float(n)) for n in re.findall(rf'^clockford_calls_total{{tool="{tool}",outcome="ok"}} (\S+)$', text, re.M)
    )


def test_a_real_mcp_client_works_through_the_proxy_and_the_town_sees_the_visitor(deployment: Deployment) -> None:
    said: list[str] = []

    async def errand() -> None:
        async with (
            streamable_http_client(deployment.site + "/mcp") as (read, write),
            ClientSession(read, write, client_info=Implementation(name="through-the-proxy", version="1")) as s,
        ):
            await s.initialize()
            names = {t.name for t in (await s.list_tools()).tools}
            assert {"look_around", "remember", "recall"} <= names
            # Several calls: the proxy's connections reach both workers, and the session is in the database.
            for i in range(6):
                kept = await s.call_tool("remember", {"key": f"k{i}", "value": f"note {i}"})
                assert kept.is_error is False, kept
            for i in range(6):
                got = await s.call_tool("recall", {"key": f"k{i}"})
                assert got.structured_content is not None and got.structured_content["value"] == f"note {i}"
            first = got.content[0]
            assert isinstance(first, TextContent)
            said.append(first.text)

    # On a thread of its own: Playwright's sync API holds this thread's event loop in this module.
    errors: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(errand())
        except BaseException as e:
            errors.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join(120)
    assert not errors, errors
    assert said and "footstep #" in said[0]

    # /metrics through the proxy: the visitor is on this machine. The proxy replaced the address the
    # visitor claimed with the one it saw, so the claim changes nothing.
    deadline = time.monotonic() + 10
    while True:
        status, _, text = get(deployment.site + "/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
        assert status == 200, text
        if calls_counted(text, "recall") == 6 and calls_counted(text, "remember") == 6:
            break
        assert time.monotonic() < deadline, text
        time.sleep(0.3)
    # Straight to a worker, the same claim comes from the trusted proxy's address: it is believed,
    # and a visitor from elsewhere is refused without the token.
    status, _, text = get(deployment.town.url + "/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
    assert (status, text) == (403, "Metrics are served to this machine, or with the metrics token.\n")


def test_the_hall_in_chromium_through_the_proxy_shows_a_held_call_live(
    browser: Browser, deployment: Deployment
) -> None:
    p = Person(browser, deployment)  # type: ignore[arg-type]  (it needs only the port people use)
    try:
        printed = deployment.town.manage("hall_ready").stdout.splitlines()[-1]
        m = re.fullmatch(r"This town has no owner yet\. Claim it once, with a passkey, at: (\S+)", printed)
        assert m and m.group(1).startswith(deployment.site + "/hall/claim/"), printed
        p.device()
        p.page.goto(m.group(1))
        p.page.fill("#name", "Olive")
        p.page.click("text=Make a passkey and claim the town")
        expect(p.page.locator("h1")).to_have_text("Waiting for you")

        frames: list[str] = []
        p.page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
        p.goto("/hall/")
        expect(p.page.locator("h1")).to_have_text("Waiting for you")
        deadline = time.monotonic() + 30
        while not frames and time.monotonic() < deadline:
            p.page.wait_for_timeout(50)
        assert frames and '"waiting": 0' in frames[0], frames  # the live socket, through the proxy

        agent = RawSession(deployment.site + "/mcp", client_name="notice-writer")
        held = agent.call("post_notice", {"text": "Looking for a read-only Postgres MCP server."})
        hold = held["structuredContent"]["hold"]
        row = p.page.locator(f'#queue [data-item="{hold["id"]}"]')
        expect(row).to_be_visible()
        expect(row).to_contain_text("Looking for a read-only Postgres MCP server.")
        agent.delete()
    finally:
        p.close()
    assert p.troubles == [] and p.responses > 0


def test_the_sweep_runs_beside_the_workers(deployment: Deployment) -> None:
    deadline = time.monotonic() + 30
    while "Swept " not in deployment.sweep_log.read_text():
        assert time.monotonic() < deadline, deployment.sweep_log.read_text()
        time.sleep(0.5)
    assert "Traceback" not in deployment.sweep_log.read_text()
