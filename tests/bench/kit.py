"""What every bench section shares: servers on loopback, a lean MCP client, and the arithmetic.

The client is the standard library's http.client on one keep-alive connection per session, the same
for the town and the yardstick, so that what differs between them is the server. A call is timed
from the first byte sent to the last byte read; its reply is checked after the clock stops.
"""

import http.client
import json
import os
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from clockford.serve import DEFAULT_SERVER
from tests.support import PYTHON, ROOT, Town, free_port, get, make_town, sse_message, stop_process

PROTOCOL = "2025-11-25"
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
SETTLE = 0.02  # seconds of quiet before each turn of calls


class BenchError(RuntimeError):
    """The bench could not measure: a server did not start, or a call did not succeed."""


# ---------------------------------------------------------------------------------------------
# Servers


@dataclass
class Served:
    """An ASGI server serving one app on a free loopback port, started the way `./town up` starts the
    town (clockford/serve.py): the same server and the same number of worker processes for both sides."""

    app: str
    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    server: str = DEFAULT_SERVER
    workers: int = 1

    @property
    def mcp(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self) -> "Served":
        return self.launch().wait()

    def launch(self) -> "Served":
        out = open(self.log, "ab")  # noqa: SIM115 (daphne writes to it until it stops)
        # The same command line as `./town up`, apart from the app: both sides pay the same server (the
        # town with its own connection layer on uvicorn's httptools, clockford/wire.py; the bare server
        # with httptools as it comes).
        self.proc = subprocess.Popen(
            [PYTHON, "-m", "clockford.serve", "--port", str(self.port), "--workers", str(self.workers)]
            + ["--server", self.server, self.app],
            cwd=ROOT,
            env=self.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        return self

    def wait(self) -> "Served":
        """Until it answers /status; a server that does not start stops the bench."""
        assert self.proc is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if get(f"http://127.0.0.1:{self.port}/status")[0] == 200:
                    return self
            except OSError:
                pass
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise BenchError(f"{self.app} did not start:\n" + self.log.read_text()[-3000:])

    def cpu(self) -> float | None:
        """Seconds of CPU the server has used so far, its worker processes included (Linux's /proc),
        or None where that is unknown."""
        if self.proc is None:
            return None
        return tree_cpu(self.proc.pid)

    def stop(self) -> None:
        stop_process(self.proc)
        self.proc = None


def machine_speed() -> float:
    """Seconds this Python takes for a plain ten-million-step loop, best of three: how fast the
    machine is right now. The machines these figures come from run the same work at speeds as much as
    twice apart from one hour to the next, so a figure is read beside this one."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        total = 0
        for i in range(10_000_000):
            total += i
        best = min(best, time.perf_counter() - began)
    return best


def disk_flush(folder: Path, times: int = 50) -> float:
    """Seconds the disk takes to make an 8 KB write durable (fdatasync), the median of `times`: what a
    durable COMMIT waits for on PostgreSQL (and SQLite's, at a checkpoint). On these machines the disk is
    shared, and its flush moves PostgreSQL's latencies more than anything the town does."""
    path = folder / "flush.probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    spent = []
    try:
        for i in range(times):
            os.pwrite(fd, b"x" * 8192, (i % 8) * 8192)
            began = time.perf_counter()
            os.fdatasync(fd)
            spent.append(time.perf_counter() - began)
    finally:
        os.close(fd)
        path.unlink()
    return statistics.median(spent)


def tree_cpu(pid: int) -> float | None:
    """CPU seconds (user and system) of a process and every process below it, from /proc."""
    stats: dict[int, tuple[int, float]] = {}  # pid: (parent, seconds)
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return None
    for e in entries:
        try:
            fields = Path(f"/proc/{e}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        stats[int(e)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS)
    if pid not in stats:
        return None
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += stats[p][1]
        todo += [c for c, (parent, _) in stats.items() if parent == p]
    return total


def _base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLOCKFORD_", "BENCH_"))}
    env["PYTHONUNBUFFERED"] = "1"
    return env


@contextmanager
def bare_server(tmp: Path, stateless: bool = False, server: str = DEFAULT_SERVER, workers: int = 1) -> Iterator[Served]:
    """The yardstick: tests/bench/bare.py, a bare mcp 2.3.0 MCPServer with one trivial tool.
    Launched, not yet answering: call .wait() (so that both servers can start at once)."""
    env = _base_env()
    if stateless:
        env["BENCH_BARE_STATELESS"] = "1"
    served = Served("tests.bench.bare:application", env, tmp / "bare.log", server=server, workers=workers).launch()
    try:
        yield served
    finally:
        served.stop()


@contextmanager
def town_server(
    tmp: Path, phases: Path | None = None, cprofile: bool = False, server: str = DEFAULT_SERVER, workers: int = 1
) -> Iterator[tuple[Town, Served]]:
    """A fresh town (SQLite, or PostgreSQL when DATABASE_URL is set) with the town's own defaults,
    launched: call .wait(). With `phases`, it is served with timers on (tests/bench/profiled.py)."""
    town = make_town(tmp)
    # tests/support folds every second for quick tests; the bench measures the town as it ships.
    town.env.pop("CLOCKFORD_FOLD_SECONDS", None)
    # Except the clerk's rate limit: a bench makes hundreds of calls a second on one passport, which
    # the clerk would rightly answer busy. Its window costs no statement of its own either way.
    town.env["CLOCKFORD_CALLS_PER_MINUTE"] = "0"
    # And the Bank's hourly amounts, for the same reason: a bench writes thousands of times an hour on
    # one passport. Raised, not turned off, so that the cost of drawing each change stays measured.
    town.env["CLOCKFORD_CHANGES_PER_HOUR"] = str(10**9)
    town.env["CLOCKFORD_CHANGES_PER_HOUR_PER_ACCOUNT"] = str(10**9)
    # And the requests per address and per account (clockford/town/limits.py): every bench client
    # calls from one address. Raised, not turned off, so each request's upsert stays measured.
    town.env["CLOCKFORD_REQUESTS_PER_ADDRESS"] = str(10**9)
    town.env["CLOCKFORD_REQUESTS_PER_ACCOUNT"] = str(10**9)
    # And the sessions one address may open: 32 clients at once open 96 sessions (one per workload).
    town.env["CLOCKFORD_SESSIONS_PER_ADDRESS"] = str(10**6)
    env = dict(town.env)
    app = "clockford.asgi:application"
    if phases is not None:
        env["BENCH_PROFILE_OUT"] = str(phases)
        env["BENCH_CPROFILE"] = "1" if cprofile else ""
        app = "tests.bench.profiled:application"
    served = Served(app, env, town.log, port=town.port, server=server, workers=workers)
    try:
        served.launch()
        yield town, served
    finally:
        served.stop()
        town.close()


@contextmanager
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="clockford-bench-") as d:
        yield Path(d)


# ---------------------------------------------------------------------------------------------
# The client


class Session:
    """One initialized MCP session on one keep-alive connection."""

    def __init__(self, mcp_url: str, name: str = "bench") -> None:
        parts = urllib.parse.urlsplit(mcp_url)
        assert parts.hostname and parts.port
        self.path = parts.path
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        self.headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": PROTOCOL,
        }
        self.next_id = 0
        # Times the connection had to be opened again (the server closed it after a reply).
        self.reconnects = -1
        status, headers, body = self.post(
            self.message(
                "initialize",
                {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": name, "version": "1.0"}},
            )
        )
        if status != 200:
            raise BenchError(f"initialize answered {status}: {body[:300]!r}")
        if "mcp-session-id" in headers:  # a stateless server (the bare one, if asked) names none
            self.headers["Mcp-Session-Id"] = headers["mcp-session-id"]
        status, _, body = self.post(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode())
        if status != 202:
            raise BenchError(f"notifications/initialized answered {status}: {body[:300]!r}")

    def message(self, method: str, params: dict[str, Any]) -> bytes:
        self.next_id += 1
        return json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).encode()

    def call_body(self, tool: str, arguments: dict[str, Any]) -> bytes:
        return self.message("tools/call", {"name": tool, "arguments": arguments})

    def post(self, body: bytes) -> tuple[int, dict[str, str], bytes]:
        if self.conn.sock is None:
            self.reconnects += 1
        try:
            self.conn.request("POST", self.path, body, self.headers)
            resp = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed the idle connection just as the request went: once more, on a new one.
            self.conn.close()
            self.reconnects += 1
            self.conn.request("POST", self.path, body, self.headers)
            resp = self.conn.getresponse()
        data = resp.read()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data

    def close(self) -> None:
        self.conn.close()


def check_reply(tool: str, status: int, body: bytes) -> None:
    """A call that was refused or failed is not a measurement: stop the bench and say so."""
    if status != 200:
        raise BenchError(f"{tool} answered HTTP {status}: {body[:300]!r}")
    reply = sse_message(body.decode())
    result = reply.get("result")
    if not isinstance(result, dict) or result.get("isError"):
        raise BenchError(f"{tool} did not succeed: {json.dumps(reply)[:500]}")


# A workload: which server, and for each call the tool and its arguments (the call's index given).
Arguments = Callable[[int], dict[str, Any]]


@dataclass
class Workload:
    label: str
    url: str
    tool: str
    arguments: Arguments
    # The server's CPU seconds so far, to charge each run with what the server spent on it.
    cpu: Callable[[], float | None] = lambda: None


@dataclass
class Tally:
    """Latencies in seconds, and the wall time of the runs that produced them."""

    latencies: list[float] = field(default_factory=list)
    wall: float = 0.0
    calls: int = 0
    reconnects: int = 0
    cpu: float | None = 0.0  # the server's CPU seconds over the runs (None: unknown)
    # Calls a second in each round of a concurrent run, in the order run: each workload's rounds sit
    # beside the others' of the same number, run one after another, so the machine's other work
    # weighs on them alike, and the spread of their ratios says how far that work moved the whole.
    rounds: list[float] = field(default_factory=list)

    def p(self, q: float) -> float:
        xs = sorted(self.latencies)
        if not xs:
            return float("nan")
        return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]

    @property
    def median(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("nan")

    @property
    def per_second(self) -> float:
        return self.calls / self.wall if self.wall else float("nan")

    @property
    def cpu_per_call(self) -> float:
        return self.cpu / self.calls if self.cpu is not None and self.calls else float("nan")


class Caller:
    """Runs one workload's calls on one client, renewing the session when the workload asks."""

    def __init__(self, w: Workload, name: str) -> None:
        self.w = w
        self.name = name
        self.session: Session | None = None
        self.index = 0

    def _session(self) -> Session:
        if self.session is None:
            self.session = Session(self.w.url, self.name)
        return self.session

    def run(self, n: int, tally: Tally | None) -> None:
        """n calls, one after another; timed into `tally` (None: a warm-up)."""
        replies: list[tuple[int, bytes]] = []
        latencies: list[float] = []
        reconnects = 0
        for _ in range(n):
            s = self._session()
            before = s.reconnects
            body = s.call_body(self.w.tool, self.w.arguments(self.index))
            t0 = time.perf_counter()
            status, _, data = s.post(body)
            latencies.append(time.perf_counter() - t0)
            replies.append((status, data))
            reconnects += s.reconnects - before
            self.index += 1
        for status, data in replies:
            check_reply(self.w.tool, status, data)
        if tally is not None:
            tally.latencies += latencies
            tally.wall += sum(latencies)
            tally.calls += n
            tally.reconnects += reconnects

    def close(self) -> None:
        if self.session is not None:
            self.session.close()


@contextmanager
def charged(w: Workload, tally: Tally) -> Iterator[None]:
    """Add the server's CPU seconds over the block to the tally (None once it is unknown)."""
    before = w.cpu()
    yield
    after = w.cpu()
    if tally.cpu is not None:
        tally.cpu = None if before is None or after is None else tally.cpu + after - before


def sequential(workloads: list[Workload], calls: int, warmup: int, rounds: int) -> dict[str, Tally]:
    """`calls` calls of each workload on one client each, interleaved in `rounds` so that drift
    (the machine's other work, the Archive's folds) falls on every workload alike. Not call by call:
    a server's work after its reply would then land on the other server's next call."""
    callers = [Caller(w, "bench-seq") for w in workloads]
    tallies = {w.label: Tally() for w in workloads}
    try:
        for c in callers:
            c.run(warmup, None)
        per_round = [calls // rounds + (1 if r < calls % rounds else 0) for r in range(rounds)]
        for r, n in enumerate(per_round):
            # Turn the order every round, so no workload always follows the same one.
            order = callers[r % len(callers) :] + callers[: r % len(callers)]
            for c in order:
                # A server may still be tidying up after its last reply; let it finish, so that
                # work is not charged to the next server's calls, and count it to its own.
                time.sleep(SETTLE)
                tally = tallies[c.w.label]
                with charged(c.w, tally):
                    c.run(n, tally)
                    time.sleep(SETTLE)
    finally:
        for c in callers:
            c.close()
    return tallies


def _together(callers: list["Caller"], share: list[int]) -> tuple[list[Tally], float]:
    """Each caller on its own thread, all released at once; returns their tallies and the wall time."""
    parts = [Tally() for _ in callers]
    errors: list[BaseException] = []
    start = threading.Barrier(len(callers) + 1)

    def work(c: Caller, t: Tally, n: int) -> None:
        try:
            start.wait()
            c.run(n, t)
        except BaseException as e:  # reported below, on the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=args) for args in zip(callers, parts, share, strict=True)]
    for th in threads:
        th.start()
    start.wait()
    t0 = time.perf_counter()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t0
    if errors:
        raise errors[0]
    return parts, wall


def concurrent(workloads: list[Workload], calls: int, clients: int, warmup: int, rounds: int = 1) -> dict[str, Tally]:
    """`clients` clients at once, each with its own session and connection, `calls` calls of each
    workload in all, interleaved in `rounds` as the sequential run's are (each round, each workload in
    turn, the order turned every round). Throughput is calls over the wall time of the runs."""
    tallies = {w.label: Tally() for w in workloads}
    crowds = [[Caller(w, f"bench-{i}") for i in range(clients)] for w in workloads]
    try:
        for crowd in crowds:
            for c in crowd:
                c.run(max(1, warmup // clients), None)
        per_round = [calls // rounds + (1 if r < calls % rounds else 0) for r in range(rounds)]
        for r, n in enumerate(per_round):
            order = crowds[r % len(crowds) :] + crowds[: r % len(crowds)]
            for crowd in order:
                total = tallies[crowd[0].w.label]
                share = [n // clients + (1 if i < n % clients else 0) for i in range(clients)]
                time.sleep(SETTLE)
                with charged(crowd[0].w, total):
                    parts, wall = _together(crowd, share)
                    time.sleep(SETTLE)
                total.wall += wall
                if wall:
                    total.rounds.append(sum(t.calls for t in parts) / wall)
                for t in parts:
                    total.latencies += t.latencies
                    total.calls += t.calls
                    total.reconnects += t.reconnects
    finally:
        for crowd in crowds:
            for c in crowd:
                c.close()
    return tallies
