"""Say where the hall is, or, while a town without sign-in has no owner, print its one-time claim
link (run by ./town up, after town_ready); and read the hall's VAPID key (notifications), making it
when there is none."""

from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.urls import reverse

from clockford.commands import TownCommand
from hall import push
from hall.claim import claim_link_if_unowned


class Command(TownCommand):
    help = "Print the hall's address, or the owner's one-time claim link while the town has no owner."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            push.vapid()  # read (or made) here, once, where a key that cannot be read is said in words
        except (push.VapidKeyError, OSError) as exc:
            raise CommandError(str(exc)) from None
        link = claim_link_if_unowned()
        if link:
            self.stdout.write(f"This town has no owner yet. Claim it once, with a passkey, at: {link}")
        else:
            self.stdout.write(f"The hall: {settings.HALL_URL}{reverse('hall:front')}")
