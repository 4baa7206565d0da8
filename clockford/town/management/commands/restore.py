"""manage.py restore FILE: put a backup back, then check the Archive it holds (stop the town first)."""

from pathlib import Path

from django.core.management.base import CommandError

from clockford.town import archive, backup, head
from clockford.town.management.commands import backup as backup_command


class Command(backup_command.Command):
    help = "Restore the town's database from a backup made by manage.py backup, then verify its Archive."
    step = staticmethod(backup.restore)

    def done(self, kind: str, file: Path) -> None:
        self.stdout.write(f"Restored the {kind} database from {file.name}.")
        verdict = archive.verify()
        if not verdict.ok:
            for problem in verdict.problems[:20]:
                self.stderr.write(problem)
            raise CommandError(f"The restored Archive does not verify: {len(verdict.problems)} problems.")
        self.stdout.write(f"The restored Archive verifies: {verdict.size} footsteps.")
        if why := head.behind():
            self.stdout.write(
                why + " The town will not serve it until a person accepts it: manage.py archive head --accept."
            )
