"""The Dice House's catalogue: the kinds of misbehaviour a roll may have, and how each is made
(docs/dice-house.md). Each works on any reply of the four dice tools; where a kind finds nothing to act
on (no list to miscount, no earlier reply to answer with), the roll falls back to a missing field, and
the roll records the kind it actually had."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from clockford.town.tooling import Part, Reply

KINDS: dict[str, str] = {
    "missing-field": "a field of the reply is left out",
    "wrong-type": "a field has the wrong type (a number as text, a text as a list, ...)",
    "count-mismatch": "a count that contradicts the list beside it",
    "stale-seal": "the census seal is an old one, not the census the town holds",
    "other-question": "the answer to another question (the run's previous reply) instead of this one",
    "truncated-text": "the reply's text is cut off halfway (its structured data is whole)",
    "lying-label": "a provenance label that lies: someone else's words labelled as the town's, or the town's as a person's",
    "empty-result": "the lists of the reply are empty (and its say still speaks of what was found)",
    "slow-reply": "the reply comes several seconds late",
}
# How likely a roll is to misbehave.
ODDS = 0.4
SLOW_SECONDS = 3.0
FOREIGN = ("publisher-words", "agent-written", "untrusted")


def schedule(seed: str, roll: int) -> tuple[str, random.Random]:
    """The kind roll number `roll` of a run with this seed is to have ("" for none), and the generator its
    choices are made with: both from the seed and the number alone, so a replay repeats them."""
    rng = random.Random(f"dice:{seed}:{roll}")  # noqa: S311 (a seeded, repeatable schedule)
    if rng.random() >= ODDS:
        return "", rng
    return rng.choice(sorted(KINDS)), rng


def _keys(fields: dict[str, Any]) -> list[str]:
    return sorted(fields)


def _missing(reply: Reply, rng: random.Random) -> str:
    keys = _keys(reply.fields)
    if not keys:
        return ""
    del reply.fields[rng.choice(keys)]
    return "missing-field"


def _wrong_type(reply: Reply, rng: random.Random) -> str:
    keys = _keys(reply.fields)
    if not keys:
        return ""
    name = rng.choice(keys)
    v = reply.fields[name]
    if isinstance(v, bool):
        reply.fields[name] = "yes" if v else "no"
    elif isinstance(v, int | float):
        reply.fields[name] = str(v)
    elif isinstance(v, str):
        reply.fields[name] = [v]
    elif isinstance(v, list):
        reply.fields[name] = {"items": v}
    elif isinstance(v, dict):
        reply.fields[name] = json.dumps(v, ensure_ascii=False)
    else:
        reply.fields[name] = 0
    return "wrong-type"


def _lists(fields: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """Every list in the reply's fields or one level down, with the mapping that holds it."""
    found = [(fields, k) for k in _keys(fields) if isinstance(fields[k], list)]
    for k in _keys(fields):
        if isinstance(fields[k], dict):
            found += [(fields[k], j) for j in sorted(fields[k]) if isinstance(fields[k][j], list)]
    return found


def _count(reply: Reply, rng: random.Random) -> str:
    lists = _lists(reply.fields)
    if not lists:
        return ""
    holder, name = rng.choice(lists)
    holder["count"] = len(holder[name]) + rng.randint(2, 5)
    return "count-mismatch"


def _stale_root(root: str) -> str:
    return hashlib.sha256(f"stale {root}".encode()).hexdigest()[: len(root) or 64]


def _stale(reply: Reply, rng: random.Random) -> str:
    done = False

    def walk(node: Any) -> Any:
        nonlocal done
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "root" and isinstance(v, str):
                    node[k] = _stale_root(v)
                    done = True
                elif isinstance(v, str) and "sealed with root " in v:
                    head, _, tail = v.partition("sealed with root ")
                    root, _, rest = tail.partition(".")
                    node[k] = f"{head}sealed with root {_stale_root(root)}.{rest}"
                    done = True
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        return node

    walk(reply.fields)
    if not done:
        reply.fields["seal"] = {
            "root": _stale_root(""),
            "holds": rng.randint(10, 99),
            "sealedAt": "2025-01-01T00:00:00Z",
        }
    return "stale-seal"


def _other(reply: Reply, last: dict[str, Any] | None) -> str:
    if last is None or (last["say"], last["fields"]) == (reply.say, reply.fields):
        return ""  # nothing asked before, or the same question: no other answer to give
    reply.say = last["say"]
    reply.fields = json.loads(json.dumps(last["fields"]))
    reply.parts = [Part(p["path"], p["label"], own=p.get("own")) for p in last["parts"]]
    return "other-question"


def _lying(reply: Reply, rng: random.Random) -> str:
    for i, p in enumerate(reply.parts):
        if p.label in FOREIGN:
            reply.parts[i] = replace(p, label="town", own=None)
            return "lying-label"
    keys = _keys(reply.fields)
    if not keys:
        return ""
    reply.parts.append(Part(rng.choice(keys), "human-signed"))
    return "lying-label"


def _empty(reply: Reply, rng: random.Random) -> str:
    lists = _lists(reply.fields)
    if lists:
        for holder, name in lists:
            holder[name] = []
        return "empty-result"
    dicts = [k for k in _keys(reply.fields) if isinstance(reply.fields[k], dict)]
    if not dicts:
        return ""
    reply.fields[rng.choice(dicts)] = {}
    return "empty-result"


# How each kind is made on the reply's fields and parts: "" when it finds nothing to act on.
_MAKERS: dict[str, Callable[[Reply, random.Random], str]] = {
    "missing-field": _missing,
    "wrong-type": _wrong_type,
    "count-mismatch": _count,
    "stale-seal": _stale,
    "lying-label": _lying,
    "empty-result": _empty,
}


def misbehave(kind: str, reply: Reply, rng: random.Random, last: dict[str, Any] | None) -> str:
    """Make `reply` misbehave as `kind` says; returns the kind it has now ("" if none could be made)."""
    if kind in ("truncated-text", "slow-reply"):
        return kind  # the desk does these to the text and the timing (clockford.town.tooling.Dice)
    if kind == "other-question":
        made = _other(reply, last)
    else:
        maker = _MAKERS.get(kind)
        made = maker(reply, rng) if maker is not None else ""
    return made or _missing(reply, rng)
