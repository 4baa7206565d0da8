"""A call the Archive cannot record did not happen, and the town closes (001 "Closed: stop").

Over real HTTP against a live town of its own: footstep inserts are made to fail for real in the
town's database, with a trigger created through that database's own client, never inside the town.
"""

import json
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from tests.support import MCP_HEADERS, RawSession, Town, get, request, sse_message

UNRECORDED = "The town could not record this call, so it did not happen. The town is closed until a person looks."
CLOSED = "The town is closed for now. Try again later."
TownFactory = Callable[..., Town]


def sql(town: Town, statements: list[str]) -> list[Any]:
    """Run statements in the town's own database, as a person with a database client would; returns
    the rows of the last one."""
    if "CLOCKFORD_SQLITE" in town.env:
        conn = sqlite3.connect(town.env["CLOCKFORD_SQLITE"], timeout=20)
        try:
            cur = conn.cursor()
            for s in statements:
                cur.execute(s)
            rows = cur.fetchall()
            conn.commit()
            return rows
        finally:
            conn.close()
    import psycopg

    with psycopg.connect(town.env["DATABASE_URL"], autocommit=True) as pg:
        rows = []
        for s in statements:
            cur = pg.execute(s)  # type: ignore[arg-type]
            rows = cur.fetchall() if cur.description else []
        return rows


def refuse_writes(town: Town, table: str, events: tuple[str, ...] = ("INSERT",), why: str = "the disk is full") -> None:
    """Make the town's database refuse these writes to a table, as a full disk would."""
    name = f"test_no_{table}"
    if "CLOCKFORD_SQLITE" in town.env:
        # One trigger an event: SQLite's take one each.
        sql(
            town,
            [
                f"CREATE TRIGGER {name}_{event.lower()} BEFORE {event} ON {table} BEGIN SELECT RAISE(ABORT, '{why}'); END"
                for event in events
            ],
        )
    else:
        sql(
            town,
            [
                f"CREATE FUNCTION {name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION '{why}'; END $$ LANGUAGE plpgsql",
                f"CREATE TRIGGER {name} BEFORE {' OR '.join(events)} ON {table} FOR EACH ROW EXECUTE FUNCTION {name}()",
            ],
        )


def allow_writes(town: Town, table: str, events: tuple[str, ...] = ("INSERT",)) -> None:
    name = f"test_no_{table}"
    if "CLOCKFORD_SQLITE" in town.env:
        sql(town, [f"DROP TRIGGER {name}_{event.lower()}" for event in events])
    else:
        sql(town, [f"DROP TRIGGER {name} ON {table}", f"DROP FUNCTION {name}()"])


def break_the_archive(town: Town) -> None:
    refuse_writes(town, "town_footstep")


def mend_the_archive(town: Town) -> None:
    allow_writes(town, "town_footstep")


