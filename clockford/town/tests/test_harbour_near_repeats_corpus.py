"""Safe Harbour on near-repeats (tests/corpus/near_repeats.py): a handed passage repeated with words
changed, added or dropped every few words or swapped for synonyms is held, and the agent's own writes
on the same subjects (summaries, replies quoting a title, notices, warnings) are not. By kind, in two
halves: the rates are printed for both; dev holds the bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import footnote_letters, footnotes, near_repeats
from clockford.town.tests.corpus.bars import assert_bars, assert_halves_share_no_text, print_rates

pytestmark = pytest.mark.heavy

KIND_BAR = 0.85  # of each kind, on the dev half
HELD_BAR = 0.97  # of all the dev half's near-repeats
HELD_OUT_FLOOR = 0.8
HELD_OUT_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    print_rates(near_repeats.TALLY, "Safe Harbour, near-repeats", capsys)


def test_the_halves_share_no_passage_no_fill_word_and_no_text() -> None:
    dev, held = near_repeats.handed("dev"), near_repeats.handed("held")
    assert {h.text for h in dev}.isdisjoint(h.text for h in held)
    assert_halves_share_no_text(near_repeats.TALLY)
    for slot, words in near_repeats.FILL["dev"].items():
        assert set(words).isdisjoint(near_repeats.FILL["held"][slot])
    assert set(near_repeats.FILLERS["dev"]).isdisjoint(near_repeats.FILLERS["held"])
    # Nor a passage with the footnote marks' corpora.
    others = {h.text for m in (footnotes, footnote_letters) for half in m.HALVES for h in m.handed(half)}
    assert {h.text for h in dev + held}.isdisjoint(others)


def test_near_repeats_are_held_and_own_writes_on_the_same_subject_are_not() -> None:
    for kind, (caught, tried) in near_repeats.rates("dev").items():
        if kind.startswith("own-"):
            assert caught == 0, kind
        else:
            assert caught >= KIND_BAR * tried, kind
    assert_bars(near_repeats.TALLY, HELD_BAR, HELD_OUT_FLOOR, HELD_OUT_FALSE_CEILING)
