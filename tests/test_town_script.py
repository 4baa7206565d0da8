"""`./town up` checks what it was asked before it installs, migrates or serves anything: a mistyped
number is the one thing it says, and nothing is made."""

import os
import socket
import subprocess
from pathlib import Path

import pytest

from clockford import serve
from tests.support import own_town_env

ROOT = Path(__file__).resolve().parent.parent
MOST = serve.MOST_PER_CORE * serve.cores()


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
        (
            ["--workers", "100000"],
            {},
            f"--workers (or CLOCKFORD_WORKERS) must be at most {MOST} here (4 per core), not 100000.",
        ),
        (
            [],
            {"CLOCKFORD_WORKERS": "9" * 40},
            f"--workers (or CLOCKFORD_WORKERS) must be at most {MOST} here (4 per core), not {'9' * 40}.",
        ),
        ([], {"CLOCKFORD_PORT": "http"}, "CLOCKFORD_PORT must be a port number from 1 to 65535, not http."),
        ([], {"CLOCKFORD_PORT": "70000"}, "CLOCKFORD_PORT must be a port number from 1 to 65535, not 70000."),
        (["--port", "8000"], {}, "./town up takes --workers N, not --port."),
    ],
)
def test_town_up_refuses_what_it_cannot_serve_before_doing_anything(
    tmp_path: Path, args: list[str], env: dict[str, str], said: str
) -> None:
    assert refused_by_town_up(tmp_path, args, env) == said


def refused_by_town_up(tmp_path: Path, args: list[str], env: dict[str, str]) -> str:
    """What `./town up` says as it refuses (exit status 2), having printed, migrated and made nothing."""
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
    assert done.stdout == ""
    assert not var.exists() or not any(var.iterdir())  # nothing migrated, no key made
    return done.stderr.strip()


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("0", "CLOCKFORD_WORKERS must be a whole number of at least 1, not 0."),
        ("-3", "CLOCKFORD_WORKERS must be a whole number of at least 1, not -3."),
        ("two", "CLOCKFORD_WORKERS must be a whole number of at least 1, not two."),
        (str(MOST + 1), f"CLOCKFORD_WORKERS must be at most {MOST} here (4 per core), not {MOST + 1}."),
        ("9" * 5000, f"CLOCKFORD_WORKERS must be at most {MOST} here (4 per core), not {'9' * 5000}."),
    ],
)
def test_the_server_refuses_a_number_of_workers_it_cannot_start(
    monkeypatch: pytest.MonkeyPatch, raw: str, said: str
) -> None:
    """clockford/serve.py, which the compose file's town service runs without the town script: the same
    bounds, said in words (int() of CLOCKFORD_WORKERS=two was a traceback)."""
    monkeypatch.setenv("CLOCKFORD_WORKERS", raw)
    with pytest.raises(SystemExit) as refused:
        serve.default_workers()
    assert str(refused.value) == said


def test_the_server_takes_up_to_four_workers_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLOCKFORD_WORKERS", str(MOST))
    assert serve.default_workers() == MOST
    monkeypatch.delenv("CLOCKFORD_WORKERS")
    assert serve.default_workers() == serve.cores()


def test_town_up_on_a_port_something_answers_on_says_so_before_doing_anything(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        said = refused_by_town_up(tmp_path, [], {"CLOCKFORD_PORT": str(port)})
    assert said == (
        f"Something already answers on 127.0.0.1:{port} (a town started before?). "
        "Stop it, or choose another port with CLOCKFORD_PORT."
    )


@pytest.mark.parametrize(
    ("setting", "last_line"),
    [
        (
            {"CLOCKFORD_SQLITE": "{tmp}/no/such/t.db"},
            "Clockford cannot start: CLOCKFORD_SQLITE names an SQLite file in a folder that does not exist: "
            "{tmp}/no/such/t.db.",
        ),
        # A PostgreSQL server that does not answer.
        (
            {"DATABASE_URL": "postgresql://nobody@127.0.0.1:1/town"},
            "Clockford cannot open its database (127.0.0.1:1/town): connection failed: ",
        ),
    ],
)
def test_town_stdio_says_why_when_it_cannot_migrate_the_database(
    tmp_path: Path, setting: dict[str, str], last_line: str
) -> None:
    """`./town stdio` keeps what migrate prints off standard output, which is MCP's alone. When the
    migration failed it ended with status 1 and not a word, so a desktop agent's log had nothing to go
    on; now its standard error says why, and standard output is empty."""
    done = subprocess.run(
        [str(ROOT / "town"), "stdio"],
        cwd=ROOT,
        env=own_town_env(tmp_path / "var", **{k: v.format(tmp=tmp_path) for k, v in setting.items()}),
        input='{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, "")
    said = done.stderr.splitlines()
    assert said[0].startswith(last_line.format(tmp=tmp_path)), done.stderr
    assert said[-1] == "./town stdio could not migrate the town's database (above), so it serves nothing."
    assert "Traceback" not in done.stderr and len(said) <= 3, done.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["serve"], "./town has no command serve. It takes:"),
        (["stdio", "--port", "8000"], "./town stdio takes no arguments, not --port."),
    ],
)
def test_the_town_script_refuses_what_it_does_not_have(args: list[str], said: str) -> None:
    """A mistyped command printed the usage and exited 0, as if it had done something; `./town stdio`
    took arguments it never read and waited on standard input. Both say what was wrong, exit 2."""
    done = subprocess.run(
        [str(ROOT / "town"), *args], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == said
    assert done.stdout == ""


def test_the_town_script_with_no_command_shows_what_it_takes() -> None:
    done = subprocess.run([str(ROOT / "town")], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    assert "./town up [--workers N]" in done.stdout
