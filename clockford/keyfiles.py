"""The town's own secrets kept in files, each made once: the town key, the Django secret key of a town
that names none, the hall's notification (VAPID) key.

Such a file is made whole or not at all: written to a file of its own, flushed to disk, then linked at
its path. A process killed while making one leaves nothing at the path (the next start makes it), never
an empty or half-written file that no start could read; link() refuses a path that exists, so when two
processes start at once, one makes the file and the other reads it. Imports nothing of Django:
settings.py uses it.
"""

import glob
import os
import tempfile
import time
from pathlib import Path


def write_new(path: Path, data: bytes) -> bool:
    """Make `path` hold `data`, readable by its owner alone, unless it exists. Returns whether it was made now."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        return False
    _clear_old_drafts(path)
    fd, draft = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)  # made 0600
    try:
        os.write(fd, data)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        try:
            os.link(draft, path)
        except FileExistsError:
            return False
        except OSError:
            # A filesystem without hard links: create the file alone and write it in one call.
            return _made_in_place(path, data)
        _sync_folder(path.parent)
        return True
    finally:
        if fd >= 0:
            os.close(fd)
        os.unlink(draft)


# A draft older than this was left by a process killed while making the file (a making takes
# milliseconds); a younger one may be another process's, making it now.
DRAFT_LEFT = 60.0


def _clear_old_drafts(path: Path) -> None:
    """Remove the drafts of `path` that processes killed while making it left behind (`.town.key-...`),
    so that none lingers beside the file, holding a key that was never used."""
    now = time.time()
    for draft in path.parent.glob(f".{glob.escape(path.name)}-*"):
        try:
            if now - draft.stat().st_mtime > DRAFT_LEFT:
                draft.unlink()
        except OSError:
            pass  # gone meanwhile, or not ours to remove: the file is made all the same


def _made_in_place(path: Path, data: bytes) -> bool:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    return True


def _sync_folder(folder: Path) -> None:
    """The folder's entry for the new file reaches the disk too (where a folder can be opened: POSIX)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
