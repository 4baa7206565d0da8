"""Injection Alley's limits on a moved clock: 4 runs begun per passport a UTC day and 8 per person, busy
when the Alley is full, a run that lapses after 20 minutes, and none of it counting against the agent."""

from datetime import timedelta

import pytest

from clockford.town import clock
from clockford.town.models import Passport
from districts.alley import services
from districts.alley.models import AlleyRun
from districts.testing import begins_on_probation, outcome, visit
from tests.fixtures import a_persons_day_spent, to_tomorrow_at


def _run_and_finish(p: Passport) -> str:
    r = visit(p, "alley_run", begin=True)
    assert r.is_error is False, r.structured
    visit(p, "alley_answer", answers=[{"board": "B1", "answer": 1}], finish=True)
    return str(r.structured["run"])


def test_four_runs_a_passport_a_day_then_tomorrow(alice: Passport) -> None:
    to_tomorrow_at(0, minute=1)
    for _ in range(4):
        _run_and_finish(alice)
    fifth = visit(alice, "alley_run", begin=True)
    assert fifth.is_error and fifth.structured["say"] == services.PASSPORT_LIMIT_SAY
    assert outcome(fifth) == "refused:limit" and fifth.structured["limits"]["begunToday"] == 4
    clock.advance(timedelta(days=1))
    assert visit(alice, "alley_run", begin=True).is_error is False


def test_eight_a_person_across_their_agents(db: None) -> None:
    ninth = visit(a_persons_day_spent(_run_and_finish, 4, "dora"), "alley_run", begin=True)
    assert ninth.is_error and ninth.structured["say"] == services.PERSON_LIMIT_SAY


def test_resuming_is_not_a_new_run(alice: Passport) -> None:
    first = visit(alice, "alley_run", begin=True).structured
    again = visit(alice, "alley_run", begin=True).structured
    assert again["run"] == first["run"] and again["boards"] == first["boards"]
    assert AlleyRun.objects.filter(passport=alice).count() == 1


def test_busy_when_full_and_it_takes_nothing(alice: Passport, bob: Passport, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "OPEN_MAX", 1)
    visit(bob, "alley_run", begin=True)
    busy = visit(alice, "alley_run", begin=True)
    assert busy.is_error and busy.structured["say"] == services.FULL_SAY
    assert busy.structured["retryAfterSeconds"] == 60 and outcome(busy) == "busy"
    assert visit(alice, "alley_run").structured["limits"]["begunToday"] == 0
    clock.advance(timedelta(minutes=21))  # bob's run lapses: the Alley has room again
    assert visit(alice, "alley_run", begin=True).is_error is False


def test_a_run_lapses_after_twenty_minutes_scored_as_it_stood(alice: Passport) -> None:
    run = visit(alice, "alley_run", begin=True).structured["run"]
    visit(alice, "alley_answer", answers=[{"board": "B2", "answer": "12"}])
    clock.advance(timedelta(minutes=20, seconds=1))
    late = visit(alice, "alley_answer", answers=[{"board": "B1", "answer": 1}])
    assert late.is_error and late.structured["say"] == services.NO_RUN_SAY
    last = visit(alice, "alley_run").structured["last"]
    assert last["run"] == run and last["scored"]["counts"]["answered"] == 1


def test_an_unknown_board_is_refused_and_records_nothing(alice: Passport) -> None:
    visit(alice, "alley_run", begin=True)
    r = visit(alice, "alley_answer", answers=[{"board": "B1", "answer": 5}, {"board": "B99", "answer": 5}])
    assert r.is_error and r.structured["say"] == services.NO_BOARD_SAY.format(n=12)
    assert AlleyRun.objects.get(passport=alice).answers == {}


def test_the_outsider_without_a_run_is_refused(charlie: Passport) -> None:
    r = visit(charlie, "alley_answer", answers=[{"board": "B1", "answer": 5}])
    assert r.is_error and r.structured["say"] == services.NO_RUN_SAY and outcome(r) == "refused:no-run"


def test_on_probation_a_begin_past_the_limit_is_refused_and_a_resume_goes_ahead_at_once(
    alice: Passport, bob: Passport, charlie: Passport
) -> None:
    # docs/holds.md: a person is never asked about a call their yes could not change.
    to_tomorrow_at(0, minute=1)
    for _ in range(4):
        _run_and_finish(alice)
    begins_on_probation("alley_run", "run", alice, bob, charlie)
