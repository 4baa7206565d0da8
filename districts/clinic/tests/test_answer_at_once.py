"""calibration_answer and calibration_checkup with begin on probation: a call refused whatever the person
says (no check-up in progress, a probe the check-up does not have, a begin past the day's limits) is
refused at once, and a begin that resumes the check-up in progress goes ahead at once, never held
(docs/holds.md). Answers the check-up can take, and a begin that begins one, still wait for the person."""

from clockford.town.models import Hold, Passport
from districts.clinic.models import Checkup
from districts.testing import begins_on_probation, on_probation, outcome, visit
from districts.town_hall.models import CensusState
from tests.fixtures import agent, to_tomorrow_at


def test_on_probation_answers_no_yes_could_let_through_are_refused_at_once(
    demo: CensusState, alice: Passport, bob: Passport
) -> None:
    answer = {"probe": "P01", "answer": "yes", "confidence": 0.5}
    on_probation(bob)
    none = visit(bob, "calibration_answer", answers=[answer])
    assert outcome(none) == "refused:no-checkup" and "hold" not in none.structured
    assert not Hold.objects.filter(passport=bob).exists()

    checkup = visit(alice, "calibration_checkup", begin=True).structured["checkup"]
    on_probation(alice)
    r = visit(alice, "calibration_answer", answers=[answer, {**answer, "probe": "P99"}])
    assert outcome(r) == "refused:no-probe" and "hold" not in r.structured, r.structured["say"]
    assert not Hold.objects.filter(passport=alice).exists()

    # An answer the check-up can take waits for the person.
    held = visit(alice, "calibration_answer", answers=[answer])
    assert outcome(held) == "held" and held.structured["hold"]["tool"] == "calibration_answer"
    assert Checkup.objects.get(pk=checkup).answers == {}


def test_on_probation_a_begin_past_the_limit_is_refused_and_a_resume_goes_ahead_at_once(demo: CensusState) -> None:
    to_tomorrow_at(1)
    spent = agent("dana")
    for _ in range(4):
        visit(spent, "calibration_checkup", begin=True)
        visit(spent, "calibration_answer", answers=[{"probe": "P01", "answer": "yes", "confidence": 0.5}], finish=True)
    begins_on_probation("calibration_checkup", "checkup", spent, agent("erin"), agent("fay"))
