"""What the town's management commands share: the first word that says what to do
(`manage.py archive verify`, `manage.py census sync URL`, `manage.py export check FILE`)."""

from argparse import ArgumentParser

from django.core.management.base import CommandParser


def actions(parser: CommandParser, helps: dict[str, str]) -> dict[str, ArgumentParser]:
    """One subcommand per action, in this order, each with its help; `handle` reads the one given as
    options["action"]. Returns each action's parser, for the arguments of its own."""
    sub = parser.add_subparsers(dest="action", required=True)
    return {name: sub.add_parser(name, help=text) for name, text in helps.items()}
