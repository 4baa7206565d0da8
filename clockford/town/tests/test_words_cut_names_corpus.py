"""The words screen on names cut by a line break or blanks at a dot under every class of top-level
domain, and on prose where a sentence ends with a dot and the next starts with a word that is also a
top-level domain (tests/corpus/cut_names.py), by kind, in two halves: the rates are printed for both;
dev holds the bars, held-out a loose floor."""

import pytest

from clockford.town import words
from clockford.town.tests.corpus import bars, cut_names

pytestmark = pytest.mark.heavy

REFUSE_BAR = 0.97
HELD_REFUSE_FLOOR = 0.8
# Prose refused: none on the dev half; on the held-out half, at most one in a hundred.
HELD_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(cut_names.TALLY, "names cut at a dot, and prose after a dot", capsys)


def test_the_halves_share_no_text() -> None:
    bars.assert_halves_share_no_text(cut_names.TALLY)


@pytest.mark.parametrize("half", cut_names.HALVES)
def test_every_cut_name_is_a_link_with_a_plain_dot(half: str) -> None:
    """A miss here is the break's reading, not the bare-name rules'."""
    plain = [cut_names.plain(c) for c in cut_names.cases(half) if c.want]
    assert [text for text in plain if words.screen(text, "public") is None] == []


def test_cut_names_are_refused_and_prose_passes() -> None:
    bars.assert_bars(cut_names.TALLY, REFUSE_BAR, HELD_REFUSE_FLOOR, HELD_FALSE_CEILING)
