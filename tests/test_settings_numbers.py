"""A number in the environment that the town cannot run with stops it at start, naming the setting: a
negative count or time (a fold every -5 seconds was a fold without pause) and, where 0 means nothing
sensible, 0 (a pool of no desk threads failed deep inside the first call); and past what the machine can
give, a number of desk threads (each keeps a database connection)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("CLOCKFORD_FOLD_SECONDS", "-5", "CLOCKFORD_FOLD_SECONDS must be at least 1, not -5"),
        ("CLOCKFORD_FOLD_SECONDS", "0", "CLOCKFORD_FOLD_SECONDS must be at least 1, not 0"),
        ("CLOCKFORD_DESK_THREADS", "0", "CLOCKFORD_DESK_THREADS must be at least 1, not 0"),
        ("CLOCKFORD_DESK_THREADS", "10000", "CLOCKFORD_DESK_THREADS must be at most 64, not 10000"),
        ("CLOCKFORD_SQLITE_WAIT_SECONDS", "-1", "CLOCKFORD_SQLITE_WAIT_SECONDS must be at least 0, not -1"),
        ("CLOCKFORD_HOLDS_PER_PASSPORT", "ten", "CLOCKFORD_HOLDS_PER_PASSPORT must be a whole number, not 'ten'"),
    ],
)
def test_a_number_the_town_cannot_run_with_stops_it_naming_the_setting(
    tmp_path: Path, setting: str, value: str, said: str
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLOCKFORD_")} | {"CLOCKFORD_VAR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", "import clockford.settings"],
        cwd=ROOT,
        env={**env, setting: value},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1] == f"ValueError: {said}"


def test_zero_stays_a_setting_where_it_means_off(tmp_path: Path) -> None:
    """0 turns the clerk's rate limit off and moves the sweep to a service of its own (docs/configuration.md)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLOCKFORD_")} | {"CLOCKFORD_VAR": str(tmp_path)}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import clockford.settings as s; print(s.CLOCKFORD['CALLS_PER_MINUTE'], s.CLOCKFORD_SWEEP_SECONDS)",
        ],
        cwd=ROOT,
        env={**env, "CLOCKFORD_CALLS_PER_MINUTE": "0", "CLOCKFORD_SWEEP_SECONDS": "0"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == ["0", "0"]
