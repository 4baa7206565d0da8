"""A box holds 64 keys; the 65th is refused with 001's sentence and nothing is kept."""

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.testing import outcome, visit

FULL_SAY = "Your P.O. box is full (64 keys). Use forget first."


def _fill(alice: Passport) -> None:
    for i in range(64):
        r = visit(alice, "remember", key=f"k{i:02d}", value="x")
        assert r.is_error is False, r.structured
    assert r.structured["keys"] == 64


def test_it_refuses_the_65th_key(alice: Passport) -> None:
    _fill(alice)
    r = visit(alice, "remember", key="one-more", value="x")
    assert r.is_error is True
    assert r.structured["say"] == FULL_SAY
    assert "retryAfterSeconds" not in r.structured and "hold" not in r.structured
    assert not Note.objects.filter(box=alice.id, key="one-more").exists()
    assert Note.objects.filter(box=alice.id).count() == 64
    assert outcome(r) == "refused:box-full"


def test_a_full_box_still_overwrites_a_key_it_holds(alice: Passport) -> None:
    _fill(alice)
    r = visit(alice, "remember", key="k07", value="changed")
    assert r.is_error is False and r.structured["keys"] == 64
    assert Note.objects.get(box=alice.id, key="k07").value == "changed"


def test_forget_makes_room_again(alice: Passport) -> None:
    _fill(alice)
    visit(alice, "forget", key="k00")
    r = visit(alice, "remember", key="one-more", value="x")
    assert r.is_error is False and r.structured["keys"] == 64


def test_one_full_box_does_not_fill_another(alice: Passport, bob: Passport) -> None:
    _fill(alice)
    assert visit(bob, "remember", key="k00", value="x").is_error is False
