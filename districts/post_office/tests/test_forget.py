"""forget removes a note; forgetting a key that is not there says so and is not an error."""

import pytest

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.registry import TOOLS
from districts.testing import outcome, visit


def test_it_forgets_a_note(alice: Passport) -> None:
    visit(alice, "remember", key="k", value="secretless words")
    r = visit(alice, "forget", key="k")
    assert r.is_error is False
    assert r.structured["key"] == "k"
    assert r.structured["say"] == "Forgotten: that note has left your P.O. box. There is no undo."
    assert not Note.objects.filter(box=alice.id).exists()
    assert visit(alice, "recall", key="k").structured["say"] == "Nothing kept under that key."
    assert outcome(r) == "ok"


def test_it_is_idempotent(alice: Passport) -> None:
    visit(alice, "remember", key="k", value="v")
    first = visit(alice, "forget", key="k")
    second = visit(alice, "forget", key="k")
    assert first.is_error is False and second.is_error is False
    assert second.structured["key"] == "k"
    assert second.structured["say"] == "Nothing was kept under that key, so there was nothing to forget."
    assert outcome(second) == "ok"


def test_it_forgets_only_that_key(alice: Passport) -> None:
    visit(alice, "remember", key="a", value="1")
    visit(alice, "remember", key="b", value="2")
    visit(alice, "forget", key="a")
    assert visit(alice, "recall").structured["keys"] == ["b"]


def test_the_text_leaves_the_towns_state(alice: Passport) -> None:
    visit(alice, "remember", key="k", value="a very particular sentence")
    visit(alice, "forget", key="k")
    assert not Note.objects.filter(value__contains="particular").exists()


@pytest.mark.parametrize("key", ["a b", "é"])
def test_a_key_no_box_can_hold_is_nothing_to_forget(alice: Passport, key: str) -> None:
    r = visit(alice, "forget", key=key)
    assert r.is_error is False
    assert r.structured["say"] == "Nothing was kept under that key, so there was nothing to forget."
    assert outcome(r) == "ok"


def test_its_description_is_the_specs_and_tells_of_opened_letters() -> None:
    # The description once left out that an opened letter keeps its copy (tests/test_holds.py shows it
    # does), so an agent could believe forget took its words back from the person who read them.
    assert TOOLS["forget"].description == (
        "Remove one note from your own box, and its copy from any of your letters still waiting for your person; "
        "its text leaves the town's state. A letter your person already opened keeps the copy they read until its "
        "words are dropped. The Archive still records the calls, with a keyed digest of their arguments, never the "
        "text. Write; destructive; idempotent."
    )
