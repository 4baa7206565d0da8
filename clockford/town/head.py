"""The Archive's head, kept outside the database: the last checkpoint this town signed.

A database restored from an older backup holds fewer footsteps than the town has already signed for.
Serving it would fold new footsteps into leaves the town once signed with other contents: two signed
trees of one size, which is exactly what a tamper-evident log must never show. So each fold, once
committed, writes its size and root to a small file beside the town key (`ARCHIVE_HEAD_FILE`), and a
town whose database is behind that file does not serve: it starts closed, its fold signs nothing,
and `manage.py town_mode open` refuses, until a person has looked and accepted the restore with
`manage.py archive head --accept`. From then on the town signs checkpoints that differ from ones it
signed before the restore: a witness that kept an old one will see the fork, as it should.

The file only ever grows: a fold that finished after a larger one never writes a smaller head. A
crash between a fold's commit and the file's write leaves the file one fold behind, which is safe
(a lower head only lets through a database that is further ahead).
"""

import fcntl
import json
import os
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from clockford.town.models import Checkpoint


@dataclass(frozen=True)
class Head:
    size: int
    root: str
    key_id: str


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
        return Head(int(data["size"]), str(data["root"]), str(data["key_id"]))
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
        tmp.write_text(json.dumps({"size": cp.size, "root": cp.root, "key_id": cp.key_id}) + "\n")
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


def behind() -> str | None:
    """Why this database may not be served, or None: its Archive lacks the last checkpoint the town
    signed, or holds one of that size with another root."""
    head = signed_head()
    if head is None:
        return None
    cp = Checkpoint.objects.filter(size=head.size).first()
    if cp is None:
        latest = Checkpoint.objects.order_by("-size").values_list("size", flat=True).first() or 0
        return (
            f"The Archive in this database reaches {latest} footsteps, but this town signed a checkpoint "
            f"of {head.size}: the database is behind its own Archive (restored from an older backup?)."
        )
    if cp.root != head.root:
        return (
            f"The Archive's checkpoint of {head.size} footsteps in this database is not the one this town "
            "signed: the database is not this town's, or was changed."
        )
    return None
