"""The words screen's and Safe Harbour's corpora, by kind, in two halves.

dev/ is what the screen may be tuned against; held/ is written from other templates and other
disguises and measures what the screen generalises. Each half has three files:

- refuse.jsonl: words that must be refused. {id, kind, family, disguise, expect, surface, text}; a
  secret's text holds "{secret}" where its `fill` goes, the secret scrambled (secrets.scramble).
- ordinary.jsonl: sentences that must pass on the public surface. {id, kind, surface, text}.
- harbour.jsonl: one line per handed passage, {id, handed: [{label, where, field, text}], writes:
  [{kind: "copy" | "own", variant, text}]}: what the agent was handed (the passage and one other)
  and what it wrote. A copy must be held, own words never.

The generator modules (refuse, ordinary, harbour, secrets, disguise) make the files; `generate`
writes them. Read them through the functions below, which put each secret in its place.
"""

import json
from pathlib import Path
from typing import Any

from clockford.town.tests.corpus.secrets import scramble

HERE = Path(__file__).parent
HALVES = ("dev", "held")


def _read(half: str, name: str) -> list[dict[str, Any]]:
    with (HERE / half / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_must_refuse(half: str) -> list[dict[str, Any]]:
    cases = _read(half, "refuse.jsonl")
    for case in cases:
        if "fill" in case:
            case["text"] = case["text"].replace("{secret}", scramble(case.pop("fill")))
    return cases


def load_ordinary(half: str) -> list[dict[str, Any]]:
    return _read(half, "ordinary.jsonl")


def load_harbour(half: str) -> list[dict[str, Any]]:
    """One case per write: {id, kind, variant, handed, text}."""
    return [
        {"id": f"{group['id']}-{i}", "handed": group["handed"], **write}
        for group in _read(half, "harbour.jsonl")
        for i, write in enumerate(group["writes"])
    ]
