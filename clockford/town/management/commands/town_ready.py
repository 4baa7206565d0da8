"""Make the town ready to serve: its key, and a word on what it serves (run by ./town up). The hall
says its own part with hall_ready: the core never imports the hall."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from clockford.town import signing


class Command(BaseCommand):
    help = "Make the town key if missing and say what the town serves."

    def handle(self, *args: Any, **options: Any) -> None:
        made = signing.make_key(Path(str(settings.CLOCKFORD["KEY_FILE"])))
        self.stdout.write(f"Town key {signing.key_id()} ({'made now' if made else 'kept'}).")
        self.stdout.write(
            f"MCP endpoint: {settings.TOWN_URL}/mcp (streamable HTTP, no sign-in; each session gets a passport)"
        )
        self.stdout.write(f"Town status: {settings.TOWN_URL}/status")
