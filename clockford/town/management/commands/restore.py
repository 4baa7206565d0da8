"""manage.py restore FILE: put a backup back, then check the Archive it holds (stop the town first)."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clockford.town import archive, backup, head


class Command(BaseCommand):
    help = "Restore the town's database from a backup made by manage.py backup, then verify its Archive."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            kind = backup.restore(options["file"])
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Restored the {kind} database from {options['file'].name}.")
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
