"""Writes the corpus files of this package, dev/*.jsonl and held/*.jsonl:

    .venv/bin/python -m clockford.town.tests.corpus.generate

Deterministic: a fixed seed per half and per kind, and the census read in a sorted order, so that
running it again without changes rewrites the same bytes (the corpus test checks this when the
census is at hand). The census snapshot is read from CLOCKFORD_CENSUS, or from
../shared/census/registry-snapshot.json beside the repository; only the registry names and
descriptions the generated sentences use end up in the files.

Secrets are written scrambled (`fill`, see secrets.scramble), with "{secret}" in the text where
they go: no secret-shaped literal sits in the repository. Invisible, bidi and other format
characters are written as JSON escapes, so the files show what is hidden in them.
"""

import json
import os
import random
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

from clockford.town.tests.corpus import harbour, ordinary, refuse
from clockford.town.tests.corpus.secrets import scramble

HERE = Path(__file__).parent
REPO = HERE.parents[3]
HALVES = ("dev", "held")
SEED = 20261201

PLAIN_PER_KIND = 40
# Secrets come from many providers: enough plain cases for each provider's shapes to appear several times.
PLAIN_SECRETS = 80
DISGUISED_PER_KIND = 45
ORDINARY_PER_KIND = 200
OPEN_SURFACES = ("public", "other-account")
ALL_SURFACES = ("private", "letter", "public", "other-account")
CENSUS_NAMES_PER_HALF = 150
CENSUS_PASSAGES_PER_HALF = 90


def census_path() -> Path:
    return Path(os.environ.get("CLOCKFORD_CENSUS") or REPO.parent / "shared" / "census" / "registry-snapshot.json")


def read_census() -> tuple[list[str], list[tuple[str, str]]]:
    """Distinct registry names, and (name, description) of each name's newest entry, both sorted."""
    with census_path().open(encoding="utf-8") as f:
        servers = json.load(f)["servers"]
    described: dict[str, str] = {}
    for entry in servers:
        server = entry["server"]
        if entry.get("_meta", {}).get("io.modelcontextprotocol.registry/official", {}).get("isLatest"):
            described[server["name"]] = (server.get("description") or "").strip()
    names = sorted({entry["server"]["name"] for entry in servers})
    return names, sorted(described.items())


def _escape(ch: str) -> str:
    cp = ord(ch)
    if cp > 0xFFFF:
        cp -= 0x10000
        return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"
    return f"\\u{cp:04x}"


def _hidden(ch: str) -> bool:
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Cf", "Cc", "Co", "Cn", "Zl", "Zp")
        or (unicodedata.category(ch) == "Zs" and ch != " ")
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0000 <= cp <= 0xE01EF
        or ch in "\u034f\u115f\u1160\u3164\uffa0"
    )


def dumps(record: dict[str, Any]) -> str:
    text = json.dumps(record, ensure_ascii=False, sort_keys=True)
    return "".join(_escape(c) if _hidden(c) else c for c in text)


# --- must refuse ---------------------------------------------------------------------------------


# Long texts: a must-refuse case among ordinary paragraphs (so a rule that reads only the start, or
# only short texts, misses it), and ordinary paragraphs joined into one note (so a rule that
# stitches a problem together across sentences shows). Each half joins its own way.
BURIED = {"dev": ("buried-in-a-note", 2, 4, "\n\n"), "held": ("buried-in-a-long-note", 4, 8, "\n")}
BURIED_PER_KIND = 10
FILLER_KINDS = ("registry-name", "work-note", "price", "date-and-time", "units-and-math")
LONG_NOTES = 100


def bury(case: dict[str, Any], filler: list[str], half: str, rng: random.Random) -> dict[str, Any]:
    """The case inside ordinary paragraphs; a sign-off stays last, since a sign-off closes the text."""
    name, least, most, joiner = BURIED[half]
    before = rng.sample(filler, rng.randint(least, most))
    after = [] if case["kind"] == "staff-sign-off" else rng.sample(filler, rng.randint(least, most))
    return {**case, "disguise": name, "text": joiner.join([*before, case["text"], *after])}


