"""Backing up and restoring the town's database: SQLite through its online backup API, PostgreSQL
through pg_dump and pg_restore (Debian's postgresql-client, the same major version as the server).

A backup is the database alone. The town key and the Archive's head (clockford/town/head.py) stay
in the town's var folder: the key is a secret a backup must never carry, and the head must outlive
the database it guards. After a restore, `archive verify` checks the restored Archive, and a
database behind the last checkpoint the town signed is not served until a person accepts it.
"""

import contextlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from django.db import connection

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"


class BackupError(Exception):
    """Said to the person as it is: the backup or restore did not happen."""


def _kind() -> str:
    if connection.vendor not in ("sqlite", "postgresql"):
        raise BackupError(f"Backups are made for SQLite and PostgreSQL, not {connection.vendor}.")
    return connection.vendor


def _pg_env() -> dict[str, str]:
    s = connection.settings_dict
    env = dict(os.environ)
    for var, key in (("PGHOST", "HOST"), ("PGPORT", "PORT"), ("PGUSER", "USER"), ("PGPASSWORD", "PASSWORD")):
        if s.get(key):
            env[var] = str(s[key])
    env["PGDATABASE"] = str(s["NAME"])
    return env


def _run(cmd: list[str]) -> None:
    if shutil.which(cmd[0]) is None:
        raise BackupError(f"{cmd[0]} is not installed here (Debian's postgresql-client has it).")
    done = subprocess.run(cmd, env=_pg_env(), capture_output=True, text=True, check=False)  # noqa: S603
    if done.returncode != 0:
        raise BackupError(f"{cmd[0]} failed: {(done.stderr or done.stdout).strip()[-500:]}")


def backup(to: Path) -> str:
    """Write a consistent copy of the database to `to` while the town serves. Returns its kind."""
    kind = _kind()
    if to.is_dir():
        raise BackupError(f"{to.name} is a folder: name the file the backup is to be written to, in it or elsewhere.")
    if to.exists():
        raise BackupError(f"{to.name} exists already; a backup never overwrites a file.")
    if not to.parent.is_dir():
        raise BackupError(f"{to.name} cannot be written: the folder it would go in does not exist.")
    tmp = to.with_name(to.name + ".partial")
    try:
        tmp.unlink(missing_ok=True)
        # Readable by its owner alone, as the database it copies: made so before a byte is written into
        # it (sqlite3 and pg_dump keep the mode of a file that exists).
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        if kind == "sqlite":
            _sqlite_backup(tmp)
        else:
            _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--file={tmp}"])
        os.replace(tmp, to)  # a backup that stopped half-way never looks like a backup
    except (OSError, sqlite3.Error) as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)  # what was begun, if it can go; the person is told either way
        raise BackupError(f"{to.name} cannot be written: {getattr(exc, 'strerror', None) or exc}.") from exc
    return kind


