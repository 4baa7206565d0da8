"""The blind corpus (clockford/town/tests/corpus/blind.py), run on the real road: each case is a
post_notice call through the desk by a new passport, as the face hands it over; Safe Harbour's cases
first hand the passage to the passport with a read tool (tests/publishing.py), as a board read does.

The corpus was written from the spec alone and run once against the code as it stood. The floors
below sit just under what that run measured, so they guard against a regression; they were not tuned
on, and a kind under its floor means the screen lost ground, not that the corpus is wrong. The rates
by kind are printed (pytest -s) with every miss and every false refusal.

Three kinds are no longer blind: the misses of spoken_address, leetspeak and base64_url were read
once for their shapes (a dot said with "then", "d0t", a link in base64), and corpus/spoken.py was
built from those shapes and tuned on; their rates here no longer measure text the screen never saw."""

from collections import Counter, defaultdict
from typing import Any

import pytest

from clockford.town import desk
from clockford.town.models import Hold
from clockford.town.tests.corpus.blind import Case, generate
from clockford.town.tooling import Part
from districts.testing import new_passport, outcome, visit
from tests.publishing import hands

pytestmark = [pytest.mark.heavy, pytest.mark.django_db]

LINK_SAY = "No links or addresses here. Name servers by their registry name instead"

# What the one run measured (2026-12-07, at the commit this file came in on), as cases caught of ten by
# kind. Each floor is one case under it (none under zero), and the totals three under, so one case may
# move when the screen trades one reading for another; more than that is a regression.
LINKS_MEASURED = {
    "bare_domain": 9,  # "buildbot.info" passed: a bare .info name with no path or scheme
    "base64_url": 0,  # no base64 string that decodes to an address was refused
    "bracketed_dot": 10,
    "defanged_or_encoded": 10,
    "dm_invite_link": 9,  # "telegram t dot me slash bot42" passed
    "email_disguise": 10,
    "fullwidth": 9,  # "freetokens\u3002info" (an ideographic full stop before .info) passed
    "homoglyph_domain": 9,  # a homoglyph name ending .info passed
    "ip_literal": 10,
    "leetspeak": 7,  # "d0t" for the dot passed
    "markdown_link": 10,
    "punycode": 10,
    "scheme_url": 10,
    "shortener": 10,
    "split_over_lines": 9,  # "buildbot.\ninfo" passed
    "spoken_address": 3,  # "then a dot then" and "period" passed
    "with_port": 10,
    "zero_width": 10,
}
LINKS_CAUGHT_FLOOR = 155 - 3  # of 180
# Ordinary notices refused: none of the 210 was.
MAX_FALSE_REFUSALS = 0
HARBOUR_MEASURED = {
    "exact": 10,
    "first_two_thirds": 10,
    "lower": 10,
    "no_spaces_punct": 10,
    "punctuated": 10,
    "quoted": 10,
    "synonyms": 7,
    "title": 10,
    "translated": 10,
    "two_paragraphs": 10,
    "upper": 10,
    "words_dropped": 10,
    "words_swapped": 10,
    "zero_width": 10,
}
HARBOUR_HELD_FLOOR = 137 - 3  # of 140
# Writes in the agent's own words held as a repeat: none of the 30 was.
MAX_OWN_WORDS_HELD = 0


def verdict(r: desk.Rendered) -> str:
    """How post_notice answered: "link" (refused as a link or address), "refused:<why>" for another
    refusal of the words, "held" (waits for a yes, as every notice that passes the screen does),
    "harbour" (held as a repeat of handed words), or the outcome code for anything else."""
    s = r.structured
    if "repeats" in s:
        return "harbour"
    if "hold" in s:
        return "yes"
    if str(s.get("say", "")).startswith(LINK_SAY):
        return "link"
    return outcome(r)


def post(text: str, passport: Any = None) -> str:
    return verdict(visit(passport or new_passport(), "post_notice", text=text))


def _rates(results: dict[str, list[bool]]) -> dict[str, float]:
    return {kind: sum(v) / len(v) for kind, v in results.items()}


