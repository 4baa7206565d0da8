"""Safe Harbour on repeats hidden by footnote marks of letters and signs, and by number marks on words
that write digits for letters (tests/corpus/footnote_letters.py), by kind, in two halves: the rates
are printed for both; dev holds the bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import bars, footnote_letters, footnotes

pytestmark = pytest.mark.heavy

HELD_BAR = 0.98
HELD_OUT_FLOOR = 0.8
# Own writes held: none on the dev half; on the held-out half, at most one in a hundred.
HELD_OUT_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(footnote_letters.TALLY, "Safe Harbour, footnote marks of letters and signs", capsys)


def test_the_halves_share_no_passage_and_no_text() -> None:
    # Neither half hands a passage of the number marks' corpus either.
    others = bars.passages(footnotes.HALVES, footnotes.handed)
    bars.assert_halves_share_no_passage(footnote_letters.handed, footnote_letters.HALVES, others)
    bars.assert_halves_share_no_text(footnote_letters.TALLY)


def test_marked_repeats_are_held_and_own_words_with_marks_are_not() -> None:
    bars.assert_bars(footnote_letters.TALLY, HELD_BAR, HELD_OUT_FLOOR, HELD_OUT_FALSE_CEILING)
