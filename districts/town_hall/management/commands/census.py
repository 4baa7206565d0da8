"""Take the census and look after it.

  manage.py census import FILE     a file in the registry's list shape ({"servers": [...]})
  manage.py census sync URL        a registry's list API (GET /v0.1/servers, cursor paging); later runs
                                   ask only for what changed (updated_since); --full reads everything
  manage.py census demo            the demo census the town ships (made-up servers, labelled demo)
  manage.py census ensure [--url URL]
                                   what ./town up runs: sync from URL when given, else from
                                   CLOCKFORD_REGISTRY_URL when set, else the demo when empty
  manage.py census proof LOT       prove one lot's record is in the sealed census
  manage.py census status          what the census holds

Every run is idempotent and commits in batches: interrupt it and run it again.
"""

import json
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from clockford.commands import TownCommand
from clockford.town.management.actions import actions
from clockford.town.tooling import Refused
from districts.town_hall import ingest, services


class Command(TownCommand):
    help = "Import, sync or prove the census of the official MCP registry."

    def add_arguments(self, parser: CommandParser) -> None:
        given = actions(
            parser,
            {
                "import": "Import a file in the registry's list shape.",
                "sync": "Sync from a registry's list API.",
                "demo": "Load the demo census the town ships.",
                "ensure": (
                    "Sync from --url, or else from CLOCKFORD_REGISTRY_URL when set; else load the demo into an "
                    "empty census."
                ),
                "proof": "An inclusion proof of one lot's record in the seal.",
                "status": "What the census holds.",
            },
        )
        given["import"].add_argument("file")
        given["import"].add_argument("--replace", action="store_true", help="Let a demo file replace a real census.")
        given["sync"].add_argument("url")
        given["sync"].add_argument("--full", action="store_true", help="Read every page, not only what changed.")
        given["demo"].add_argument("--replace", action="store_true", help="Replace a real census with the demo.")
        given["ensure"].add_argument("--url", default="")
        given["proof"].add_argument("lot")

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        bar = sys.stderr
        try:
            if action == "import":
                path = Path(options["file"])
                if not path.is_file():
                    raise CommandError(f"No file at {path}.")
                tally, s = ingest.import_file(path, bar, replace=options["replace"])
                self.report(tally, s)
            elif action == "sync":
                tally, s = ingest.sync(options["url"], bar, full=options["full"])
                self.report(tally, s)
            elif action == "demo":
                tally, s = ingest.import_demo(bar, replace=options["replace"])
                self.report(tally, s)
            elif action == "ensure":
                # The setting, not a command line, carries the address ./town up syncs from: it may hold
                # the registry's credentials (clockford/settings.py CENSUS_REGISTRY_URL).
                url = options["url"] or settings.CENSUS_REGISTRY_URL
                self.stdout.write(ingest.ensure(url or None, bar))
            elif action == "proof":
                try:
                    self.stdout.write(json.dumps(services.inclusion_proof(options["lot"]), indent=2))
                except Refused as r:
                    raise CommandError(r.say) from None
            elif action == "status":
                summary = services.town_summary()
                s = services.state()
                summary["source"] = s.source
                summary["syncSince"] = s.sync_since or None
                self.stdout.write(json.dumps(summary, indent=2))
        except ingest.CensusError as err:
            raise CommandError(str(err)) from None

    def report(self, tally: ingest.Tally, s: Any) -> None:
        for note in tally.notes:
            self.stdout.write(note)
        self.stdout.write(tally.line())
        self.stdout.write(
            f"Census: {s.servers:,} servers from {s.entries:,} registry entries; "
            f"{s.lit_lamps:,} lamps lit; sealed root {s.root}."
        )
