"""The screen on a third staff-voice corpus (corpus/staff_third.py), written by another author
without reading the screen's grammar: first-person staff voice and claims of the town's approval
must be refused on public surfaces, near misses that only mention the town's places and roles must
go through.

The corpus is split by family into a tune half and a check half. The heavy test prints both halves'
rates, overall and by family, and holds each half to a loose floor (10 points below its measured
rate, rounded down to 0.05) and a false-refusal bar (1%, or
the measured rate plus half a point where that is larger). It never prints a check-half text: only
counts. The other test holds the corpus's shape.
"""

import unicodedata
from collections import defaultdict

import pytest

from clockford.town.tests.corpus import staff_third
from clockford.town.tests.staff_rates import HALVES, check_rates

# Measured when the corpus was written: refused, tune 507/965 (52.54%), check 514/900 (57.11%);
# falsely refused, tune 1/450 (0.22%), check 0/385 (0.00%). After the grammar was shaped on the tune
# half (words.py, "staff voice, as a third author wrote it"): tune 879/965 (91.09%), check 562/900
# (62.44%), falsely refused the same. The floors are below those, by the rule in the docstring.
REFUSE_FLOOR = {"tune": 0.80, "check": 0.50}
FALSE_BAR = {"tune": 0.01, "check": 0.01}


@pytest.mark.heavy
def test_staff_third_rates() -> None:
    check_rates("third", staff_third.must_refuse, staff_third.ordinary, REFUSE_FLOOR, FALSE_BAR)


def test_staff_third_shape() -> None:
    refuse = staff_third.must_refuse()
    ordinary = staff_third.ordinary()
    assert refuse == staff_third.must_refuse()
    assert ordinary == staff_third.ordinary()

    for cases, least, sizes in ((refuse, 16, (60, 120)), (ordinary, 12, (40, 100))):
        halves: dict[str, set[str]] = defaultdict(set)
        counts: dict[str, int] = defaultdict(int)
        texts: dict[str, set[str]] = defaultdict(set)
        for case in cases:
            assert case.half in HALVES, case.family
            halves[case.family].add(case.half)
            counts[case.family] += 1
            texts[case.family].add(case.text)
        assert len(counts) >= least
        for family, count in counts.items():
            assert sizes[0] <= count <= sizes[1], (family, count)
            assert len(texts[family]) == count, f"{family} repeats a text"
            assert len(halves[family]) == 1, f"{family} is in both halves"
        in_half = {half: [f for f, h in halves.items() if half in h] for half in HALVES}
        assert all(in_half[half] for half in HALVES)
        assert abs(len(in_half["tune"]) - len(in_half["check"])) <= 1

    fp = {c.family for c in refuse if c.family.startswith("fp_")}
    ap = {c.family for c in refuse if c.family.startswith("ap_")}
    assert len(fp) >= 10 and len(ap) >= 6
    assert fp | ap == {c.family for c in refuse}
    for half in HALVES:
        families = {c.family for c in refuse if c.half == half}
        assert families & fp and families & ap, half

    assert not {c.text for c in refuse} & {c.text for c in ordinary}
    for case in refuse + ordinary:
        assert 0 < len(case.text) < 600
        assert "http" not in case.text.lower() and "www." not in case.text.lower()
        for ch in case.text:
            # Plain ASCII and ordinary emoji: no look-alike letters, no invisible characters.
            assert ch.isascii() or (ord(ch) >= 0x2000 and unicodedata.category(ch) == "So"), (case.family, ch)
