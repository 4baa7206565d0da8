"""The words screen and Safe Harbour measured on the corpora in tests/corpus/, by kind.

The dev half is what the screen may be tuned against; the held-out half is made from other
templates and other disguises, and says how well the screen does on words it has never seen. The
test prints, for each half: the refusal rate of the words that must be refused (per kind and per
disguise), the false refusals of ordinary sentences on the public surface (per kind), how many
Safe Harbour copies are held (per variant) and how many own writes are held.

The bars on the dev half are issue 11's: at least 99.5% refused, at most 0.5% false refusals, at
least 98% of the copies held and no own write held. The held-out half has a loose floor only: its
figures are for reading, and tuning against them would make them dev figures.

`python -m clockford.town.tests.corpus.misses dev` lists each case the screen gets wrong.
"""

import functools
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from clockford.town import words
from clockford.town.harbour import Handed, find_repeat
from clockford.town.tests import corpus
from clockford.town.tests.corpus import generate

# Every test here reads the rates over the whole corpus (made once, then shared): a check at full size.
pytestmark = pytest.mark.heavy

MUST_REFUSE_BAR = 0.995
FALSE_REFUSAL_BAR = 0.005
HARBOUR_BAR = 0.98
# The held-out half's floor: far below the bars, so that it catches a screen that broke, not one
# that has not yet generalised.
HELD_REFUSE_FLOOR = 0.4
HELD_FALSE_REFUSAL_CEILING = 0.05
HELD_HARBOUR_FLOOR = 0.5


# Each file is read once for the whole module; nothing below changes a case.
must_refuse = functools.cache(corpus.load_must_refuse)
ordinary = functools.cache(corpus.load_ordinary)
harbour = functools.cache(corpus.load_harbour)


@dataclass
class Tally:
    tried: Counter[str] = field(default_factory=Counter)
    hit: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)  # one missed or wrongly hit case per key

    def add(self, key: str, hit: bool, text: str) -> None:
        self.tried[key] += 1
        self.hit[key] += hit
        if hit != self.wanted and key not in self.examples:
            self.examples[key] = text

    wanted: bool = True

    @property
    def rate(self) -> float:
        return sum(self.hit.values()) / max(1, sum(self.tried.values()))

    def line(self, key: str) -> str:
        return f"{self.hit[key]}/{self.tried[key]} ({100 * self.hit[key] / self.tried[key]:.1f}%)"

    def total(self) -> str:
        hit, tried = sum(self.hit.values()), sum(self.tried.values())
        return f"{hit}/{tried} ({100 * hit / max(1, tried):.2f}%)"


@dataclass
class Measured:
    half: str
    refused: Tally  # by kind
    refused_by_disguise: Tally
    secrets_by_provider: Tally
    wrong_kind: int  # refused, but as another kind of problem than the case expects
    false_refusals: Tally  # by kind; hit = refused
    copies: Tally  # by variant; hit = held
    own: Tally  # by variant; hit = held
    seconds: float

    def report(self) -> str:
        out = [f"\n=== corpus {self.half} half ({self.seconds:.1f} s) ==="]
        out.append(f"must refuse: refused {self.refused.total()}; refused as another kind: {self.wrong_kind}")
        out += [f"  {k:<28} {self.refused.line(k)}" for k in sorted(self.refused.tried)]
        out.append("  secrets by provider:")
        out += [f"    {k:<26} {self.secrets_by_provider.line(k)}" for k in sorted(self.secrets_by_provider.tried)]
        out.append("  by disguise:")
        out += [f"    {k:<26} {self.refused_by_disguise.line(k)}" for k in sorted(self.refused_by_disguise.tried)]
        out.append(f"ordinary: false refusals {self.false_refusals.total()}")
        out += [f"  {k:<28} {self.false_refusals.line(k)}" for k in sorted(self.false_refusals.tried)]
        out.append(f"Safe Harbour: copies held {self.copies.total()}; own writes held {self.own.total()}")
        out += [f"  copy {k:<23} {self.copies.line(k)}" for k in sorted(self.copies.tried)]
        out += [f"  own  {k:<23} {self.own.line(k)}" for k in sorted(self.own.tried)]
        out.append(f"(each case: python -m clockford.town.tests.corpus.misses {self.half})")
        return "\n".join(out)


def _handed(case: dict[str, Any]) -> list[Handed]:
    return [Handed(h["label"], h["where"], h["field"], h["text"]) for h in case["handed"]]


