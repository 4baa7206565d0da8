"""Safe Harbour on misspelt repeats (tests/corpus/misspelt.py): a handed passage repeated with a slip in
every word (a letter dropped, two letters swapped, a keyboard neighbour struck, the vowels left out, a
mixture) is held, and the agent's own writes on the same subjects, typed badly or not, are not. By kind,
in two halves: the rates are printed for both, and each kind of each half holds at least what it held
when measured (docs/holds.md gives the figures); no own write is held on either half."""

import pytest

from clockford.town.tests.corpus import (
    bars,
    footnote_letters,
    footnotes,
    misspelt,
    near_close,
    near_repeats,
    redteam,
)

pytestmark = pytest.mark.heavy

# Repeats held of 48 by kind, as measured. Kinds not named hold all 48 on both halves. Before the near
# reading read words for slips (harbour._slipped), no kind of either half held any.
MEASURED: dict[str, dict[str, int]] = {"dev": {}, "held": {"mixed-slips": 47}}


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(misspelt.TALLY, "Safe Harbour, misspelt", capsys)


def test_the_halves_share_no_passage_no_fill_word_and_no_text() -> None:
    others = bars.passages(
        misspelt.HALVES,
        redteam.handed,
        near_repeats.handed,
        near_close.handed,
        footnotes.handed,
        footnote_letters.handed,
    )
    bars.assert_halves_share_no_passage(misspelt.handed, misspelt.HALVES, others)
    bars.assert_halves_share_no_text(misspelt.TALLY)
    for slot, words in misspelt.FILL["dev"].items():
        assert set(words).isdisjoint(misspelt.FILL["held"][slot])


@pytest.mark.parametrize("half", misspelt.HALVES)
def test_each_kind_holds_what_it_held_and_no_own_write_is_held(half: str) -> None:
    for kind, (caught, tried) in misspelt.rates(half).items():
        if kind.startswith("own-"):
            assert caught == 0, kind
        else:
            assert caught >= MEASURED[half].get(kind, tried), kind
