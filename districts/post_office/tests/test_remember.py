"""remember keeps a note under a key and answers key and keys (000 section 07)."""

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.testing import outcome, visit


def test_it_keeps_a_note(alice: Passport) -> None:
    r = visit(alice, "remember", key="errand/step-1", value="Look around first.")
    assert r.is_error is False
    sc = r.structured
    assert sc["say"] == "Kept in your P.O. box. It holds 1 of 64 keys."
    assert (sc["key"], sc["keys"]) == ("errand/step-1", 1)
    assert {"path": "key", "label": "agent-written", "own": True} in sc["provenance"]["parts"]
    note = Note.objects.get(box=alice.id, key="errand/step-1")
    assert note.value == "Look around first."
    assert note.size == len("errand/step-1") + len("Look around first.")
    assert outcome(r) == "ok"


def test_it_counts_keys_and_overwrites_in_place(alice: Passport) -> None:
    visit(alice, "remember", key="a", value="one")
    assert visit(alice, "remember", key="b", value="two").structured["keys"] == 2
    again = visit(alice, "remember", key="a", value="uno")
    assert again.is_error is False and again.structured["keys"] == 2
    assert Note.objects.get(box=alice.id, key="a").value == "uno"
    assert Note.objects.filter(box=alice.id).count() == 2


def test_it_keeps_every_allowed_key_character(alice: Passport) -> None:
    key = "AZaz09._-/:" + "k" * 53
    assert len(key) == 64
    r = visit(alice, "remember", key=key, value="")
    assert r.is_error is False and r.structured["key"] == key
    assert Note.objects.get(box=alice.id, key=key).value == ""


def test_it_walks_the_agent_to_the_post_office(alice: Passport) -> None:
    visit(alice, "remember", key="k", value="v")
    alice.refresh_from_db()
    assert alice.place == "The Post Office"
    assert alice.footsteps == 1
