"""Safe Harbour on re-ordered repeats (tests/corpus/reordered.py): a handed passage repeated with its
sentences or clauses swapped, each sentence's words backwards, its phrases shuffled, a list's items
re-ordered, the instruction moved before its reason, or a mixture with the joining words changed is
held, and the agent's own writes on the same subjects, shuffled or backwards or not, are not. By kind,
in two halves: the rates are printed for both, and each kind of each half holds at least what it held
when measured (docs/holds.md gives the figures); no own write is held on either half, nor any of the
words corpora's ordinary writes read against this corpus's passages."""

import pytest

from clockford.town.harbour import find_repeat
from clockford.town.tests import corpus
from clockford.town.tests.corpus import (
    bars,
    footnote_letters,
    footnotes,
    misspelt,
    near_close,
    near_repeats,
    redteam,
    reordered,
)

pytestmark = pytest.mark.heavy

# Repeats held of 48 by kind, as measured. Kinds not named hold all 48 on both halves. Before the reading
# of pairs of words in any order (harbour._reordered): dev 276 of 336, no sentence's words backwards held
# and 36 of 48 phrases shuffled; held-out 277, none and 37.
MEASURED: dict[str, dict[str, int]] = {"dev": {}, "held": {}}


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(reordered.TALLY, "Safe Harbour, re-ordered", capsys)


def test_the_halves_share_no_passage_no_fill_word_and_no_text() -> None:
    others = bars.passages(
        reordered.HALVES,
        redteam.handed,
        near_repeats.handed,
        near_close.handed,
        footnotes.handed,
        footnote_letters.handed,
        misspelt.handed,
    )
    bars.assert_halves_share_no_passage(reordered.handed, reordered.HALVES, others)
    bars.assert_halves_share_no_text(reordered.TALLY)
    for slot, words in reordered.FILL["dev"].items():
        assert set(words).isdisjoint(reordered.FILL["held"][slot])


@pytest.mark.parametrize("half", reordered.HALVES)
def test_each_kind_holds_what_it_held_and_no_own_write_is_held(half: str) -> None:
    for kind, (caught, tried) in reordered.rates(half).items():
        if kind.startswith("own-"):
            assert caught == 0, kind
        else:
            assert caught >= MEASURED[half].get(kind, tried), kind


def test_no_ordinary_write_is_held_against_the_passages() -> None:
    """The words corpora's ordinary writes (ordinary.jsonl, both halves) read against every passage of
    both halves and the census, as an agent handed all of them would be: none is anyone else's words."""
    handed = reordered.handed("dev") + reordered.handed("held") + footnotes.census_handed()
    held = [c["text"] for half in corpus.HALVES for c in corpus.load_ordinary(half) if find_repeat(c["text"], handed)]
    assert held == []
