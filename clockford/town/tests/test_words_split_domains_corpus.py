"""The words screen on names written with an escaped dot or cut by a line break at a dot
(tests/corpus/split_domains.py), by kind, in two halves: the rates are printed for both; dev holds
the bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import split_domains

pytestmark = pytest.mark.heavy

REFUSE_BAR = 0.98
HELD_REFUSE_FLOOR = 0.8
# Ordinary text refused: none on the dev half; on the held-out half, at most one in a hundred.
HELD_FALSE_CEILING = 0.01


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        for half in split_domains.HALVES:
            print(f"\n=== names with an escaped dot or cut at a dot: {half} half ===\n{split_domains.report(half)}")


def test_the_halves_share_no_text() -> None:
    assert {c.text for c in split_domains.cases("dev")}.isdisjoint(c.text for c in split_domains.cases("held"))


def test_escaped_and_cut_names_are_refused_and_ordinary_text_passes() -> None:
    caught, links, false, ordinary = split_domains.totals("dev")
    assert caught >= REFUSE_BAR * links and false == 0
    caught, links, false, ordinary = split_domains.totals("held")
    assert caught >= HELD_REFUSE_FLOOR * links and false <= HELD_FALSE_CEILING * ordinary