def test_the_blind_link_corpus() -> None:
    links, ordinary, _ = generate()
    caught: dict[str, list[bool]] = defaultdict(list)
    misses: list[tuple[str, str, str]] = []
    silent: Counter[tuple[str, str]] = Counter()
    for case in links:
        got = post(case.text)
        if case.expect == "silent":
            silent[(case.kind, got)] += 1
            continue
        caught[case.kind].append(got == "link")
        if got != "link":
            misses.append((case.kind, got, case.text))
    false: list[tuple[str, str, str]] = []
    passed: dict[str, list[bool]] = defaultdict(list)
    for case in ordinary:
        got = post(case.text)
        passed[case.kind].append(got == "yes")
        if got != "yes":
            false.append((case.kind, got, case.text))
    rates = _rates(caught)
    print("\nlinks caught by kind:")
    for kind, rate in sorted(rates.items()):
        print(f"  {kind:22} {rate:5.0%} ({sum(caught[kind])}/{len(caught[kind])})")
    print(f"  all {sum(map(sum, caught.values()))}/{sum(map(len, caught.values()))}")
    # A chat handle with no address is neither a link nor an email address; the spec does not say.
    print("silent kinds (not counted):", dict(silent))
    print("misses:")
    for kind, got, text in misses:
        print(f"  [{kind}] {got}: {text!r}")
    print("ordinary passed by kind:", {kind: f"{sum(v)}/{len(v)}" for kind, v in sorted(passed.items())})
    print(f"ordinary passed {len(ordinary) - len(false)}/{len(ordinary)}; false refusals:")
    for kind, got, text in false:
        print(f"  [{kind}] {got}: {text!r}")
    assert {kind: len(v) for kind, v in caught.items()} == dict.fromkeys(LINKS_MEASURED, 10)
    for kind, measured in LINKS_MEASURED.items():
        assert sum(caught[kind]) >= max(measured - 1, 0), (kind, sum(caught[kind]), measured)
    assert sum(map(sum, caught.values())) >= LINKS_CAUGHT_FLOOR
    assert len(false) <= MAX_FALSE_REFUSALS, false


def harbour_verdict(foreign: str, text: str) -> str:
    passport = new_passport()
    desk.run(hands("hand_blind_test", "Here is a notice.", {"notices": [{"text": foreign}]}, PART), {}, passport, None)
    got = post(text, passport)
    if got == "harbour":
        hold = Hold.objects.filter(passport=passport).latest("pk")
        assert hold.why == "harbour"
    return got


PART = Part("notices[].text", "agent-written")


def test_the_blind_harbour_corpus() -> None:
    _, _, passages = generate()
    held: dict[str, list[bool]] = defaultdict(list)
    misses: list[tuple[str, str, str]] = []
    own_held: list[tuple[str, str, str]] = []
    for passage in passages:
        for disguise, text in passage.held:
            got = harbour_verdict(passage.foreign, text)
            held[disguise].append(got == "harbour")
            if got != "harbour":
                misses.append((disguise, got, text))
        for text in passage.free:
            got = harbour_verdict(passage.foreign, text)
            if got != "yes":
                own_held.append((passage.name, got, text))
    rates = _rates(held)
    print("\nharbour held by disguise:")
    for kind, rate in sorted(rates.items()):
        print(f"  {kind:18} {rate:5.0%} ({sum(held[kind])}/{len(held[kind])})")
    print(f"  all {sum(map(sum, held.values()))}/{sum(map(len, held.values()))}")
    print("misses:")
    for kind, got, text in misses:
        print(f"  [{kind}] {got}: {text!r}")
    n_own = sum(len(p.free) for p in passages)
    print(f"own words not held as repeats {n_own - len(own_held)}/{n_own}; otherwise:")
    for name, got, text in own_held:
        print(f"  [{name}] {got}: {text!r}")
    assert {kind: len(v) for kind, v in held.items()} == dict.fromkeys(HARBOUR_MEASURED, 10)
    for kind, measured in HARBOUR_MEASURED.items():
        assert sum(held[kind]) >= max(measured - 1, 0), (kind, sum(held[kind]), measured)
    assert sum(map(sum, held.values())) >= HARBOUR_HELD_FLOOR
    assert len(own_held) <= MAX_OWN_WORDS_HELD, own_held


def test_every_case_is_labelled_and_fits_a_notice() -> None:
    links, ordinary, passages = generate()
    kinds = Counter(c.kind for c in links if c.expect == "refuse")
    assert len(kinds) >= 12 and min(kinds.values()) >= 10
    assert len(ordinary) >= 200 and all(c.expect == "pass" for c in ordinary)
    assert len(passages) == 10
    cases: list[Case] = links + ordinary
    texts = [c.text for c in cases] + [t for p in passages for _, t in p.held] + [t for p in passages for t in p.free]
    assert all(1 <= len(t) <= 280 for t in texts)
    assert generate() == (links, ordinary, passages)  # the seed is fixed
