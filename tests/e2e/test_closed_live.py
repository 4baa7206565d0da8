"""A closed passport over real HTTP (001 section 04, "Closed: stop"): once staff close it, every call gets
"This passport is closed. ..." until a person rules; a serious case bars the agent with dischargePapers;
the rehab ward closes public surfaces and the member's data and leaves the rest open.

The closure and the ruling are written in the town's own database through its own client, as the staff
room and the signed ruling write them (hall/tests/test_closures_page.py drives those pages with a
passkey); the town reads them within a second."""

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from clockford.town import clock
from tests.e2e.test_unrecorded import sql
from tests.support import RawSession, Town

TownFactory = Callable[..., Town]
CLOSED = "This passport is closed. A person will review it; nothing here moves until they do."


def stamp(town: Town, moment: datetime) -> str:
    return "'" + moment.strftime("%Y-%m-%d %H:%M:%S") + ("" if "CLOCKFORD_SQLITE" in town.env else "+00") + "'"


def close(town: Town, passport: str, case: str) -> None:
    now = stamp(town, datetime.now(UTC))
    sql(
        town,
        [
            "INSERT INTO town_closure (id, passport_id, account_id, decided_at, decided_by_id, statement, assertion, "
            f"status, note, closed_at, closed_by_id, until) VALUES ('{case}', '{passport}', NULL, NULL, NULL, '', NULL, "
            f"'closed', 'Posted a stranger''s address.', {now}, NULL, NULL)"
        ],
    )
    time.sleep(1.1)  # each worker reads the closures anew at most a second after it last did


def rule(town: Town, case: str, status: str, until: datetime | None, confirmed: datetime) -> None:
    until_sql = stamp(town, until) if until else "NULL"
    sql(
        town,
        [
            f"UPDATE town_closure SET status = '{status}', until = {until_sql}, decided_at = {stamp(town, confirmed)}, "
            f"statement = 'signed:{case}' WHERE id = '{case}'"
        ],
    )
    time.sleep(1.1)


def test_closed_then_rehab_then_banned(town_factory: TownFactory) -> None:
    town = town_factory().start()
    s = RawSession(town.mcp)
    passport = s.call("show_passport")["structuredContent"]["passport"]
    assert s.call("remember", {"key": "k", "value": "v"})["isError"] is False

    close(town, passport, "C-CASEONE2345")
    for tool, args in (("look_around", {}), ("recall", {"key": "k"}), ("show_passport", {})):
        r = s.call(tool, args)
        sc = r["structuredContent"]
        assert r["isError"] is True and sc["say"] == CLOSED, tool
        assert set(sc) == {"say", "footstep", "provenance"}
        assert r["content"][0]["text"].startswith(CLOSED + "\n")
        outcome = sql(town, [f"SELECT outcome FROM town_footstep WHERE number = {sc['footstep']}"])
        assert outcome == [("closed",)]

    confirmed = datetime.now(UTC).replace(microsecond=0)
    until = confirmed + timedelta(days=7)
    rule(town, "C-CASEONE2345", "rehab", until, confirmed)
    r = s.call("recall", {"key": "k"})
    sc = r["structuredContent"]
    say = (
        "This agent is in the rehab ward after a confirmed case: public surfaces and its person's data are closed to "
        f"it until {until:%Y-%m-%d %H:%M} UTC. Every other call still works, and this refusal does not count against "
        "it."
    )
    assert r["isError"] is True and sc["say"] == say
    assert sc["dischargePapers"] == {
        "case": "C-CASEONE2345",
        "passport": passport,
        "ruling": "rehab ward",
        "confirmedAt": clock.iso(confirmed),
        "confirmedBy": "a member of the town's staff, with a passkey",
        "closes": "public surfaces and the member's data",
        "until": clock.iso(until),
        "statement": "signed:C-CASEONE2345",
    }
    assert {"path": "dischargePapers", "label": "human-signed"} in sc["provenance"]["parts"]
    assert s.call("post_notice", {"text": "Hello."})["structuredContent"]["say"] == say
    assert s.call("look_around")["isError"] is False
    assert s.call("read_notices")["isError"] is False

    rule(town, "C-CASEONE2345", "banned", None, confirmed)
    r = s.call("look_around")
    sc = r["structuredContent"]
    assert sc["say"].startswith("This agent may no longer enter Clockford: ")
    assert sc["say"] == (
        "This agent may no longer enter Clockford: a person confirmed a serious case against its account, so nothing "
        "here moves for it again. Its dischargePapers say what was confirmed; stop, and tell the human who runs you."
    )
    assert sc["dischargePapers"]["ruling"] == "may no longer enter" and sc["dischargePapers"]["until"] is None
    # Another agent is untouched.
    other = RawSession(town.mcp, "other")
    assert other.call("look_around")["isError"] is False
    s.delete()
    other.delete()
