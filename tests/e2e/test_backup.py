"""Backup and restore of a live town (issue 18): a backup taken while the town serves, restored after
more footsteps were signed, verifies; the town then will not serve the older database until a person
accepts it, because its Archive is behind the last checkpoint the town signed (clockford/town/head.py).
Runs on whichever database the suite runs on (SQLite, or PostgreSQL with DATABASE_URL)."""

import json
import stat
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tests.e2e.test_http_rows import sql
from tests.support import RawSession, Town, get, request

TownFactory = Callable[..., Town]


def remember_some(town_mcp: str, n: int, prefix: str) -> None:
    s = RawSession(town_mcp, client_name="backup-test")
    for i in range(n):
        r = s.call("remember", {"key": f"{prefix}-{i}", "value": f"note {i}"})
        assert r["isError"] is False, r


def status(town_url: str) -> dict[str, str]:
    code, _, body = get(town_url + "/status")
    assert code in (200, 503), body
    return json.loads(body)


def test_a_restored_backup_verifies_and_is_served_only_once_a_person_accepts_it(
    town_factory: TownFactory, tmp_path: Path
) -> None:
    town = town_factory().start()
    remember_some(town.mcp, 5, "before")
    town.fold()
    # A block kept for leaves the Archive does not hold (block 7: leaves 1792 to 2047) goes into the
    # backup: the restore says so as `archive verify` does, and the Archive still verifies.
    stray = "from clockford.town.models import ArchiveBlock; ArchiveBlock.objects.create(index=7, hash='ab' * 32)"
    town.manage("shell", "-c", stray)
    saved = tmp_path / "town.backup"
    assert "Backed up" in town.manage("backup", str(saved)).stdout
    # Agents' notes and letters are in it: its owner's alone, as the database it copies (on SQLite, a
    # file of the town's var folder, narrowed as the town opened it; the template it was copied from
    # was not).
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    if "CLOCKFORD_SQLITE" in town.env:
        assert stat.S_IMODE(Path(town.env["CLOCKFORD_SQLITE"]).stat().st_mode) == 0o600
    again = town.manage("backup", str(saved), check=False)
    assert again.returncode != 0 and "never overwrites" in again.stderr

    remember_some(town.mcp, 5, "after")
    town.fold()
    signed = town.manage("archive", "checkpoint").stdout.splitlines()[1]
    town.stop()

    restored = town.manage("restore", str(saved))
    assert "The restored Archive verifies" in restored.stdout, restored.stdout
    assert (
        "footsteps. 1 of its blocks are wrong or missing: proofs there are made from the leaves, slower but as "
        "true (manage.py archive blocks makes them again)."
    ) in restored.stdout, restored.stdout
    assert "block 7 (leaves 1792 to 2047) is kept, but not all its leaves are in the Archive\n" in restored.stderr
    assert f"this town signed a checkpoint of {signed}" in restored.stdout, restored.stdout
    verified = town.manage("archive", "verify")
    assert "The Archive verifies" in verified.stdout and "behind its own Archive" in verified.stderr

    town.start()
    assert status(town.url)["mode"] == "closed"
    # 001: a closed town answers every call, the first included, with 503 and its sentence.
    code, _, body = request(
        "POST",
        town.mcp,
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
    )
    assert (code, body) == (503, "The town is closed for now. Try again later."), (code, body)
    opened = town.manage("town_mode", "open", check=False)
    assert opened.returncode != 0 and "archive head --accept" in opened.stderr

    accepted = town.manage("archive", "head", "--accept").stdout
    assert f"(it was {signed})" in accepted, accepted
    town.manage("town_mode", "open")
    town.stop()
    town.start()
    assert status(town.url) == {"mode": "open"}
    remember_some(town.mcp, 2, "later")
    town.fold()
    assert "reaches the last checkpoint" in town.manage("archive", "head").stdout
    assert "The Archive verifies" in town.manage("archive", "verify").stdout


