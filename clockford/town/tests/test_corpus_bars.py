"""The corpus tests' shared bars (tests/corpus/bars.py) on a tally small enough to count by hand: each
bar holds at its edge and fails one case past it, as the tests that wrote it out did; halves that
share a case's text or a passage handed fail."""

from collections.abc import Callable

import pytest

from clockford.town.harbour import Handed
from clockford.town.tests.corpus.bars import (
    assert_bars,
    assert_halves_share_no_passage,
    assert_halves_share_no_text,
    passages,
)
from clockford.town.tests.corpus.tally import Case, Tally


def tally(dev: tuple[int, int], held: tuple[int, int], same_text: bool = False) -> Tally:
    """Ten wanted and ten ordinary cases a half; `dev` and `held` say how many of each are caught."""
    caught = {"dev": dev, "held": held}

    def cases(half: str) -> tuple[Case, ...]:
        name = "x" if same_text else half
        wanted = tuple(Case("link", "", f"{name} link {i}", True) for i in range(10))
        return wanted + tuple(Case("prose", "", f"{name} prose {i}", False) for i in range(10))

    def hit(case: Case, half: str) -> bool:
        n = int(case.text.rsplit(" ", 1)[1])
        return n < caught[half][0 if case.want else 1]

    return Tally(cases, hit, ("dev", "held"), "refused", "links", "ordinary")


def test_the_bars_hold_at_their_edges() -> None:
    assert_bars(tally(dev=(9, 0), held=(8, 1)), bar=0.9, floor=0.8, false_ceiling=0.1)


@pytest.mark.parametrize(
    ("dev", "held", "said"),
    [
        ((8, 0), (8, 1), "dev: 8/10 caught, 0/10 ordinary"),  # under the dev bar
        ((9, 1), (8, 1), "dev: 9/10 caught, 1/10 ordinary"),  # one ordinary case on dev
        ((9, 0), (7, 1), "held: 7/10 caught, 1/10 ordinary"),  # under the held-out floor
        ((9, 0), (8, 2), "held: 8/10 caught, 2/10 ordinary"),  # over the held-out ceiling
    ],
)
def test_one_case_past_a_bar_fails(dev: tuple[int, int], held: tuple[int, int], said: str) -> None:
    with pytest.raises(AssertionError, match=f"^{said}$"):
        assert_bars(tally(dev, held), bar=0.9, floor=0.8, false_ceiling=0.1)


def test_no_ceiling_given_is_none_on_the_held_out_half_either() -> None:
    assert_bars(tally(dev=(9, 0), held=(8, 0)), bar=0.9, floor=0.8)
    with pytest.raises(AssertionError, match="^held: 8/10 caught, 1/10 ordinary$"):
        assert_bars(tally(dev=(9, 0), held=(8, 1)), bar=0.9, floor=0.8)


def test_halves_that_share_a_text_fail() -> None:
    assert_halves_share_no_text(tally((0, 0), (0, 0)))
    with pytest.raises(AssertionError):
        assert_halves_share_no_text(tally((0, 0), (0, 0), same_text=True))


def handing(*texts: str) -> Callable[[str], tuple[Handed, ...]]:
    """The dev half hands `texts`' first, the held-out half the rest."""
    by_half = {"dev": texts[:1], "held": texts[1:]}
    return lambda half: tuple(Handed("publisher-words", "hand_test", "results[].title", t) for t in by_half[half])


def test_halves_that_hand_a_passage_in_common_or_another_corpus_passage_fail() -> None:
    halves = ("dev", "held")
    assert_halves_share_no_passage(handing("one", "two", "three"), halves, others={"four"})
    assert passages(halves, handing("one", "two"), handing("three", "four")) == {"one", "two", "three", "four"}
    with pytest.raises(AssertionError):
        assert_halves_share_no_passage(handing("one", "two", "one"), halves)
    with pytest.raises(AssertionError):
        assert_halves_share_no_passage(handing("one", "two"), halves, others={"two"})
