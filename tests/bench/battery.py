"""The `battery` section: the town's reliability battery (issue 12), one table, each line a figure.

`./town bench battery [--db sqlite|postgresql|both] [--quick]`. Five checks, each on a fresh town
served by daphne in one process (as the tests' towns are; the kills check kills that one process), with
the town's shipped limits; the clients run in a process of their own (tests/bench/battery_clients.py)
and speak streamable HTTP over loopback, each client from its own loopback address:

- load: many clients at once (200 for 2 minutes) making a mix of reads and writes;
- kills: numbered writes (remember, 100), the town killed with SIGKILL at random points while they are
  in flight and started again each time; the client retries each write until it is acknowledged, then
  reads every note back; `manage.py archive verify` afterwards;
- PostgreSQL restarted under load: a private PostgreSQL server (initdb in a temporary folder, on a
  port of its own: the machine's shared server is never touched) stopped for a few seconds while
  clients call and numbered writes go on;
- cycle: one client, DELETE then initialize, 1,000 times;
- fuzz: 10,000 odd requests (malformed JSON-RPC, wrong types, huge and odd Unicode, unknown tools,
  bad headers and methods).

A line fails when its figure misses its target; the section then says so loudly, and `./town bench
battery` exits 1 (it measures a promise, unlike the timing sections).
"""

import dataclasses
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.bench.kit import BenchError, scratch
from tests.support import PYTHON, ROOT, Town, free_port, make_town, templates_dir


@dataclass(frozen=True)
class Scale:
    clients: int = 200
    seconds: int = 120
    writes: int = 100
    kill_share: float = 0.5  # the share of the writes during which the town is killed
    pg_clients: int = 30
    pg_seconds: int = 40
    pg_writes: int = 100
    pg_down: float = 3.0
    cycles: int = 1000
    fuzz: int = 10_000
    fuzz_workers: int = 40


FULL = Scale()
QUICK = Scale(
    clients=10,
    seconds=4,
    writes=2,
    kill_share=1.0,
    pg_clients=6,
    pg_seconds=8,
    pg_writes=12,
    pg_down=1.5,
    cycles=70,
    fuzz=200,
    fuzz_workers=4,
)
SESSION_CAP = 64  # the town's default SESSIONS_PER_ADDRESS
# The limits tests/support raises for its test towns, put back to the town's defaults here.
RAISED = ("CLOCKFORD_REQUESTS_PER_ADDRESS", "CLOCKFORD_REQUESTS_PER_ACCOUNT", "CLOCKFORD_FAILURES_PER_ADDRESS")


# ---------------------------------------------------------------------------------------------
# The table


@dataclass(frozen=True)
class Line:
    db: str
    figure: str
    value: str
    target: str = "-"
    ok: bool | None = None  # None: a figure for context, with no target

    @property
    def result(self) -> str:
        return "-" if self.ok is None else "PASS" if self.ok else "FAIL"


def line(db: str, figure: str, value: Any, target: str = "-", ok: bool | None = None) -> Line:
    if isinstance(value, int) and not isinstance(value, bool):
        value = f"{value:,}"
    return Line(db, figure, str(value), target, ok)


def zero(db: str, figure: str, n: int) -> Line:
    return line(db, figure, n, "0", n == 0)


def acknowledged(db: str, what: str, writes: dict[str, Any], missing: int) -> list[Line]:
    """Every write acknowledged, and none of those lost: `writes` counts calls, acknowledged and lost;
    `missing`, the acknowledged writes the Archive does not hold."""
    done, calls = writes["acknowledged"], writes["calls"]
    return [
        line(db, f"{what}: writes acknowledged", f"{done}/{calls}", f"{calls}/{calls}", done == calls),
        zero(db, f"{what}: acknowledged writes lost", writes["lost"] + missing),
    ]


DB_W, FIGURE_W, VALUE_W, TARGET_W = 11, 64, 24, 12


def table(lines: list[Line]) -> list[str]:
    out = [f"  {'database':<{DB_W}}{'figure':<{FIGURE_W}}{'value':>{VALUE_W}}  {'target':<{TARGET_W}}result"]
    for x in lines:
        out.append(f"  {x.db:<{DB_W}}{x.figure:<{FIGURE_W}}{x.value:>{VALUE_W}}  {x.target:<{TARGET_W}}{x.result}")
    return out


