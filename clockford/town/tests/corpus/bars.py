"""What the corpus tests of this folder check alike of a corpus counted by a `Tally` (tally.py): its
rates printed for both halves, its halves sharing no case's text, and its bars, dev's and held-out's.

A corpus's own checks (its passages, its fill words, a bar by kind) stay in its test beside these.
"""

from collections.abc import Callable, Iterable, Sequence

import pytest

from clockford.town.harbour import Handed
from clockford.town.tests.corpus.tally import Tally

Handing = Callable[[str], Sequence[Handed]]  # a Safe Harbour corpus's passages handed in a half


def print_rates(tally: Tally, title: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Each half's report under `=== {title}: {half} half ===`, shown even where pytest captures."""
    with capsys.disabled():
        for half in tally.halves:
            print(f"\n=== {title}: {half} half ===\n{tally.report(half)}")


def assert_halves_share_no_text(tally: Tally) -> None:
    dev, held = tally.halves
    assert {c.text for c in tally.cases(dev)}.isdisjoint(c.text for c in tally.cases(held))


def passages(halves: Sequence[str], *handed: Handing) -> set[str]:
    """The texts of the passages each of `handed` hands in `halves`."""
    return {h.text for hand in handed for half in halves for h in hand(half)}


def assert_halves_share_no_passage(handed: Handing, halves: Sequence[str], others: Iterable[str] = ()) -> None:
    """The two halves hand no passage in common, and neither hands one of `others` (another corpus's)."""
    dev, held = (passages([half], handed) for half in halves)
    assert dev.isdisjoint(held)
    assert (dev | held).isdisjoint(others)


def assert_bars(tally: Tally, bar: float, floor: float, false_ceiling: float = 0.0) -> None:
    """On the dev half, at least `bar` of the wanted cases caught and no ordinary one; on the held-out
    half, at least `floor` of the wanted and at most `false_ceiling` of the ordinary ones."""
    dev, held = tally.halves
    caught, wanted, false, ordinary = tally.totals(dev)
    assert caught >= bar * wanted and false == 0, f"{dev}: {caught}/{wanted} caught, {false}/{ordinary} ordinary"
    caught, wanted, false, ordinary = tally.totals(held)
    assert caught >= floor * wanted and false <= false_ceiling * ordinary, (
        f"{held}: {caught}/{wanted} caught, {false}/{ordinary} ordinary"
    )