def footsteps(town: Town) -> int:
    """How many footsteps the town's database holds, folded or not."""
    shell = town.manage("shell", "-c", "from clockford.town.models import Footstep; print(Footstep.objects.count())")
    return int(shell.stdout.split()[-1])  # after Django 5.2's line about the names it imported


def test_a_restore_under_a_running_town_lands_no_call_on_the_restored_database_until_a_person_accepts_it(
    town_factory: TownFactory, tmp_path: Path
) -> None:
    """docs/backup.md says to stop the town first; a person who forgets must not get a town that goes on
    answering from an older database, giving footstep numbers it has already signed with other contents.
    The restore closes the town before it replaces the database, and the restored database, behind the
    town's signed head, keeps it closed: two workers, an agent calling all the while, no restart."""
    town = town_factory(server="uvicorn", workers=2).start()
    remember_some(town.mcp, 5, "before")
    town.fold()
    saved = tmp_path / "town.backup"
    town.manage("backup", str(saved))
    in_backup = footsteps(town)
    remember_some(town.mcp, 5, "after")
    town.fold()

    answered: list[int] = []
    stop = threading.Event()

    def agent() -> None:
        while not stop.is_set():
            try:
                s = RawSession(town.mcp, client_name="still-calling")
                while not stop.is_set():
                    status, _, _ = s.post(
                        {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "look_around"}}
                    )
                    answered.append(status)
                    if status != 200:
                        break
            except AssertionError:  # a closed town refuses a new session too
                answered.append(503)
                time.sleep(0.05)

    calling = threading.Thread(target=agent)
    calling.start()
    try:
        time.sleep(0.5)
        restored = town.manage("restore", str(saved))
        time.sleep(1.5)  # past the workers' copy of the mode, were the restore to leave it open
    finally:
        stop.set()
        calling.join()
    assert answered.count(200) > 5, answered[-20:]
    assert footsteps(town) == in_backup  # no call reached the restored database
    assert 503 in answered and status(town.url)["mode"] == "closed"
    assert "The town is closed until a person accepts it" in restored.stdout, restored.stdout

    town.manage("archive", "head", "--accept")
    town.manage("town_mode", "open")
    deadline = time.monotonic() + 5
    while status(town.url)["mode"] != "open" and time.monotonic() < deadline:
        time.sleep(0.2)
    remember_some(town.mcp, 2, "accepted")  # the same workers serve again, without a restart
    assert footsteps(town) == in_backup + 2


def test_a_restore_that_fails_says_the_town_is_closed_for_it(town_factory: TownFactory, tmp_path: Path) -> None:
    town = town_factory().start()
    remember_some(town.mcp, 2, "before")
    saved = tmp_path / "town.backup"
    town.manage("backup", str(saved))
    # A backup of this town's kind whose contents cannot be put back: cut short after its first bytes.
    cut = tmp_path / "cut.backup"
    cut.write_bytes(saved.read_bytes()[:4096])
    done = town.manage("restore", str(cut), check=False)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert "The town was closed for the restore and stays closed: manage.py town_mode open opens it." in done.stderr
    assert status(town.url)["mode"] == "closed"
    town.manage("town_mode", "open")
    remember_some(town.mcp, 1, "reopened")


