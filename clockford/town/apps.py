from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core import checks
from django.db.backends.signals import connection_created
from django.db.models.signals import post_delete, post_save


def _literals(sender: Any, connection: Any, **_: Any) -> None:
    if connection.vendor == "postgresql":
        from clockford.postgresql import literals

        literals.adopt(connection)


def _forget_owner(sender: Any, **_: Any) -> None:
    from clockford.town import plans

    plans.forget_owner()


class TownConfig(AppConfig):
    name = "clockford.town"
    label = "town"
    verbose_name = "The town's core"

    def ready(self) -> None:
        # look_around keeps a second-old answer to "has the town an owner?" (plans.someone_holds): an
        # account saved or deleted in this process may change it, so this process asks again.
        post_save.connect(_forget_owner, sender=settings.AUTH_USER_MODEL, dispatch_uid="town.owner.saved")
        post_delete.connect(_forget_owner, sender=settings.AUTH_USER_MODEL, dispatch_uid="town.owner.deleted")
        # Every PostgreSQL connection writes the hot path's values into its statements itself
        # (clockford/postgresql/literals.py).
        connection_created.connect(_literals, dispatch_uid="town.literals")
        from clockford.face import proxy

        checks.register(proxy.check_named_for_https, checks.Tags.security, deploy=True)
