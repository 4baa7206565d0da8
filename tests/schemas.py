"""The migrated SQLite schema, made once per set of migrations and kept between runs.

Migrating an empty database takes Django about fifteen seconds here (most of it rendering the
migration states of some forty apps' worth of migrations), and every pytest-xdist worker used to pay
it before its first test. The schema depends only on the migration files and the versions of Django
and SQLite, so once migrated it is kept in the system's temporary folder under a name made from
those, and the next run (any checkout with the same migrations) copies it with SQLite's backup API
instead. A changed migration changes the name, so a stale schema is never used; nothing but the
schema and what `migrate` itself writes (its own table, content types, permissions) is in it.
"""

import contextlib
import hashlib
import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

FOLDER = Path(tempfile.gettempdir()) / "clockford-schemas"


def key() -> str:
    """A name for what a migrated schema depends on: every installed app's migration files, in
    order, and the versions of Django and SQLite."""
    import django
    from django.apps import apps

    digest = hashlib.sha256(f"django {django.__version__} sqlite {sqlite3.sqlite_version}".encode())
    for app in sorted(apps.get_app_configs(), key=lambda a: a.label):
        folder = Path(app.path) / "migrations"
        for path in sorted(folder.glob("*.py")) if folder.is_dir() else ():
            digest.update(f"\0{app.label}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def cached() -> Path:
    return FOLDER / f"{key()}.sqlite3"


def kept() -> Path | None:
    """The kept schema for this process's migrations, if there is one and Django's apps are loaded
    (a live town's template is the same schema: the town's settings install the same apps)."""
    from django.apps import apps

    if not apps.ready:
        return None
    path = cached()
    return path if path.exists() else None


def keep(source: sqlite3.Connection, path: Path) -> None:
    """Write a migrated database to the cache: a copy under a name of this process's own, then one
    rename, so a run reading the cache at the same moment sees the whole file or none."""
    FOLDER.mkdir(exist_ok=True)
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    with contextlib.closing(sqlite3.connect(part)) as target:
        source.backup(target)
    os.replace(part, path)


@contextlib.contextmanager
def migrate_from_cache() -> Iterator[None]:
    """While this holds, Django's `migrate` on a SQLite database loads the cached schema when there is
    one, and migrates and keeps it when there is not. Used around the creation of the in-process
    tests' database only; PostgreSQL migrates as before."""
    from django.core import management
    from django.db import connections

    real: Callable[..., Any] = management.call_command

    def call_command(name: str, *args: Any, **options: Any) -> Any:
        connection = connections[options.get("database", "default")]
        if name != "migrate" or connection.vendor != "sqlite":
            return real(name, *args, **options)
        connection.ensure_connection()
        path = cached()
        if path.exists():
            with contextlib.closing(sqlite3.connect(path)) as source:
                source.backup(connection.connection)
            return None
        done = real(name, *args, **options)
        keep(connection.connection, path)
        return done

    management.call_command = call_command
    try:
        yield
    finally:
        management.call_command = real
