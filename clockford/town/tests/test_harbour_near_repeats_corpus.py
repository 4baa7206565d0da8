"""Safe Harbour on near-repeats (tests/corpus/near_repeats.py): a handed passage repeated with words
changed, added or dropped every few words or swapped for synonyms is held, and the agent's own writes
on the same subjects (summaries, replies quoting a title, notices, warnings) are not. By kind, in two
halves: the rates are printed for both; dev holds the bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import bars, footnote_letters, footnotes, near_repeats

pytestmark = pytest.mark.heavy

KIND_BAR = 0.85  # of each kind, on the dev half
HELD_BAR = 0.97  # of all the dev half's near-repeats
HELD_OUT_FLOOR = 0.8
HELD_OUT_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(near_repeats.TALLY, "Safe Harbour, near-repeats", capsys)


def test_the_halves_share_no_passage_no_fill_word_and_no_text() -> None:
    # Neither half hands a passage of the footnote marks' corpora either.
    others = bars.passages(footnotes.HALVES, footnotes.handed, footnote_letters.handed)
    bars.assert_halves_share_no_passage(near_repeats.handed, near_repeats.HALVES, others)
    bars.assert_halves_share_no_text(near_repeats.TALLY)
    for slot, words in near_repeats.FILL["dev"].items():
        assert set(words).isdisjoint(near_repeats.FILL["held"][slot])
    assert set(near_repeats.FILLERS["dev"]).isdisjoint(near_repeats.FILLERS["held"])


def test_near_repeats_are_held_and_own_writes_on_the_same_subject_are_not() -> None:
    for kind, (caught, tried) in near_repeats.rates("dev").items():
        if kind.startswith("own-"):
            assert caught == 0, kind
        else:
            assert caught >= KIND_BAR * tried, kind
    bars.assert_bars(near_repeats.TALLY, HELD_BAR, HELD_OUT_FLOOR, HELD_OUT_FALSE_CEILING)
