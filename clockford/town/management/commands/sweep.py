"""manage.py sweep [--every SECONDS]: tidy storage once, or every so many seconds (docs/retention.md).

`./town up` sweeps by itself (clockford/asgi.py); a deployment that runs the sweep as its own service
sets CLOCKFORD_SWEEP_SECONDS=0 on the town and runs `manage.py sweep --every 300` beside it.
"""

import logging
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import close_old_connections

from clockford.commands import TownCommand
from clockford.town import sweep

log = logging.getLogger(__name__)

# The longest wait between sweeps: a day. Rows kept for retention are counted in days, so a longer wait
# would only let them pile up; and a wait of centuries would not sweep late but fail, after the first
# sweep, with a traceback from time.sleep.
EVERY_MOST = 24 * 3600


class Command(TownCommand):
    help = "Tidy storage: remove rows whose outcome reads the same without them, and say how many per table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--every", type=int, default=0, help="sweep again every so many seconds, until stopped")

    def handle(self, *args: Any, **options: Any) -> None:
        every = options["every"]
        if not 0 <= every <= EVERY_MOST:
            # Asked before the first sweep, so a mistyped number sweeps nothing.
            raise CommandError(f"--every takes 0 (sweep once) to {EVERY_MOST} seconds (a day), not {every}.")
        while True:
            self.report(sweep.run())
            if every == 0:
                return
            time.sleep(every)
            # A service that runs for days: a connection the database closed meanwhile is opened again.
            close_old_connections()

    def report(self, removed: dict[str, int]) -> None:
        self.stdout.write("Removed, table by table:")
        for name, n in removed.items():
            self.stdout.write(f"  {name}: {n}")
        total = sum(removed.values())
        self.stdout.write(f"Swept {total} row{'' if total == 1 else 's'} in all.")
