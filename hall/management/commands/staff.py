"""manage.py staff [ACCOUNT] [--remove]: list the town's staff, or make an account staff or not.

A signed-in town has no owner, so nobody there is staff until the person who runs it names someone
here; on a town without sign-in the owner is staff from the claim on, and may name more."""

from typing import Any

from django.core.management.base import CommandError, CommandParser

from clockford.commands import TownCommand
from hall.staffing import StaffError, do_set_staff, find_account, find_staff


class Command(TownCommand):
    help = "List the town's staff, or make an account (AC-...) staff; --remove makes it staff no longer."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("account", nargs="?", help="the account's number, AC-..., as the hall shows it")
        parser.add_argument("--remove", action="store_true", help="the account is no longer staff")

    def handle(self, *args: Any, **options: Any) -> None:
        handle = options["account"]
        if handle:
            try:
                account = find_account(handle)
                changed = do_set_staff(account, not options["remove"])
            except StaffError as exc:
                raise CommandError(str(exc)) from None
            if options["remove"]:
                said = "is no longer staff" if changed else "was not staff. Nothing changed"
            else:
                said = (
                    "is staff now: the staff room is /hall/staff" if changed else "was staff already. Nothing changed"
                )
            self.stdout.write(f"{account} {said}.")
        elif options["remove"]:
            raise CommandError("Name the account to remove from the staff: manage.py staff AC-... --remove.")
        staff = find_staff()
        if not staff:
            self.stdout.write("The town has no staff. Name an account with manage.py staff AC-...")
        else:
            self.stdout.write(f"The town's staff ({len(staff)}): " + ", ".join(str(a) for a in staff))
