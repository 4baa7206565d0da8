"""`./town bench battery --quick`: the reliability battery runs end to end at a small scale, its table
reads back line by line, and a failure is reported (a FAIL line, the loud block, exit status 1).

The full battery takes many minutes (docs/bench.md, "Reliability battery"); this is its smoke test.
"""

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.bench import battery, run
from tests.bench.battery import Line, line, parse, table, zero
from tests.support import PYTHON, ROOT, Town, is_postgresql


# The quick battery serves SQLite whatever database the run is on (on PostgreSQL its restart check
# would stop the server every other test of the run is using), so the PostgreSQL run would only do
# the SQLite run's two minutes again.
@pytest.mark.skipif(
    is_postgresql(os.environ.get("DATABASE_URL")),
    reason="serves SQLite whatever the run's database: it runs in the SQLite run",
)
def test_the_quick_battery_runs_on_sqlite_and_every_line_passes() -> None:
    t0 = time.monotonic()
    done = subprocess.run(
        [PYTHON, "-m", "tests.bench.run", "battery", "--quick", "--db", "sqlite"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    lines = parse(out)
    figures = {x.figure: x for x in lines}
    assert {x.db for x in lines} == {"SQLite"}
    # Every check printed its figures, and every line with a target passed.
    for name in (
        "load, 10 clients for 4 s: HTTP 5xx",
        "load, 10 clients for 4 s: town closures",
        "kills, 2 writes: acknowledged writes lost",
        "kills, 2 writes: duplicated",
        "kills, 2 writes: archive verify",
        "cycle, DELETE + initialize x70: sessions opened",
        "cycle, DELETE + initialize x70: refused 429 after the cap",
        "fuzz, 200 odd calls: HTTP 500",
        "fuzz, 200 odd calls: the town afterwards",
        "PostgreSQL restarted under load",
    ):
        assert name in figures, out
    assert all(x.ok is not False for x in lines), out
    assert figures["kills, 2 writes: writes acknowledged"].value == "2/2"
    # Every write was interrupted by a SIGKILL at this scale, and the town came back each time.
    assert figures["kills, 2 writes: SIGKILLs, each restarted (writes retried)"].value.startswith("2 (")
    assert figures["cycle, DELETE + initialize x70: sessions opened"].value == "64"
    assert figures["cycle, DELETE + initialize x70: refused 429 after the cap"].value == "6"
    assert figures["load, 10 clients for 4 s: calls answered"].value != "0"
    assert "FAIL" not in out
    print(f"quick battery: {time.monotonic() - t0:.0f} s")


def test_a_town_past_its_session_cap_is_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cycle check measures the town, not itself: a town that lets one address open 100 sessions
    fails the line."""
    made = battery.town

    def generous(tmp: Path) -> Town:
        t = battery.make_town(tmp, {"CLOCKFORD_SESSIONS_PER_ADDRESS": "100"})
        return t.start()

    monkeypatch.setattr(battery, "town", generous)
    lines = battery.check_cycle("SQLite", tmp_path, battery.Scale(cycles=70))
    monkeypatch.setattr(battery, "town", made)
    opened = next(x for x in lines if x.figure.endswith("sessions opened"))
    assert (opened.value, opened.ok, opened.result) == ("70", False, "FAIL")


def test_the_table_reads_back_and_a_failed_line_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        line("SQLite", "load, 200 clients for 120 s: calls answered", 23_456),
        zero("SQLite", "load, 200 clients for 120 s: HTTP 5xx", 0),
        zero("PostgreSQL", "fuzz, 10,000 odd calls: HTTP 500", 3),
        line("PostgreSQL", "kills, 100 writes: archive verify", "FAILS: 2 problems", "passes", False),
    ]
    assert parse("\n".join(table(rows))) == [
        Line("SQLite", "load, 200 clients for 120 s: calls answered", "23,456", "-", None),
        Line("SQLite", "load, 200 clients for 120 s: HTTP 5xx", "0", "0", True),
        Line("PostgreSQL", "fuzz, 10,000 odd calls: HTTP 500", "3", "0", False),
        Line("PostgreSQL", "kills, 100 writes: archive verify", "FAILS: 2 problems", "passes", False),
    ]

    # One check that finds 3 HTTP 500s: the section prints the line FAIL, says so loudly, and the
    # command exits 1 (the other sections report; the battery fails).
    def failing(db: str, tmp: Path, s: Any) -> list[Line]:
        return [zero(db, "fuzz, 5 odd calls: HTTP 500", 3)]

    monkeypatch.setattr(battery, "check_fuzz", failing)
    assert run.main(["battery", "--db", "sqlite", "--checks", "fuzz"]) == 1
    out = capsys.readouterr().out
    assert parse(out) == [Line("SQLite", "fuzz, 5 odd calls: HTTP 500", "3", "0", False)]
    assert "FAIL: SQLite: fuzz, 5 odd calls: HTTP 500: 3 (target 0)" in out


def test_a_check_that_does_not_exist_is_refused() -> None:
    done = subprocess.run(
        [PYTHON, "-m", "tests.bench.run", "battery", "--checks", "nowhere"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "no such check: nowhere" in done.stderr


@pytest.mark.skipif(not (battery.Postgres.BIN / "initdb").exists(), reason="no PostgreSQL server programs here")
def test_the_private_postgresql_server_starts_stops_and_starts_again() -> None:
    import psycopg

    with battery.private_postgres() as pg:
        with psycopg.connect(pg.url) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        pg.stop()
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(pg.url, connect_timeout=2)
        pg.start()
        with psycopg.connect(pg.url) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
