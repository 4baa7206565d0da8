"""dice_house_report, and dice_house with begin, on probation: a call refused whatever the person says (no
run open, a roll named with two kinds; a run open already, a replay of no run of the agent's) is refused
at once, never held (docs/holds.md: a call refused whatever the person says is refused at once). A report
that can end the run, and a begin that can begin one, still wait for the person."""

from clockford.town.models import Hold, Passport
from districts.dice_house.models import DiceRun
from districts.testing import on_probation, outcome, visit


def test_on_probation_a_report_no_yes_could_let_through_is_refused_at_once(alice: Passport, bob: Passport) -> None:
    on_probation(bob)
    none = visit(bob, "dice_house_report", noticed=[])
    assert outcome(none) == "refused:no-run" and "hold" not in none.structured

    run = visit(alice, "dice_house", begin=True).structured["run"]
    on_probation(alice)
    twice = [{"roll": 1, "kind": "slow-reply"}, {"roll": 1, "kind": "wrong-type"}]
    r = visit(alice, "dice_house_report", noticed=twice)
    assert outcome(r) == "refused:roll-twice" and "hold" not in r.structured, r.structured["say"]
    assert not Hold.objects.filter(passport__in=[alice, bob]).exists()

    # A report that can end the run waits for the person; the run stays open meanwhile.
    held = visit(alice, "dice_house_report", noticed=[])
    assert outcome(held) == "held" and held.structured["hold"]["tool"] == "dice_house_report"
    assert DiceRun.objects.get(pk=run).state == "open"


def test_on_probation_a_begin_no_yes_could_let_through_is_refused_at_once(alice: Passport, bob: Passport) -> None:
    visit(alice, "dice_house", begin=True)
    on_probation(alice)
    open_already = visit(alice, "dice_house", begin=True)
    assert outcome(open_already) == "refused:open-run" and "hold" not in open_already.structured

    on_probation(bob)
    replay = visit(bob, "dice_house", begin=True, replay="D-NOSUCHRUN")
    assert outcome(replay) == "refused:not-found" and "hold" not in replay.structured
    assert not Hold.objects.filter(passport__in=[alice, bob]).exists()

    # A begin that would begin a run waits for the person.
    assert outcome(visit(bob, "dice_house", begin=True)) == "held"
