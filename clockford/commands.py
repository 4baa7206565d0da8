"""What the town's own manage.py commands share (archive, backup, census, staff, ...)."""

from django.core.management.base import BaseCommand


class TownCommand(BaseCommand):
    """A command of the town's. Django runs its system checks before every command unless told not to:
    they import every view to resolve the URLs and read every template, 0.7 s of each command's 1.8
    (a backup, a fold, a verify, run by a person or by cron, or many times by the tests). They look
    for mistakes in the code, not in a town: `./town up` runs them once in `migrate`, and
    `manage.py check` runs them on demand."""

    requires_system_checks: list[str] = []