ROW = re.compile(r"^  (SQLite|PostgreSQL)\s+(.+?)\s{2,}(\S.*?)  (\S.*?)\s+(PASS|FAIL|-)$")


def parse(text: str) -> list[Line]:
    """The table's lines back from the printed text (for tests, and for anyone reading a run's log)."""
    lines = []
    for raw in text.splitlines():
        m = ROW.match(raw.rstrip())
        if m:
            db, figure, value, target, result = m.groups()
            lines.append(
                Line(db, figure.strip(), value.strip(), target.strip(), None if result == "-" else result == "PASS")
            )
    return lines


# ---------------------------------------------------------------------------------------------
# Running the clients, and the towns


def clients(mode: str, settings: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Run battery_clients in a process of its own; its counts."""
    done = subprocess.run(
        [PYTHON, "-m", "tests.bench.battery_clients", mode, json.dumps(settings)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return _result(mode, done.returncode, done.stdout, done.stderr)


def _result(mode: str, code: int | None, stdout: str, stderr: str) -> dict[str, Any]:
    for raw in reversed(stdout.splitlines()):
        msg = json.loads(raw)
        if "result" in msg:
            result: dict[str, Any] = msg["result"]
            return result
    raise BenchError(f"the {mode} clients ended ({code}) without counts:\n{stderr[-3000:]}")


def town(tmp: Path) -> Town:
    """A fresh town (SQLite, or the PostgreSQL server DATABASE_URL names) with its shipped limits."""
    t = make_town(tmp)
    t.env.pop("CLOCKFORD_FOLD_SECONDS", None)
    for k in RAISED:
        t.env.pop(k, None)
    return t.start()


# At the quick scale, the load, cycle and fuzz checks share one town (set by battery()): each check
# calls from addresses of its own, and a town started once is a smoke test's biggest saving.
SHARED: list[Town] = []


@contextmanager
def served(tmp: Path) -> Iterator[Town]:
    """A fresh town for one check, stopped after it; or the town the checks share."""
    if SHARED:
        yield SHARED[0]
        return
    t = town(tmp)
    try:
        yield t
    finally:
        t.close()


def manage(t: Town, *args: str) -> subprocess.CompletedProcess[str]:
    return t.manage(*args, check=False, timeout=600)


@contextmanager
def private_postgres() -> Iterator["Postgres"]:
    # A folder of its own, not under the bench's scratch folder, which PostgreSQL's user may not enter.
    home = Path(tempfile.mkdtemp(prefix="clockford-battery-pg-"))
    pg = Postgres(home)
    try:
        pg.start(first=True)
        yield pg
    finally:
        try:
            pg.stop()
        finally:
            shutil.rmtree(home, ignore_errors=True)


@contextmanager
def on_private_postgres() -> Iterator["Postgres"]:
    """A private server, named by DATABASE_URL meanwhile (put it back with database_url_kept)."""
    with private_postgres() as pg:
        os.environ["DATABASE_URL"] = pg.url
        try:
            yield pg
        finally:
            # The tests' template database lived in this server, which goes with it.
            (templates_dir() / "pg.ready").unlink(missing_ok=True)


@contextmanager
def database_url_kept() -> Iterator[str | None]:
    """DATABASE_URL as it is now, given back afterwards whatever the runs set it to meanwhile."""
    saved = os.environ.get("DATABASE_URL")
    try:
        yield saved
    finally:
        if saved is None:
            os.environ.pop("DATABASE_URL", None)
        else:
            os.environ["DATABASE_URL"] = saved


class Postgres:
    """A PostgreSQL server of the battery's own, in a temporary folder on a free port (trust auth)."""

    BIN = Path(os.environ.get("CLOCKFORD_PG_BIN", "/usr/lib/postgresql/15/bin"))

    def __init__(self, home: Path) -> None:
        self.home = home
        self.port = free_port()
        self.data = home / "data"

    def _run(self, *argv: str) -> None:
        cmd = [str(self.BIN / argv[0]), *argv[1:]]
        if os.geteuid() == 0:  # PostgreSQL will not run as root: as its own user, when there is one
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise BenchError(f"{argv[0]} failed: {(done.stdout + done.stderr)[-2000:]}")

    def start(self, first: bool = False) -> None:
        if first:
            if not (self.BIN / "initdb").exists():
                raise BenchError(f"no PostgreSQL server programs in {self.BIN} (set CLOCKFORD_PG_BIN)")
            if os.geteuid() == 0:
                shutil.chown(self.home, "postgres")
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")
        opts = f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c max_connections=300"
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.home / "log"), "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"


