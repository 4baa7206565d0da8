"""The run since the agent last paused 15 minutes, and today's counts starting afresh each day."""

from datetime import timedelta

from clockford.town import clock
from clockford.town.models import Passport
from districts.general_store import services
from districts.testing import visit


def test_a_pause_of_15_minutes_ends_the_run(alice: Passport) -> None:
    visit(alice, "look_around")
    clock.advance(timedelta(minutes=14))
    visit(alice, "look_around")
    assert services.find_gauge(alice.id)["run"]["calls"] == 2  # type: ignore[index]
    clock.advance(timedelta(minutes=15))
    paused = services.find_gauge(alice.id)
    assert paused is not None and paused["run"] == {"since": None, "calls": 0, "text": 0, "data": 0}
    visit(alice, "look_around")
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and gauge["run"]["calls"] == 1 and gauge["recent"]["calls"] == 3


def test_today_starts_afresh_each_day(alice: Passport) -> None:
    visit(alice, "look_around")
    clock.advance(timedelta(days=1))
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and gauge["today"]["calls"] == 0 and gauge["recent"]["calls"] == 1
    visit(alice, "recall")
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and [t["tool"] for t in gauge["today"]["tools"]] == ["recall"]


def test_a_long_run_is_advised_a_pause(alice: Passport) -> None:
    gauge = {
        "recent": {"repeats": 0, "heaviest": None, "text": 0, "calls": 0},
        "run": {"calls": 120, "text": 0, "data": 0},
    }
    assert services.advice(gauge).startswith("You have made 120 calls without a pause of 15 minutes")


def test_tools_past_ten_are_summed_in_other(alice: Passport) -> None:
    names = ["look_around", "recall", "show_passport", "context_gauge"]
    for name in names:
        visit(alice, name)
    gauge = services.find_gauge(alice.id)
    assert gauge is not None and len(gauge["today"]["tools"]) == 4 and gauge["today"]["other"]["tools"] == 0


def test_one_heavy_tool_is_named_only_when_the_weight_is_real() -> None:
    run = {"calls": 5, "text": 0, "data": 0}
    light = {"recent": {"repeats": 0, "heaviest": {"tool": "read_notices", "text": 900}, "text": 1000, "calls": 5}}
    assert services.advice({**light, "run": run}) == "Your context is light: carry on."
    heavy = {"recent": {"repeats": 0, "heaviest": {"tool": "read_notices", "text": 60_000}, "text": 80_000, "calls": 5}}
    assert services.advice({**heavy, "run": run}).startswith(
        "read_notices weighed most in your last replies (60,000 of 80,000 text bytes)"
    )
