"""The words screen against a corpus checked in as test data (clockford/town/tests/data/):

- words_refused.jsonl: words that must be refused, each with the surface it is written on and the
  kind of refusal (link, email, secret, staff-voice), among them obfuscated links, addresses, at least
  eight kinds of secret and Unicode tricks. A secret case names its kind and holds a {secret}
  placeholder, filled here from the shapes in test_words.py, so no secret-shaped literal is checked in;
- words_accepted.txt: ordinary sentences an agent writes on the board or to another agent, all of
  which must pass on the public surface (false refusals at most 1%; the corpus holds none today).

make_words_corpus.py in the same folder writes the refused cases and the generated half of the
accepted ones. The test prints both rates.
"""

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from clockford.town import words
from clockford.town.tests.test_words import SHAPES, fullwidth, zero_width_split

DATA = Path(__file__).parent / "data"
MAX_FALSE_REFUSALS = 0.01


def load_refused() -> list[dict[str, Any]]:
    lines = (DATA / "words_refused.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def load_accepted() -> list[str]:
    out: list[str] = []
    for line in (DATA / "words_accepted.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("%"):
            continue
        out.append(json.loads(line[5:]) if line.startswith("json:") else line)
    return out


REFUSED = load_refused()
ACCEPTED = load_accepted()


def written(case: dict[str, Any], rng: random.Random) -> str:
    """The case's text, with a made-up secret of its kind in place of {secret}."""
    if case["kind"] != "secret":
        return str(case["text"])
    secret = rng.choice(SHAPES[case["secret"]])(rng)
    if case.get("trick") == "zero-width":
        secret = zero_width_split(secret)
    elif case.get("trick") == "fullwidth":
        secret = fullwidth(secret)
    return str(case["text"]).format(secret=secret)


def test_the_corpus_is_big_and_broad_enough() -> None:
    kinds = [c["kind"] for c in REFUSED]
    assert len(REFUSED) >= 200
    assert len(ACCEPTED) >= 1000
    assert len(set(ACCEPTED)) == len(ACCEPTED), "no sentence twice"
    assert {"link", "email", "secret", "staff-voice"} <= set(kinds)
    assert len({c["secret"] for c in REFUSED if c["kind"] == "secret"}) >= 8
    assert kinds.count("staff-voice") >= 40
    assert kinds.count("email") >= 20
    assert sum(1 for c in REFUSED if c.get("trick") == "unicode") >= 30
    # Obfuscated links: defanged schemes, bracketed and spelled dots, odd dots, punycode.
    texts = " ".join(c["text"] for c in REFUSED)
    for sign in ("hxxp", "h**p", "[.]", "(dot)", " dot ", "\uff0e", "\u3002", "xn--", "](", "javascript:"):
        assert sign in texts, sign
    # Every surface is in the refused corpus, and secrets are refused on each of them.
    assert {c["surface"] for c in REFUSED if c["kind"] == "secret"} == set(words.SURFACES)
    # The accepted corpus speaks many languages and scripts, and names servers by registry name.
    assert sum(1 for s in ACCEPTED if not s.isascii()) >= 200
    assert sum(1 for s in ACCEPTED if "io.github." in s) >= 100


def test_the_screen_refuses_every_refused_case_and_passes_the_ordinary_sentences(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rng = random.Random(20261130)
    missed: list[tuple[str, str, str | None]] = []
    for case in REFUSED:
        text = written(case, rng)
        problem = words.screen(text, case["surface"])
        if problem is None or problem.kind != case["kind"]:
            missed.append((text, case["kind"], problem.kind if problem else None))
            continue
        if problem.kind == "secret":
            assert problem.secret == case["secret"]
            assert problem.say == words.SecretFound(case["secret"], "").say
            assert "characters)" in problem.matched
        else:
            # The passage is the agent's own words, as written (hidden characters and all).
            assert problem.matched and problem.matched in text, (text, problem.matched)
            assert problem.secret is None
    false_refusals = [(s, p.kind, p.matched) for s in ACCEPTED if (p := words.screen(s, "public")) is not None]

    refused = len(REFUSED) - len(missed)
    with capsys.disabled():
        print(
            f"\nwords corpus: refused {refused}/{len(REFUSED)} ({100 * refused / len(REFUSED):.1f}%), "
            f"false refusals {len(false_refusals)}/{len(ACCEPTED)} ({100 * len(false_refusals) / len(ACCEPTED):.2f}%)"
        )
    assert missed == []
    assert len(false_refusals) <= MAX_FALSE_REFUSALS * len(ACCEPTED), false_refusals


def test_links_addresses_and_staff_voice_pass_where_only_secrets_are_refused() -> None:
    # Letters to one's own person may carry links; a P.O. box note is private.
    for case in REFUSED:
        if case["kind"] != "secret":
            for surface in ("private", "letter"):
                assert words.screen(case["text"], surface) is None, (case["text"], surface)


def test_the_screen_is_the_same_for_public_and_other_account_words() -> None:
    for case in REFUSED:
        if case["kind"] != "secret":
            public = words.screen(case["text"], "public")
            other = words.screen(case["text"], "other-account")
            assert public == other


def test_no_rule_stitches_a_problem_together_across_ordinary_sentences() -> None:
    for joiner in ("\n", " ", "\n\n"):
        assert words.screen(joiner.join(ACCEPTED[:400]), "public") is None
        assert words.screen(joiner.join(ACCEPTED[400:800]), "public") is None


def test_screening_a_long_text_is_quick() -> None:
    # Not a timed assertion (shared machines vary): the timing is printed, so a slow rule shows.
    rng = random.Random(7)
    texts = []
    for pool in ([s for s in ACCEPTED if s.isascii()], ACCEPTED):
        note = ""
        while len(note) < 2000:
            note += rng.choice(pool) + " "
        texts.append(note[:2000])
    for text in texts:
        assert words.screen(text, "public") is None
    rounds = 50
    start = time.perf_counter()
    for _ in range(rounds):
        for text in texts:
            words.screen(text, "public")
    each = (time.perf_counter() - start) / (rounds * len(texts))
    print(f"\nwords.screen on 2,000 characters: {each * 1e6:.0f} µs a text")
