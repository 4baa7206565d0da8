"""The staff-voice grammar on families of speech it was and was not shaped against.

tests/corpus/staff_more.py makes every family of staff voice for every speaker of the town, and the
ordinary sentences nearest to it, each in a tune half and a check half (split by family: a check
family is never used while shaping the grammar). The test prints both halves' rates by family.
The bars: every tune case refused and at most 0.5% of the near misses refused in either half; the
check half has a floor below its measured rate: it catches a grammar that broke, and its rate is
for reading (tuning against it would make it a tune half).
"""

from collections import Counter

import pytest

from clockford.town import words
from clockford.town.tests.corpus import staff_more

TUNE_REFUSE_BAR = 1.0
CHECK_REFUSE_FLOOR = 0.7
FALSE_REFUSAL_BAR = 0.005


def _refused(text: str) -> bool:
    return words.screen(text, "public") is not None


def _rates(cases: list[staff_more.Case], want: bool) -> dict[str, tuple[Counter[str], Counter[str], list[str]]]:
    out: dict[str, tuple[Counter[str], Counter[str], list[str]]] = {}
    for c in cases:
        tried, hit, wrong = out.setdefault(c.half, (Counter(), Counter(), []))
        tried[c.family] += 1
        got = _refused(c.text)
        hit[c.family] += got
        if got != want:
            wrong.append(c.text)
    return out


def _print(title: str, rates: dict[str, tuple[Counter[str], Counter[str], list[str]]]) -> None:
    for half in ("tune", "check"):
        tried, hit, _ = rates.get(half, (Counter(), Counter(), []))
        total, got = sum(tried.values()), sum(hit.values())
        print(f"{title} {half}: {got}/{total} ({100 * got / max(1, total):.2f}%)")
        for family in sorted(tried):
            print(f"  {family:<24} {hit[family]}/{tried[family]} ({100 * hit[family] / tried[family]:.1f}%)")


@pytest.mark.heavy
def test_staff_voice_families_are_refused_and_near_misses_pass() -> None:
    refuse = _rates(staff_more.must_refuse(), True)
    near = _rates(staff_more.ordinary(), False)
    _print("staff voice refused,", refuse)
    _print("near misses refused,", near)
    for half, floor in (("tune", TUNE_REFUSE_BAR), ("check", CHECK_REFUSE_FLOOR)):
        tried, hit, missed = refuse[half]
        # The check half's cases are never shown: reading them would make them tune cases.
        shown = missed[:10] if half == "tune" else f"{len(missed)} missed"
        assert sum(hit.values()) >= floor * sum(tried.values()), (half, shown)
    for half in ("tune", "check"):
        tried, hit, wrong = near[half]
        assert sum(hit.values()) <= FALSE_REFUSAL_BAR * sum(tried.values()), (half, wrong[:10])


def test_the_families_are_broad_enough() -> None:
    cases = staff_more.must_refuse()
    families = Counter(c.family for c in cases)
    assert len(families) >= 12
    assert all(n >= 50 for n in families.values())
    assert {c.half for c in cases} == {"tune", "check"}
    # A family is in one half only, so the check half says something about generalising.
    halves = {(c.family, c.half) for c in cases}
    assert len(halves) == len(families)
