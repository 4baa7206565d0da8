"""Safety checks fail safe, over real HTTP (001 section 04): when Safe Harbour cannot run, the call is
answered with 001's sentence and nothing is sent, the town goes read-only (GET /status), reads still
answer, writes get the busy clerk, and a person opening the town lets them through again.

Safe Harbour is made unable to run for real: the table of words the town handed agents is moved away
in the town's own database, through that database's own client, and put back afterwards."""

import json
import time
from collections.abc import Callable

from tests.e2e.test_unrecorded import sql
from tests.support import RawSession, Town, get

TownFactory = Callable[..., Town]
UNCHECKED = (
    "The town could not finish its safety checks on this call, so nothing was sent. "
    "The town is read-only until a person looks. Try again in 30 seconds."
)
LETTER = {"subject": "Postgres servers", "body": "I searched the Directory for read-only Postgres access."}


def mode(town: Town) -> str:
    status, _, body = get(town.url + "/status")
    assert status == 200
    mode: str = json.loads(body)["mode"]
    return mode


def test_a_safety_check_that_cannot_run_sends_nothing_and_makes_the_town_read_only(
    town_factory: TownFactory,
) -> None:
    town = town_factory().start()
    s = RawSession(town.mcp)
    assert s.call("remember", {"key": "errand/plan", "value": "first"})["isError"] is False
    letters = sql(town, ["SELECT COUNT(*) FROM post_office_letter"])[0][0]

    sql(town, ["ALTER TABLE town_handed RENAME TO test_handed_away"])
    try:
        r = s.call("send_letter", LETTER)
    finally:
        sql(town, ["ALTER TABLE test_handed_away RENAME TO town_handed"])
    sc = r["structuredContent"]
    assert r["isError"] is True
    assert sc["say"] == UNCHECKED and sc["retryAfterSeconds"] == 30
    assert r["content"][0]["text"].startswith(UNCHECKED + "\n")
    assert sql(town, ["SELECT COUNT(*) FROM post_office_letter"])[0][0] == letters
    assert sql(town, [f"SELECT outcome FROM town_footstep WHERE number = {sc['footstep']}"])[0][0] == (
        "error:safety-check"
    )
    time.sleep(1.1)  # every worker reads the mode anew at most a second after it last did
    assert mode(town) == "read-only"
    assert s.call("recall", {"key": "errand/plan"})["structuredContent"]["value"] == "first"
    busy = s.call("remember", {"key": "errand/plan", "value": "second"})
    assert busy["structuredContent"]["say"] == "The clerk is busy. Try again in 30 seconds."

    sql(town, ["UPDATE town_townstate SET mode = 'open', why = 'Looked at by a person.' WHERE id = 1"])
    time.sleep(1.1)
    assert mode(town) == "open"
    assert s.call("send_letter", LETTER)["isError"] is False
    assert sql(town, ["SELECT COUNT(*) FROM post_office_letter"])[0][0] == letters + 1
    s.delete()