def _sqlite_backup(to: Path) -> None:
    # The online backup API copies page by page under SQLite's own locking: calls go on.
    source = sqlite3.connect(f"file:{connection.settings_dict['NAME']}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(to)
        try:
            with target:
                source.backup(target, pages=1024)
        finally:
            target.close()
    finally:
        source.close()


def restorable(source: Path) -> str:
    """The kind of database `source` backs up, when it is a backup of this town's kind; else why not."""
    kind = _kind()
    try:
        with open(source, "rb") as f:
            magic = f.read(16)
    except OSError as exc:
        raise BackupError(f"{source.name} cannot be read: {exc.strerror}.") from exc
    made = "sqlite" if magic == SQLITE_MAGIC else "postgresql" if magic.startswith(PG_MAGIC) else None
    if made is None:
        raise BackupError(f"{source.name} is not a backup this town made.")
    if made != kind:
        raise BackupError(f"{source.name} is a {made} backup; this town's database is {kind}.")
    return kind


def restore(source: Path, kind: str) -> list[str]:
    """Replace the database's contents with the backup in `source`, of the `kind` restorable found it to
    be, in one transaction (a restore that fails leaves the database as it was). manage.py restore
    checks the file and closes the town first. Returns the tables and views dropped on PostgreSQL that
    neither the backup nor this version of the town knows (an operator's own, or a later version's)."""
    connection.close()
    if kind == "sqlite":
        backup_db = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        live = sqlite3.connect(connection.settings_dict["NAME"])
        try:
            with live:
                backup_db.backup(live)  # every page in one step: the database is replaced whole or not at all
        except sqlite3.Error as exc:  # a backup cut short or damaged since it was made
            raise BackupError(f"{source.name} cannot be put back ({exc}); the database is as it was.") from exc
        finally:
            live.close()
            backup_db.close()
        return []
    return _pg_restore(source)


def _pg_restore(source: Path) -> list[str]:
    """The backup's script (pg_restore --clean) run by psql in one transaction, after dropping every
    table the database has: a database migrated past the backup (an upgrade, then a way back) has
    tables the backup does not know, and pg_restore --clean, which drops only the backup's own, was
    stopped by their foreign keys into the backup's tables. The transaction commits only once
    pg_restore has written its whole script: a backup cut short leaves the database as it was."""
    for program in ("pg_restore", "psql"):
        if shutil.which(program) is None:
            raise BackupError(f"{program} is not installed here (Debian's postgresql-client has it).")
    with connection.cursor() as c:
        tables = connection.introspection.table_names(c)
        views = [t.name for t in connection.introspection.get_table_list(c) if t.type == "v"]
    known = set(connection.introspection.django_table_names()) | _backup_relations(source)
    connection.close()
    # Said, not dropped in silence: DROP ... CASCADE takes an operator's own table too, and every view
    # that reads one of the dropped tables.
    foreign = sorted(t for t in [*tables, *views] if t not in known)
    quote = connection.ops.quote_name
    prelude = "BEGIN;\n"
    if tables:
        prelude += f"DROP TABLE IF EXISTS {', '.join(quote(t) for t in tables)} CASCADE;\n"
    script = ["pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges", "--file=-", str(source)]
    run = ["psql", "--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", "--file=-"]
    env = _pg_env()
    with tempfile.TemporaryFile() as said_restore, tempfile.TemporaryFile() as said_psql:
        psql = subprocess.Popen(run, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=said_psql)  # noqa: S603
        restore = subprocess.Popen(script, env=env, stdout=subprocess.PIPE, stderr=said_restore)  # noqa: S603
        assert psql.stdin is not None and restore.stdout is not None
        try:
            psql.stdin.write(prelude.encode())
            shutil.copyfileobj(restore.stdout, psql.stdin)
            # Without COMMIT, psql ends with the transaction open, and PostgreSQL rolls it back.
            if restore.wait() == 0:
                psql.stdin.write(b"COMMIT;\n")
            psql.stdin.close()
        except BrokenPipeError:  # psql stopped at an error (ON_ERROR_STOP): its transaction rolls back
            restore.kill()
        restore.wait()
        psql.wait()
        for program, done, said in (("pg_restore", restore, said_restore), ("psql", psql, said_psql)):
            if done.returncode != 0:
                said.seek(0)
                text = said.read().decode(errors="replace").strip()
                raise BackupError(f"{program} failed: {text[-500:]}")
    with connection.cursor() as c:
        left = {t.name for t in connection.introspection.get_table_list(c)}
    return [t for t in foreign if t not in left]  # a view that read none of the tables is still there


def _backup_relations(source: Path) -> set[str]:
    """The tables and views a custom-format backup holds, from its table of contents."""
    listed = subprocess.run(["pg_restore", "--list", str(source)], capture_output=True, text=True, check=False)  # noqa: S603, S607
    names = set()
    for line in listed.stdout.splitlines():
        words = line.split()
        for kind in ("TABLE", "VIEW"):
            if kind in words[:5] and "DATA" not in words:
                at = words.index(kind)
                if len(words) > at + 2:
                    names.add(words[at + 2])
    return names
