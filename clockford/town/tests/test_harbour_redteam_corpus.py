"""Safe Harbour on the red-team corpus (tests/corpus/redteam.py): a handed passage repeated by an agent
trying not to look like it (clauses reordered, other scripts, words joined or spaced out, fillers,
markup, abbreviations, typos, the passage reversed...), and the agent's own writes sharing words with
it. By kind, in two halves: the rates are printed for both, and each kind of each half holds at least
what it held when measured (docs/holds.md gives the figures); no own write is held on either half."""

import pytest

from clockford.town.tests.corpus import bars, footnote_letters, footnotes, near_close, near_repeats, redteam

pytestmark = pytest.mark.heavy

# Repeats held of 40 by kind, as measured. Kinds not named hold all 40 on both halves.
# Fillers after every word were held 18 and 5 before the unpadded reading (harbour._unpadded), typos 25
# and 24 before the near reading read a letter written twice once (harbour._DOUBLED), abbreviations 32
# on the dev half before it read words for slips ("thr", "prsn", "da": harbour._slipped), the passage's
# words backwards none on either half before the reading of re-ordered repeats (harbour._reordered).
MEASURED: dict[str, dict[str, int]] = {"dev": {}, "held": {}}


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    bars.print_rates(redteam.TALLY, "Safe Harbour, red team", capsys)


def test_the_halves_share_no_passage_no_fill_word_and_no_text() -> None:
    others = bars.passages(
        redteam.HALVES, near_repeats.handed, near_close.handed, footnotes.handed, footnote_letters.handed
    )
    bars.assert_halves_share_no_passage(redteam.handed, redteam.HALVES, others)
    bars.assert_halves_share_no_text(redteam.TALLY)
    for slot, words in redteam.FILL["dev"].items():
        assert set(words).isdisjoint(redteam.FILL["held"][slot])
    assert set(redteam.FILLER_WORDS["dev"]).isdisjoint(redteam.FILLER_WORDS["held"])


@pytest.mark.parametrize("half", redteam.HALVES)
def test_each_kind_holds_what_it_held_and_no_own_write_is_held(half: str) -> None:
    for kind, (caught, tried) in redteam.rates(half).items():
        if kind.startswith("own-"):
            assert caught == 0, kind
        else:
            assert caught >= MEASURED[half].get(kind, tried), kind
