"""A session's id is its passport's only credential on a town without sign-in: the town keeps only its
SHA-256 (clockford/face/sessions.py key_of), so neither the database nor a backup holds the id, while
the client goes on sending the id it was given, to any process of the town."""

import copy
import hashlib
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import Implementation

from tests.e2e.test_http_rows import NOT_FOUND_SESSION, TOOLS_LIST, assert_plain, sql
from tests.support import RawSession, Town

TownFactory = Callable[..., Town]


async def sdk_session(town: Town) -> str:
    """A session of the mcp SDK's own client, left open: initialize and one call. Its id, as the town
    sent it."""
    sent: list[str] = []

    async def note(response: httpx2.Response) -> None:
        if sid := response.headers.get("mcp-session-id"):
            sent.append(sid)

    http = create_mcp_http_client()
    http.event_hooks["response"].append(note)
    async with http, streamable_http_client(town.mcp, http_client=http, terminate_on_close=False) as (read, write):
        async with ClientSession(read, write, client_info=Implementation(name="keys-test", version="1")) as s:
            await s.initialize()
            kept = await s.call_tool("remember", {"key": "where", "value": "kept by the SDK"})
            assert kept.is_error is False, kept
    assert sent and len(set(sent)) == 1, sent
    return sent[0]


def text_anywhere(town: Town, needle: str) -> list[str]:
    """Every table and text column of the town's database that holds `needle` anywhere in a value."""
    if "DATABASE_URL" in town.env:
        columns = sql(
            town,
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
            "AND data_type IN ('character varying', 'text', 'character', 'jsonb', 'json', 'bytea')",
        )
    else:
        tables = [t for (t,) in sql(town, "SELECT name FROM sqlite_master WHERE type = 'table'")]
        columns = [(t, c[1]) for t in tables for c in sql(town, f'PRAGMA table_info("{t}")')]
    found = []
    for table, col in columns:
        cast = f'"{col}"::text' if "DATABASE_URL" in town.env else f'CAST("{col}" AS TEXT)'
        hits = sql(town, f'SELECT count(*) FROM "{table}" WHERE {cast} LIKE %s', (f"%{needle}%",))  # noqa: S608 (the database's own names)
        if hits[0][0]:
            found.append(f"{table}.{col}")
    return found


def backup_text(town: Town, saved: Path) -> bytes:
    """A backup's contents as bytes to search: an SQLite backup is a database file; PostgreSQL's
    custom format is compressed, so it is read back through pg_restore as the SQL it restores."""
    if "DATABASE_URL" not in town.env:
        return saved.read_bytes()
    pg_restore = shutil.which("pg_restore")
    assert pg_restore is not None, "pg_restore (postgresql-client) is needed to read a backup"
    return subprocess.run([pg_restore, "--file=-", str(saved)], check=True, capture_output=True, timeout=60).stdout


async def test_the_town_keeps_a_sessions_key_never_its_id(town_factory: TownFactory, tmp_path: Path) -> None:
    a = town_factory().start()
    b = town_factory(share=a).start()
    sid = await sdk_session(a)
    key = hashlib.sha256(sid.encode()).hexdigest()

    # The session is kept, under its key, and its id is nowhere: not in any column of any table,
    # not in the SQLite file's bytes, not in a backup.
    assert text_anywhere(a, sid) == []
    assert sql(a, "SELECT count(*) FROM town_mcpsession WHERE id = %s", (key,)) == [(1,)]
    assert text_anywhere(a, key) == ["town_mcpsession.id"]
    if "DATABASE_URL" not in a.env:
        database = Path(a.env["CLOCKFORD_SQLITE"])
        with sqlite3.connect(database) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the WAL's pages written into the file
        for path in (database, database.with_name(database.name + "-wal")):
            assert not path.exists() or sid.encode() not in path.read_bytes(), path
    saved = tmp_path / "town.backup"
    assert "Backed up" in a.manage("backup", str(saved)).stdout
    in_backup = backup_text(a, saved)
    assert key.encode() in in_backup and sid.encode() not in in_backup

    # The client goes on with the id it was given, on the other process too: the same passport.
    other = RawSession(b.mcp, client_name="another-client")
    carried = copy.copy(other)
    carried.sid = sid
    assert carried.call("recall", {"key": "where"})["structuredContent"]["value"] == "kept by the SDK"
    mine = carried.call("show_passport")["structuredContent"]
    assert mine["footsteps"] == 3 and mine["passport"] != other.call("show_passport")["structuredContent"]["passport"]

    # The key opens nothing: sent as an id (as someone holding a copy of the database would), it is
    # a session not found, as is any id the town never gave.
    for stranger in (key, "f" * 64):
        named = copy.copy(other)
        named.sid = stranger
        assert_plain(named.post(TOOLS_LIST), 404, NOT_FOUND_SESSION)
        assert named.delete() == 404

    # Ended on one process, the session stays ended on both; the other client's goes on.
    assert carried.delete() == 200
    for town in (a, b):
        carried.url = town.mcp
        assert_plain(carried.post(TOOLS_LIST), 404, NOT_FOUND_SESSION)
        assert carried.delete() == 404
    assert other.call("look_around")["isError"] is False
    assert other.delete() == 200
