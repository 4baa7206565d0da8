"""Make the town ready to serve: its key, and a word on what it serves (run by ./town up). The hall
says its own part with hall_ready: the core never imports the hall."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError

from clockford.commands import TownCommand
from clockford.town import signing


def mode_words() -> str:
    """How agents enter, true to the town's mode: signed in with OAuth (CLOCKFORD_SIGN_IN), or not."""
    if settings.CLOCKFORD_SIGN_IN:
        return (
            "streamable HTTP, with sign-in: agents connect with an OAuth access token, and a person allows each "
            "app in the hall with a passkey; an agent's passport is its person's, and returns when it reconnects"
        )
    return "streamable HTTP, no sign-in; each session gets a passport"


class Command(TownCommand):
    help = "Make the town key if missing and say what the town serves."

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(str(settings.CLOCKFORD["KEY_FILE"]))
        try:
            made = signing.make_key(path)
            key = signing.key_id()
        except signing.KeyFileError as exc:
            raise CommandError(str(exc)) from None
        except OSError as exc:
            raise CommandError(f"The town key cannot be made or read at {path}: {exc.strerror}.") from None
        self.stdout.write(f"Town key {key} ({'made now' if made else 'kept'}).")
        self.stdout.write(f"MCP endpoint: {settings.TOWN_URL}/mcp ({mode_words()})")
        self.stdout.write(f"Town status: {settings.TOWN_URL}/status")
