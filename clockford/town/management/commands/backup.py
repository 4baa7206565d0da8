"""manage.py backup FILE: a consistent copy of the town's database, made while the town serves."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clockford.town import backup


class Command(BaseCommand):
    help = "Back up the town's database to FILE (never overwrites). The town key is not in it: keep it apart."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            kind = backup.backup(options["file"])
        except backup.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Backed up the {kind} database to {options['file'].name}.")
