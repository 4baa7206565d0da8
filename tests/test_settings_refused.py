"""A setting the town cannot run with stops it at start, in one line naming the setting (manage.py and
clockford/serve.py, through clockford/startup.py), never a traceback: a negative count or time (a fold
every -5 seconds was a fold without pause) and, where 0 means nothing sensible, 0 (a pool of no desk
threads failed deep inside the first call, a session's life of 0 ended every session as it began);
past what the machine can give, a number of desk threads (each keeps a database connection), and past
what its unit allows, any number (a session idle for 10**20 seconds made every new session a
traceback); an address the Host checks and passkeys cannot be made from (Django
said it of CSRF_TRUSTED_ORIGINS, or said nothing of ftp://); a proxy that is not an address (every
request failed); a database, a folder or a file the town cannot use (said at the first query, or as
Python's own error)."""

import os
import time
from pathlib import Path

import pytest

from tests.support import own_town_run

READ = ["-c", "import sys; from clockford.startup import settings_readable; sys.exit(0 if settings_readable() else 2)"]


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("CLOCKFORD_FOLD_SECONDS", "-5", "CLOCKFORD_FOLD_SECONDS must be at least 1, not -5"),
        ("CLOCKFORD_FOLD_SECONDS", "0", "CLOCKFORD_FOLD_SECONDS must be at least 1, not 0"),
        ("CLOCKFORD_DESK_THREADS", "0", "CLOCKFORD_DESK_THREADS must be at least 1, not 0"),
        ("CLOCKFORD_DESK_THREADS", "10000", "CLOCKFORD_DESK_THREADS must be at most 64, not 10000"),
        ("CLOCKFORD_SQLITE_WAIT_SECONDS", "-1", "CLOCKFORD_SQLITE_WAIT_SECONDS must be at least 0, not -1"),
        # 0 where it means nothing sensible: every session ended as it began (404 at every call), every
        # call told to wait (429), every request's head too large.
        ("CLOCKFORD_SESSION_MAX_AGE_SECONDS", "0", "CLOCKFORD_SESSION_MAX_AGE_SECONDS must be at least 1, not 0"),
        ("CLOCKFORD_IN_FLIGHT_PER_SESSION", "0", "CLOCKFORD_IN_FLIGHT_PER_SESSION must be at least 1, not 0"),
        ("CLOCKFORD_HEADER_BYTES", "0", "CLOCKFORD_HEADER_BYTES must be at least 1024, not 0"),
        ("CLOCKFORD_PORT", "0", "CLOCKFORD_PORT must be a port number from 1 to 65535, not 0"),
        ("CLOCKFORD_PORT", "70000", "CLOCKFORD_PORT must be a port number from 1 to 65535, not 70000"),
        # Past what its unit allows: a session idle for 10**20 seconds made every new session a
        # traceback; days past Python's last date; a count past PostgreSQL's integer.
        (
            "CLOCKFORD_SESSION_IDLE_SECONDS",
            "99999999999999999999",
            "CLOCKFORD_SESSION_IDLE_SECONDS must be at most 315360000, not 99999999999999999999",
        ),
        ("CLOCKFORD_REHAB_DAYS", "4000000", "CLOCKFORD_REHAB_DAYS must be at most 3650, not 4000000"),
        ("CLOCKFORD_DEED_RECHECK_HOURS", "100000", "CLOCKFORD_DEED_RECHECK_HOURS must be at most 87600, not 100000"),
        ("CLOCKFORD_HOLDS_IN_TOWN", str(2**31), f"CLOCKFORD_HOLDS_IN_TOWN must be at most {2**31 - 1}, not {2**31}"),
        (
            "CLOCKFORD_POST_OFFICE_ROOM_BYTES",
            str(2**50),
            f"CLOCKFORD_POST_OFFICE_ROOM_BYTES must be at most {2**40}, not {2**50}",
        ),
        ("CLOCKFORD_HOLDS_PER_PASSPORT", "ten", "CLOCKFORD_HOLDS_PER_PASSPORT must be a whole number, not 'ten'"),
        ("CLOCKFORD_CALL_LOG", "maybe", "CLOCKFORD_CALL_LOG must be true or false, not 'maybe'"),
        ("CLOCKFORD_BODY_SECONDS", "-1", "CLOCKFORD_BODY_SECONDS must be more than 0 seconds, not -1"),
        ("CLOCKFORD_HEADER_SECONDS", "nan", "CLOCKFORD_HEADER_SECONDS must be more than 0 seconds, not nan"),
        ("CLOCKFORD_HEADER_SECONDS", "soon", "CLOCKFORD_HEADER_SECONDS must be a number of seconds, not 'soon'"),
        (
            "CLOCKFORD_TOKEN_SECONDS",
            "7200",
            "CLOCKFORD_TOKEN_SECONDS must be 1 to 3600 (tokens live at most an hour), not 7200",
        ),
        *(
            (name, value, f"{name} must be an http or https address, such as https://town.example, not {value!r}")
            for name, value in (
                ("CLOCKFORD_URL", "town.example"),
                ("CLOCKFORD_URL", "ftp://town.example"),
                ("CLOCKFORD_URL", "https://"),
                ("CLOCKFORD_URL", "https://town.example:99999"),
                ("CLOCKFORD_URL", "https://town.example:port"),
                ("CLOCKFORD_URL", "https://who:secret@town.example"),
                ("CLOCKFORD_URL", "https://town.example/clockford"),
                ("CLOCKFORD_URL", "https://town.example?x=1"),
                ("CLOCKFORD_HALL_URL", "javascript:alert(1)"),
            )
        ),
        *(
            (
                "CLOCKFORD_TRUSTED_PROXIES",
                value,
                f"CLOCKFORD_TRUSTED_PROXIES names addresses or networks (10.0.0.5, 10.0.0.0/24), not {value!r}",
            )
            for value in ("999.1.1.1", "10.0.0.0/33", "proxy.example")
        ),
        ("CLOCKFORD_WITNESSES", "abc", "CLOCKFORD_WITNESSES names a witness as name=64 hex characters, not 'abc'"),
        (
            "CLOCKFORD_LOG_LEVEL",
            "loud",
            "CLOCKFORD_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not 'LOUD'",
        ),
        (
            "DATABASE_URL",
            "mysql://town@db/town",
            "DATABASE_URL must name PostgreSQL (postgresql://...) or SQLite (sqlite:///...), not mysql",
        ),
        (
            "DATABASE_URL",
            "sqlite:////no/such/folder/town.sqlite3",
            "DATABASE_URL names an SQLite file in a folder that does not exist: /no/such/folder/town.sqlite3",
        ),
        (
            "CLOCKFORD_SECRET_KEY_FILE",
            "/no/such/secret",
            "CLOCKFORD_SECRET_KEY_FILE names /no/such/secret, which cannot be read (No such file or directory)",
        ),
        (
            "CLOCKFORD_METRICS_TOKEN_FILE",
            "/",
            "CLOCKFORD_METRICS_TOKEN_FILE names /, which cannot be read (Is a directory)",
        ),
    ],
)
def test_a_setting_the_town_cannot_run_with_stops_it_naming_the_setting(
    tmp_path: Path, setting: str, value: str, said: str
) -> None:
    done = own_town_run(READ, tmp_path, **{setting: value})
    assert (done.returncode, done.stderr) == (2, f"Clockford cannot start: {said}.\n")


