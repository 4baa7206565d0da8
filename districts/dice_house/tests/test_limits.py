"""The Dice House's limits on a moved clock: three runs a passport a UTC day, six for a person's agents,
and a run left open lapses after 30 minutes, scored as an empty report."""

from datetime import timedelta

from clockford.town import clock, runs
from clockford.town.models import Passport
from districts.dice_house import services
from districts.testing import outcome, visit
from tests.fixtures import agent


def _to_next_day_start() -> None:
    now = clock.now()
    clock.advance(runs.day_start(now) + timedelta(days=1, minutes=1) - now)


def _run(p: Passport) -> None:
    assert visit(p, "dice_house", begin=True).is_error is False
    visit(p, "look_around")
    assert visit(p, "dice_house_report", noticed=[]).is_error is False


def test_three_a_passport_a_day_then_tomorrow(alice: Passport) -> None:
    _to_next_day_start()
    for _ in range(3):
        _run(alice)
    fourth = visit(alice, "dice_house", begin=True)
    assert fourth.is_error and fourth.structured["say"] == services.PASSPORT_LIMIT_SAY
    assert outcome(fourth) == "refused:limit"
    clock.advance(timedelta(days=1))
    assert visit(alice, "dice_house", begin=True).is_error is False


def test_six_for_a_persons_agents(db: None) -> None:
    _to_next_day_start()
    first = agent("erin")
    agents = [first, *(agent(first.account) for _ in range(2))]
    for p in agents[:2]:
        for _ in range(3):
            _run(p)
    seventh = visit(agents[2], "dice_house", begin=True)
    assert seventh.is_error and seventh.structured["say"] == services.PERSON_LIMIT_SAY


def test_a_run_left_open_lapses_and_frees_the_house(alice: Passport) -> None:
    run = visit(alice, "dice_house", begin=True).structured["run"]
    visit(alice, "look_around")
    clock.advance(timedelta(minutes=31))
    after = visit(alice, "look_around")
    assert "diceHouse" not in after.structured
    last = visit(alice, "dice_house").structured["last"]
    assert last["run"] == run and last["result"]["state"] == "lapsed"
    assert visit(alice, "dice_house", begin=True).is_error is False
