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


def settings_read(code: str, var: Path, **setting: str) -> subprocess.CompletedProcess[str]:
    """`code` run in a process of its own that reads the settings with `setting` in its environment and
    no other CLOCKFORD_ variable (its var folder `var`, not the checkout's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLOCKFORD_")}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**env, "CLOCKFORD_VAR": str(var), **setting},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


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
    done = settings_read("import clockford.settings", tmp_path, **{setting: value})
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1] == f"ValueError: {said}"


def test_zero_stays_a_setting_where_it_means_off(tmp_path: Path) -> None:
    """0 turns the clerk's rate limit off and moves the sweep to a service of its own (docs/configuration.md)."""
    done = settings_read(
        "import clockford.settings as s; print(s.CLOCKFORD['CALLS_PER_MINUTE'], s.CLOCKFORD_SWEEP_SECONDS)",
        tmp_path,
        CLOCKFORD_CALLS_PER_MINUTE="0",
        CLOCKFORD_SWEEP_SECONDS="0",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "0"]
