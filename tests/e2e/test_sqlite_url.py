"""A town whose DATABASE_URL names a SQLite file (sqlite:///...) runs with the default database's
settings, so one client's long run of sequential calls never closes it (clockford/settings.py).

Before, such a town got Django's plain SQLite settings: deferred transactions, which fail at once
with "database is locked" when a call that has read goes on to write just after another writer (the
Archive's fold, a second worker), and a five-second lock timeout. Beside another writer, 576 of one
client's 1,000 calls were answered busy."""

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from tests.support import RawSession, Town, _pg_admin_url, get

CALLS = 1000

pytestmark = pytest.mark.skipif(_pg_admin_url() is not None, reason="a town on SQLite only")


def other_writer(path: str, stop: threading.Event) -> Iterator[int]:
    """Another writer on the same file (as the Archive's fold, a sweep, or a second worker would be),
    taking the write lock for a few milliseconds at a time until stopped."""
    db = sqlite3.connect(path, timeout=20, isolation_level=None)
    db.execute("CREATE TABLE IF NOT EXISTS other_writer (n INTEGER)")
    n = 0
    while not stop.is_set():
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO other_writer VALUES (?)", (n,))
        time.sleep(0.003)
        db.execute("COMMIT")
        n += 1
        time.sleep(0.002)
    db.close()
    yield n


def test_a_thousand_sequential_calls_on_a_sqlite_database_url_never_close_the_town(
    town_factory: Callable[..., Town],
) -> None:
    t = town_factory(env={"CLOCKFORD_CALLS_PER_MINUTE": "100000"})
    t.env["DATABASE_URL"] = "sqlite:///" + t.env["CLOCKFORD_SQLITE"]
    t.start()
    s = RawSession(t.mcp, client_name="long-run")
    stop = threading.Event()
    writes: list[int] = []
    writer = threading.Thread(target=lambda: writes.extend(other_writer(t.env["CLOCKFORD_SQLITE"], stop)))
    writer.start()
    began = time.monotonic()
    faults = []
    for n in range(CALLS):
        if n % 3 == 0:
            r = s.call("remember", {"key": f"k{n % 16}", "value": f"note {n}"})
        elif n % 3 == 1:
            r = s.call("recall", {"key": f"k{(n - 1) % 16}"})
        else:
            r = s.call("look_around")
        if r.get("isError"):
            faults.append((n, r["structuredContent"].get("say")))
    took = time.monotonic() - began
    stop.set()
    writer.join()
    assert faults == [], faults[:5]
    assert json.loads(get(t.url + "/status")[2]) == {"mode": "open"}
    assert s.call("show_passport")["structuredContent"]["footsteps"] == CALLS + 1
    print(f"{CALLS} sequential calls in {took:.1f} s beside {writes[0]} other writes")
    s.delete()
