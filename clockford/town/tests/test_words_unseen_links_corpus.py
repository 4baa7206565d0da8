"""The words screen on link and contact disguises the other corpora do not make
(tests/corpus/unseen_links.py), by kind, in two halves: the rates are printed for both; dev holds the
bars, held-out a floor under what it measured once (docs/holds.md)."""

import pytest

from clockford.town.tests.corpus import bars, unseen_links

pytestmark = pytest.mark.heavy

REFUSE_BAR = 0.95
HELD_REFUSE_FLOOR = 0.9  # measured once: 452 of 480 (94.2%)
# Ordinary text refused: none on either half.
FALSE_CEILING = 0


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(unseen_links.TALLY, "link and contact disguises not seen before", capsys)


def test_the_halves_share_no_text() -> None:
    bars.assert_halves_share_no_text(unseen_links.TALLY)


def test_disguised_links_and_contacts_are_refused_and_ordinary_text_passes() -> None:
    bars.assert_bars(unseen_links.TALLY, REFUSE_BAR, HELD_REFUSE_FLOOR, FALSE_CEILING)
