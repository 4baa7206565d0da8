"""remember into a box with no room is refused at once, never held for a person: on probation, or off
a plan, their yes could not make room (docs/holds.md: a call refused whatever the person says is
refused at once). A note the box has room for still waits for them."""

from typing import Any

from clockford.town.models import Hold, Passport
from districts.post_office.models import Note
from districts.post_office.services import MAX_KEYS
from districts.testing import on_probation, outcome, visit


def test_on_probation_a_full_box_is_refused_at_once(alice: Passport) -> None:
    for i in range(MAX_KEYS):
        visit(alice, "remember", key=f"k{i}", value="x")
    on_probation(alice)
    r = visit(alice, "remember", key="one-more", value="x")
    assert outcome(r) == "refused:box-full" and "hold" not in r.structured
    assert r.structured["say"] == f"Your P.O. box is full ({MAX_KEYS} keys). Use forget first."
    assert not Hold.objects.filter(passport=alice).exists()
    # Overwriting a key takes no new room: that still waits for the person.
    assert outcome(visit(alice, "remember", key="k0", value="y")) == "held"


def test_on_probation_a_note_past_the_allowance_is_refused_at_once(alice: Passport) -> None:
    for i in range(4):
        visit(alice, "remember", key=f"k{i}", value="x" * 4000)
    on_probation(alice)
    r = visit(alice, "remember", key="k4", value="x" * 1000)
    assert outcome(r) == "refused:box-size" and "hold" not in r.structured
    assert r.structured["allowanceBytes"] == 16 * 1024
    assert not Hold.objects.filter(passport=alice).exists()


def test_on_probation_no_room_in_the_post_office_is_refused_at_once(alice: Passport, settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "POST_OFFICE_ROOM_BYTES": 10}
    on_probation(alice)
    r = visit(alice, "remember", key="k", value="x" * 20)
    assert outcome(r) == "refused:room" and "hold" not in r.structured
    assert not Hold.objects.filter(passport=alice).exists() and not Note.objects.exists()
