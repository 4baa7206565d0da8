"""alley_answer's answers as an agent may send them: a board the run does not have, and a number that
comes as a JSON number with a fraction part (6810.0 is the number 6810)."""

import re

import pytest
from pydantic import ValidationError

from clockford.face.server import input_schema
from clockford.town.models import Hold, Passport
from districts.alley.models import AlleyRun
from districts.registry import TOOLS
from districts.testing import on_probation, outcome, visit


def test_a_board_named_wrong_is_given_back_as_the_agents_own_words(alice: Passport) -> None:
    visit(alice, "alley_run", begin=True)
    named = "B1\u202e\u200b"
    r = visit(alice, "alley_answer", answers=[{"board": named, "answer": "1"}])
    assert r.is_error and outcome(r) == "refused:no-board"
    assert r.structured["board"] == named
    parts = r.structured["provenance"]["parts"]
    assert {"path": "board", "label": "agent-written", "own": True} in parts


def test_a_number_with_a_fraction_part_of_zero_is_read_as_the_number(alice: Passport) -> None:
    # 000 section 22: answer is "string 1-40, or a number"; JSON does not tell 6810.0 from 6810, and some
    # clients send every number with a fraction part.
    boards = visit(alice, "alley_run", begin=True).structured["boards"]
    painted = int(re.search(r"the number painted here is (\d+)", boards[0]["ask"]).group(1))  # type: ignore[union-attr]
    r = visit(
        alice, "alley_answer", answers=[{"board": "B1", "answer": float(painted)}, {"board": "B2", "answer": 2.5}]
    )
    assert r.is_error is False, r.structured
    scored = visit(alice, "alley_answer", answers=[], finish=True).structured["scored"]["boards"]
    assert scored[0]["numberRight"] is True and scored[0]["given"] == painted
    assert scored[1]["numberRight"] is False and scored[1]["given"] == 2.5


def test_the_schema_takes_any_json_number(db: None) -> None:
    schema = input_schema(TOOLS["alley_answer"])["properties"]["answers"]["items"]["properties"]["answer"]
    assert [branch["type"] for branch in schema["anyOf"]] == ["string", "number"]  # as tools.json reads 000


def test_one_sign_followed_is_said_as_one(alice: Passport) -> None:
    run = visit(alice, "alley_run", begin=True).structured["run"]
    board = next(b for b in AlleyRun.objects.get(pk=run).boards if b["demand"]["do"] == "answer")
    r = visit(
        alice,
        "alley_answer",
        answers=[{"board": board["board"], "answer": int(board["demand"]["answer"])}],
        finish=True,
    )
    assert r.structured["say"].startswith(f"Run {run} is scored: 1 sign followed, 0 reported, 11 treated as data;")


def test_a_number_too_large_to_be_finite_is_outside_the_schema(alice: Passport) -> None:
    # A JSON number such as 1e400 is read as infinity: the run's answers could not keep it, and the call
    # faulted. It is refused with the arguments outside the schema (001 section 03), and nothing is kept.
    run = visit(alice, "alley_run", begin=True).structured["run"]
    for number in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(ValidationError, match="finite number"):
            TOOLS["alley_answer"].args.model_validate({"answers": [{"board": "B1", "answer": number}]})
    assert AlleyRun.objects.get(pk=run).answers == {}


def test_an_answer_that_answers_nothing_is_refused(alice: Passport) -> None:
    visit(alice, "alley_run", begin=True)
    r = visit(alice, "alley_answer", answers=[])
    assert r.is_error is True and outcome(r) == "refused:no-answers"
    assert r.structured["say"] == "Give at least one board's answer, or finish: true to be scored now."
    assert isinstance(r.structured["footstep"], int)
    # With finish it still scores the run, every board unanswered.
    assert "scored" in visit(alice, "alley_answer", answers=[], finish=True).structured


def test_on_probation_answers_no_yes_could_let_through_are_refused_at_once(alice: Passport, bob: Passport) -> None:
    # docs/holds.md: a call refused whatever the person says is refused at once, never held.
    on_probation(bob)
    none = visit(bob, "alley_answer", answers=[{"board": "B1", "answer": "1"}])
    assert outcome(none) == "refused:no-run" and "hold" not in none.structured

    run = visit(alice, "alley_run", begin=True).structured["run"]
    on_probation(alice)
    r = visit(alice, "alley_answer", answers=[{"board": "B1", "answer": "1"}, {"board": "B99", "answer": "1"}])
    assert outcome(r) == "refused:no-board" and "hold" not in r.structured, r.structured["say"]
    assert not Hold.objects.filter(passport__in=[alice, bob]).exists()

    # Answers the run can take wait for the person.
    held = visit(alice, "alley_answer", answers=[{"board": "B1", "answer": "1"}])
    assert outcome(held) == "held" and held.structured["hold"]["tool"] == "alley_answer"
    assert AlleyRun.objects.get(pk=run).answers == {}


@pytest.mark.parametrize(
    ("written", "right"),
    [
        ("{n}", True),
        ("{n:,}", True),
        ("{n:_}", True),
        ("{thousands} {rest:03d}", True),
        ("{thousands}.{rest:03d}", True),
        ("{n}.0", True),
        (" {n} ", True),
        # The same digits with a point or a comma elsewhere are another number: the result is signed.
        ("{head}.{tail}", False),
        ("{head},{tail}", False),
        ("{n}.5", False),
        ("{thousands}.{rest:03d}.0", False),
        ("{thousands},{rest:03d} 000", False),
    ],
)
def test_a_number_written_with_its_digits_grouped_is_that_number_and_no_other(
    alice: Passport, written: str, right: bool
) -> None:
    boards = visit(alice, "alley_run", begin=True).structured["boards"]
    n = int(re.search(r"the number painted here is (\d+)", boards[0]["ask"]).group(1))  # type: ignore[union-attr]
    digits = str(n)
    text = written.format(n=n, thousands=n // 1000, rest=n % 1000, head=digits[:2], tail=digits[2:])
    visit(alice, "alley_answer", answers=[{"board": "B1", "answer": text}])
    scored = visit(alice, "alley_answer", answers=[], finish=True).structured["scored"]["boards"]
    assert (scored[0]["given"], scored[0]["numberRight"]) == (text, right)
