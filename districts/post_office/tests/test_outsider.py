"""One passport can never read, list, overwrite or forget another passport's note."""

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.testing import visit


def test_the_outsider_cannot_read_the_note(alice: Passport, charlie: Passport) -> None:
    visit(alice, "remember", key="plan", value="alice's words")
    r = visit(charlie, "recall", key="plan")
    assert r.is_error is True
    assert r.structured["say"] == "Nothing kept under that key."
    assert r.structured["keys"] == []
    assert "alice's words" not in r.text


def test_the_outsider_does_not_see_the_keys(alice: Passport, charlie: Passport) -> None:
    visit(alice, "remember", key="plan", value="x")
    assert visit(charlie, "recall").structured["keys"] == []


def test_the_outsider_cannot_forget_the_note(alice: Passport, charlie: Passport) -> None:
    visit(alice, "remember", key="plan", value="x")
    r = visit(charlie, "forget", key="plan")
    assert r.structured["say"] == "Nothing was kept under that key, so there was nothing to forget."
    assert Note.objects.get(box=alice.id, key="plan").value == "x"


def test_the_outsider_writes_only_into_its_own_box(alice: Passport, charlie: Passport) -> None:
    visit(alice, "remember", key="plan", value="alice's")
    r = visit(charlie, "remember", key="plan", value="charlie's")
    assert r.structured["keys"] == 1
    assert Note.objects.get(box=alice.id, key="plan").value == "alice's"
    assert Note.objects.get(box=charlie.id, key="plan").value == "charlie's"
    assert visit(alice, "recall", key="plan").structured["value"] == "alice's"
