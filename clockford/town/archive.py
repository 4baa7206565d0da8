"""The Archive: every call is a footstep, and footsteps are leaves of a signed Merkle tree.

Writing a footstep is one INSERT in the call's own transaction; its number comes from the database's
sequence. Folding footsteps into the tree happens apart from calls, in batches (a background loop of
the server, or `manage.py archive fold`), so no call waits on the tree. Each fold signs a checkpoint:
`clockford-archive\\n<size>\\n<base64 root>\\n`, the body of a C2SP tlog checkpoint note.
"""

import base64
import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from clockford.town import merkle, signing
from clockford.town.models import ArchiveLeaf, Checkpoint, Footstep

ORIGIN = "clockford-archive"
FOLD_BATCH = 5000
# A call's transaction never lasts this long; a footstep committed late is still picked up.
LATE_COMMIT_MARGIN = dt.timedelta(seconds=120)


def entry_bytes(f: Footstep) -> bytes:
    """The canonical bytes of a footstep: what its leaf hash commits to."""
    at = f.at.astimezone(dt.UTC).isoformat(timespec="microseconds")
    return signing.canonical_json(
        {
            "v": 1,
            "number": f.number,
            "at": at,
            "tool": f.tool,
            "passport": f.passport,
            "outcome": f.outcome,
            "digest": f.digest,
            "job": f.job_id,
        }
    )


def record(*, tool: str, passport: str, outcome: str, arguments: dict[str, Any], job_id: str | None) -> int:
    """Write one footstep inside the caller's transaction and return its number."""
    f = Footstep.objects.create(
        at=timezone.now(),
        tool=tool,
        passport=passport,
        outcome=outcome[:80],
        digest=signing.keyed_digest(arguments),
        job_id=job_id,
    )
    return f.number


def checkpoint_body(size: int, root: bytes) -> bytes:
    return f"{ORIGIN}\n{size}\n{base64.b64encode(root).decode()}\n".encode()


def latest_checkpoint() -> Checkpoint | None:
    return Checkpoint.objects.order_by("-size").first()


def _frontier(cp: Checkpoint | None) -> merkle.Frontier:
    return [(h, bytes.fromhex(x)) for h, x in cp.frontier] if cp else []


def fold(limit: int = FOLD_BATCH, settle: dt.timedelta | None = None) -> int:
    """Fold settled footsteps into the tree and sign a checkpoint. Returns how many were folded."""
    if settle is None:
        settle = dt.timedelta(seconds=settings.CLOCKFORD["FOLD_SETTLE_SECONDS"])
    with transaction.atomic():
        # Two folders at once: both would sign the same next size, and the primary key on
        # Checkpoint.size makes the second fail and roll back, so the tree never forks.
        last = latest_checkpoint()
        now = timezone.now()
        pending = Footstep.objects.filter(leaf__isnull=True, at__lt=now - settle)
        if last is not None:
            pending = pending.filter(at__gte=last.at - LATE_COMMIT_MARGIN)
        batch = list(pending.order_by("number")[:limit])
        if not batch:
            return 0
        size = last.size if last else 0
        frontier = _frontier(last)
        leaves = []
        for i, f in enumerate(batch):
            h = merkle.leaf_hash(entry_bytes(f))
            frontier = merkle.append(frontier, h)
            leaves.append(ArchiveLeaf(index=size + i, footstep_id=f.number, hash=h.hex()))
        ArchiveLeaf.objects.bulk_create(leaves)
        size += len(batch)
        root = merkle.frontier_root(frontier)
        Checkpoint.objects.create(
            size=size,
            root=root.hex(),
            frontier=[[h, x.hex()] for h, x in frontier],
            at=now,
            key_id=signing.key_id(),
            signature=signing.sign_bytes(checkpoint_body(size, root)),
        )
        return len(batch)


def fold_all(settle: dt.timedelta | None = None) -> int:
    total = 0
    while n := fold(settle=settle):
        total += n
    return total


@dataclass
class Verdict:
    ok: bool
    size: int
    problems: list[str]


def verify(public_key_hex: str | None = None) -> Verdict:
    """Check the whole log: every footstep's bytes against its leaf, every leaf against the signed
    root, and every checkpoint's signature and its root over the leaves it covers."""
    problems: list[str] = []
    pk = public_key_hex or signing.public_key_hex()
    checkpoints = {cp.size: cp for cp in Checkpoint.objects.all()}
    frontier: merkle.Frontier = []
    index = 0
    rows = ArchiveLeaf.objects.select_related("footstep").order_by("index")
    for leaf in rows.iterator(chunk_size=2000):
        if leaf.index != index:
            problems.append(f"leaf {index} is missing (found {leaf.index})")
            index = leaf.index
        h = merkle.leaf_hash(entry_bytes(leaf.footstep))
        if h.hex() != leaf.hash:
            problems.append(f"footstep #{leaf.footstep_id} does not match its leaf {leaf.index}")
        frontier = merkle.append(frontier, h)
        index += 1
        cp = checkpoints.get(index)
        if cp is not None:
            r = merkle.frontier_root(frontier)
            if r.hex() != cp.root:
                problems.append(f"the root of the first {index} leaves is not the signed one")
            if not signing.verify_bytes(checkpoint_body(cp.size, bytes.fromhex(cp.root)), cp.signature, pk):
                problems.append(f"the checkpoint of size {cp.size} is not signed by the town key")
    for size in checkpoints:
        if size > index:
            problems.append(f"a checkpoint names {size} leaves but only {index} exist")
    # A footstep the tree never took, older than any late commit, is a footstep hidden from it.
    last = latest_checkpoint()
    if last is not None:
        stale = Footstep.objects.filter(leaf__isnull=True, at__lt=last.at - LATE_COMMIT_MARGIN).count()
        if stale:
            problems.append(f"{stale} footsteps were never folded into the tree")
    return Verdict(ok=not problems, size=index, problems=problems)


def inclusion(number: int) -> dict[str, Any]:
    """An inclusion proof for footstep `number` against the latest checkpoint."""
    leaf = ArchiveLeaf.objects.select_related("footstep").get(footstep_id=number)
    cp = latest_checkpoint()
    assert cp is not None and cp.size > leaf.index
    hashes = [
        bytes.fromhex(h)
        for h in ArchiveLeaf.objects.filter(index__lt=cp.size).order_by("index").values_list("hash", flat=True)
    ]
    proof = merkle.inclusion_proof(leaf.index, hashes)
    return {
        "footstep": number,
        "index": leaf.index,
        "size": cp.size,
        "leaf": merkle.leaf_hash(entry_bytes(leaf.footstep)).hex(),
        "proof": [p.hex() for p in proof],
        "root": cp.root,
        "checkpoint": checkpoint_body(cp.size, bytes.fromhex(cp.root)).decode(),
        "signature": cp.signature,
        "keyId": cp.key_id,
    }


def verify_inclusion(p: dict[str, Any]) -> bool:
    return merkle.verify_inclusion(
        p["index"],
        p["size"],
        bytes.fromhex(p["leaf"]),
        [bytes.fromhex(x) for x in p["proof"]],
        bytes.fromhex(p["root"]),
    )
