"""manage.py backup FILE: a consistent copy of the town's database, made while the town serves."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from clockford.commands import TownCommand
from clockford.town import backup


class Command(TownCommand):
    help = "Back up the town's database to FILE (never overwrites). The town key is not in it: keep it apart."
    # restore is this command with its own step and its own words after it (commands/restore.py).
    step: Callable[[Path], str] = staticmethod(backup.backup)

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            kind = self.step(options["file"])
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.done(kind, options["file"])

    def done(self, kind: str, file: Path) -> None:
        self.stdout.write(f"Backed up the {kind} database to {file.name}.")
