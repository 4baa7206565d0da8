"""Without sign-in a box may hold 16 KB (16,384 bytes of keys and values, UTF-8)."""

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.post_office.services import ALLOWANCE_BYTES
from districts.testing import outcome, visit


def _four_full_notes(alice: Passport) -> int:
    for key in "abcd":
        assert visit(alice, "remember", key=key, value="x" * 4000).is_error is False
    return 4 * 4001


def test_the_allowance_is_16_kb() -> None:
    assert ALLOWANCE_BYTES == 16 * 1024


def test_it_keeps_up_to_exactly_the_allowance(alice: Passport) -> None:
    used = _four_full_notes(alice)
    rest = ALLOWANCE_BYTES - used  # 380 bytes: a one-letter key and 379 characters
    r = visit(alice, "remember", key="e", value="x" * (rest - 1))
    assert r.is_error is False
    assert sum(Note.objects.filter(box=alice.id).values_list("size", flat=True)) == ALLOWANCE_BYTES


def test_it_refuses_one_byte_past_the_allowance(alice: Passport) -> None:
    used = _four_full_notes(alice)
    visit(alice, "remember", key="e", value="x" * (ALLOWANCE_BYTES - used - 1))
    r = visit(alice, "remember", key="f", value="")
    assert r.is_error is True
    assert "size allowance (16 KB without sign-in)" in r.structured["say"]
    assert r.structured["keptBytes"] == ALLOWANCE_BYTES
    assert r.structured["allowanceBytes"] == ALLOWANCE_BYTES
    assert not Note.objects.filter(box=alice.id, key="f").exists()
    assert outcome(r) == "refused:box-size"


def test_it_counts_bytes_not_characters(alice: Passport) -> None:
    # 4,000 characters of "é" are 8,000 bytes: two such notes leave no room for a third.
    assert visit(alice, "remember", key="a", value="é" * 4000).is_error is False
    assert visit(alice, "remember", key="b", value="é" * 4000).is_error is False
    r = visit(alice, "remember", key="c", value="é" * 200)
    assert r.is_error is True and outcome(r) == "refused:box-size"


def test_overwriting_counts_the_new_value_not_both(alice: Passport) -> None:
    _four_full_notes(alice)
    r = visit(alice, "remember", key="a", value="y" * 4000)
    assert r.is_error is False
    assert Note.objects.get(box=alice.id, key="a").value == "y" * 4000
