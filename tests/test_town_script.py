"""`./town up` checks what it was asked before it installs, migrates or serves anything: a mistyped
number is the one thing it says, and nothing is made."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["--workers", "0"], {}, "--workers (or CLOCKFORD_WORKERS) must be a whole number of at least 1, not 0."),
        (["--workers=abc"], {}, "--workers (or CLOCKFORD_WORKERS) must be a whole number of at least 1, not abc."),
        (
            [],
            {"CLOCKFORD_WORKERS": "-2"},
            "--workers (or CLOCKFORD_WORKERS) must be a whole number of at least 1, not -2.",
        ),
        ([], {"CLOCKFORD_PORT": "http"}, "CLOCKFORD_PORT must be a port number from 1 to 65535, not http."),
        ([], {"CLOCKFORD_PORT": "70000"}, "CLOCKFORD_PORT must be a port number from 1 to 65535, not 70000."),
        (["--port", "8000"], {}, "./town up takes --workers N, not --port."),
    ],
)
def test_town_up_refuses_what_it_cannot_serve_before_doing_anything(
    tmp_path: Path, args: list[str], env: dict[str, str], said: str
) -> None:
    var = tmp_path / "var"
    done = subprocess.run(
        [str(ROOT / "town"), "up", *args],
        cwd=ROOT,
        env={**os.environ, "CLOCKFORD_VAR": str(var), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.strip() == said
    assert done.stdout == ""
    assert not var.exists() or not any(var.iterdir())  # nothing migrated, no key made
