"""Safe Harbour on the short and the disguised (tests/corpus/short.py), by kind, in two halves.

Digits and signs for letters are read as letters, numbers are not; the rates are printed for both
halves, with the sweep of lower minimums that decided to keep six words and thirty characters: on
the dev half, every minimum that holds a short instruction also holds the agents' own short quotes
of census descriptions and common phrases, at a higher rate than the instructions it finds.
"""

import pytest

from clockford.town import harbour
from clockford.town.tests.corpus import short

pytestmark = pytest.mark.heavy

LEET_BAR = 0.95
HELD_LEET_FLOOR = 0.8


def rate(half: str, kind: str) -> float:
    held, tried = short.rates(half)[kind]
    return held / tried


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        for half in short.HALVES:
            print(f"\n=== Safe Harbour, short and disguised: {half} half ===\n{short.report(half)}")
            print("\n".join(short.sweep(half)))


def test_the_halves_share_no_phrase_and_no_passage() -> None:
    dev, held = short.cases("dev"), short.cases("held")
    assert {c.text for c in dev}.isdisjoint(c.text for c in held)
    assert {h.text for c in dev for h in c.handed}.isdisjoint(h.text for c in held for h in c.handed)


def test_digits_and_signs_for_letters_are_held() -> None:
    assert rate("dev", "leet") >= LEET_BAR
    assert rate("held", "leet") >= HELD_LEET_FLOOR


def test_numbers_are_never_read_as_letters() -> None:
    assert rate("dev", "numbers") == 0
    assert rate("held", "numbers") == 0


def test_the_minimum_stays_where_short_quotes_pass() -> None:
    # Six words and thirty characters: a lower minimum holds the agents' own short quotes (the sweep
    # printed above). Should it change, this says what it costs.
    assert (harbour.MIN_WORDS, harbour.MIN_CHARS) == (6, 30)
    assert rate("dev", "short-quote") <= 0.01
    assert rate("held", "short-quote") <= 0.05
