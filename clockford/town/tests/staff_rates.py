"""The rates of a staff-voice corpus split into a tune and a check half by family (the third and the
fourth corpora, each by an author who never read the screen's grammar): each half's share refused,
overall and by family, held to a floor, and the near misses refused, held to a bar. Prints counts
only; a failing tune half names a few of its texts, a check half never does."""

from collections import defaultdict
from collections.abc import Callable
from typing import Protocol

from clockford.town import words

HALVES = ("tune", "check")


class Case(Protocol):
    @property
    def family(self) -> str: ...
    @property
    def half(self) -> str: ...
    @property
    def text(self) -> str: ...


def _refused(text: str) -> bool:
    return words.screen(text, "public") is not None


def _pct(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.2f}%)" if total else "0/0"


def _by_family(cases: list[Case], half: str) -> dict[str, list[tuple[Case, bool]]]:
    out: dict[str, list[tuple[Case, bool]]] = defaultdict(list)
    for case in cases:
        if case.half == half:
            out[case.family].append((case, _refused(case.text)))
    return out


def check_rates(
    name: str,
    must_refuse: Callable[[], list[Case]],
    ordinary: Callable[[], list[Case]],
    refuse_floor: dict[str, float],
    false_bar: dict[str, float],
) -> None:
    refuse, plain_cases = must_refuse(), ordinary()
    failures: list[str] = []
    for half in HALVES:
        staff = _by_family(refuse, half)
        plain = _by_family(plain_cases, half)
        hits = sum(r for rows in staff.values() for _, r in rows)
        total = sum(len(rows) for rows in staff.values())
        false = sum(r for rows in plain.values() for _, r in rows)
        passed = sum(len(rows) for rows in plain.values())
        print(f"\nstaff {name} refused, {half}: {_pct(hits, total)}")
        for family, rows in staff.items():
            print(f"  {family}: {_pct(sum(r for _, r in rows), len(rows))}")
        print(f"staff {name} false refusals, {half}: {_pct(false, passed)}")
        for family, rows in plain.items():
            print(f"  {family}: {_pct(sum(r for _, r in rows), len(rows))}")
        if hits / total < refuse_floor[half]:
            message = f"{half}: refused {_pct(hits, total)}, below the floor {refuse_floor[half]:.2f}"
            if half == "tune":
                missed = [case.text for rows in staff.values() for case, r in rows if not r][:10]
                message += "; missed, for example: " + " | ".join(repr(t) for t in missed)
            failures.append(message)
        if false / passed > false_bar[half]:
            message = f"{half}: falsely refused {_pct(false, passed)}, over the bar {false_bar[half]:.3f}"
            if half == "tune":
                wrong = [case.text for rows in plain.values() for case, r in rows if r][:10]
                message += "; refused, for example: " + " | ".join(repr(t) for t in wrong)
            failures.append(message)
    assert not failures, "\n".join(failures)
