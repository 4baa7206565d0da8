"""manage.py export check FILE [--key HEX]: check an account's export (docs/export.md) offline."""

from typing import Any

from django.core.management.base import CommandError, CommandParser

from clockford.commands import TownCommand
from clockford.town import signing
from clockford.town.management.actions import actions, json_file


class Command(TownCommand):
    help = "Check an account's export: the town's signature on its manifest, each section, and every footstep's proof."

    def add_arguments(self, parser: CommandParser) -> None:
        check = actions(parser, {"check": "check one export file against the town key"})["check"]
        check.add_argument("file")
        check.add_argument("--key", help="the town's public key in hex (default: this town's key)")

    def handle(self, *args: Any, **options: Any) -> None:
        data = json_file(options["file"])
        if not isinstance(data, dict) or "manifest" not in data or "sections" not in data:
            raise CommandError("This file is not an export: it has no manifest and sections.")
        key = (options.get("key") or signing.public_key_hex()).lower()
        _, problem = signing.offline_verifier().check_export(data, [key])
        if problem is not None:
            raise CommandError(f"The export does not check: {problem}.")
        steps = len(data["sections"].get("footsteps") or [])
        self.stdout.write(f"The export checks: signed by the town key, {steps} footsteps each in the signed tree.")
