"""How the town is served over HTTP: `./town up`, the tests' towns and `./town bench` all start it here,
so that what is measured is what runs.

    python -m clockford.serve [--host H] [--port P] [--workers N] [--server NAME] [APP]

One worker per core by default (CLOCKFORD_WORKERS or --workers to choose). Every worker is a process of
its own with its own threads and database connections; sessions, limits, the clerk, holds and the hall's
live queue are kept in the database, so any worker serves any request. The ASGI server is uvicorn (with
uvloop and httptools): `docs/bench.md` has the measurements that chose it over daphne, granian and
hypercorn. The others stay here, by name, so that the bench can measure them again.
"""

import argparse
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence

from clockford.startup import settings_readable

SERVERS = ("uvicorn", "daphne", "granian", "hypercorn")
DEFAULT_SERVER = "uvicorn"
# The most a page may send the town in one websocket message (see command).
WS_MAX_BYTES = 4096
APP = "clockford.asgi:application"


# Workers past one a core only take turns on the cores (docs/scale.md, "What runs out first"); past this
# many a core, a mistyped number (--workers 100000) would start processes until the memory ran out. The
# town script checks the same bound before it installs anything.
MOST_PER_CORE = 4


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def checked_workers(raw: str, name: str) -> int:
    """`raw` as a number of workers, or the reason it is not one (said as `name`, the flag or the variable)."""
    most = MOST_PER_CORE * cores()
    digits = raw.lstrip("0")
    if not raw.isascii() or not raw.isdecimal() or not digits:  # not a whole number, or zero
        raise SystemExit(f"{name} must be a whole number of at least 1, not {raw}.")
    # Read only when short: Python refuses to read a number of more than 4,300 digits.
    if len(digits) > 9 or int(digits) > most:
        raise SystemExit(f"{name} must be at most {most} here ({MOST_PER_CORE} per core), not {raw}.")
    return int(digits)


def default_workers() -> int:
    raw = os.environ.get("CLOCKFORD_WORKERS", "")
    return checked_workers(raw, "CLOCKFORD_WORKERS") if raw else cores()


def command(server: str, app: str, host: str, port: int, workers: int) -> list[str]:
    """The command line that serves `app` with `server` (daphne has no workers of its own: see run_daphne)."""
    py = sys.executable
    if server == "uvicorn":
        return [
            *(py, "-m", "uvicorn", app, "--host", host, "--port", str(port)),
            *("--workers", str(workers), "--loop", "uvloop", "--ws", "wsproto"),
            # The town's connections (clockford/wire.py: limits on a request's head, its headers on
            # uvicorn's own answers); any other app (the bench's bare server) gets uvicorn's httptools
            # protocol as it comes.
            *("--http", "clockford.wire:Protocol" if app == APP else "httptools"),
            *("--lifespan", "on"),
            # One JSON line per call is the town's own log (clockford/town/desk.py); no access log.
            *("--no-access-log", "--timeout-graceful-shutdown", "5"),
            # Longer than a proxy keeps an idle connection to it (Caddy: 2 minutes), so the proxy never
            # sends a request down a connection the town is closing (uvicorn's own default is 5 s).
            *("--timeout-keep-alive", "150"),
            # Whose X-Forwarded-For and X-Forwarded-Proto to believe is the town's to decide, by one rule
            # (CLOCKFORD_TRUSTED_PROXIES, clockford/face/proxy.py): uvicorn's own would rewrite the
            # address and scheme of any peer on 127.0.0.1 first, whatever the town trusts.
            "--no-proxy-headers",
            # The town's two websockets (the public map's /town/live, the hall's /hall/live) take no words
            # from a page: each only tells. uvicorn's own limit is 16 MiB a message, held in memory until
            # it is whole, so 20 anonymous sockets sending a message they never finished held 280 MB of
            # a worker. A larger message closes its socket (1009).
            *("--ws-max-size", str(WS_MAX_BYTES)),
        ]
    if server == "granian":
        return [
            *(py, "-m", "granian", "--interface", "asgi", "--host", host, "--port", str(port)),
            *("--workers", str(workers), "--loop", "uvloop", "--no-access-log", app),
        ]
    if server == "hypercorn":
        return [py, "-m", "hypercorn", "-b", f"{host}:{port}", "-w", str(workers), "-k", "uvloop", app]
    if server == "daphne":
        return [py, "-m", "daphne", "-b", host, "-p", str(port), app]
    raise SystemExit(f"No such server: {server}. Servers: {', '.join(SERVERS)}.")


def end_with_parent() -> None:
    """In a worker that uvicorn started (a multiprocessing child), stop when the process that started it
    is gone. Killed with SIGKILL (kill -9, the OOM killer), the supervisor cannot stop its workers, and
    they went on serving the port with the code they had loaded: the next `./town up` (an upgrade's)
    found the port taken, and nothing said which processes held it. The pipe the worker was started
    through closes as its parent ends; the worker then stops as it would on SIGTERM, finishing the
    calls in hand. A process started otherwise (one worker, daphne, a test, a command) has no such
    parent and is left alone."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        parent.join()  # returns once the parent has ended
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="clockford-parent-watch", daemon=True).start()


def run_daphne(app: str, host: str, port: int, workers: int) -> int:
    """Daphne serves one process: for several, bind the socket here and hand it to each (--fd)."""
    if workers == 1:
        os.execv(sys.executable, command("daphne", app, host, port, 1))  # noqa: S606 (our own command line)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(1024)
    fd = sock.fileno()
    procs = [
        subprocess.Popen([sys.executable, "-m", "daphne", "--fd", str(fd), app], pass_fds=(fd,))  # noqa: S603
        for _ in range(workers)
    ]

    def stop(signum: int, frame: object) -> None:
        for p in procs:
            p.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    codes = [p.wait() for p in procs]
    return max(codes, default=0)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m clockford.serve", description=__doc__.split("\n\n")[0])
    p.add_argument("app", nargs="?", default=APP)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=int(os.environ.get("CLOCKFORD_PORT", "7433")))
    p.add_argument("--workers", default=None, help="worker processes (default: one per core)")
    p.add_argument("--server", choices=SERVERS, default=os.environ.get("CLOCKFORD_SERVER", DEFAULT_SERVER))
    opts = p.parse_args(argv)
    if not settings_readable():  # here, once, rather than in every worker's traceback
        return 2
    workers = checked_workers(opts.workers, "--workers") if opts.workers is not None else default_workers()
    if opts.server == "daphne":
        return run_daphne(opts.app, opts.host, opts.port, workers)
    os.execv(sys.executable, command(opts.server, opts.app, opts.host, opts.port, workers))  # noqa: S606
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
