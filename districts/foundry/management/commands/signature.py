"""manage.py signature check FILE: every signature in FILE, checked by the single-file verifier that
ships in docs/ (docs/verify_signature.py, no code of the town's), then whether each was made by a key
this town signs with (the town key, the course keys, the certificate key)."""

from typing import Any

from django.core.management.base import CommandError, CommandParser

from clockford.commands import TownCommand
from clockford.town import signing
from clockford.town.management.actions import actions, json_file
from districts.foundry import services as foundry
from districts.university import services as university


def town_keys() -> list[str]:
    """The public keys (hex) this town signs with or has signed with."""
    keys = [signing.public_key_hex(), foundry.key_view()["publicKey"], university.key_view()["publicKey"]]
    return keys + [k["publicKey"] for k in university.course_keys()]


class Command(TownCommand):
    help = "Check the signatures in a JSON file: a course, a slip, a diploma, a certificate or an Archive proof."

    def add_arguments(self, parser: CommandParser) -> None:
        actions(parser, {"check": "verify every signature the file holds (docs/signatures.md)"})["check"].add_argument(
            "file"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        value = json_file(options["file"])
        v = signing.offline_verifier()
        results = v.check_any(value, [])
        ours = v.check_any(value, town_keys())
        failed = 0
        for (what, problem), (_, pinned) in zip(results, ours, strict=True):
            if problem is not None:
                failed += 1
                self.stdout.write(f"{what.strip()}: FAILS: {problem}")
            elif pinned is not None:
                failed += 1
                self.stdout.write(f"{what.strip()}: the signature checks, but not with a key of this town")
            else:
                self.stdout.write(f"{what.strip()}: ok, signed by this town")
        if failed:
            raise CommandError(f"{failed} of {len(results)} signatures do not check.")