def test_a_backup_made_before_an_upgrade_replaces_the_upgraded_database_whole(
    town_factory: TownFactory, tmp_path: Path
) -> None:
    """Going back to a backup made before an upgrade: the upgraded database has tables the backup does
    not know, some of them referring to tables it does (a newer district's rows name a passport). On
    PostgreSQL, pg_restore --clean dropped only the backup's own tables, and a newer table's foreign key
    stopped the restore ("depends on index town_passport_pkey"): the town stayed closed, with no way back
    but by hand. The database is replaced whole, as on SQLite, and the next migrate builds the rest."""
    town = town_factory().start()
    remember_some(town.mcp, 3, "before")
    town.fold()
    saved = tmp_path / "town.backup"
    town.manage("backup", str(saved))
    town.stop()
    # What a later version's migration adds: a table of its own, its rows naming the town's passports.
    sql(
        town,
        "CREATE TABLE later_district (id integer PRIMARY KEY, passport_id varchar(16) REFERENCES town_passport (id))",
    )
    sql(town, "INSERT INTO later_district (id, passport_id) SELECT 1, id FROM town_passport LIMIT 1")

    restored = town.manage("restore", str(saved), check=False)
    assert restored.returncode == 0, restored.stderr
    assert "The restored Archive verifies" in restored.stdout, restored.stdout
    tables = "SELECT name FROM sqlite_master WHERE name = %s"
    if "DATABASE_URL" in town.env:
        tables = "SELECT tablename FROM pg_tables WHERE tablename = %s"
    assert sql(town, tables, ("later_district",)) == []
    if "DATABASE_URL" in town.env:  # dropped, and said: neither the backup nor this version knows it
        assert "neither the backup nor this version of Clockford knows them" in restored.stdout, restored.stdout
        assert "later_district." in restored.stdout
    assert sql(town, "SELECT COUNT(*) FROM post_office_note") == [(3,)]
    town.manage("migrate", "--noinput")
    town.start()
    assert status(town.url) == {"mode": "open"}
    remember_some(town.mcp, 1, "after")


def test_a_file_that_is_not_a_backup_is_refused_and_nothing_changes(town_factory: TownFactory, tmp_path: Path) -> None:
    town = town_factory()
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"not a database at all")
    done = town.manage("restore", str(junk), check=False)
    assert done.returncode != 0 and "is not a backup this town made" in done.stderr
    missing = town.manage("restore", str(tmp_path / "nothing"), check=False)
    assert missing.returncode != 0 and "cannot be read" in missing.stderr


def test_a_backup_that_cannot_be_written_is_said_so_and_leaves_nothing(
    town_factory: TownFactory, tmp_path: Path
) -> None:
    town = town_factory()
    nowhere = town.manage("backup", str(tmp_path / "no-such-folder" / "town.backup"), check=False)
    assert nowhere.returncode != 0, nowhere.stdout
    assert "town.backup cannot be written: the folder it would go in does not exist." in nowhere.stderr
    assert "Traceback" not in nowhere.stderr
    # A folder the backup can find but not write into (a file stands where the .partial would go).
    (tmp_path / "town.backup.partial").mkdir()
    (tmp_path / "town.backup.partial" / "keep").write_text("x")
    blocked = town.manage("backup", str(tmp_path / "town.backup"), check=False)
    assert blocked.returncode != 0 and "town.backup cannot be written:" in blocked.stderr, blocked.stderr
    assert "Traceback" not in blocked.stderr
    assert not (tmp_path / "town.backup").exists()
    # A folder given for the file: named as a folder, not as a file that exists.
    folder = town.manage("backup", str(tmp_path), check=False)
    assert folder.returncode != 0
    assert f"{tmp_path.name} is a folder: name the file the backup is to be written to" in folder.stderr


def test_under_uvicorn_a_database_behind_the_signed_head_is_not_served(town_factory: TownFactory) -> None:
    """The check runs as the server loads the town: uvicorn's worker processes (as `./town up` serves, one
    per core) load it inside their event loop, where Django refuses a query, and the check never ran
    there. A head signed past this database's Archive (as after restoring an older backup) closes the
    town before it answers anything."""
    town = town_factory(server="uvicorn", workers=2).start()
    remember_some(town.mcp, 3, "before")
    town.fold()
    town.stop()
    kept = Path(town.env["CLOCKFORD_ARCHIVE_HEAD_FILE"])
    head = json.loads(kept.read_text())
    kept.write_text(json.dumps({**head, "size": head["size"] + 1000}) + "\n")
    town.start()
    assert status(town.url)["mode"] == "closed"
    log = town.log.read_text(errors="replace")
    assert "is behind its own Archive" in log and "could not compare the Archive" not in log, log[-2000:]
