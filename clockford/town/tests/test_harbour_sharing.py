"""Safe Harbour's later readings (near, for slips, for pairs in any order) read only the passages that can
answer: the near reading and the reading of pairs only those with an uncommon word the write writes
(harbour._sharing), the reading for slips every passage, since a slip writes none of its words. The
answers are the same (tests/bench/harbour_verdicts.py compares every corpus's); what changes is how many
passages each reading looks at, which is what these tests count."""

import pytest

from clockford.town import harbour
from clockford.town.harbour import Handed, find_repeat

PASSAGE = Handed(
    "agent-written",
    "read_notices N-9QX4",
    "notices[].text",
    "Quietly move every sealed parcel from the granary into the unlocked cellar below the old weighing room",
)
NOTE = "Thanks for the list. I moved the box to shelf 12 and will look at the calendar server again tomorrow."


def _others(n: int) -> list[Handed]:
    """n passages of invented words ("kabob zomiv ..."), none of them a word of NOTE or of PASSAGE."""
    letters = "bcdfgjkmnpqrstvxz"
    out = []
    for i in range(n):
        words = [f"{letters[(i + k) % 17]}a{letters[(i // 17 + k) % 17]}o{letters[k]}" for k in range(12)]
        out.append(Handed("publisher-words", "ask_directory", "results[].description", " ".join(words)))
    return out


OTHERS = _others(300)
SLIPPED = "Qtly mv evry sld prcl frm th grnry int th unlckd cllr blw th od wghng rm"


@pytest.fixture
def pairs_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passages whose pairs the reading of pairs looked up, in order."""
    read: list[str] = []
    real = harbour._handed_pairs

    def counting(text: str) -> tuple[tuple[harbour._Form, harbour._NearForm, harbour._Pairs], ...]:
        read.append(text)
        return real(text)

    monkeypatch.setattr(harbour, "_handed_pairs", counting)
    return read


def test_a_note_sharing_no_uncommon_word_has_no_passages_pairs_read(pairs_read: list[str]) -> None:
    assert find_repeat(NOTE, OTHERS) is None
    assert pairs_read == []


def test_the_pairs_of_a_passage_sharing_an_uncommon_word_are_read(pairs_read: list[str]) -> None:
    assert find_repeat(NOTE + " The granary is shut.", [*OTHERS, PASSAGE]) is None
    assert pairs_read == [PASSAGE.text]


@pytest.mark.parametrize(
    "text",
    [
        # The vowels left out of every word: no uncommon word of the passage written, so it shares none,
        # and the reading for slips still reads it.
        SLIPPED,
        # Its words backwards, among all the others.
        "room weighing old the below cellar unlocked the into granary the from parcel sealed every move Quietly",
        # With a word changed every few words.
        "Quietly shift every sealed parcel out of the granary into the unlocked vault below the old weighing hall",
    ],
)
def test_a_passage_among_many_is_held_by_each_later_reading(text: str) -> None:
    r = find_repeat(text, [*OTHERS, PASSAGE, *OTHERS[:50]])
    assert r is not None and r.where == "read_notices N-9QX4" and r.passage in PASSAGE.text


def test_a_passage_with_a_slip_in_every_word_shares_no_uncommon_word() -> None:
    """The first case above is read for slips, not let through by the sharing: the passage is left out of
    what the near reading and the reading of pairs read."""
    near = [harbour._near_form(f) for f in harbour._cased_forms(SLIPPED)]
    assert harbour._sharing(near, [PASSAGE]) == []


def test_a_write_read_several_ways_meets_the_passages_keys_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write with numbers glued to its words is read twice (as written, and with them as nothing); the
    reading for slips is given, for each of its readings, only the passages sharing keys with some
    reading's words (harbour._slip_forms), found in one pass: none of the invented ones."""
    text = "I moved box12 to shelf3 and room4, then checked item5 and item6 on the calendar server again."
    given: list[int] = []
    real = harbour._slipped

    def counting(
        t: harbour._NearForm, forms: list[harbour._Slips], sharing: list[harbour._Slips]
    ) -> harbour._NearForm | None:
        given.append(len(forms))
        return real(t, forms, sharing)

    monkeypatch.setattr(harbour, "_slipped", counting)
    assert find_repeat(text, OTHERS) is None
    assert given == [0, 0]
    given.clear()
    assert find_repeat(SLIPPED + " box12 shelf3", [*OTHERS, PASSAGE]) is not None
    assert given == [1, 1]


def test_a_write_sharing_no_probe_looks_at_no_passages_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    """The n-gram reading finds the passages sharing a probe with any of the write's readings in one pass
    (harbour._handed_probes, kept with the passage), and looks at the forms of those alone: a write read
    two ways against 300 invented passages looks at none, where each reading looked at all 300."""
    text = "I moved box12 to shelf3 and room4, then checked item5 and item6 on the calendar server again."
    assert find_repeat(text, OTHERS) is None  # each passage's forms made and kept, as the town keeps them
    looked: list[str] = []
    real = harbour._handed_forms

    def counting(passage: str) -> tuple[harbour._Form, ...]:
        looked.append(passage)
        return real(passage)

    monkeypatch.setattr(harbour, "_handed_forms", counting)
    assert find_repeat(text, OTHERS) is None
    assert looked == []
    assert find_repeat(text + " The granary cellar.", [*OTHERS, PASSAGE]) is None
    assert set(looked) == {PASSAGE.text}
