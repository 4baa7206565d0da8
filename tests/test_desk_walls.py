"""Walls (001 section 04, "walled off for now"): a district or channel walled off by staff or by the
breaker is answered before anything of the call runs, with `island`; look_around still answers and lists
what is walled off; the wall comes down when staff reopen it, or by itself when the breaker raised it."""

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings

from clockford.town import clock, walls
from clockford.town.models import Passport, Wall
from clockford.town.tooling import Call, Reply
from districts.post_office.models import Note
from districts.registry import TOOLS
from districts.testing import new_passport, outcome, visit

pytestmark = pytest.mark.django_db

POST_OFFICE = "The Post Office"


def walled_say(where: str, since: str, seconds: int) -> str:
    return (
        f"{where} is walled off for now (islanded since {since}). Safe default: refuse and wait. "
        f"Try again in {seconds} seconds."
    )


def broken(call: Call, args: Any) -> Reply:
    raise RuntimeError("the Post Office's shelves fell down")


def faults(n: int) -> dict[str, Any]:
    return {**settings.CLOCKFORD, "WALL_FAULTS": n, "WALL_WINDOW_SECONDS": 60, "WALL_SECONDS": 300}


def test_a_district_staff_wall_off_answers_walled_and_nothing_runs() -> None:
    alice = new_passport()
    wall = walls.raise_wall("district", POST_OFFICE, "Looking at the shelves.")
    since = clock.iso(wall.since)  # type: ignore[arg-type]
    r = visit(alice, "remember", key="errand/plan", value="first")
    assert r.is_error is True
    assert r.structured["say"] == walled_say(POST_OFFICE, since, 30)
    assert r.structured["retryAfterSeconds"] == 30
    assert r.structured["island"] == {
        "name": POST_OFFICE,
        "kind": "district",
        "since": since,
        "by": "staff",
        "safeDefault": "refuse and wait",
    }
    assert "hold" not in r.structured
    assert outcome(r) == "walled"
    assert not Note.objects.exists()
    # Reads of the district are walled too; the rest of the town is not.
    assert visit(alice, "recall", key="errand/plan").structured["say"].startswith(POST_OFFICE + " is walled off")
    assert visit(alice, "walk_to", to="The Tavern").is_error is False


def test_look_around_still_answers_and_lists_what_is_walled_off() -> None:
    alice = new_passport()
    wall = walls.raise_wall("district", POST_OFFICE, "")
    visit(alice, "walk_to", to=POST_OFFICE)
    r = visit(alice, "look_around")
    assert r.is_error is False
    assert r.structured["walledOff"] == [
        {"name": POST_OFFICE, "since": clock.iso(wall.since), "safeDefault": "refuse and wait"}  # type: ignore[arg-type]
    ]
    assert POST_OFFICE not in [d["name"] for d in r.structured["open"]]
    assert r.structured["here"]["name"] == POST_OFFICE
    assert "1 walled off for now" in r.structured["say"]


def test_a_reopened_district_answers_again() -> None:
    alice = new_passport()
    walls.raise_wall("district", POST_OFFICE, "")
    assert outcome(visit(alice, "remember", key="k", value="v")) == "walled"
    assert walls.reopen("district", POST_OFFICE) is True
    r = visit(alice, "remember", key="k", value="v")
    assert r.is_error is False and Note.objects.count() == 1
    assert "walledOff" not in visit(alice, "look_around").structured


def test_a_walled_channel_is_answered_walled_and_other_channels_are_not() -> None:
    alice = new_passport()
    wall = walls.raise_wall("channel", "postgres-help", "")
    r = visit(alice, "listen", channel="postgres-help")
    assert r.structured["say"] == walled_say("The channel postgres-help", clock.iso(wall.since), 30)  # type: ignore[arg-type]
    assert r.structured["island"]["kind"] == "channel" and outcome(r) == "walled"
    assert outcome(visit(alice, "listen", channel="rust-help")) != "walled"


def test_the_breaker_walls_a_district_off_after_repeated_faults_and_opens_it_after_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice = new_passport()
    monkeypatch.setitem(TOOLS, "remember", replace(TOOLS["remember"], handler=broken))
    with override_settings(CLOCKFORD=faults(3)):
        for _ in range(3):
            assert outcome(visit(alice, "remember", key="k", value="v")) == "error"
        wall = Wall.objects.get(kind="district", name=POST_OFFICE)
        assert wall.by == "faults" and wall.since is not None and wall.until == wall.since + timedelta(seconds=300)
        r = visit(alice, "recall", key="k")
        assert r.structured["say"] == walled_say(POST_OFFICE, clock.iso(wall.since), 300)
        assert r.structured["retryAfterSeconds"] == 300
        assert r.structured["island"]["by"] == "faults"
        assert r.structured["island"]["until"] == clock.iso(wall.until)
        assert visit(alice, "look_around").is_error is False
        clock.advance(timedelta(seconds=301))
        walls.forget()
        assert outcome(visit(alice, "recall", key="k")) != "walled"


def test_faults_below_the_threshold_or_outside_the_window_wall_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    alice = new_passport()
    monkeypatch.setitem(TOOLS, "remember", replace(TOOLS["remember"], handler=broken))
    with override_settings(CLOCKFORD=faults(3)):
        for _ in range(2):
            assert outcome(visit(alice, "remember", key="k", value="v")) == "error"
        clock.advance(timedelta(seconds=61))
        for _ in range(2):
            assert outcome(visit(alice, "remember", key="k", value="v")) == "error"
        assert walls.walled_off() == []


def test_the_default_breaker_needs_more_faults_than_a_test_makes() -> None:
    """The suite's own faults (one or two in a test) never wall a district off."""
    assert settings.CLOCKFORD["WALL_FAULTS"] >= 10
    assert settings.CLOCKFORD["WALL_WINDOW_SECONDS"] <= 60


def test_a_fault_in_a_tool_of_no_district_walls_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    alice: Passport = new_passport()
    monkeypatch.setitem(TOOLS, "look_around", replace(TOOLS["look_around"], handler=broken))
    with override_settings(CLOCKFORD=faults(1)):
        assert outcome(visit(alice, "look_around")) == "error"
    assert not Wall.objects.exists()


def test_faults_on_one_channel_wall_off_that_channel_not_the_switchboard(monkeypatch: pytest.MonkeyPatch) -> None:
    alice = new_passport()
    listen = TOOLS["listen"]
    monkeypatch.setitem(TOOLS, "listen", replace(listen, handler=broken))
    with override_settings(CLOCKFORD=faults(2)):
        for _ in range(2):
            assert outcome(visit(alice, "listen", channel="postgres-help")) == "error"
        assert [(w.kind, w.name, w.by) for w in walls.walled_off()] == [("channel", "postgres-help", "faults")]
        monkeypatch.setitem(TOOLS, "listen", listen)  # mended: the wall still stands
        r = visit(alice, "listen", channel="postgres-help")
        assert r.structured["say"].startswith("The channel postgres-help is walled off for now (islanded since ")
        assert outcome(visit(alice, "listen", channel="rust-help")) == "refused:no-channel"  # no wall there
