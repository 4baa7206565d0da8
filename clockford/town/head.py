"""The Archive's head, kept outside the database: the last checkpoint this town signed.

A database restored from an older backup holds fewer footsteps than the town has already signed for.
Serving it would fold new footsteps into leaves the town once signed with other contents: two signed
trees of one size, which is exactly what a tamper-evident log must never show. So each fold, once
committed, writes its size and root to a small file beside the town key (`ARCHIVE_HEAD_FILE`), and a
town whose database is behind that file does not serve: it starts closed, its fold signs nothing,
and `manage.py town_mode open` refuses, until a person has looked and accepted the restore with
`manage.py archive head --accept`. From then on the town signs checkpoints that differ from ones it
signed before the restore: a witness that kept an old one will see the fork, as it should.

A town that keeps no head yet (one from before the head file, upgraded) writes its database's latest
checkpoint as the head at its first look, as it starts (`keep_the_first`), not at its next fold.

The file only ever grows: a fold that finished after a larger one never writes a smaller head. A
crash between a fold's commit and the file's write leaves the file one fold behind, which is safe
(a lower head only lets through a database that is further ahead).

The head's row alone is not enough: the next fold builds on the database's latest checkpoint, so that
one must be sound too, or the town would sign a tree that does not extend the one it signed. A
database rolled back with a checkpoint row written in by hand, or with the log's tail cut under a kept
checkpoint, would pass a look at the head's size and root (both are public). So the latest checkpoint
must be signed by the town key, its frontier must make its root and count its size, and the leaves
must end exactly where it says, the last one the hash of its footstep. Each of those is one row or one
index's end, so the look stays cheap at any size; `archive verify` reads the whole log.
"""

import fcntl
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db.models import OuterRef, Subquery

from clockford.town import merkle, signing
from clockford.town.models import ArchiveLeaf, Checkpoint, Footstep

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Head:
    size: int
    root: str
    key_id: str
    # The town key's id when a person accepted this head (`archive head --accept`), else None.
    accepted: str | None = None


def head_file() -> Path | None:
    value = settings.CLOCKFORD["ARCHIVE_HEAD_FILE"]
    return Path(value) if value else None


def signed_head() -> Head | None:
    """The last checkpoint this town signed, as the file keeps it (None before the first fold)."""
    path = head_file()
    if path is None:
        return None
    try:
        data = json.loads(path.read_text())
        accepted = data.get("accepted")
        return Head(int(data["size"]), str(data["root"]), str(data["key_id"]), str(accepted) if accepted else None)
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        raise RuntimeError(f"The Archive's head file {path.name} cannot be read: {exc}") from exc


def remember(cp: Checkpoint, *, accept: bool = False) -> None:
    """Keep `cp` as the head when it is larger than the one kept (or whatever it is, with accept)."""
    path = head_file()
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    # One writer at a time across the town's processes: read, compare and replace under a lock.
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        kept = signed_head()
        if not accept and kept is not None and kept.size >= cp.size:
            return
        tmp = path.with_name(path.name + ".new")
        kept_head = {"size": cp.size, "root": cp.root, "key_id": cp.key_id}
        if accept:
            kept_head["accepted"] = signing.key_id()
        tmp.write_text(json.dumps(kept_head) + "\n")
        os.replace(tmp, path)


def accept_restore() -> Head | None:
    """A person looked at a restored database and accepts it: its own latest checkpoint becomes the
    head (no head at all when it has none). Returns the head given up."""
    given_up = signed_head()
    path = head_file()
    latest = Checkpoint.objects.order_by("-size").first()
    if latest is not None:
        remember(latest, accept=True)
    elif path is not None:
        path.unlink(missing_ok=True)
    return given_up


def keep_the_first() -> None:
    """No head is kept yet: the sound latest checkpoint (if any) becomes the head now. A town from before
    the head file (2026-12-01) kept none until its first fold after the upgrade, and was served on a
    database restored meanwhile, or with nothing to fold, as if nothing could be behind; it is written
    at the first look instead, as the town starts (asgi.check_at_start) or reads its mode. What a first
    fold would have kept, kept sooner: a head file lost with its folder is kept again the same way."""
    if head_file() is None:
        return
    latest = Checkpoint.objects.order_by("-size").first()
    if latest is None:
        return
    try:
        remember(latest)
    except OSError as error:
        # Said, and nothing stopped: the look stops no fold that went on before (its own keeping of
        # the head fails the same way, after folding).
        log.warning("could not keep the Archive's head at the first look: %s", error)