@functools.cache
def measure(half: str) -> Measured:
    start = time.perf_counter()
    refused, by_disguise, by_provider = Tally(), Tally(), Tally()
    wrong_kind = 0
    for case in must_refuse(half):
        problem = words.screen(case["text"], case["surface"])
        refused.add(case["kind"], problem is not None, case["text"])
        by_disguise.add(case["disguise"], problem is not None, case["text"])
        if case["expect"] == "secret":
            by_provider.add(case["family"], problem is not None, case["text"])
        wrong_kind += problem is not None and problem.kind != case["expect"]
    false_refusals = Tally(wanted=False)
    for case in ordinary(half):
        false_refusals.add(case["kind"], words.screen(case["text"], case["surface"]) is not None, case["text"])
    copies, own = Tally(), Tally(wanted=False)
    for case in harbour(half):
        held = find_repeat(case["text"], _handed(case)) is not None
        (copies if case["kind"] == "copy" else own).add(case["variant"], held, case["text"])
    return Measured(
        half, refused, by_disguise, by_provider, wrong_kind, false_refusals, copies, own, time.perf_counter() - start
    )


def test_the_corpus_is_big_and_broad_enough() -> None:
    for half in corpus.HALVES:
        cases = must_refuse(half)
        kinds = Counter(c["kind"] for c in cases)
        assert len(kinds) >= 10 and min(kinds.values()) >= 30, kinds
        assert len(cases) >= 600
        assert len({c["text"] for c in cases}) == len(cases)
        assert len(ordinary(half)) >= 2000
        pairs = Counter(c["kind"] for c in harbour(half))
        assert pairs["copy"] >= 500 and pairs["own"] >= 150, pairs


def test_the_halves_share_no_template_text() -> None:
    # The held-out half is other words, not the dev half shuffled: no sentence is in both.
    for load in (must_refuse, ordinary, harbour):
        dev = {c["text"] for c in load("dev")}
        assert dev.isdisjoint(c["text"] for c in load("held"))
    dev_disguises = {c["disguise"] for c in must_refuse("dev")} - {"plain"}
    held_disguises = {c["disguise"] for c in must_refuse("held")} - {"plain"}
    assert dev_disguises.isdisjoint(held_disguises)
    dev_copies = {c["variant"] for c in harbour("dev") if c["kind"] == "copy"}
    assert dev_copies.isdisjoint(c["variant"] for c in harbour("held") if c["kind"] == "copy")


@pytest.mark.skipif(not generate.census_path().exists(), reason="the census snapshot is not at hand")
def test_the_generator_writes_the_same_bytes() -> None:
    for rel, records in generate.build().items():
        assert (generate.HERE / rel).read_text(encoding="utf-8") == generate.render(records), rel


def test_the_rates_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        for half in corpus.HALVES:
            print(measure(half).report())


def test_dev_must_refuse_rate() -> None:
    m = measure("dev")
    assert m.refused.rate >= MUST_REFUSE_BAR, m.refused.examples


def test_dev_false_refusals() -> None:
    m = measure("dev")
    assert m.false_refusals.rate <= FALSE_REFUSAL_BAR, m.false_refusals.examples


def test_dev_harbour_detection() -> None:
    m = measure("dev")
    assert m.copies.rate >= HARBOUR_BAR, m.copies.examples


def test_dev_own_words_are_never_held() -> None:
    m = measure("dev")
    assert sum(m.own.hit.values()) == 0, m.own.examples


def test_links_addresses_and_staff_voice_pass_where_only_secrets_are_refused() -> None:
    # A letter to one's own person may carry a link or quote a staff voice, and a P.O. box note is
    # private (spec 000): only secrets are refused there, however they are disguised.
    refused = [
        (case["text"], surface)
        for half in corpus.HALVES
        for case in must_refuse(half)
        if case["expect"] != "secret"
        for surface in ("private", "letter")
        if words.screen(case["text"], surface) is not None
    ]
    assert refused == []


def test_held_out_rates_stay_above_a_loose_floor() -> None:
    m = measure("held")
    assert m.refused.rate >= HELD_REFUSE_FLOOR, m.refused.examples
    assert m.false_refusals.rate <= HELD_FALSE_REFUSAL_CEILING, m.false_refusals.examples
    assert m.copies.rate >= HELD_HARBOUR_FLOOR, m.copies.examples
