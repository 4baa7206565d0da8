"""The export of a person's account (hall/export.py, docs/export.md): the core's part of it.

The footsteps of a person's passports, each with its inclusion proof against one signed checkpoint
(the Archive's latest), the holds, plans and reports with their signed decisions, and the manifest:
a statement signed with the town key, in the town's one statement style (canonical JSON, keys sorted,
no spaces, Ed25519 over its bytes), that names each section of the file by its count and the sha256
of its canonical JSON. docs/verify_signature.py checks a file offline.
"""

import datetime as dt
import hashlib
from collections.abc import Iterable, Iterator
from itertools import batched
from typing import Any

from clockford.town import archive, merkle, signing
from clockford.town.models import ArchiveLeaf, Footstep, Hold, Plan, Report

KIND = "clockford-export"
VERSION = 1
STEPS_READ = 500  # footsteps read from the database at a time


def _iso(when: dt.datetime | None) -> str | None:
    return when.astimezone(dt.UTC).isoformat(timespec="microseconds") if when else None


def entry(f: Footstep) -> dict[str, Any]:
    """A footstep exactly as its leaf commits to it (archive.entry_bytes is its canonical JSON)."""
    return {
        "v": 1,
        "number": f.number,
        "at": _iso(f.at),
        "tool": f.tool,
        "passport": f.passport,
        "outcome": f.outcome,
        "digest": f.digest,
        "job": f.job_id,
    }


class NoProofs(RuntimeError):
    """The Archive in this database cannot prove anything now (it is behind the town's signed head, or
    damaged): an export would carry proofs that do not hold, so none is made. Says why, in words."""


