"""Witnessing over real HTTP: a witness (`manage.py archive witness URL`, in its own var folder) follows
a live town through its read API; then the town's database is copied, the copy's append-only triggers
are dropped and its Archive's tail cut, and the copy is served in the town's place with the same key.
`archive verify` on the copy finds nothing wrong; the witness refuses it."""

import secrets
import sqlite3
import subprocess
from pathlib import Path

from tests.support import PYTHON, ROOT, RawSession, Town, _pg_copy, _pg_url_for, make_town, own_town_env

TABLES = ("town_footstep", "town_archiveleaf", "town_checkpoint")


def witness(town_url: str, var: Path) -> subprocess.CompletedProcess[str]:
    """The witness: another Clockford with a var folder (and so a key) of its own."""
    env = own_town_env(var)
    return subprocess.run(
        [PYTHON, "manage.py", "archive", "witness", town_url],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def calls(town: Town, n: int) -> None:
    s = RawSession(town.mcp)
    for _ in range(n):
        s.call("look_around")
    town.fold()


def cut_tail(town: Town, keep: int) -> None:
    """What someone with the database's owner rights can do to the copy: drop the triggers, delete the
    footsteps, leaves and checkpoints past the first `keep` leaves."""
    statements = []
    for t in TABLES:
        if town.pg_db:
            statements.append(f"DROP TRIGGER IF EXISTS {t}_append_only ON {t}")
        else:
            statements += [f"DROP TRIGGER IF EXISTS {t}_no_update", f"DROP TRIGGER IF EXISTS {t}_no_delete"]
    last = f'SELECT footstep_id FROM town_archiveleaf WHERE "index" = {keep - 1}'
    tail = [
        f"DELETE FROM town_checkpoint WHERE size > {keep}",
        f'DELETE FROM town_archiveleaf WHERE "index" >= {keep}',
        "DELETE FROM town_footstep WHERE number > {last}",
    ]
    if town.pg_db:
        import psycopg

        with psycopg.connect(_pg_url_for(town.pg_db), autocommit=True) as conn:
            number = conn.execute(last).fetchone()[0]  # type: ignore[index]
            for sql in statements + tail:
                conn.execute(sql.format(last=number))  # type: ignore[arg-type]
    else:
        with sqlite3.connect(town.env["CLOCKFORD_SQLITE"]) as db:
            number = db.execute(last).fetchone()[0]
            for sql in statements + tail:
                db.execute(sql.format(last=number))


def test_a_copy_with_its_tail_cut_is_caught_by_the_witness(tmp_path: Path) -> None:
    town = make_town(tmp_path).start()
    try:
        calls(town, 6)
        first = witness(town.url, tmp_path / "witness")
        assert first.returncode == 0, first.stderr
        assert first.stdout.startswith(f"Witnessed {town.url}: a signed checkpoint of ")
        calls(town, 5)
        second = witness(town.url, tmp_path / "witness")
        assert second.returncode == 0, second.stderr
        assert "consistent with the checkpoint of" in second.stdout
        size = int(second.stdout.split("a signed checkpoint of ")[1].split()[0])
        town.stop()

        # The copy: the same key, the same address, the database copied and its tail cut.
        copy_var = tmp_path / "copy"
        copy_var.mkdir()
        env = dict(town.env)
        env["CLOCKFORD_ARCHIVE_HEAD_FILE"] = str(copy_var / "archive-head.json")  # its own, no head
        copy = Town(port=town.port, var=copy_var, env=env)
        if town.pg_db:
            copy.pg_db = "clockford_t_" + secrets.token_hex(4)
            _pg_copy(town.pg_db, copy.pg_db)
            env["DATABASE_URL"] = _pg_url_for(copy.pg_db)
        else:
            env["CLOCKFORD_SQLITE"] = str(copy_var / "town.sqlite3")
            with sqlite3.connect(town.env["CLOCKFORD_SQLITE"]) as src, sqlite3.connect(env["CLOCKFORD_SQLITE"]) as dst:
                src.backup(dst)
        cut_tail(copy, size - 4)
        verify = copy.manage("archive", "verify", check=False)
        # Every footstep came from one session's passport: its own count gives the cut away, but the
        # log itself, checkpoint by checkpoint, verifies.
        assert "counts" in verify.stderr and "but the Archive holds" in verify.stderr, verify.stderr
        assert "not signed" not in verify.stderr and "does not match" not in verify.stderr, verify.stderr
        copy.start()
        try:
            caught = witness(copy.url, tmp_path / "witness")
            assert caught.returncode != 0
            assert (
                f"Not witnessed: The town's Archive shrank: this witness kept a signed checkpoint of {size}"
                in caught.stderr
            )
        finally:
            copy.close()
    finally:
        town.close()
