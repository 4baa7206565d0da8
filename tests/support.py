"""Real towns for tests: a daphne process on a free loopback port, with its own database.

SQLite by default (a file in the town's own var folder); when DATABASE_URL names PostgreSQL, each town
gets a fresh database on that server, dropped when the town stops. Two towns can share one database
(`share=`), which is how the two-process test shows a session opened on one served by the other.
A small raw client (the standard library's http.client) speaks streamable HTTP for tests that need
exact statuses and bodies.
"""

import http.client
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process(proc: "subprocess.Popen[bytes] | None") -> None:
    """Stop a server we started: politely, then firmly after ten seconds."""
    if proc and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _pg_admin_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else None


def _pg_url_for(dbname: str) -> str:
    admin = _pg_admin_url()
    assert admin
    parts = urllib.parse.urlsplit(admin)
    return urllib.parse.urlunsplit(parts._replace(path="/" + dbname))


def _pg_exec(sql: str) -> None:
    import psycopg

    with psycopg.connect(_pg_admin_url(), autocommit=True) as conn:
        conn.execute(sql)


@dataclass
class Town:
    """A running town. `url` is the base address; `mcp` its /mcp endpoint."""

    port: int
    var: Path
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    pg_db: str | None = None
    owns_db: bool = True
    log: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log = self.var / "daphne.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def mcp(self) -> str:
        return self.url + "/mcp"

    def manage(self, *args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            check=check,
            timeout=timeout,
        )

    def start(self) -> "Town":
        out = open(self.log, "ab")  # noqa: SIM115 (the server writes to it until it stops)
        self.proc = subprocess.Popen(
            [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "clockford.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                status, _, _ = get(self.url + "/status")
                if status == 200:
                    return self
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("the town did not start:\n" + self.log.read_text()[-3000:])
            time.sleep(0.1)
        raise RuntimeError("the town did not answer within 30 s:\n" + self.log.read_text()[-3000:])

    def stop(self) -> None:
        stop_process(self.proc)
        self.proc = None

    def close(self) -> None:
        self.stop()
        if self.pg_db and self.owns_db:
            _pg_exec(f'DROP DATABASE IF EXISTS "{self.pg_db}" WITH (FORCE)')


def make_town(tmp: Path, env: dict[str, str] | None = None, share: Town | None = None, migrate: bool = True) -> Town:
    """Prepare (migrate) a town in `tmp`; call .start() to serve it."""
    var = tmp / f"town-{secrets.token_hex(3)}"
    var.mkdir(parents=True)
    port = free_port()
    e = {k: v for k, v in os.environ.items() if not k.startswith("CLOCKFORD_")}
    e.update(
        {
            "DJANGO_SETTINGS_MODULE": "clockford.settings",
            "CLOCKFORD_VAR": str(var),
            "CLOCKFORD_PORT": str(port),
            "CLOCKFORD_FOLD_SECONDS": "1",
            "PYTHONUNBUFFERED": "1",
        }
    )
    pg_db = None
    if share is not None:
        # Same database and the same town key: two processes of one town.
        for k in ("DATABASE_URL", "CLOCKFORD_SQLITE", "CLOCKFORD_KEY_FILE", "CLOCKFORD_SECRET_KEY"):
            if k in share.env:
                e[k] = share.env[k]
        pg_db = share.pg_db
    elif _pg_admin_url():
        pg_db = "clockford_t_" + secrets.token_hex(4)
        _pg_exec(f'CREATE DATABASE "{pg_db}"')
        e["DATABASE_URL"] = _pg_url_for(pg_db)
    else:
        e.pop("DATABASE_URL", None)
        e["CLOCKFORD_SQLITE"] = str(var / "town.sqlite3")
    if share is None:
        e["CLOCKFORD_KEY_FILE"] = str(var / "town.key")
        e["CLOCKFORD_SECRET_KEY"] = secrets.token_urlsafe(40)
    e.update(env or {})
    town = Town(port=port, var=var, env=e, pg_db=pg_db, owns_db=share is None)
    if migrate and share is None:
        town.manage("migrate", "--noinput")
    return town


def request(
    method: str, url: str, body: bytes | str | None = None, headers: dict[str, str] | None = None, timeout: float = 30
) -> tuple[int, dict[str, str], str]:
    """One HTTP request; returns (status, headers with lower-case names, body text)."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        raw = body.encode() if isinstance(body, str) else body
        h = dict(headers or {})
        conn.putrequest(method, parts.path or "/", skip_host="Host" in h, skip_accept_encoding=True)
        for k, v in h.items():
            conn.putheader(k, v)
        if raw is not None:
            conn.putheader("Content-Length", str(len(raw)))
        conn.endheaders(raw)
        resp = conn.getresponse()
        text = resp.read().decode("utf-8", "replace")
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, text
    finally:
        conn.close()


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    return request("GET", url, headers=headers)


MCP_HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
}


def sse_message(text: str) -> dict[str, Any]:
    """The one JSON-RPC message of a short event stream (or a plain JSON body)."""
    # Split on the line ends of the event-stream format only: str.splitlines would also split on
    # U+2028 and U+0085 inside the JSON of a reply that echoes them.
    data = [line[6:] for line in re.split(r"\r\n|\r|\n", text) if line.startswith("data: ")]
    return json.loads(data[-1] if data else text)


class RawSession:
    """A streamable HTTP session spoken by hand, for exact statuses and bodies."""

    def __init__(self, mcp_url: str, client_name: str = "raw-test") -> None:
        self.url = mcp_url
        self.next_id = 0
        self.sid: str | None = None
        status, headers, body = self.post(
            {
                "jsonrpc": "2.0",
                "id": self._id(),
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": client_name, "version": "1.0"},
                },
            }
        )
        assert status == 200, (status, body)
        self.sid = headers["mcp-session-id"]
        self.initialize_result = sse_message(body)["result"]
        status, _, _ = self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert status == 202, status

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        h = dict(MCP_HEADERS)
        if self.sid:
            h["Mcp-Session-Id"] = self.sid
        h.update(extra or {})
        return h

    def post(self, message: Any, extra: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        return request("POST", self.url, json.dumps(message), self.headers(extra))

    def rpc(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": self._id(), "method": method}
        if params is not None:
            msg["params"] = params
        status, _, body = self.post(msg)
        assert status == 200, (status, body)
        return sse_message(body)

    def call(self, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """tools/call; returns the CallToolResult (content, structuredContent, isError)."""
        reply = self.rpc("tools/call", {"name": tool, "arguments": arguments or {}})
        assert "result" in reply, reply
        return reply["result"]

    def delete(self) -> int:
        status, _, _ = request("DELETE", self.url, headers=self.headers())
        return status


def have_shared() -> bool:
    return (SHARED / "spec").is_dir()


def which(cmd: str) -> str | None:
    return shutil.which(cmd)
