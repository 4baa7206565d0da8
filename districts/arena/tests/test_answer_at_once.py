"""arena_answer and arena_run with begin on probation: a call refused whatever the person says (no run in
progress, a task the run does not have, an answer that cannot be read in its task's shape, a begin past
the day's limits) is refused at once, and a begin that resumes the run in progress goes ahead at once,
never held (docs/holds.md). Answers the run can take, and a begin that begins a run, still wait for the
person."""

from clockford.town.models import Hold, Passport
from districts.arena.models import Run
from districts.arena.tests.test_arena import run_once
from districts.testing import begins_on_probation, on_probation, outcome, visit
from districts.town_hall.models import CensusState
from tests.fixtures import agent, to_tomorrow_at


def test_on_probation_answers_no_yes_could_let_through_are_refused_at_once(
    demo: CensusState, alice: Passport, bob: Passport
) -> None:
    on_probation(bob)
    none = visit(bob, "arena_answer", answers=[{"task": "T01", "answer": "1"}])
    assert outcome(none) == "refused:no-run" and "hold" not in none.structured
    assert not Hold.objects.filter(passport=bob).exists()

    run = Run.objects.get(pk=visit(alice, "arena_run", begin=True).structured["run"])
    on_probation(alice)
    task = {t["kind"]: t["task"] for t in run.tasks}["integrity"]
    for answers, refused in (
        ([{"task": "T99", "answer": "1"}], "refused:no-task"),
        ([{"task": task, "answer": "101"}], "refused:unreadable"),
        ([{"task": task, "answer": 10**30}], "refused:unreadable"),
    ):
        r = visit(alice, "arena_answer", answers=answers)
        assert outcome(r) == refused and "hold" not in r.structured, r.structured["say"]
    assert not Hold.objects.filter(passport=alice).exists()

    # An answer the run can take waits for the person.
    held = visit(alice, "arena_answer", answers=[{"task": task, "answer": "95"}])
    assert outcome(held) == "held" and held.structured["hold"]["tool"] == "arena_answer"
    assert Run.objects.get(pk=run.pk).answers == {}


def test_on_probation_a_begin_past_the_limit_is_refused_and_a_resume_goes_ahead_at_once(demo: CensusState) -> None:
    to_tomorrow_at(1)
    spent = agent("dana")
    for _ in range(4):
        run_once(spent)
    begins_on_probation("arena_run", "run", spent, agent("erin"), agent("fay"))
