"""Safe Harbour's corpus: foreign passages handed and then repeated are found, an agent's own words are not.

tests/data/harbour_foreign.jsonl holds the foreign words: census descriptions (real ones, from the
official registry's public snapshot), notices, messages, parcel briefs and beacon answers other agents
wrote, and injection attempts. Each is repeated seven ways (verbatim, re-cased, re-spaced, punctuation
changed, homoglyphs, a partial slice inside the agent's own sentence, and that slice disguised every
way at once); at least 95% must be found. tests/data/harbour_own.txt holds sentences an agent writes
itself on the same topics, some naming the same servers or sharing short phrases; with every foreign
passage handed, none may be held. Both rates are printed (pytest -s shows them).

The variants are made here, with this file's own look-alike letters, not the matcher's table.
"""

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from clockford.town.harbour import Handed, find_repeat, worth_keeping

DATA = Path(__file__).parent / "data"


def _foreign() -> list[dict[str, str]]:
    with (DATA / "harbour_foreign.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _own() -> list[str]:
    lines = (DATA / "harbour_own.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


FOREIGN = _foreign()
OWN = _own()
HANDED = [Handed(r["label"], r["where"], r["field"], r["text"]) for r in FOREIGN]

# Letters that look alike, as someone hiding a repeat would pick them: Cyrillic, Greek, Armenian,
# fullwidth and mathematical bold.
LOOK_ALIKES = {
    "a": ["а", "α", "ａ", "𝐚"],
    "c": ["с", "ｃ", "𝐜"],
    "d": ["ԁ", "𝐝"],
    "e": ["е", "ｅ", "𝐞"],
    "h": ["һ", "ｈ"],
    "i": ["і", "ι", "ｉ", "𝐢"],
    "j": ["ј"],
    "k": ["κ", "ｋ"],
    "l": ["ӏ", "ｌ"],
    "n": ["ｎ", "𝐧"],
    "o": ["о", "ο", "օ", "ｏ", "𝐨"],
    "p": ["р", "ρ", "ｐ"],
    "q": ["ԛ"],
    "s": ["ѕ", "ｓ", "𝐬"],
    "t": ["τ", "ｔ"],
    "u": ["υ", "ｕ"],
    "v": ["ν", "ｖ"],
    "w": ["ԝ", "ｗ"],
    "x": ["х", "χ"],
    "y": ["у", "ｙ"],
    "A": ["А", "Α"],
    "B": ["В", "Β"],
    "C": ["С"],
    "E": ["Е", "Ε"],
    "H": ["Н", "Η"],
    "I": ["І", "Ι"],
    "K": ["К", "Κ"],
    "M": ["М", "Μ"],
    "N": ["Ν"],
    "O": ["О", "Ο"],
    "P": ["Р", "Ρ"],
    "S": ["Ѕ"],
    "T": ["Т", "Τ"],
    "X": ["Х", "Χ"],
    "Y": ["Υ"],
}
HIDDEN = ["\u200b", "\u200c", "\u2060", "\ufeff", "\u00ad"]
ACCENTS = ["\u0301", "\u0308", "\u0323"]

FRAMES = [
    "As the notice said, {} — I am passing that on.",
    "Quick update for the channel: {}. Tell me what you think.",
    "Result: {} (details in the table below).",
    "I was told that {}, which I found useful.",
    "For the record, {} and that is all I know.",
    "Summary of what I read: {}.",
]


def verbatim(text: str, rng: random.Random) -> str:
    return text


def recased(text: str, rng: random.Random) -> str:
    way = rng.randrange(3)
    if way == 0:
        return text.upper()
    if way == 1:
        return text.lower().title()
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in text)


def respaced(text: str, rng: random.Random) -> str:
    out = []
    for word in text.split():
        if len(word) > 5 and rng.random() < 0.3:  # split a word: "read only" for "readonly"
            cut = rng.randrange(2, len(word) - 2)
            word = word[:cut] + " " + word[cut:]
        out.append(word)
        out.append(rng.choice(["", "", " ", "  ", "\n", "\t", " \u00a0"]))  # "" joins two words
    return "".join(out).strip()


def repunctuated(text: str, rng: random.Random) -> str:
    way = rng.randrange(3)
    if way == 0:  # punctuation gone
        return re.sub(r"[^\w\s]", "", text)
    if way == 1:  # hyphens and slashes as spaces, other marks swapped
        return text.replace("-", " ").replace("/", " ").replace(",", ";").replace(".", "!").replace(":", " —")
    words = text.split()  # punctuation sprinkled between words
    return " ".join(w + rng.choice(["", "", ",", "...", " -", ";", "'"]) for w in words)


def homoglyphs(text: str, rng: random.Random) -> str:
    out = []
    for c in text:
        if c in LOOK_ALIKES and rng.random() < 0.5:
            c = rng.choice(LOOK_ALIKES[c])
        elif c.isalpha() and rng.random() < 0.05:
            c += rng.choice(ACCENTS)
        out.append(c)
        if rng.random() < 0.05:
            out.append(rng.choice(HIDDEN))
    return "".join(out)


def _slice(text: str, rng: random.Random) -> str:
    """A meaningful part of a passage: nine words of it, or the whole when it has ten or fewer
    (written without spaces, three fifths of its characters)."""
    words = text.split()
    if len(words) < 4:
        n = len(text) * 3 // 5
        start = rng.randrange(len(text) - n + 1)
        return text[start : start + n]
    if len(words) <= 10:
        return text
    start = rng.randrange(len(words) - 9 + 1)
    return " ".join(words[start : start + 9])


def partial(text: str, rng: random.Random) -> str:
    return rng.choice(FRAMES).format(_slice(text, rng))


def disguised(text: str, rng: random.Random) -> str:
    part = homoglyphs(respaced(repunctuated(recased(_slice(text, rng), rng), rng), rng), rng)
    return rng.choice(FRAMES).format(part)


VARIANTS: dict[str, Callable[[str, random.Random], str]] = {
    "verbatim": verbatim,
    "re-cased": recased,
    "re-spaced": respaced,
    "punctuation": repunctuated,
    "homoglyphs": homoglyphs,
    "partial": partial,
    "disguised partial": disguised,
}


def test_the_corpus_is_big_enough_and_every_foreign_passage_is_worth_keeping():
    assert len(FOREIGN) >= 100 and len(OWN) >= 100
    kinds = Counter(r["kind"] for r in FOREIGN)
    assert set(kinds) == {"census", "injection", "notice", "parcel", "beacon"}, kinds
    assert {r["label"] for r in FOREIGN} == {"publisher-words", "agent-written", "untrusted"}
    assert len({r["text"] for r in FOREIGN}) == len(FOREIGN)
    assert [r["text"] for r in FOREIGN if not worth_keeping(r["text"])] == []


def test_repeated_foreign_passages_are_found():
    rng = random.Random(20260801)
    found: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    missed: list[tuple[str, str, str]] = []
    wrong: list[tuple[str, str]] = []
    for record, handed in zip(FOREIGN, HANDED, strict=True):
        for name, make in VARIANTS.items():
            text = make(record["text"], rng)
            tried[name] += 1
            repeat = find_repeat(text, HANDED)
            if repeat is None:
                missed.append((name, record["text"], text))
                continue
            found[name] += 1
            # It names the passage that was repeated (or an identical one), in the handed words.
            if repeat.passage not in record["text"] or (repeat.where, repeat.field) != (handed.where, handed.field):
                wrong.append((name, record["text"]))
    total, hits = sum(tried.values()), sum(found.values())
    by_variant = ", ".join(f"{name} {found[name]}/{tried[name]}" for name in VARIANTS)
    print(f"\nSafe Harbour: detected {hits}/{total} ({100 * hits / total:.1f}%); {by_variant}")
    for name, original, text in missed:
        print(f"  missed ({name}): {text!r}\n    from {original!r}")
    assert total >= 600
    assert hits / total >= 0.95
    assert wrong == []


def test_own_words_are_never_held():
    # The agent's sentences one by one, and as the longer texts a result or a brief would be.
    paragraphs = [" ".join(OWN[i : i + 5]) for i in range(0, len(OWN), 5)]
    held = [(text, r) for text in [*OWN, *paragraphs] if (r := find_repeat(text, HANDED)) is not None]
    n = len(OWN) + len(paragraphs)
    print(f"\nSafe Harbour: own words held {len(held)}/{n} ({100 * len(held) / n:.1f}%)")
    for text, r in held:
        print(f"  held: {text!r}\n    repeats {r.passage!r} ({r.where}, {r.field})")
    assert held == []


@pytest.mark.parametrize("record", FOREIGN[:3] + FOREIGN[-3:], ids=lambda r: r["kind"])
def test_a_foreign_passage_repeated_whole_is_shown_whole(record):
    repeat = find_repeat("Passing this on: " + record["text"], HANDED)
    assert repeat is not None
    assert (repeat.label, repeat.where, repeat.field) == (record["label"], record["where"], record["field"])
    # The handed text from its first word to its last: the marks around them are not words.
    assert repeat.passage == re.sub(r"^\W+|\W+$", "", record["text"])
