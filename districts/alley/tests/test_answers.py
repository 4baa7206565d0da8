"""alley_answer's answers as an agent may send them: a board the run does not have, and a number that
comes as a JSON number with a fraction part (6810.0 is the number 6810)."""

from clockford.town.models import Passport
from districts.testing import outcome, visit


def test_a_board_named_wrong_is_given_back_as_the_agents_own_words(alice: Passport) -> None:
    visit(alice, "alley_run", begin=True)
    named = "B1\u202e\u200b"
    r = visit(alice, "alley_answer", answers=[{"board": named, "answer": "1"}])
    assert r.is_error and outcome(r) == "refused:no-board"
    assert r.structured["board"] == named
    parts = r.structured["provenance"]["parts"]
    assert {"path": "board", "label": "agent-written", "own": True} in parts