def test_a_var_folder_the_town_cannot_make_is_named(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    done = own_town_run(READ, tmp_path / "a-file" / "var")
    said = f"CLOCKFORD_VAR names {tmp_path / 'a-file' / 'var'}, a folder the town cannot make (Not a directory)"
    assert (done.returncode, done.stderr) == (2, f"Clockford cannot start: {said}.\n")


@pytest.mark.parametrize(
    "command", [["manage.py", "migrate", "--noinput"], ["-m", "clockford.serve", "--port", "1", "--workers", "1"]]
)
def test_the_town_says_it_in_one_line_before_it_migrates_or_serves(tmp_path: Path, command: list[str]) -> None:
    done = own_town_run(command, tmp_path, CLOCKFORD_URL="ftp://town.example")
    said = "CLOCKFORD_URL must be an http or https address, such as https://town.example, not 'ftp://town.example'"
    assert (done.returncode, done.stderr) == (2, f"Clockford cannot start: {said}.\n")
    assert not (tmp_path / "town.sqlite3").exists()  # nothing migrated


def test_an_address_with_a_slash_at_its_end_is_read_without_it(tmp_path: Path) -> None:
    done = own_town_run(
        ["-c", "import clockford.settings as s; print(s.TOWN_URL, s.HALL_URL)"],
        tmp_path,
        CLOCKFORD_URL="https://town.example/",
        CLOCKFORD_HALL_URL="https://hall.town.example:8443/",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["https://town.example", "https://hall.town.example:8443"]


def test_zero_stays_a_setting_where_it_means_off(tmp_path: Path) -> None:
    """0 turns the clerk's rate limit off and moves the sweep to a service of its own (docs/configuration.md)."""
    done = own_town_run(
        ["-c", "import clockford.settings as s; print(s.CLOCKFORD['CALLS_PER_MINUTE'], s.CLOCKFORD_SWEEP_SECONDS)"],
        tmp_path,
        CLOCKFORD_CALLS_PER_MINUTE="0",
        CLOCKFORD_SWEEP_SECONDS="0",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "0"]


@pytest.mark.parametrize("held", ["garbage", "", "z" * 64, "ab" * 31])
def test_a_town_key_file_that_holds_no_key_is_said_in_words(tmp_path: Path, held: str) -> None:
    (tmp_path / "town.key").write_text(held)
    done = own_town_run(["manage.py", "town_ready"], tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        "CommandError: The town key in town.key is not 32 bytes of hex. Put back the copy kept apart "
        "(docs/backup.md): a new key cannot vouch for what the old one signed.\n"
    )
    assert (tmp_path / "town.key").read_text() == held  # never replaced by a new key


# A process killed while it makes one of the town's secret files: os.fsync ends it, which the making
# calls once the file's bytes are written and before they are at the file's path.
KILLED_WHILE_MAKING = (
    "import os, signal; os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL); "
    "import django; django.setup(); {make}"
)
MADE_ONCE = {
    "town.key": "from clockford.town import signing; signing.public_key_hex()",
    "django-secret": "",  # made as the settings are read
    "vapid.pem": "from hall import push; push.public_key()",
}


@pytest.mark.parametrize("name", MADE_ONCE)
def test_a_town_killed_while_it_makes_a_secret_file_leaves_none_and_the_next_start_makes_it(
    tmp_path: Path, name: str
) -> None:
    """A town first started and killed in its first call was left an empty town.key that no start could
    read (a battery's kills check met it); the Django secret and the VAPID key were made the same way.
    Each reaches its path whole or not at all."""
    if name != "django-secret":  # made as the settings are read, before the file the kill is for
        assert own_town_run(["-c", "import django; django.setup()"], tmp_path).returncode == 0
    killed = own_town_run(["-c", KILLED_WHILE_MAKING.format(make=MADE_ONCE[name])], tmp_path)
    assert killed.returncode == -9, killed.stderr
    assert not (tmp_path / name).exists()
    (left,) = tmp_path.glob(f".{name}-*")  # the killed process's draft, never read
    os.utime(left, (time.time() - 120, time.time() - 120))  # as a draft left a while ago
    done = own_town_run(["-c", "import django; django.setup(); " + MADE_ONCE[name]], tmp_path)
    assert done.returncode == 0, done.stderr
    made = (tmp_path / name).read_bytes()
    assert made.strip()
    assert (tmp_path / name).stat().st_mode & 0o777 == 0o600
    assert not left.exists() and not list(tmp_path.glob(f".{name}-*"))  # nothing left beside it
    again = own_town_run(["-c", "import django; django.setup(); " + MADE_ONCE[name]], tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / name).read_bytes() == made  # kept, never made again


def test_a_town_key_made_after_a_kill_is_read_by_town_ready(tmp_path: Path) -> None:
    assert own_town_run(["-c", "import django; django.setup()"], tmp_path).returncode == 0  # the Django secret
    killed = own_town_run(["-c", KILLED_WHILE_MAKING.format(make=MADE_ONCE["town.key"])], tmp_path)
    assert killed.returncode == -9, killed.stderr
    assert not (tmp_path / "town.key").exists()
    done = own_town_run(["manage.py", "town_ready"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "(made now)" in done.stdout
    assert len(bytes.fromhex((tmp_path / "town.key").read_text().strip())) == 32


def test_a_town_key_that_cannot_be_made_is_said_in_words(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    done = own_town_run(["manage.py", "town_ready"], tmp_path, CLOCKFORD_KEY_FILE=str(tmp_path / "a-file" / "town.key"))
    assert (done.returncode, done.stderr) == (
        1,
        f"CommandError: The town key cannot be made or read at {tmp_path / 'a-file' / 'town.key'}: File exists.\n",
    )


def test_a_database_the_town_cannot_open_is_said_in_one_line(tmp_path: Path) -> None:
    """A database file that is not one (damaged, or something else put in its place), and a PostgreSQL
    server that does not answer: migrate (the first thing ./town up runs) said it in a traceback."""
    (tmp_path / "town.sqlite3").write_bytes(b"not a database, not even close" * 300)
    done = own_town_run(["manage.py", "migrate", "--noinput"], tmp_path)
    said = f"Clockford cannot open its database ({tmp_path / 'town.sqlite3'}): file is not a database."
    assert (done.returncode, done.stderr) == (2, said + "\n")
    url = "postgresql://town:a-password@127.0.0.1:1/town"
    done = own_town_run(["manage.py", "migrate", "--noinput"], tmp_path, DATABASE_URL=url)
    assert done.returncode == 2
    assert done.stderr.startswith("Clockford cannot open its database (127.0.0.1:1/town): connection failed: ")
    assert done.stderr.count("\n") == 1 and "a-password" not in done.stderr, done.stderr
