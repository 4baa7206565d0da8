"""`./town bench [section ...]`: Clockford's benchmarks, one block of figures per section.

A section is a function that measures and prints its own block; SECTIONS lists them in the order a
full run prints them. The bench reports: a missed target is printed loudly, and the exit status is 0
all the same. It exits 1 when it could not measure (a server did not start, a call failed), and when a
line of the reliability battery failed: the battery checks promises, the other sections time them.
"""

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clockford.serve import DEFAULT_SERVER, SERVERS
from tests.bench import battery, calls, census, directory, words
from tests.bench.kit import BenchError


@dataclass(frozen=True)
class Section:
    name: str
    about: str
    # A section returns True when one of its lines failed (the battery); the timing sections return None.
    run: Callable[[Any], bool | None]
    # Run by a bare `./town bench`; the battery takes many minutes, and runs only when named.
    default: bool = True


SECTIONS: list[Section] = [
    Section("calls", "look_around and remember beside a bare mcp 2.3.0 server (issue 2)", calls.run),
    Section("census", "the census imported, ask_directory timed, MRR beside the registry (issue 3)", census.run),
    Section(
        "directory",
        "the Directory's evaluations (eleven numbered, and the negation and readings sets): MRR@10, recall@8, "
        "hit@1 on tuned and held-out needs beside two baselines (issue 13)",
        directory.run,
    ),
    Section("words", "the words screen and Safe Harbour timed, and the corpus's dev half (issue 11)", words.run),
    Section(
        "battery",
        "the reliability battery: load, SIGKILLs, a PostgreSQL restart, session cycling, fuzzing; "
        "each line a figure with PASS or FAIL (issue 12; only when named)",
        battery.run,
        default=False,
    ),
]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="./town bench",
        description="Clockford's benchmarks. Sections: "
        + "; ".join(f"{s.name}: {s.about}" for s in SECTIONS)
        + ". Without a section name, all of them but the battery.",
    )
    p.add_argument("sections", nargs="*", metavar="section", help="the sections to run (default: all)")
    p.add_argument("--calls", type=int, default=500, help="measured calls per tool (default 500)")
    p.add_argument("--warmup", type=int, default=50, help="warm-up calls per tool, not measured (default 50)")
    p.add_argument("--rounds", type=int, default=25, help="interleaved rounds the calls are split into (default 25)")
    p.add_argument(
        "--clients",
        type=int,
        default=calls.THROUGHPUT_CLIENTS,
        help=f"clients at once for the concurrent run (default {calls.THROUGHPUT_CLIENTS}, where the throughput "
        "target is set); 1 skips it",
    )
    p.add_argument(
        "--concurrent-calls",
        type=int,
        default=calls.CONCURRENT_CALLS,
        help=f"measured calls per tool with --clients at once (default {calls.CONCURRENT_CALLS}), split into "
        f"{calls.CONCURRENT_ROUNDS} interleaved rounds",
    )
    p.add_argument(
        "--server",
        choices=SERVERS,
        default=DEFAULT_SERVER,
        help=f"the ASGI server both sides are served with (default {DEFAULT_SERVER}, as ./town up)",
    )
    p.add_argument(
        "--workers", type=int, default=1, help="worker processes of each server (default 1; ./town up: one per core)"
    )
    p.add_argument("--bare-stateless", action="store_true", help="serve the bare server in the SDK's stateless mode")
    p.add_argument(
        "--bare-sessions",
        action="store_true",
        help="with several --workers, keep the bare server's sessions the SDK's way all the same (uvicorn: each "
        "keep-alive connection stays with the worker that accepted it)",
    )
    p.add_argument("--phases", action="store_true", help="serve the town with timers and SQL counts, and print them")
    p.add_argument(
        "--cprofile",
        action="store_true",
        help="with --phases, also run cProfile in the town (it slows the town: the figures inflate)",
    )
    p.add_argument("--profile-out", type=Path, help="keep the cProfile data in this file")
    p.add_argument(
        "--db",
        choices=("sqlite", "postgresql", "both"),
        default="both",
        help="calls and battery: the databases to run on (default both). PostgreSQL is, for calls, the server "
        "DATABASE_URL names, else a private one it starts; for the battery, always a private one",
    )
    p.add_argument("--quick", action="store_true", help="battery: a small scale, a smoke test of a minute or so")
    p.add_argument(
        "--checks",
        default="load,kills,restart,cycle,fuzz",
        help="battery: which checks, comma-separated (default all: load,kills,restart,cycle,fuzz)",
    )
    p.add_argument("--seconds", type=int, help="battery: how long the load check runs (default 120, quick 4)")
    return p


def main(argv: list[str] | None = None) -> int:
    opts = parser().parse_args(argv)
    known = {s.name: s for s in SECTIONS}
    unknown = [n for n in opts.sections if n not in known]
    if unknown:
        print(f"No such section: {', '.join(unknown)}. Sections: {', '.join(known)}.", file=sys.stderr)
        return 2
    if (
        opts.calls < 1
        or opts.rounds < 1
        or opts.calls < opts.rounds
        or opts.clients < 1
        or opts.concurrent_calls < 1
        or opts.warmup < 0
        or opts.workers < 1
    ):
        print(
            "--calls and --rounds must be at least 1, --calls at least --rounds, --clients, --concurrent-calls and --workers at least 1.",
            file=sys.stderr,
        )
        return 2
    chosen = [known[n] for n in opts.sections] if opts.sections else [s for s in SECTIONS if s.default]
    failed = False
    for i, section in enumerate(chosen):
        if i:
            print()
        t0 = time.monotonic()
        try:
            failed = bool(section.run(opts)) or failed
        except BenchError as e:
            print(f"\nThe {section.name} section could not measure: {e}", file=sys.stderr)
            return 1
        print(f"  ({section.name}: {time.monotonic() - t0:.0f} s)")
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
