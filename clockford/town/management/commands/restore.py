"""manage.py restore FILE: put a backup back, then check the Archive it holds.

Stopping the town first is the way (docs/backup.md), but a restore must not depend on it: a town still
serving would go on answering from the database put back, and an older backup's Archive holds fewer
footsteps than the town has signed, so its next calls would take numbers the town has already given and
signed with other contents. So the town is closed before the database is replaced, for longer than a
worker keeps its copy of the mode (desk.MODE_FRESH_SECONDS); once the backup is back, a database
behind the town's signed head, or one whose Archive does not verify, stays closed until a person looks.
Any other restored database carries the mode its backup had, and a town still serving reads it within
a second.
"""

import time
from pathlib import Path

from django.core.management.base import CommandError
from django.db import DatabaseError

from clockford.town import archive, backup, desk, head
from clockford.town.management.commands import backup as backup_command

RESTORING = "A backup is being restored (manage.py restore)."
# Past desk.MODE_FRESH_SECONDS: a call that read the mode as open just before the town closed has
# finished its transaction by then, or waits for the restore's lock and lands in the old database.
SETTLE_SECONDS = desk.MODE_FRESH_SECONDS + 0.5


# What the last restore dropped that was not the town's, said after it (Command.done).
DROPPED: list[str] = []


def close_then_restore(source: Path) -> str:
    kind = backup.restorable(source)  # nothing closes for a file that is not a backup of this town's kind
    was_closed = _close_for_restore()
    try:
        DROPPED[:] = backup.restore(source, kind)
        return kind
    except backup.BackupError as exc:
        if was_closed:
            raise backup.BackupError(
                f"{exc} The town was closed for the restore and stays closed: manage.py town_mode open opens it."
            ) from exc
        raise


def _close_for_restore() -> bool:
    """Close the town in the database about to be replaced, and wait until no worker answers from a copy
    of the mode read before; whether it was closed. A database without the town's tables (a new one,
    before its first migrate) has nothing serving from it."""
    try:
        desk.set_town_mode("closed", RESTORING)
    except DatabaseError:
        return False
    time.sleep(SETTLE_SECONDS)
    return True


def closed(why: str) -> CommandError:
    """Close the restored town for `why`, and the refusal that says so."""
    desk.set_town_mode("closed", why)
    return CommandError(f"{why} The town is closed until a person looks.")


class Command(backup_command.Command):
    help = (
        "Restore the town's database from a backup made by manage.py backup, then verify its Archive. "
        "The town is closed while it runs."
    )
    step = staticmethod(close_then_restore)

    def done(self, kind: str, file: Path) -> None:
        self.stdout.write(f"Restored the {kind} database from {file.name}.")
        if DROPPED:
            self.stdout.write(
                "Dropped with the town's tables, as neither the backup nor this version of Clockford knows "
                f"them (an operator's own, or a later version's): {', '.join(DROPPED)}."
            )
        verdict = archive.verify()
        # Said as `archive verify` says them: a wrong block in the backup slows proofs until `archive
        # blocks` makes it again, and the person restoring is the one to tell.
        for said in [*verdict.problems[:20], *verdict.blocks[:20]]:
            self.stderr.write(said)
        blocks = verdict.blocks_said()
        if not verdict.ok:
            raise closed(f"The restored Archive does not verify: {len(verdict.problems)} problems.{blocks}")
        self.stdout.write(f"The restored Archive verifies: {verdict.size} footsteps.{blocks}")
        try:
            behind = head.behind()
        except RuntimeError as exc:  # the head file cannot be read: nobody can say the database is not behind
            raise closed(str(exc)) from exc
        if behind:
            desk.set_town_mode("closed", behind)
            self.stdout.write(
                behind + " The town is closed until a person accepts it: manage.py archive head --accept."
            )
        else:
            desk.forget_town_mode()  # this process's copy, read before the database was replaced
            self.stdout.write(f"The town's mode in the restored database: {desk.town_mode()}.")
