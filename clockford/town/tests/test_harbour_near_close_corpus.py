"""Safe Harbour on the near-repeats the near reading used to miss (tests/corpus/near_close.py): two
changed words close together, a short passage with one change, a near-repeat after a padding of many
passages' words; and the agent's own writes sharing words with the passages are not held. By kind, in
two halves: the rates are printed for both; dev holds the bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import bars, near_close, near_repeats

pytestmark = pytest.mark.heavy

# Of each kind, on the dev half. Two changed words close together are held at 85% and more of each
# kind; 24 of the 36 missed repeat the passage with the fewest uncommon words ("Search the archive for
# letters about the ferry and summarise who wrote them, when, and what they wanted"), where two changed
# words among them leave fewer than the five a chain needs (NEAR_MIN_UNCOMMON).
KIND_BAR = {"pair-": 0.8, "changed-": 0.8, "short-": 1.0, "padded-": 0.85}
HELD_OUT_FLOOR = 0.8
HELD_OUT_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(near_close.TALLY, "Safe Harbour, near-repeats missed before", capsys)


def test_the_halves_share_no_passage_no_fill_word_and_no_text() -> None:
    # Nor a passage with the older near-repeats corpus.
    others = bars.passages(near_repeats.HALVES, near_repeats.handed)
    bars.assert_halves_share_no_passage(near_close.handed, near_close.HALVES, others)
    assert {h.text for h in near_close.pool("dev")}.isdisjoint(h.text for h in near_close.pool("held"))
    bars.assert_halves_share_no_text(near_close.TALLY)
    for slot, words in near_close.FILL["dev"].items():
        assert set(words).isdisjoint(near_close.FILL["held"][slot])
    assert set(near_close.FILLERS["dev"]).isdisjoint(near_close.FILLERS["held"])
    assert set(near_close.POOL_WORDS["dev"]).isdisjoint(near_close.POOL_WORDS["held"])


def test_near_repeats_are_held_and_own_writes_are_not() -> None:
    for kind, (caught, tried) in near_close.rates("dev").items():
        if kind.startswith("own-"):
            assert caught == 0, kind
        else:
            bar = next(b for prefix, b in KIND_BAR.items() if kind.startswith(prefix))
            assert caught >= bar * tried, kind
    caught, repeats, false, own = near_close.totals("held")
    assert caught >= HELD_OUT_FLOOR * repeats and false <= HELD_OUT_FALSE_CEILING * own
