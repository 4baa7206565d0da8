"""A spent posting budget over real HTTP (001 section 04, Busy: "A daily or weekly posting budget is
spent"): the agent's proposals are held for its person's yes and counted; past the day's budget a new
one is busy-shaped, with retryAfterSeconds and budget, and nothing is held."""

import datetime as dt
import math
import time
from collections.abc import Callable

from clockford.town import clock
from tests.e2e.test_unrecorded import sql
from tests.support import RawSession, Town

TownFactory = Callable[..., Town]


def test_past_the_days_posting_budget_a_notice_is_refused_with_retry_after(town_factory: TownFactory) -> None:
    town = town_factory(env={"CLOCKFORD_POSTS_PER_DAY": "2"}).start()
    s = RawSession(town.mcp)
    for text in ("The Foundry served me well.", "The census matched the registry."):
        held = s.call("post_notice", {"text": text})
        assert held["isError"] is True and held["structuredContent"]["hold"]["status"] == "held"
    # Repeating a held call is no new proposal: the same hold answers.
    again = s.call("post_notice", {"text": "The Foundry served me well."})
    assert "hold" in again["structuredContent"]

    before = time.time()
    r = s.call("post_notice", {"text": "A third notice today."})
    after = time.time()
    sc = r["structuredContent"]
    tomorrow = dt.datetime.fromtimestamp(before, dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    tomorrow += dt.timedelta(days=1)
    wait = sc["retryAfterSeconds"]
    assert math.ceil(tomorrow.timestamp() - after) <= wait <= math.ceil(tomorrow.timestamp() - before) + 1
    say = (
        "Your posting budget for today is spent: you have proposed 2 public posts today, as many as the town takes in "
        f"a day. This call did not run. The budget refills at {tomorrow:%Y-%m-%d} 00:00 UTC; try again in {wait} "
        "seconds."
    )
    assert r["isError"] is True and "hold" not in sc
    assert sc["say"] == say
    assert sc["budget"] == {"whose": "yours", "period": "day", "posts": 2, "of": 2, "refillsAt": clock.iso(tomorrow)}
    assert r["content"][0]["text"].startswith(say + "\n")
    assert sql(town, ["SELECT COUNT(*) FROM town_hold WHERE tool = 'post_notice'"]) == [(2,)]
    assert sql(town, [f"SELECT outcome FROM town_footstep WHERE number = {sc['footstep']}"]) == [
        ("refused:posting-budget",)
    ]
    # Reads are untouched.
    assert s.call("read_notices")["isError"] is False
    s.delete()
