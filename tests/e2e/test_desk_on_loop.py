"""Where a call's work runs (clockford/face/server.py in_db): on SQLite on the worker's event loop, where
its request was read; a call that would wait for the write lock another writer holds gives way and
waits on a desk thread, so the worker answers everything else meanwhile. On PostgreSQL a call runs on
the loop in a greenlet of its own, which lets the loop go while it waits for the server (here, for a
table's lock), and the same holds.

Over real HTTP, the lock held for real by the database's own client, as another worker or a person's
command would hold it."""

import threading
import time
from collections.abc import Callable
from typing import Any

from tests.e2e.test_busy_pages import clients_locked
from tests.support import RawSession, Town, get

TownFactory = Callable[..., Town]


def footsteps(s: RawSession) -> int:
    return int(s.call("show_passport")["structuredContent"]["footsteps"])


def test_a_call_that_meets_the_write_lock_waits_off_the_loop_and_runs_once(town_factory: TownFactory) -> None:
    t = town_factory().start()
    s = RawSession(t.mcp)
    before = footsteps(s)
    answered: list[dict[str, Any]] = []
    with clients_locked(t, "town_footstep"):
        waiting = threading.Thread(target=lambda: answered.append(s.call("remember", {"key": "loop.k", "value": "v"})))
        waiting.start()
        time.sleep(0.4)  # the call has met the lock by now, and waits for it
        began = time.monotonic()
        status, _, body = get(t.url + "/status")
        assert status == 200, body
        assert time.monotonic() - began < 0.3  # the worker answers while the call waits
        assert waiting.is_alive() and not answered
    waiting.join(20)
    # Answered once the lock was let go, neither busy nor twice: one footstep, the note kept.
    assert answered and not answered[0]["isError"], answered
    assert footsteps(s) == before + 2  # the first show_passport and the remember
    assert s.call("recall", {"key": "loop.k"})["structuredContent"]["value"] == "v"
