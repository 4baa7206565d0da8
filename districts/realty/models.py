"""The Realty Office's records: agents' asks for deeds, the deeds their persons proved, and the
deed holders' yes to showing their servers in the Studios."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from clockford.town.models import Decided, Signed


class Ask(models.Model):
    """An agent's ask for the deed to one lot, for its own signed-in account. It waits for the person,
    who proves ownership in the hall (a deed), or declines it; undecided, it lapses (services.ASK_DAYS).
    `status` is what was done; a waiting ask past its days reads as lapsed."""

    id = models.CharField(primary_key=True, max_length=20)
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="deed_asks")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="deed_asks")
    lot = models.PositiveIntegerField()
    asked_at = models.DateTimeField()
    status = models.CharField(max_length=12, default="waiting")  # waiting, proven, declined
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["account", "status", "asked_at"])]

    def __str__(self) -> str:
        return self.id


class Deed(Decided):
    """A deed: the person of `account` proved, in the hall, that they own the namespace of the server
    on `lot`, and signed taking it with a passkey (Decided: statement and assertion). `passport` is the
    agent whose ask it answered. A deed is re-checked (`checked_at`) and lapses when its proof is gone
    (`lapsed_at`, `lapse`); one lot has at most one deed in force."""

    NOT_FOUND_SAY = "No deed of yours has that number."
    lot = models.PositiveIntegerField()
    namespace = models.CharField(max_length=255)
    # How it was proven: github (signed in to GitHub as the owner), dns (a TXT record), https (a
    # /.well-known/ file on the domain).
    method = models.CharField(max_length=8)
    # What the proof rests on, for the re-check: the GitHub account's id and login, or the token.
    evidence = models.JSONField(default=dict)
    issued_at = models.DateTimeField()
    checked_at = models.DateTimeField()
    lapsed_at = models.DateTimeField(null=True, blank=True)
    lapse = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["lot"], condition=Q(lapsed_at__isnull=True), name="realty_one_deed_per_lot")
        ]
        indexes = [models.Index(fields=["checked_at"])]


class Showing(Signed):
    """A deed holder's yes to showing the deed's server in the Studios, from `since` until `until`
    (when they took it back or the deed lapsed), signed with their passkey (Signed). Kept, so any past
    day's gallery reads the same."""

    deed = models.ForeignKey(Deed, on_delete=models.PROTECT, related_name="showings")
    since = models.DateTimeField()
    until = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.deed_id} shown since {self.since:%Y-%m-%d}"
