"""DATABASE_URL=sqlite:///... gets the SQLite settings of the default database (clockford/settings.py):
WAL, IMMEDIATE transactions, the lock timeout and a kept connection. Without them a writer upgrading a
read lock fails at once with "database is locked", and a single client's calls could close the town.

Settings are read once at import, so each case reads them in a fresh interpreter."""

import json
from pathlib import Path
from typing import Any

from tests.support import own_town_run


def databases(tmp_path: Path, **env: str) -> dict[str, Any]:
    done = own_town_run(
        ["-c", "import json, clockford.settings as s; print(json.dumps(s.DATABASES['default']))"], tmp_path, **env
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_sqlite_database_url_gets_the_default_databases_settings(tmp_path: Path) -> None:
    default = databases(tmp_path, CLOCKFORD_SQLITE=str(tmp_path / "a.sqlite3"))
    named = databases(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    assert named["ENGINE"] == default["ENGINE"] == "clockford.sqlite"
    assert named["NAME"] == default["NAME"] == str(tmp_path / "a.sqlite3")
    assert named["OPTIONS"] == default["OPTIONS"]
    assert named["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert named["OPTIONS"]["timeout"] == 20
    assert "journal_mode=WAL" in named["OPTIONS"]["init_command"]
    # A connection ends with its request; the desk's threads keep theirs (clockford/face/server.py).
    assert named["CONN_MAX_AGE"] == default["CONN_MAX_AGE"] == 0


def test_a_postgresql_database_url_keeps_its_own_settings(tmp_path: Path) -> None:
    named = databases(tmp_path, DATABASE_URL="postgresql://town:pw@db.example:5432/clockford")
    assert named["ENGINE"] == "django.db.backends.postgresql"
    assert named["NAME"] == "clockford" and named["CONN_MAX_AGE"] == 0
    assert "transaction_mode" not in named.get("OPTIONS", {})


def test_the_town_s_sqlite_backend_converts_placeholders_as_django_s_does() -> None:
    """clockford.sqlite keeps each statement's conversion; what it converts to is Django's own."""
    import sqlite3

    from django.db.backends.sqlite3.base import SQLiteCursorWrapper as Django

    from clockford.sqlite.base import SQLiteCursorWrapper, _qmark

    db = sqlite3.connect(":memory:")
    ours, theirs = db.cursor(factory=SQLiteCursorWrapper), db.cursor(factory=Django)
    queries = ["SELECT %s, %s FROM t WHERE a LIKE '%%x%%' AND b = %s", "UPDATE t SET a = %s", "SELECT '%%s' || %s"]
    for q in queries:
        assert ours.convert_query(q) == theirs.convert_query(q) and "?" in ours.convert_query(q)
    named = "SELECT %(a)s, %(b)s"
    assert ours.convert_query(named, param_names=["a", "b"]) == "SELECT :a, :b"
    before = _qmark.cache_info().hits
    ours.convert_query(queries[0])
    assert _qmark.cache_info().hits == before + 1
    assert ours.execute("SELECT %s + %s", [1, 2]).fetchone() == (3,)
    db.close()
