"""A page whose database is busy past the town's wait (another writer holding the lock) answers as /mcp
does: 503 "The clerk is busy. Try again in N seconds." with Retry-After, never a 500 (clockford/urls.py
server_error); a database that refuses a page's write for another reason says the town cannot use it.
Over real HTTP, the lock held and the write refused for real through the database's own client."""

import contextlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator

from tests.support import Town, hall_of, request

TownFactory = Callable[..., Town]
BUSY = "The clerk is busy. Try again in 2 seconds."


@contextlib.contextmanager
def clients_locked(town: Town, table: str = "hall_client") -> Iterator[None]:
    """Hold the write lock on the hall's clients (or another table) as another writer would, until the
    block ends: on SQLite the one lock of the whole file."""
    if "CLOCKFORD_SQLITE" in town.env:
        db = sqlite3.connect(town.env["CLOCKFORD_SQLITE"], isolation_level=None)
        db.execute("BEGIN IMMEDIATE")  # SQLite's one write lock: every writer waits for it
        try:
            yield
        finally:
            db.execute("ROLLBACK")
            db.close()
        return
    import psycopg

    with psycopg.connect(town.env["DATABASE_URL"]) as pg:
        pg.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")  # readers go on, writers wait
        yield
        pg.rollback()


def register(town: Town) -> tuple[int, dict[str, str], str]:
    body = json.dumps({"redirect_uris": ["https://app.example/cb"], "client_name": "App"})
    return request("POST", hall_of(town) + "/oauth/register", body, {"Content-Type": "application/json"})


def test_a_page_whose_database_is_busy_says_the_clerk_is_busy(town_factory: TownFactory) -> None:
    t = town_factory(env={"CLOCKFORD_SIGN_IN": "1", "CLOCKFORD_SQLITE_WAIT_SECONDS": "1"}).start()
    with clients_locked(t):
        began = time.monotonic()
        status, headers, body = register(t)
        assert time.monotonic() - began >= 0.9  # it waited the town's whole wait first
    assert (status, body) == (503, BUSY)
    assert headers["retry-after"] == "2"
    assert headers["content-type"] == "text/plain; charset=utf-8"
    # Nothing was half-made: the lock gone, the same registration is taken.
    status, _, body = register(t)
    assert status == 201, body


UNWRITABLE = "The town cannot use its database just now. Try again later; if it goes on, tell whoever runs this town."


def test_a_page_whose_database_cannot_write_says_so_in_words(town_factory: TownFactory) -> None:
    """A database that refuses a page's write for a reason that is not "busy" (a full disk) is the town's
    503 in words, as /mcp answers a call it cannot record, not Django's "Server Error (500)"; once the
    database takes writes again, the same request is served."""
    from tests.e2e.test_unrecorded import allow_writes, refuse_writes

    t = town_factory(env={"CLOCKFORD_SIGN_IN": "1"}).start()
    refuse_writes(t, "hall_client")
    status, headers, body = register(t)
    assert (status, body) == (503, UNWRITABLE)
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert "retry-after" not in headers  # a full disk has no time it is known to end
    allow_writes(t, "hall_client")
    status, _, body = register(t)
    assert status == 201, body


def test_a_busy_or_unwritable_answer_at_an_address_open_to_browsers_carries_cors(town_factory: TownFactory) -> None:
    """The 503s above are made where Django turns the page's error into an answer (clockford/urls.py),
    outside the view that opens /oauth/register to pages of other origins (hall/cors.py): a browser
    client got them without CORS, so it read a network error, not when to come back (Retry-After)."""
    from tests.e2e.test_unrecorded import allow_writes, refuse_writes

    t = town_factory(env={"CLOCKFORD_SIGN_IN": "1", "CLOCKFORD_SQLITE_WAIT_SECONDS": "1"}).start()
    page = {"Origin": "http://localhost:6274", "Content-Type": "application/json"}
    body = json.dumps({"redirect_uris": ["https://app.example/cb"], "client_name": "App"})
    with clients_locked(t):
        status, headers, said = request("POST", hall_of(t) + "/oauth/register", body, page)
    assert (status, said, headers["retry-after"]) == (503, BUSY, "2")
    assert (headers["access-control-allow-origin"], headers["access-control-expose-headers"]) == ("*", "Retry-After")
    assert "access-control-allow-credentials" not in headers
    refuse_writes(t, "hall_client")
    status, headers, said = request("POST", hall_of(t) + "/oauth/register", body, page)
    allow_writes(t, "hall_client")
    assert (status, said) == (503, UNWRITABLE)
    assert (headers["access-control-allow-origin"], headers["access-control-expose-headers"]) == ("*", "Retry-After")
    # A hall page's refusal stays a person's, with no CORS at all.
    status, headers, _ = request("POST", hall_of(t) + "/hall/signin/begin", "", {"Origin": "http://localhost:6274"})
    assert not any(name.startswith("access-control-") for name in headers), headers
