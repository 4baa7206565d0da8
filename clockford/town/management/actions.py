"""What the town's management commands share: the first word that says what to do
(`manage.py archive verify`, `manage.py census sync URL`, `manage.py export check FILE`), and reading
the JSON file a person hands one."""

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser


def actions(parser: CommandParser, helps: dict[str, str]) -> dict[str, ArgumentParser]:
    """One subcommand per action, in this order, each with its help; `handle` reads the one given as
    options["action"]. Returns each action's parser, for the arguments of its own."""
    sub = parser.add_subparsers(dest="action", required=True)
    return {name: sub.add_parser(name, help=text) for name, text in helps.items()}


def json_file(name: str) -> Any:
    """The JSON in the file a person named, or why it cannot be read, in words: a file that is not there,
    a folder, bytes that are not UTF-8, text that is not JSON, or arrays nested past what the reader
    follows (all a traceback before)."""
    try:
        return json.loads(Path(name).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        why = getattr(error, "strerror", None) or error
        raise CommandError(f"Cannot read {name} as JSON: {why}.") from error
