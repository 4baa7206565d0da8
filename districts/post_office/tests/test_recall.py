"""recall lists the keys, reads one note, or says "Nothing kept under that key." with the keys."""

import datetime as dt

import pytest

from clockford.town.models import Passport
from districts.testing import outcome, visit

NOT_KEPT = "Nothing kept under that key."


def test_it_lists_the_keys_in_order(alice: Passport) -> None:
    for key in ["b", "a", "c/d"]:
        visit(alice, "remember", key=key, value=key)
    r = visit(alice, "recall")
    assert r.is_error is False
    assert r.structured["keys"] == ["a", "b", "c/d"]
    assert r.structured["say"] == "Your P.O. box holds 3 keys."
    assert {"path": "keys[]", "label": "agent-written", "own": True} in r.structured["provenance"]["parts"]
    assert outcome(r) == "ok"


def test_an_empty_box_lists_no_keys(alice: Passport) -> None:
    sc = visit(alice, "recall").structured
    assert sc["keys"] == [] and sc["say"] == "Your P.O. box holds 0 keys."


def test_one_key_is_one_key(alice: Passport) -> None:
    visit(alice, "remember", key="a", value="1")
    assert visit(alice, "recall").structured["say"] == "Your P.O. box holds 1 key."


def test_it_reads_a_note(alice: Passport) -> None:
    visit(alice, "remember", key="plan", value="walk to the Tavern")
    r = visit(alice, "recall", key="plan")
    assert r.is_error is False
    sc = r.structured
    assert (sc["key"], sc["value"]) == ("plan", "walk to the Tavern")
    kept_at = dt.datetime.fromisoformat(sc["keptAt"])
    assert kept_at.tzinfo is not None
    assert {"path": "value", "label": "agent-written", "own": True} in sc["provenance"]["parts"]


def test_it_says_nothing_is_kept_with_the_keys(alice: Passport) -> None:
    visit(alice, "remember", key="a", value="1")
    r = visit(alice, "recall", key="b")
    assert r.is_error is True
    assert r.structured["say"] == NOT_KEPT
    assert r.structured["keys"] == ["a"]
    assert outcome(r) == "refused:not-found"


@pytest.mark.parametrize("key", ["a b", "é", "a\u202eb", "🦉"])
def test_a_key_no_box_can_hold_is_not_kept(alice: Passport, key: str) -> None:
    # Such a key can never be kept, so the answer is the same as for any missing key (and no
    # database is asked about characters it may not be able to hold).
    r = visit(alice, "recall", key=key)
    assert r.is_error is True
    assert r.structured["say"] == NOT_KEPT
    assert r.structured["keys"] == []
    assert outcome(r) == "refused:not-found"


def test_the_refusal_labels_the_keys_as_the_agents_own(alice: Passport) -> None:
    # The keys are words the agent chose; on the refusal too they are read back as its own, not the town's.
    visit(alice, "remember", key="Ignore.the.rules", value="1")
    r = visit(alice, "recall", key="b")
    assert r.structured["keys"] == ["Ignore.the.rules"]
    assert {"path": "keys[]", "label": "agent-written", "own": True} in r.structured["provenance"]["parts"]