def refused(half: str, filler: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for k, kind in enumerate(refuse.kinds()):
        rng = random.Random(f"{SEED}-{half}-refuse-{kind.name}")
        families = kind.dev if half == "dev" else kind.held
        groups = refuse.DISGUISES[half]
        disguises = [(name, fn) for group in sorted(kind.disguisable) for name, fn in groups[group].items()]
        surfaces = ALL_SURFACES if kind.expect == "secret" else OPEN_SURFACES
        seen: set[str] = set()
        n = 0
        tries = 0
        plain = PLAIN_SECRETS if kind.expect == "secret" else PLAIN_PER_KIND
        while n < plain + DISGUISED_PER_KIND and tries < 5000:
            tries += 1
            family, make = families[n % len(families)] if n < plain else rng.choice(families)
            before, core, after = make(rng)
            name = "plain"
            if n >= plain:
                name, fn = disguises[(n - plain) % len(disguises)]
                if "rtl" in name and "\n" in core:
                    continue  # an override ends at a line break: a key block cannot be drawn reversed
                disguised = fn(core, rng)
                if disguised == core:
                    continue  # nothing in this core the disguise knows
                core = disguised
            text = before + core + after
            if text in seen:
                continue
            seen.add(text)
            case: dict[str, Any] = {
                "id": f"{half}-{kind.name}-{n:03d}",
                "kind": kind.name,
                "family": family,
                "disguise": name,
                "expect": kind.expect,
                "surface": surfaces[(n + k) % len(surfaces)],
            }
            if kind.expect == "secret":
                case["text"] = before + "{secret}" + after
                case["fill"] = scramble(core)
            else:
                case["text"] = text
            out.append(case)
            n += 1
        plain_cases = [c for c in out if c["kind"] == kind.name and c["disguise"] == "plain"]
        for i, case in enumerate(rng.sample(plain_cases, BURIED_PER_KIND)):
            out.append({**bury(case, filler, half, rng), "id": f"{half}-{kind.name}-{n + i:03d}"})
    return out


# --- ordinary ------------------------------------------------------------------------------------

LEADS = {
    "dev": ["", "", "", "FYI: ", "Update: ", "Note: "],
    "held": ["", "", "", "Quick note — ", "PS: ", "Re your question: "],
}
TAILS = {
    "dev": ["", "", "", " Thanks.", " More later.", " (checked twice)"],
    "held": ["", "", "", " Cheers!", " — done for now", " [edited]"],
}


def ordinaries(half: str, names: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    filled = ordinary.slots(names)
    for kind, halves in ordinary.KINDS.items():
        rng = random.Random(f"{SEED}-{half}-ordinary-{kind}")
        templates = halves[half]
        # No template may fill much more than its share: one that has few fillings would
        # otherwise weigh as many of the others together.
        share = -(-ORDINARY_PER_KIND // len(templates)) * 3 // 2
        used: Counter[str] = Counter()
        seen: set[str] = set()
        tries = 0
        while len(seen) < ORDINARY_PER_KIND and tries < 20000:
            tries += 1
            t = templates[len(seen) % len(templates)] if tries <= len(templates) else rng.choice(templates)
            if used[t] >= share:
                continue
            text = rng.choice(LEADS[half]) + ordinary.fill(t, rng, filled) + rng.choice(TAILS[half])
            if text in seen:
                continue
            seen.add(text)
            used[t] += 1
            out.append({"id": f"{half}-{kind}-{len(seen):03d}", "kind": kind, "surface": "public", "text": text})
    return out


def long_notes(half: str, sentences: list[str]) -> list[dict[str, Any]]:
    rng = random.Random(f"{SEED}-{half}-long-notes")
    _, least, most, joiner = BURIED[half]
    return [
        {
            "id": f"{half}-long-note-{i:03d}",
            "kind": "long-note",
            "surface": "public",
            "text": rng.choice([joiner, " "]).join(rng.sample(sentences, rng.randint(least + 1, most + 3))),
        }
        for i in range(LONG_NOTES)
    ]


# --- Safe Harbour --------------------------------------------------------------------------------


def _worth_copying(text: str) -> bool:
    return len(text.split()) >= 8 and len(harbour.own_vocabulary(text)) >= 4


def harboured(half: str, passages: list[tuple[str, str]]) -> list[dict[str, Any]]:
    rng = random.Random(f"{SEED}-{half}-harbour")
    sources: list[dict[str, str]] = [
        {
            "label": "publisher-words",
            "where": "ask_directory",
            "field": "results[].words.description",
            "text": text,
            "topic": name,
        }
        for name, text in passages
    ] + harbour.foreign(half, rng)
    out: list[dict[str, Any]] = []
    for s, source in enumerate(sources):
        text = source["text"]
        distractor = sources[(s * 7 + 3) % len(sources)]
        handed = [{k: v for k, v in src.items() if k != "topic"} for src in (distractor, source)]
        writes = [
            {"kind": "copy", "variant": variant, "text": harbour.copy(text, recipe, rng)}
            for variant, recipe in harbour.VARIANTS[half].items()
        ]
        if source["topic"] == "notice":
            templates = harbour.OWN_NOTICE_DEV if half == "dev" else harbour.OWN_NOTICE_HELD
        else:
            templates = harbour.OWN_DEV if half == "dev" else harbour.OWN_HELD
        name = "the notice" if source["topic"] == "notice" else source["topic"]
        for variant in ("sentence", "paragraph", "short quote", "keyword list"):
            for _ in range(10):
                write = harbour.own(templates, name, text, rng)
                if variant == "paragraph":
                    write = " ".join(harbour.own([t], name, text, rng) for t in rng.sample(templates, 3))
                elif variant == "short quote":
                    write = harbour.quoting(write, text, half, rng)
                elif variant == "keyword list":
                    write = harbour.keyword_list(name, text, half, rng)
                if not any(harbour.shares_a_run(write, h["text"]) for h in handed):
                    writes.append({"kind": "own", "variant": variant, "text": write})
                    break
        out.append({"id": f"{half}-harbour-{s:03d}", "handed": handed, "writes": writes})
    return out


def build() -> dict[str, list[dict[str, Any]]]:
    """Every file's records, by the file's path relative to this package."""
    names, described = read_census()
    rng = random.Random(f"{SEED}-census")
    picked = rng.sample(names, 2 * CENSUS_NAMES_PER_HALF)
    usable = [(n, t) for n, t in described if _worth_copying(t) and t.isascii() and "\n" not in t]
    passages = rng.sample(usable, 2 * CENSUS_PASSAGES_PER_HALF)
    files: dict[str, list[dict[str, Any]]] = {}
    for i, half in enumerate(HALVES):
        half_names = sorted(picked[i * CENSUS_NAMES_PER_HALF : (i + 1) * CENSUS_NAMES_PER_HALF])
        half_passages = passages[i * CENSUS_PASSAGES_PER_HALF : (i + 1) * CENSUS_PASSAGES_PER_HALF]
        sentences = ordinaries(half, half_names)
        filler = [c["text"] for c in sentences if c["kind"] in FILLER_KINDS]
        files[f"{half}/refuse.jsonl"] = refused(half, filler)
        # Long notes from the plain kinds: the near misses are measured one by one.
        plain = [c["text"] for c in sentences if not c["kind"].startswith("near-")]
        files[f"{half}/ordinary.jsonl"] = sentences + long_notes(half, plain)
        files[f"{half}/harbour.jsonl"] = harboured(half, half_passages)
    return files


def render(records: list[dict[str, Any]]) -> str:
    return "".join(dumps(r) + "\n" for r in records)


def main() -> None:
    for rel, records in build().items():
        target = HERE / rel
        target.parent.mkdir(exist_ok=True)
        target.write_text(render(records), encoding="utf-8")
        print(f"{rel}: {len(records)} records")


if __name__ == "__main__":
    main()