def behind() -> str | None:
    """Why this database may not be served, or None: its Archive lacks the last checkpoint the town
    signed, or holds one of that size with another root, or its latest checkpoint is not sound."""
    head = signed_head()
    if head is None:
        why = unsound(None)
        if why is None:
            keep_the_first()
        return why
    cp = Checkpoint.objects.filter(size=head.size).first()
    if cp is None:
        latest = Checkpoint.objects.order_by("-size").values_list("size", flat=True).first() or 0
        if latest > head.size:
            return (
                f"The Archive in this database reaches {latest} footsteps but holds no checkpoint of "
                f"{head.size}, the last this town signed: the database is not this town's, or was changed."
            )
        return (
            f"The Archive in this database reaches {latest} footsteps, but this town signed a checkpoint "
            f"of {head.size}: the database is behind its own Archive (restored from an older backup?)."
        )
    if cp.root != head.root:
        return (
            f"The Archive's checkpoint of {head.size} footsteps in this database is not the one this town "
            "signed: the database is not this town's, or was changed."
        )
    return unsound(head)


# The latest checkpoint found sound in this process, so that its signature is checked once, not at
# every look: (size, root, frontier, key id, signature, the town key's id then).
_sound: tuple[int, str, str, str, str, str] | None = None


def unsound(head: Head | None) -> str | None:
    """Why the database's latest checkpoint, the one the next fold builds on, cannot be built on (None
    when it can): not signed by the town key, a frontier that does not make its root or its size, or
    leaves that do not end where it says (fewer, more, or a last one that is not its footstep's)."""
    global _sound
    # Here, not at the top: the Archive's module imports this one, to ask it before every fold.
    from clockford.town.archive import checkpoint_body, entry_bytes

    # One statement, so a fold committing meanwhile is seen whole or not at all.
    last_leaf = ArchiveLeaf.objects.filter(index=OuterRef("size") - 1)
    row = (
        Checkpoint.objects.order_by("-size")
        .annotate(
            top=Subquery(ArchiveLeaf.objects.order_by("-index").values("index")[:1]),
            leaf_hash=Subquery(last_leaf.values("hash")[:1]),
            leaf_step=Subquery(last_leaf.values("footstep_id")[:1]),
        )
        .values_list("size", "root", "frontier", "key_id", "signature", "top", "leaf_hash", "leaf_step")
        .first()
    )
    if row is None:
        return None
    size, root, frontier, key_id, signature, top, leaf_hash, leaf_step = row
    changed = f"The Archive's latest checkpoint in this database ({size} footsteps)"
    try:
        shape = json.dumps(frontier, separators=(",", ":"))
        tree = [(int(h), bytes.fromhex(x)) for h, x in frontier]
        if any(not 0 <= h < 64 for h, _ in tree):
            raise ValueError("a height no tree of 64-bit sizes has")
        made = merkle.frontier_root(tree).hex()
        counted = sum(2**h for h, _ in tree)
    except (TypeError, ValueError, OverflowError):
        return f"{changed} keeps a frontier that cannot be read: the database was changed."
    town_key = signing.key_id()
    seen = (size, root, shape, key_id, signature, town_key)
    # A checkpoint signed with an earlier town key (the key was changed: docs/signatures.md) cannot be
    # checked with today's; it may be built on once a person has accepted it as the head (`archive head
    # --accept` keeps its size, root and key), and the next fold signs with today's key.
    accepted = head is not None and (head.size, head.root, head.key_id, head.accepted) == (size, root, key_id, town_key)
    if seen != _sound:
        if key_id != town_key and not accepted:
            return (
                f"{changed} names key {key_id}, not this town's key {town_key}: it is not this town's, or "
                "the town key was changed since (if so, look, then accept it with manage.py archive head --accept)."
            )
        if made != root or counted != size:
            return f"{changed} keeps a frontier that does not make its root and size: the database was changed."
        if key_id == town_key and not signing.verify_bytes(
            checkpoint_body(size, bytes.fromhex(root)), signature, signing.public_key_hex()
        ):
            return f"{changed} is not signed by this town's key: the database was changed."
    if top != size - 1 or leaf_hash is None:
        return (
            f"{changed} signs {size} leaves, but the leaves end at {0 if top is None else top + 1}: the log "
            "was cut or added to."
        )
    step = Footstep.objects.filter(number=leaf_step).first()
    if step is None or merkle.leaf_hash(entry_bytes(step)).hex() != leaf_hash:
        return f"{changed} ends with a leaf that is not its footstep's: the log was changed."
    _sound = seen
    return None
