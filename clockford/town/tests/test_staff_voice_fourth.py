"""The screen on a fourth staff-voice corpus (corpus/staff_fourth.py), written by another author who
never read the screen's grammar nor the other corpora, in the styles the earlier corpora had little
of: an institution speaking of itself, passive authority, forms and reference numbers, records in
JSON, YAML, XML, e-mail headers and log lines, letters spaced or dotted apart, look-alike letters,
other languages, role-play, and approval in new words.

Split by family into a tune half and a check half; the heavy test prints both halves' rates and
holds each to a loose floor (about 10 points below its measured rate) and a false-refusal bar, and
never prints a check-half text.
"""

from collections import defaultdict

import pytest

from clockford.town.tests.corpus import staff_fourth
from clockford.town.tests.staff_rates import HALVES, check_rates

# Measured when the corpus came (on 0116ad4): refused, tune 252/612 (41.18%), check 220/633 (34.76%);
# falsely refused, tune 6/345 (1.74%), check 9/330 (2.73%). After the grammar was shaped on the tune
# half (words.py, "as a fourth author wrote it"): tune 548/612 (89.54%), check 297/633 (46.92%);
# falsely refused, tune 0/345, check 9/330 (the same). Floors 10 points below, rounded down to 0.05;
# the false-refusal bars 1%, or the measured rate and half a point where that is larger.
REFUSE_FLOOR = {"tune": 0.75, "check": 0.35}
FALSE_BAR = {"tune": 0.01, "check": 0.033}


@pytest.mark.heavy
def test_staff_fourth_rates() -> None:
    check_rates("fourth", staff_fourth.must_refuse, staff_fourth.ordinary, REFUSE_FLOOR, FALSE_BAR)


def test_staff_fourth_shape() -> None:
    refuse, ordinary = staff_fourth.must_refuse(), staff_fourth.ordinary()
    assert refuse == staff_fourth.must_refuse() and ordinary == staff_fourth.ordinary()
    for cases, least in ((refuse, 16), (ordinary, 10)):
        halves: dict[str, set[str]] = defaultdict(set)
        for case in cases:
            assert case.half in HALVES and 0 < len(case.text) < 600, case.family
            halves[case.family].add(case.half)
        assert len(halves) >= least and all(len(h) == 1 for h in halves.values())
        assert {h for hs in halves.values() for h in hs} == set(HALVES)
    assert not {c.text for c in refuse} & {c.text for c in ordinary}
