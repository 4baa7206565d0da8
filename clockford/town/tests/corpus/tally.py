"""What the generated corpora of this folder count alike: a case (its kind, the variant of that kind, its
text, and whether the check should catch it), and a corpus's rates by kind and in all, the wanted
cases caught (repeats held, links refused) beside the ordinary ones caught by mistake, with every case
the check got wrong listed by `main` (`python -m clockford.town.tests.corpus.NAME [dev|held]`)."""

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from clockford.town import words
from clockford.town.harbour import Handed


@dataclass(frozen=True)
class Case:
    kind: str
    variant: str
    text: str
    want: bool  # caught: held by Safe Harbour, refused by the words screen


def filled(template: str, fill: dict[str, list[str]], r: random.Random) -> str:
    """A passage's template with each of its blanks filled by a word of the half's choosing."""
    return template.format(**{k: r.choice(v) for k, v in fill.items()})


def filled_three_ways(
    templates: Sequence[str], fill: dict[str, list[str]], seed: str, label: str, read: str, first: int, field: str
) -> tuple[Handed, ...]:
    """Every passage of a half, each template filled three ways (`filled`), handed as `label` words read
    by `read` (numbered from `first`: "read_letters L-700", "L-701"...) in `field`."""
    r = random.Random(f"{seed}-handed")
    out = []
    for i, template in enumerate(templates):
        for j in range(3):
            out.append(Handed(label, f"{read}-{first + 3 * i + j}", field, filled(template, fill, r)))
    return tuple(out)


def made_by_kind(
    r: random.Random,
    half: str,
    kinds: tuple[tuple[str, bool], ...],
    make: Callable[[str, str, random.Random], tuple[str, str]],
    per_kind: int,
) -> tuple[Case, ...]:
    """A half's cases, `per_kind` of each of `kinds` ((kind, want) in order) with no text twice, each
    made by `make(kind, half, r)` as (variant, text). A kind whose words run out before `per_kind`
    stops after 50 tries a case, so a small kind is short, never an endless loop."""
    out: list[Case] = []
    seen: set[str] = set()
    for kind, want in kinds:
        made = tries = 0
        while made < per_kind and tries < 50 * per_kind:
            tries += 1
            variant, text = make(kind, half, r)
            if text in seen:
                continue
            seen.add(text)
            out.append(Case(kind, variant, text, want))
            made += 1
    return tuple(out)


def refused_in_public(case: Case, half: str = "") -> bool:
    """Whether the words screen refuses the case's text written for the public (the words corpora's
    check, the same on either half)."""
    return words.screen(case.text, "public") is not None


@dataclass(frozen=True)
class Tally:
    cases: Callable[[str], Sequence[Case]]  # a half's cases
    caught: Callable[[Case, str], bool]  # whether the check caught a case of that half
    halves: tuple[str, ...]
    verb: str  # "held", "refused"
    wanted: str  # what the wanted cases are: "repeats", "links", "names"
    ordinary: str  # what the others are: "own writes", "ordinary", "prose"
    width: int = 16  # of a kind's column
    variants: bool = False  # the report gives each kind's variants' rates too
    # Each half's cases with what the check made of them, worked out once: rates, totals, the report and
    # the list of wrong cases all read them, and a test file's tests share its module's TALLY (the
    # checks are pure functions of a case, and a padded corpus takes a minute to read).
    _judged: dict[str, list[tuple[Case, bool]]] = field(default_factory=dict, compare=False, repr=False)

    def judged(self, half: str) -> list[tuple[Case, bool]]:
        """The half's cases, each with whether the check caught it."""
        if half not in self._judged:
            self._judged[half] = [(case, bool(self.caught(case, half))) for case in self.cases(half)]
        return self._judged[half]

    def rates(self, half: str) -> dict[str, tuple[int, int]]:
        """Per kind: (caught, tried)."""
        return {kind: (h, n) for (kind, _), (h, n) in self._counted(half, by_variant=False).items()}

    def variant_rates(self, half: str) -> dict[tuple[str, str], tuple[int, int]]:
        return dict(sorted(self._counted(half, by_variant=True).items()))

    def _counted(self, half: str, by_variant: bool) -> dict[tuple[str, str], tuple[int, int]]:
        hits: Counter[tuple[str, str]] = Counter()
        tried: Counter[tuple[str, str]] = Counter()
        for case, caught in self.judged(half):
            key = (case.kind, case.variant if by_variant else "")
            tried[key] += 1
            hits[key] += caught
        return {k: (hits[k], tried[k]) for k in tried}

    def totals(self, half: str) -> tuple[int, int, int, int]:
        """(wanted caught, wanted, ordinary caught, ordinary), a kind counted by its cases' `want`."""
        want = {c.kind: c.want for c, _ in self.judged(half)}
        by_kind = self.rates(half)
        caught = sum(h for k, (h, _) in by_kind.items() if want[k])
        wanted = sum(n for k, (_, n) in by_kind.items() if want[k])
        false = sum(h for k, (h, _) in by_kind.items() if not want[k])
        ordinary = sum(n for k, (_, n) in by_kind.items() if not want[k])
        return caught, wanted, false, ordinary

    def report(self, half: str) -> str:
        w = self.width
        lines = [f"  {kind:<{w}} {self.verb} {h}/{n} ({100 * h / n:.1f}%)" for kind, (h, n) in self.rates(half).items()]
        if self.variants:
            lines += [f"    {k:<{w}} {v:<17} {h}/{n}" for (k, v), (h, n) in self.variant_rates(half).items()]
        caught, wanted, false, ordinary = self.totals(half)
        lines.append(
            f"  {self.wanted} {self.verb} {caught}/{wanted} ({100 * caught / wanted:.1f}%); "
            f"{self.ordinary} {self.verb} {false}/{ordinary}"
        )
        return "\n".join(lines)

    def main(self, *halves: str) -> None:
        for half in halves or self.halves:
            print(f"=== {half} ===\n{self.report(half)}")
            for case, caught in self.judged(half):
                if caught != case.want:
                    print(f"  wrong  {case.kind:<{self.width}} {case.variant:<17} {case.text!a}")
