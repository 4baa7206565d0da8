"""Safe Harbour on repeats hidden by footnote marks and numbers (tests/corpus/footnotes.py), by kind, in
two halves: the rates are printed for both; dev holds the bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import bars, footnotes

pytestmark = pytest.mark.heavy

HELD_BAR = 0.98
HELD_OUT_FLOOR = 0.8
# Own writes held: none on the dev half; on the held-out half, at most one in a hundred.
HELD_OUT_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(footnotes.TALLY, "Safe Harbour, footnote marks and numbers", capsys)


def test_the_halves_share_no_passage_and_no_text() -> None:
    bars.assert_halves_share_no_passage(footnotes.handed, footnotes.HALVES)
    bars.assert_halves_share_no_text(footnotes.TALLY)


def test_marked_repeats_are_held_and_own_words_with_numbers_are_not() -> None:
    bars.assert_bars(footnotes.TALLY, HELD_BAR, HELD_OUT_FLOOR, HELD_OUT_FALSE_CEILING)
