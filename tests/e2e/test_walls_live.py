"""A walled-off district over real HTTP (001 section 04, "walled off for now"): its tools answer with the
exact sentence, island and retryAfterSeconds, and look_around still answers and lists the wall.

The wall is put up in the town's own database through that database's own client, as staff's switch in
the hall writes it, never inside the town; the town reads it on its next call."""

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from clockford.town import clock
from tests.e2e.test_unrecorded import sql
from tests.support import RawSession, Town

TownFactory = Callable[..., Town]
POST_OFFICE = "The Post Office"


def wall_off(town: Town, name: str, since: datetime) -> None:
    stamp = since.strftime("%Y-%m-%d %H:%M:%S") + ("" if "CLOCKFORD_SQLITE" in town.env else "+00")
    sql(
        town,
        [
            "INSERT INTO town_wall (kind, name, faults, faults_since, since, until, by, why) "
            f"VALUES ('district', '{name}', 0, NULL, '{stamp}', NULL, 'staff', 'Shelves being mended.')"
        ],
    )


def test_a_walled_off_district_answers_walled_and_look_around_still_answers(town_factory: TownFactory) -> None:
    town = town_factory().start()
    s = RawSession(town.mcp)
    assert s.call("remember", {"key": "errand/plan", "value": "first"})["isError"] is False
    since = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    wall_off(town, POST_OFFICE, since)
    time.sleep(1.1)  # each worker reads the walls anew at most a second after it last did

    r = s.call("remember", {"key": "errand/plan", "value": "second"})
    say = (
        f"{POST_OFFICE} is walled off for now (islanded since {clock.iso(since)}). "
        "Safe default: refuse and wait. Try again in 30 seconds."
    )
    sc = r["structuredContent"]
    assert r["isError"] is True
    assert sc["say"] == say
    assert sc["retryAfterSeconds"] == 30
    assert sc["island"] == {
        "name": POST_OFFICE,
        "kind": "district",
        "since": clock.iso(since),
        "by": "staff",
        "safeDefault": "refuse and wait",
    }
    assert "hold" not in sc and isinstance(sc["footstep"], int)
    assert r["content"][0]["text"].startswith(say + "\n")
    assert r["content"][0]["text"].endswith(f"footstep #{sc['footstep']}")

    seen = s.call("look_around")
    assert seen["isError"] is False
    walled = seen["structuredContent"]["walledOff"]
    assert walled == [{"name": POST_OFFICE, "since": clock.iso(since), "safeDefault": "refuse and wait"}]
    assert POST_OFFICE not in [d["name"] for d in seen["structuredContent"]["open"]]

    sql(town, [f"UPDATE town_wall SET since = NULL, by = '' WHERE name = '{POST_OFFICE}'"])
    time.sleep(1.1)
    back = s.call("recall", {"key": "errand/plan"})
    assert back["isError"] is False and back["structuredContent"]["value"] == "first"
    s.delete()
