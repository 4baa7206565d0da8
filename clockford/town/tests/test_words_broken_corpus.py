"""The secrets screen on secrets cut by a line break or named in prose (tests/corpus/broken.py), by
kind, in two halves: the rates are printed for both; dev holds the bars, held-out a loose floor."""

import pytest

from clockford.town.tests.corpus import broken

pytestmark = pytest.mark.heavy

REFUSE_BAR = 0.98
HELD_REFUSE_FLOOR = 0.8


def rate(half: str, kind: str) -> float:
    refused, tried = broken.rates(half)[kind]
    return refused / tried


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        for half in broken.HALVES:
            print(f"\n=== secrets cut or named in prose: {half} half ===\n{broken.report(half)}")


def test_the_halves_share_no_text() -> None:
    assert {c.text for c in broken.cases("dev")}.isdisjoint(c.text for c in broken.cases("held"))


@pytest.mark.parametrize("kind", ["split-token", "aws-prose"])
def test_cut_and_prose_secrets_are_refused(kind: str) -> None:
    assert rate("dev", kind) >= REFUSE_BAR
    assert rate("held", kind) >= HELD_REFUSE_FLOOR


@pytest.mark.parametrize("kind", ["wrapped-clean", "aws-clean"])
def test_clean_lines_and_prose_pass(kind: str) -> None:
    assert rate("dev", kind) == 0
    assert rate("held", kind) == 0
