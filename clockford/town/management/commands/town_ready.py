"""Make the town ready to serve: its key, a word on what it serves, and the hall's claim link while
the town has no owner (run by ./town up)."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from clockford.town import signing
from hall import services as hall


class Command(BaseCommand):
    help = "Make the town key if missing and say what the town serves."

    def handle(self, *args: Any, **options: Any) -> None:
        made = signing.make_key(Path(str(settings.CLOCKFORD["KEY_FILE"])))
        self.stdout.write(f"Town key {signing.key_id()} ({'made now' if made else 'kept'}).")
        self.stdout.write(
            f"MCP endpoint: {settings.TOWN_URL}/mcp (streamable HTTP, no sign-in; each session gets a passport)"
        )
        self.stdout.write(f"Town status: {settings.TOWN_URL}/status")
        link = hall.claim_link_if_unowned()
        if link:
            self.stdout.write(f"This town has no owner yet. Claim it once, with a passkey, at: {link}")
        else:
            self.stdout.write(f"The hall: {settings.HALL_URL}/hall/")