# ---------------------------------------------------------------------------------------------
# The checks


def check_load(db: str, tmp: Path, s: Scale) -> list[Line]:
    with served(tmp) as t:
        r = clients("load", {"url": t.mcp, "clients": s.clients, "seconds": s.seconds, "seed": 12}, s.seconds + 300)
    k = r["kinds"]
    what = f"load, {s.clients} clients for {s.seconds} s"
    _samples(db, "load", r)
    return [
        line(db, f"{what}: calls answered", r["calls"]),
        line(db, f"{what}: ok / busy / refused", f"{k.get('ok', 0)} / {k.get('busy', 0)} / {k.get('refused', 0)}"),
        line(db, f"{what}: p50 / p95 latency, ms", f"{r['p50'] * 1000:.0f} / {r['p95'] * 1000:.0f}"),
        zero(db, f"{what}: HTTP 5xx", r["5xx"]),
        zero(db, f"{what}: town closures", r["closures"] + k.get("closed answers", 0)),
        # A figure without a target: daphne resets a few keep-alive connections under this many
        # clients whatever it serves (the bare SDK server too; docs/bench.md). The client reconnects.
        line(db, f"{what}: connections reset, reopened", k.get("transport errors", 0)),
        zero(db, f"{what}: clients that never finished", r["hung"]),
    ]


AFTER = """
import json, os, sys
from django.core.management import call_command
from django.core.management.base import CommandError
from clockford.town.models import Footstep
want = set(json.loads(os.environ["BATTERY_FOOTSTEPS"]))
have = set(Footstep.objects.filter(number__in=want, tool="remember", outcome="ok").values_list("number", flat=True))
print("MISSING", len(want - have))
try:
    call_command("archive", "fold")
    call_command("archive", "verify")
    print("VERIFIED")
except CommandError as e:
    print("NOT VERIFIED", e)
"""


def after_the_writes(t: Town, numbers: list[int]) -> tuple[int, bool, str]:
    """With the town stopped, in one manage.py process: how many of these footsteps the Archive has not
    (as remember, ok), and whether `manage.py archive verify` passes once the last footsteps are folded."""
    t.env["BATTERY_FOOTSTEPS"] = json.dumps(numbers)
    try:
        done = manage(t, "shell", "-c", AFTER)
    finally:
        t.env.pop("BATTERY_FOOTSTEPS")
    said = done.stdout + done.stderr
    m = re.search(r"MISSING (\d+)", said)
    if not m:
        raise BenchError("could not read the Archive's footsteps:\n" + said[-2000:])
    ok = "\nVERIFIED" in said
    why = re.search(r"NOT VERIFIED (.*)", said)
    return int(m.group(1)), ok, "passes" if ok else "FAILS: " + (why.group(1) if why else said.strip()[-80:])