def footsteps_with_proofs(passport_ids: Iterable[str]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Every footstep of these passports, oldest first, each with its leaf and inclusion proof against
    the latest checkpoint (folded first, so that every footstep committed by now is in the tree); and
    that checkpoint, signed. A footstep the tree has not taken yet has proof null."""
    checkpoint, steps = proved_footsteps(passport_ids)
    return list(steps), checkpoint


def proved_footsteps(passport_ids: Iterable[str]) -> tuple[dict[str, Any] | None, Iterator[dict[str, Any]]]:
    """As footsteps_with_proofs, the footsteps one at a time (read STEPS_READ at a time): an account's
    export held every footstep with its proof at once (363 MB for 114,000 of them). The checkpoint is
    signed first; reading the footsteps may still raise NoProofs."""
    try:
        archive.fold_all(settle=dt.timedelta(0))
        cp = archive.latest_checkpoint()
    except (archive.Behind, archive.Damaged) as why:
        raise NoProofs(str(why)) from None
    checkpoint = None
    if cp is not None:
        checkpoint = {
            "size": cp.size,
            "root": cp.root,
            "body": archive.checkpoint_body(cp.size, bytes.fromhex(cp.root)).decode(),
            "signature": cp.signature,
            "keyId": cp.key_id,
            "at": _iso(cp.at),
        }
    return checkpoint, _proved(list(passport_ids), cp)


def _proved(passport_ids: list[str], cp: Any) -> Iterator[dict[str, Any]]:
    try:
        yield from _with_proofs(passport_ids, cp)
    except (archive.Behind, archive.Damaged) as why:
        raise NoProofs(str(why)) from None


def _with_proofs(passport_ids: list[str], cp: Any) -> Iterator[dict[str, Any]]:
    if cp is not None:
        # One tree for every proof: each root it finds is found once (a proof made from every leaf anew
        # cost the whole tree's hashing a footstep, hours for an account with 100,000 of 200,000).
        tree, root = archive.Tree(cp.size), bytes.fromhex(cp.root)
    block = -1
    rows = Footstep.objects.filter(passport__in=passport_ids).order_by("number").iterator(chunk_size=STEPS_READ)
    for steps in batched(rows, STEPS_READ):
        leaves = dict(
            ArchiveLeaf.objects.filter(footstep__in=[f.number for f in steps]).values_list("footstep_id", "index")
        )
        for f in steps:
            index = leaves.get(f.number)
            proof = None
            leaf = merkle.leaf_hash(archive.entry_bytes(f))
            if cp is not None and index is not None and index < cp.size:
                if index // archive.BLOCK != block:
                    block = index // archive.BLOCK
                    tree.forget_before(index)  # the footsteps come in the Archive's order
                path = merkle.inclusion_path(index, cp.size, tree.subtree)
                if tree.blocks and not merkle.verify_inclusion(index, cp.size, leaf, path, root):
                    tree = archive.Tree(cp.size, blocks=False)  # a block's root is wrong: from the leaves alone
                    path = merkle.inclusion_path(index, cp.size, tree.subtree)
                proof = {"index": index, "path": [p.hex() for p in path]}
            yield {"entry": entry(f), "leaf": leaf.hex(), "proof": proof}


def _decided(record: Any) -> dict[str, Any]:
    """What every decided record carries: who asked, and the person's signed decision."""
    return {
        "id": record.id,
        "passport": record.passport_id,
        "decidedAt": _iso(record.decided_at),
        "statement": record.statement or None,
        "assertion": record.assertion,
    }


def holds_of(passport_ids: Iterable[str]) -> list[dict[str, Any]]:
    rows = Hold.objects.filter(passport__in=list(passport_ids)).order_by("created_at", "id")
    return [
        {
            **_decided(h),
            "tool": h.tool,
            "why": h.why,
            "arguments": h.arguments,
            "wordsDigest": h.words_digest,
            "status": h.status,
            "createdAt": _iso(h.created_at),
            "usedAt": _iso(h.used_at),
        }
        for h in rows
    ]


def plans_of(passport_ids: Iterable[str]) -> list[dict[str, Any]]:
    rows = Plan.objects.filter(passport__in=list(passport_ids)).order_by("declared_at", "id")
    return [
        {**_decided(p), "steps": p.steps, "hours": p.hours, "status": p.status, "declaredAt": _iso(p.declared_at)}
        for p in rows
    ]


def reports_of(passport_ids: Iterable[str]) -> list[dict[str, Any]]:
    rows = Report.objects.filter(passport__in=list(passport_ids)).order_by("filed_at", "id")
    return [
        {**_decided(r), "quote": r.quote, "where": r.where, "status": r.status, "filedAt": _iso(r.filed_at)}
        for r in rows
    ]


def section_digest(value: Any) -> str:
    return hashlib.sha256(signing.canonical_json(value)).hexdigest()


def sign(
    sections: dict[str, Any], about: dict[str, Any], counted: dict[str, tuple[int, str]] | None = None
) -> dict[str, Any]:
    """The export file: the sections, and a manifest signed by the town that names each one by its
    count and digest, with the checkpoint the footsteps' proofs are against. A section written apart
    (the footsteps, a piece at a time: hall/export.py) is named in `counted` by its count and digest."""
    named = {
        name: {"count": len(value) if isinstance(value, list) else 1, "sha256": section_digest(value)}
        for name, value in sections.items()
        if name not in (counted or {})
    }
    named |= {name: {"count": n, "sha256": digest} for name, (n, digest) in (counted or {}).items()}
    statement = {
        "kind": KIND,
        "v": VERSION,
        **about,
        "keyId": signing.key_id(),
        "sections": dict(sorted(named.items())),
    }
    return {"manifest": signing.sign_statement(statement), "sections": sections}


# -- Closing an account: its words are dropped, its footsteps stay ---------------------------------------


def forget_words(passport_ids: Iterable[str]) -> dict[str, int]:
    """Drop the words of the core's records of these passports (the free words of holds, a report's
    quote and errand), keeping the records and their digests: what was decided stays checkable."""
    ids = list(passport_ids)
    n = 0
    for hold in Hold.objects.filter(passport__in=ids):
        hold.arguments = {k: ("" if isinstance(v, str) else v) for k, v in hold.arguments.items()}
        hold.save(update_fields=["arguments"])
        n += 1
    reports = Report.objects.filter(passport__in=ids).update(quote="", errand="")
    return {"town_hold": n, "town_report": reports}
