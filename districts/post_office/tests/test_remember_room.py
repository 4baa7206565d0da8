"""The Post Office's shared room: the bytes of notes the whole town keeps (an operator setting)."""

from typing import Any

import pytest

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.testing import outcome, visit

ROOM_SAY = "The Post Office has no room for more notes right now. Try again later."


@pytest.fixture
def small_room(settings: Any) -> int:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "POST_OFFICE_ROOM_BYTES": 100}
    return 100


def test_it_refuses_a_note_when_the_room_is_full(small_room: int, alice: Passport, bob: Passport) -> None:
    assert visit(alice, "remember", key="a", value="x" * 59).is_error is False  # 60 bytes
    assert visit(bob, "remember", key="b", value="x" * 39).is_error is False  # 100: exactly the room
    r = visit(bob, "remember", key="c", value="")
    assert r.is_error is True
    assert r.structured["say"] == ROOM_SAY
    assert "retryAfterSeconds" not in r.structured
    assert not Note.objects.filter(key="c").exists()
    assert outcome(r) == "refused:room"


def test_an_overwrite_that_fits_the_room_is_kept(small_room: int, alice: Passport) -> None:
    visit(alice, "remember", key="a", value="x" * 99)
    r = visit(alice, "remember", key="a", value="y" * 99)
    assert r.is_error is False
    assert visit(alice, "remember", key="a", value="y" * 100).structured["say"] == ROOM_SAY


def test_forgetting_frees_room_for_anyone(small_room: int, alice: Passport, bob: Passport) -> None:
    visit(alice, "remember", key="a", value="x" * 99)
    assert visit(bob, "remember", key="b", value="x" * 9).structured["say"] == ROOM_SAY
    visit(alice, "forget", key="a")
    assert visit(bob, "remember", key="b", value="x" * 9).is_error is False
