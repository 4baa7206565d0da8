"""Who is the town's staff. On a town without sign-in the owner's claim makes its staff (hall/claim.py);
a signed-in town has no owner and no claim, so the person who runs it names staff on its machine with
`./town manage staff`, as they open the town (`town_mode`) or accept its Archive's head there."""

from django.db import transaction

from hall.models import Account

NO_ACCOUNT = "No account {handle} in this town. The hall shows a person their account's number (AC-...) at the foot of every page."
OWNER_STAYS = "{account} owns this town, and the owner of a town is always its staff."


class StaffError(Exception):
    """Why staff could not be changed, in the words the command prints."""


def find_staff() -> list[Account]:
    return list(Account.objects.filter(is_staff=True).order_by("created_at", "pk"))


def find_account(handle: str) -> Account:
    account = Account.objects.filter(handle=handle.strip().upper()).first()
    if account is None:
        raise StaffError(NO_ACCOUNT.format(handle=handle.strip()))
    return account


def do_set_staff(account: Account, staff: bool) -> bool:
    """Make `account` staff, or no longer staff; whether anything changed. The owner stays staff."""
    if not staff and account.is_owner:
        raise StaffError(OWNER_STAYS.format(account=account))
    with transaction.atomic():
        changed = Account.objects.filter(pk=account.pk, is_staff=not staff).update(is_staff=staff)
    account.is_staff = staff
    return bool(changed)
