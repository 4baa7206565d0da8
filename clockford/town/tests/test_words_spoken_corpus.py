"""The words screen on a host said aloud, a dot written with digits or signs, and a link wrapped in
base64 (tests/corpus/spoken.py), by kind, in two halves: the rates are printed for both; dev holds the
bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import bars, spoken

pytestmark = pytest.mark.heavy

REFUSE_BAR = 0.98
HELD_REFUSE_FLOOR = 0.8
# Ordinary text refused: none on the dev half; on the held-out half, at most one in a hundred.
HELD_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(spoken.TALLY, "spoken dots, leet dots and base64 links", capsys)


def test_the_halves_share_no_text() -> None:
    bars.assert_halves_share_no_text(spoken.TALLY)


def test_spoken_and_encoded_links_are_refused_and_ordinary_text_passes() -> None:
    bars.assert_bars(spoken.TALLY, REFUSE_BAR, HELD_REFUSE_FLOOR, HELD_FALSE_CEILING)