def check_kills(db: str, tmp: Path, s: Scale) -> list[Line]:
    t = town(tmp)
    rng = random.Random(1212)
    kills = 0
    settings = {"url": t.mcp, "calls": s.writes, "keys_per_session": 50, "run": "k"}
    proc = subprocess.Popen(
        [PYTHON, "-m", "tests.bench.battery_clients", "writes", json.dumps(settings)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    retried = 0
    try:
        assert proc.stdout is not None
        for raw in proc.stdout:
            msg = json.loads(raw)
            if msg.get("attempt", 1) > 1:
                retried += 1
            if "sent" in msg and msg["attempt"] == 1 and rng.random() < s.kill_share:
                # A random point of this write: before the town reads it, in its transaction, after
                # its commit but before the reply is read, or after.
                time.sleep(rng.uniform(0, 0.08))
                assert t.proc is not None
                os.kill(t.proc.pid, signal.SIGKILL)
                t.proc.wait()
                kills += 1
                t.start()
            if "result" in msg:
                break
        stderr = proc.stderr.read() if proc.stderr else ""
        proc.wait(60)
        r = _result("writes", proc.returncode, raw, stderr)
        t.stop()
        missing, verified, verdict = after_the_writes(t, r["footsteps"])
    finally:
        if proc.poll() is None:
            proc.kill()
        t.close()
    what = f"kills, {s.writes} writes"
    _samples(db, "kills", r)
    return [
        line(db, f"{what}: SIGKILLs, each restarted (writes retried)", f"{kills} ({retried})"),
        *acknowledged(db, what, r, missing),
        zero(db, f"{what}: duplicated", r["duplicated"]),
        zero(db, f"{what}: sessions lost to a restart", r["reinits"]),
        zero(db, f"{what}: HTTP 5xx", r["5xx"]),
        line(db, f"{what}: archive verify", verdict, "passes", verified),
    ]


def check_pg_restart(db: str, tmp: Path, s: Scale, pg: Postgres) -> list[Line]:
    t = town(tmp)
    load_settings = {"url": t.mcp, "clients": s.pg_clients, "seconds": s.pg_seconds, "seed": 34}
    write_settings = {"url": t.mcp, "calls": s.pg_writes, "keys_per_session": 50, "run": "p"}
    load = subprocess.Popen(
        [PYTHON, "-m", "tests.bench.battery_clients", "load", json.dumps(load_settings)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    restarted = False
    try:
        time.sleep(min(5.0, s.pg_seconds / 4))  # the load is under way
        writes = subprocess.Popen(
            [PYTHON, "-m", "tests.bench.battery_clients", "writes", json.dumps(write_settings)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert writes.stdout is not None
        for raw in writes.stdout:
            msg = json.loads(raw)
            if not restarted and msg.get("sent") == s.pg_writes // 3:
                pg.stop()
                time.sleep(s.pg_down)
                pg.start()
                restarted = True
            if "result" in msg:
                break
        w = _result("writes", writes.wait(120), raw, writes.stderr.read() if writes.stderr else "")
        out, err = load.communicate(timeout=s.pg_seconds + 300)
        r = _result("load", load.returncode, out, err)
        t.stop()
        missing, verified, verdict = after_the_writes(t, w["footsteps"])
    finally:
        for p in (load,):
            if p.poll() is None:
                p.kill()
        t.close()
    what = f"PostgreSQL stopped {s.pg_down:g} s under {s.pg_clients} clients"
    _samples(db, "pg-restart load", r)
    _samples(db, "pg-restart writes", w)
    k, wk = r["kinds"], w["kinds"]
    fivehundreds = r["500"] + w["500"]
    return [
        line(db, f"{what}: calls answered", r["calls"] + sum(wk.values())),
        line(db, f"{what}: answered busy", k.get("busy", 0) + wk.get("busy", 0)),
        line(db, f"{what}: HTTP 503 with Retry-After", k.get("503", 0) + wk.get("503", 0)),
        zero(db, f"{what}: HTTP 500", fivehundreds),
        *acknowledged(db, what, w, missing),
        zero(db, f"{what}: town closures", r["closures"]),
        line(db, f"{what}: the town afterwards", r["mode_after"], "open", r["mode_after"] == "open"),
        line(db, f"{what}: archive verify", verdict, "passes", verified),
    ]


def check_cycle(db: str, tmp: Path, s: Scale) -> list[Line]:
    with served(tmp) as t:
        r = clients("cycle", {"url": t.mcp, "cycles": s.cycles}, 600)
    what = f"cycle, DELETE + initialize x{s.cycles:,}"
    refused = sum(r["refusals"].values())
    _samples(db, "cycle", r)
    for body, n in r["refusals"].items():
        _note(f"{db} cycle: {n} x 429 {body}")
    return [
        line(db, f"{what}: sessions opened", r["opened"], f"<= {SESSION_CAP}", r["opened"] <= SESSION_CAP),
        line(
            db,
            f"{what}: refused 429 after the cap",
            refused,
            f"{s.cycles - min(s.cycles, SESSION_CAP):,}",
            refused == s.cycles - r["opened"] and r["opened"] <= SESSION_CAP,
        ),
        zero(db, f"{what}: HTTP 5xx", r["5xx"]),
    ]


def check_fuzz(db: str, tmp: Path, s: Scale) -> list[Line]:
    with served(tmp) as t:
        r = clients("fuzz", {"url": t.mcp, "calls": s.fuzz, "workers": s.fuzz_workers, "seed": 12}, 1800)
    what = f"fuzz, {s.fuzz:,} odd calls"
    _samples(db, "fuzz", r)
    statuses = sorted((k, n) for k, n in r["kinds"].items() if k.isdigit())
    _note(f"{db} fuzz statuses: " + ", ".join(f"{k}: {n}" for k, n in statuses))
    _note(f"{db} fuzz results in a 200: " + ", ".join(f"{k}: {n}" for k, n in r["kinds"].items() if not k.isdigit()))
    return [
        line(db, f"{what}: requests answered", r["calls"]),
        zero(db, f"{what}: HTTP 500", r["500"]),
        zero(db, f"{what}: other HTTP 5xx", r["5xx"] - r["500"]),
        zero(db, f"{what}: town closures", r["closures"]),
        line(
            db,
            f"{what}: the town afterwards",
            f"{r['mode_after']}, look_around {r['look_around_after']}",
            "open, ok",
            (r["mode_after"], r["look_around_after"]) == ("open", "ok"),
        ),
    ]


NOTES: list[str] = []


def _note(text: str) -> None:
    NOTES.append(text)


def _samples(db: str, what: str, r: dict[str, Any]) -> None:
    for sample in r.get("samples", []):
        _note(f"{db} {what}: {sample}")


# ---------------------------------------------------------------------------------------------


CHECKS = ("load", "kills", "restart", "cycle", "fuzz")


def battery(db: str, s: Scale, tmp: Path, pg: "Postgres | None", checks: list[str]) -> list[Line]:
    lines: list[Line] = []
    if s is QUICK and {"load", "cycle", "fuzz"} & set(checks):
        SHARED.append(town(tmp))
    try:
        for name in checks:
            lines += one_check(name, db, s, tmp, pg)
            print(f"  ... {db}: {name} done", file=sys.stderr, flush=True)
    finally:
        while SHARED:
            SHARED.pop().close()
    return lines


def one_check(name: str, db: str, s: Scale, tmp: Path, pg: "Postgres | None") -> list[Line]:
    if name == "restart":
        if pg is None:
            return [line(db, "PostgreSQL restarted under load", "n/a (no server)")]
        return check_pg_restart(db, tmp, s, pg)
    checks = {"load": check_load, "kills": check_kills, "cycle": check_cycle, "fuzz": check_fuzz}
    return checks[name](db, tmp, s)


def run(opts: Any) -> bool:
    """Print the battery's table; True when a line failed."""
    s = QUICK if opts.quick else FULL
    if opts.seconds:
        s = dataclasses.replace(s, seconds=opts.seconds)
    checks = [c.strip() for c in opts.checks.split(",") if c.strip()]
    unknown = [c for c in checks if c not in CHECKS]
    if unknown:
        raise BenchError(f"no such check: {', '.join(unknown)}; the checks are {', '.join(CHECKS)}")
    dbs = ["sqlite", "postgresql"] if opts.db == "both" else [opts.db]
    print(f"battery: the town's reliability, {'quick scale (a smoke test)' if opts.quick else 'full scale'}")
    print(
        f"  fresh towns served by daphne in one process with their shipped limits; the clients in a process of their own, "
        f"each from its own loopback address; {os.cpu_count()} cores shared by the clients and the town; "
        f"load average before: {os.getloadavg()[0]:.2f}"
    )
    NOTES.clear()
    lines: list[Line] = []
    with database_url_kept(), scratch() as tmp:
        for db in dbs:
            if db == "sqlite":
                os.environ.pop("DATABASE_URL", None)
                lines += battery("SQLite", s, tmp, None, checks)
            else:
                with on_private_postgres() as pg:
                    lines += battery("PostgreSQL", s, tmp, pg, checks)
    print()
    for text in table(lines):
        print(text)
    failed = [x for x in lines if x.ok is False]
    if NOTES:
        print()
        print("  notes (the first few 5xx, dropped connections and refusals, as the clients saw them):")
        for n, times in list(Counter(NOTES).items())[:40]:
            print("    " + n + (f" (x{times})" if times > 1 else ""))
    if failed:
        print()
        print("  " + "!" * 78)
        for x in failed:
            print(f"  FAIL: {x.db}: {x.figure}: {x.value} (target {x.target})")
        print("  " + "!" * 78)
    return bool(failed)