def test_a_call_that_cannot_be_recorded_leaves_the_box_unchanged_and_closes_the_town(
    town_factory: TownFactory,
) -> None:
    town = town_factory().start()
    s = RawSession(town.mcp)
    kept = s.call("remember", {"key": "errand/plan", "value": "first"})
    assert kept["isError"] is False
    first_footstep = kept["structuredContent"]["footstep"]
    footsteps_before = sql(town, ["SELECT COUNT(*) FROM town_footstep"])[0][0]

    break_the_archive(town)
    r = s.call("remember", {"key": "errand/plan", "value": "second"})
    sc = r["structuredContent"]
    assert r["isError"] is True
    assert sc["say"] == UNRECORDED
    assert "footstep" not in sc
    assert r["content"][0]["text"].splitlines()[0] == UNRECORDED
    assert "footstep #" not in r["content"][0]["text"]

    status, _, body = get(town.url + "/status")
    assert status == 200 and json.loads(body) == {"mode": "closed"}
    # Every POST to /mcp now meets the closed door: the session's calls and a new visitor alike.
    status, headers, body = s.post({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {"name": "recall"}})
    assert (status, body) == (503, CLOSED)
    assert int(headers["retry-after"]) > 0
    new_visitor = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "late", "version": "1"}},
    }
    status, headers, body = request("POST", town.mcp, json.dumps(new_visitor), MCP_HEADERS)
    assert (status, body) == (503, CLOSED)
    assert int(headers["retry-after"]) > 0

    # What the database holds: the first value, no footstep of the failed call, and the closed mode.
    mend_the_archive(town)
    assert sql(town, ["SELECT value FROM post_office_note WHERE key = 'errand/plan'"]) == [("first",)]
    assert sql(town, ["SELECT COUNT(*) FROM town_footstep"])[0][0] == footsteps_before
    assert sql(town, ["SELECT mode FROM town_townstate WHERE id = 1"]) == [("closed",)]

    # A person looks and opens the town again (in the database: there is no command for it yet);
    # after the desk's one-second memory of the mode, the note reads back through the town.
    sql(town, ["UPDATE town_townstate SET mode = 'open', why = '' WHERE id = 1"])
    time.sleep(1.2)
    assert json.loads(get(town.url + "/status")[2]) == {"mode": "open"}
    again = RawSession(town.mcp)
    assert again.call("look_around")["isError"] is False
    got = s.call("recall", {"key": "errand/plan"})
    assert got["isError"] is False
    assert got["structuredContent"]["value"] == "first"
    assert got["structuredContent"]["footstep"] > first_footstep


def test_a_fault_that_is_not_the_archive_keeps_the_town_open(town_factory: TownFactory) -> None:
    """The contrast: a tool whose own table refuses a write is a fault with a footstep, not a closed town."""
    town = town_factory().start()
    s = RawSession(town.mcp)
    refuse_writes(town, "post_office_note", why="no notes today")
    r = s.call("remember", {"key": "k", "value": "v"})
    assert r["isError"] is True
    assert r["structuredContent"]["say"] != UNRECORDED
    number = r["structuredContent"]["footstep"]
    assert sql(town, [f"SELECT outcome FROM town_footstep WHERE number = {int(number)}"]) == [("error",)]  # noqa: S608
    status, _, body = get(town.url + "/status")
    assert json.loads(body) == {"mode": "open"}
    status, _, body = s.post({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "look_around"}})
    assert status == 200 and sse_message(body)["result"]["isError"] is False


def test_a_town_that_cannot_record_its_closure_either_stays_closed_until_a_person_opens_it(
    town_factory: TownFactory,
) -> None:
    """A full disk refuses the footstep and the closed mode alike: the town holds itself closed, writes
    the closure once the database takes writes again, and opens only when a person opens it."""
    town = town_factory().start()
    s = RawSession(town.mcp)
    assert s.call("look_around")["isError"] is False
    state = ("INSERT", "UPDATE")
    break_the_archive(town)
    refuse_writes(town, "town_townstate", state)
    r = s.call("remember", {"key": "k", "value": "v"})
    assert (r["isError"], r["structuredContent"]["say"]) == (True, UNRECORDED)
    assert json.loads(get(town.url + "/status")[2]) == {"mode": "closed"}
    # The disk has room again: the town stays closed, and says so in the database too.
    mend_the_archive(town)
    allow_writes(town, "town_townstate", state)
    time.sleep(1.2)  # past the desk's one-second memory of the mode, to the database
    assert json.loads(get(town.url + "/status")[2]) == {"mode": "closed"}
    assert sql(town, ["SELECT mode, why FROM town_townstate WHERE id = 1"]) == [
        ("closed", "The Archive could not take a footstep.")
    ]
    status, _, body = s.post({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "look_around"}})
    assert (status, body) == (503, CLOSED)
    assert sql(town, ["SELECT COUNT(*) FROM post_office_note"]) == [(0,)]
    # A person looks, and opens it.
    town.manage("town_mode", "open")
    time.sleep(1.2)
    assert s.call("look_around")["isError"] is False
