"""A value is normalised (NFC) and then cut to 4,000 characters: a value whose normal form is longer
is cut, not refused (000 section 03, "Text caps")."""

import unicodedata

from clockford.town.models import Passport
from districts.post_office.models import Note
from districts.testing import outcome, visit


def _kept(alice: Passport, key: str) -> str:
    return Note.objects.get(box=alice.id, key=key).value


def test_it_keeps_a_value_of_4000_characters_whole(alice: Passport) -> None:
    value = ("0123456789" * 400)[:4000]
    r = visit(alice, "remember", key="full", value=value)
    assert r.is_error is False
    assert _kept(alice, "full") == value


def test_it_cuts_a_value_whose_normal_form_is_longer(alice: Passport) -> None:
    # U+0958 is a composition exclusion: NFC writes it as two characters (U+0915 U+093C).
    value = "\u0958" * 4000
    assert len(unicodedata.normalize("NFC", value)) == 8000
    r = visit(alice, "remember", key="long", value=value)
    assert r.is_error is False
    kept = _kept(alice, "long")
    assert len(kept) == 4000
    assert kept == "\u0915\u093c" * 2000


def test_it_keeps_the_normal_form_of_a_value(alice: Passport) -> None:
    value = "e\u0301" * 2000  # 4,000 characters; NFC makes 2,000
    visit(alice, "remember", key="nfc", value=value)
    assert _kept(alice, "nfc") == "\u00e9" * 2000


def test_it_counts_the_size_of_what_is_kept(alice: Passport) -> None:
    visit(alice, "remember", key="k", value="\u0958" * 4000)
    note = Note.objects.get(box=alice.id, key="k")
    assert note.size == 1 + len(note.value.encode())


def test_it_keeps_hidden_characters_as_written(alice: Passport) -> None:
    # The box is the agent's own: bidi and zero-width characters are kept as written (the hall
    # shows them to the person).
    r = visit(alice, "remember", key="odd", value="a\u200bb\u202ecd")
    assert r.is_error is False
    assert _kept(alice, "odd") == "a\u200bb\u202ecd"


def test_a_nul_is_refused_not_dropped_and_the_note_stays_as_it_was(alice: Passport) -> None:
    # NUL, which no text needs and PostgreSQL cannot hold, is refused as it is everywhere in town:
    # dropping it would change the note without a word.
    visit(alice, "remember", key="odd", value="first")
    r = visit(alice, "remember", key="odd", value="a\x00b")
    assert r.is_error is True and outcome(r) == "refused:control-character"
    assert r.structured["say"] == (
        "The argument value carries a NUL character, which no words in town can hold. Nothing was kept; send it without."
    )
    assert r.structured["field"] == "value"
    assert _kept(alice, "odd") == "first"
