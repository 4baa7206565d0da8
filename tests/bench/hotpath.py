"""One call of the hot tools, in process: statements, time on the thread, and where the time goes.

    .venv/bin/python -m tests.bench.hotpath [--calls N] [--cprofile [--profile-out FILE]]

Runs look_around and remember through the real desk (no HTTP, no event loop) in a scratch database
of its own: SQLite, or PostgreSQL when DATABASE_URL names a server (a fresh database, dropped
afterwards), with the footstep's number taken ahead as the face takes it over HTTP. It prints, per
tool, the SQL statements one call sends (on PostgreSQL the round trips are fewer: BEGIN goes with
the first statement, and the footstep and the gauge's count with COMMIT) and the median time of a
call; --cprofile adds the functions that cost most. What it leaves out (the face, the SDK, the
client) is what `./town bench calls` measures from outside.
"""

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clockford.settings")
# As `./town bench calls` serves the town: the clerk's rate limit off, and the Bank's hour ample.
os.environ["CLOCKFORD_CALLS_PER_MINUTE"] = "0"
os.environ["CLOCKFORD_CHANGES_PER_HOUR"] = str(10**9)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.hotpath")
    p.add_argument("--calls", type=int, default=300, help="measured calls per tool (default 300)")
    p.add_argument("--cprofile", action="store_true", help="profile the measured calls and print the top functions")
    p.add_argument("--profile-out", type=str, default="", help="with --cprofile, also keep the profile in this file")
    opts = p.parse_args(argv)

    import django
    from django.conf import settings

    with tempfile.TemporaryDirectory() as tmp:
        test = settings.DATABASES["default"].setdefault("TEST", {})  # type: ignore[attr-defined]
        test["NAME"] = (
            f"{tmp}/hotpath.sqlite3"
            if "sqlite" in str(settings.DATABASES["default"]["ENGINE"])
            else f"clockford_hotpath_{os.getpid()}"
        )
        django.setup()
        from django.db import connection

        old = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            measure(opts.calls, opts.cprofile, opts.profile_out)
        finally:
            connection.creation.destroy_test_db(old, verbosity=0)
    return 0


def measure(calls: int, profile: bool, profile_out: str = "") -> None:
    from django.db import connection
    from django.utils import timezone

    from clockford.town import archive, desk
    from clockford.town.models import Passport
    from clockford.town.prepared import prepared, spelled
    from districts.registry import TOOLS

    now = timezone.now()
    passport = Passport.objects.create(issued_at=now, last_seen=now)

    def ahead() -> int | None:
        """The footstep's number, taken ahead as the face takes it over HTTP (in the statement that counts
        the request, so not timed here), where the call's transaction can send its footstep with COMMIT;
        like the face's, a statement outside any transaction, where the connection prepares the
        statements the calls before it met (clockford/town/prepared.py)."""
        if not desk.rides_with_commit():
            return None
        with connection.cursor() as c:
            c.execute(prepared(f"SELECT {archive.NUMBER_AHEAD}"))
            return int(c.fetchone()[0])

    work = {
        "look_around": lambda i: {},
        "remember": lambda i: {"key": f"hot.{i % 50:02d}", "value": f"A note for the bench, number {i}."},
    }
    for name, args in work.items():  # warm: the census's state, the notes' keys, the caches
        for i in range(60):
            desk.run(TOOLS[name], args(i), passport, None)
    print(f"hotpath: {calls} calls of each tool through the desk, on {connection.vendor}")
    prof = cProfile.Profile() if profile else None
    for name, args in work.items():
        sql: list[str] = []

        def count(execute: Any, text: str, params: Any, many: bool, context: Any, sql: list[str] = sql) -> Any:
            done = execute(text, params, many, context)
            sql.append(" ".join(spelled(text).split()))  # once sent, so a savepoint made on the way comes first
            return done

        desk.run(TOOLS[name], args(0), passport, None)  # the process's second-old copies, renewed
        number = ahead()
        with connection.execute_wrapper(count):
            desk.run(TOOLS[name], args(0), passport, None, number)
        times = []
        for i in range(calls):
            number = ahead()
            t0 = time.perf_counter()
            if prof is not None:
                prof.enable()
            r = desk.run(TOOLS[name], args(i), passport, None, number)
            if prof is not None:
                prof.disable()
            times.append(time.perf_counter() - t0)
            assert not r.is_error, r.text
        print(f"\n  {name}: {len(sql)} statements, median {statistics.median(times) * 1000:.3f} ms a call")
        for text in sql:
            print("    " + text[:140])
    if prof is not None:
        if profile_out:
            prof.dump_stats(profile_out)
        stats = pstats.Stats(prof, stream=sys.stdout)
        stats.strip_dirs().sort_stats("tottime").print_stats(30)
        stats.sort_stats("cumulative").print_stats(50)


if __name__ == "__main__":
    sys.exit(main())
