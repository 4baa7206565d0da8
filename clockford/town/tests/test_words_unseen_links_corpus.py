"""The words screen on link and contact disguises the other corpora do not make
(tests/corpus/unseen_links.py), by kind, in two halves: the rates are printed for both; dev holds the
bars, held-out a floor under what it measured once (docs/holds.md)."""

import pytest

from clockford.town.tests.corpus import unseen_links

pytestmark = pytest.mark.heavy

REFUSE_BAR = 0.95
HELD_REFUSE_FLOOR = 0.9  # measured once: 452 of 480 (94.2%)
# Ordinary text refused: none on either half.
FALSE_CEILING = 0


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        for half in unseen_links.HALVES:
            print(f"\n=== link and contact disguises not seen before: {half} half ===\n{unseen_links.report(half)}")


def test_the_halves_share_no_text() -> None:
    assert {c.text for c in unseen_links.cases("dev")}.isdisjoint(c.text for c in unseen_links.cases("held"))


def test_disguised_links_and_contacts_are_refused_and_ordinary_text_passes() -> None:
    caught, links, false, ordinary = unseen_links.totals("dev")
    assert caught >= REFUSE_BAR * links and false <= FALSE_CEILING
    caught, links, false, ordinary = unseen_links.totals("held")
    assert caught >= HELD_REFUSE_FLOOR * links and false <= FALSE_CEILING
