"""Safe Harbour on repeats hidden by footnote marks of letters and signs, and by number marks on words
that write digits for letters (tests/corpus/footnote_letters.py), by kind, in two halves: the rates
are printed for both; dev holds the bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import footnote_letters, footnotes
from clockford.town.tests.corpus.bars import assert_bars, assert_halves_share_no_text, print_rates

pytestmark = pytest.mark.heavy

HELD_BAR = 0.98
HELD_OUT_FLOOR = 0.8
# Own writes held: none on the dev half; on the held-out half, at most one in a hundred.
HELD_OUT_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    print_rates(footnote_letters.TALLY, "Safe Harbour, footnote marks of letters and signs", capsys)


def test_the_halves_share_no_passage_and_no_text() -> None:
    dev, held = footnote_letters.handed("dev"), footnote_letters.handed("held")
    assert {h.text for h in dev}.isdisjoint(h.text for h in held)
    assert_halves_share_no_text(footnote_letters.TALLY)
    # Nor a passage with the number marks' corpus.
    assert {h.text for h in dev + held}.isdisjoint(h.text for half in footnotes.HALVES for h in footnotes.handed(half))


def test_marked_repeats_are_held_and_own_words_with_marks_are_not() -> None:
    assert_bars(footnote_letters.TALLY, HELD_BAR, HELD_OUT_FLOOR, HELD_OUT_FALSE_CEILING)
