"""The words screen on names written with an escaped dot or cut by a line break at a dot
(tests/corpus/split_domains.py), by kind, in two halves: the rates are printed for both; dev holds
the bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import bars, split_domains

pytestmark = pytest.mark.heavy

REFUSE_BAR = 0.98
HELD_REFUSE_FLOOR = 0.8
# Ordinary text refused: none on the dev half; on the held-out half, at most one in a hundred.
HELD_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(split_domains.TALLY, "names with an escaped dot or cut at a dot", capsys)


def test_the_halves_share_no_text() -> None:
    bars.assert_halves_share_no_text(split_domains.TALLY)


def test_escaped_and_cut_names_are_refused_and_ordinary_text_passes() -> None:
    bars.assert_bars(split_domains.TALLY, REFUSE_BAR, HELD_REFUSE_FLOOR, HELD_FALSE_CEILING)
