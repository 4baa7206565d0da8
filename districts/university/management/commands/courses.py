"""manage.py courses publish | list: publish a new signed version of each course file that changed."""

from typing import Any

from django.core.management.base import CommandParser
from django.db import transaction

from clockford.commands import TownCommand
from clockford.town import clock
from clockford.town.management.actions import actions
from districts.university import services


class Command(TownCommand):
    help = "Agent University's library: publish changed course files as new signed versions, or list them."

    def add_arguments(self, parser: CommandParser) -> None:
        actions(
            parser,
            {
                "publish": "a new version of every course whose file changed (or that has none)",
                "list": "each course at its current version",
            },
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["action"] == "publish":
            with transaction.atomic():
                made = services.publish()
            for v in made:
                self.stdout.write(
                    f"{v.course} version {v.version}: published {clock.iso(v.published)}, {v.bytes} bytes, "
                    f"sha256 {v.sha256}, signed by course key {v.key_id}"
                )
            self.stdout.write(f"Published {len(made)} new version{'s' if len(made) != 1 else ''}.")
            return
        for c in services.find_library():
            self.stdout.write(
                f"{c['course']} version {c['version']}: {c['published']}, {c['bytes']} bytes, {c['sha256']}"
            )
