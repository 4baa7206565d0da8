"""manage.py town_mode [open|read-only|closed]: read or set the town's mode.

A town closes itself when its Archive cannot take a footstep; a person reopens it here, after looking.
"""

from typing import Any

from django.core.management.base import CommandError, CommandParser

from clockford.commands import TownCommand
from clockford.town import desk, head
from clockford.town.models import TownState


class Command(TownCommand):
    help = "Show the town's mode, or set it: open, read-only (writes wait) or closed (every call waits)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("mode", nargs="?", choices=["open", "read-only", "closed"])
        parser.add_argument("--why", default="", help="a short reason, kept with the mode")

    def handle(self, *args: Any, **options: Any) -> None:
        mode = options["mode"]
        if mode == "open" and (why := head.behind()):
            raise CommandError(why + " Look, then accept it with manage.py archive head --accept.")
        if mode:
            desk.set_town_mode(mode, options["why"] or f"Set by a person with manage.py town_mode {mode}.")
        state = TownState.objects.filter(pk=1).first()
        current = state.mode if state else "open"
        why = f" ({state.why})" if state and state.why else ""
        self.stdout.write(f"The town is {current}{why}.")
