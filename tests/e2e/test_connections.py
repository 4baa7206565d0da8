"""A burst of the hall's requests leaves no database connections behind: a live town over real HTTP.

Under ASGI Django runs each request's view on a thread of its own; a connection kept for its thread's
life (CONN_MAX_AGE) stayed open after every one of them, a file on SQLite and a server process on
PostgreSQL each, until a burst of 128 requests at once left PostgreSQL's hundred connections all
taken and every page of the town answered 500 for minutes. A connection now ends with its request,
and only the desk's threads and the thread that runs calls on SQLite keep theirs
(clockford/face/server.py)."""

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import psycopg

from tests.support import Town, _pg_admin_url, get

BURST = 64
ROUNDS = 4


def connections(town: Town) -> int:
    """The database connections the town's process holds: PostgreSQL's own count for the town's
    database, or on SQLite the process's open files on the database's main file."""
    if town.pg_db:
        with psycopg.connect(_pg_admin_url(), autocommit=True) as conn:
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [town.pg_db]).fetchone()
            return int(row[0]) if row else 0
    assert town.proc is not None
    fds = f"/proc/{town.proc.pid}/fd"
    names = (os.path.realpath(os.path.join(fds, fd)) for fd in os.listdir(fds))
    return sum(1 for name in names if name.endswith(".sqlite3"))


def test_a_burst_of_hall_requests_leaves_no_connection_open(town_factory: Callable[..., Town]) -> None:
    town = town_factory().start()  # its own: a town other tests shared may hold their connections
    assert get(town.url + "/")[0] == 200
    print(f"\nbefore the burst: {connections(town)} connections")
    with ThreadPoolExecutor(BURST) as pool:
        for _ in range(ROUNDS):
            statuses = list(pool.map(lambda _: get(town.url + "/")[0], range(BURST)))
            assert set(statuses) == {200}, statuses
    deadline = time.monotonic() + 10
    while (held := connections(town)) > 24 and time.monotonic() < deadline:
        time.sleep(0.2)  # the last requests' threads close theirs as they finish
    # The desk's threads (16 at most on PostgreSQL, 3 on SQLite), the loop's thread on SQLite and the
    # hall's live work keep theirs.
    print(f"after it: {held}")
    assert held <= 24, f"{held} connections held after {BURST * ROUNDS} requests, {BURST} at once"
    assert get(town.url + "/status")[0] == 200
