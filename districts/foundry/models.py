"""The Foundry's records: the certificates it cast (000 section 18)."""

from django.conf import settings
from django.db import models

from clockford.town.models import Signed


class Certificate(Signed):
    """A certificate the town cast for a passport: the signed statement as it was handed over, and its
    standing, which only staff change (suspend, reinstate, revoke) in the hall, each change signed with
    the staff member's passkey (Signed), so it can be checked. Expiry is derived from `until` when read."""

    STANDINGS = [("live", "live"), ("suspended", "suspended"), ("revoked", "revoked")]

    id = models.CharField(primary_key=True, max_length=20)
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="certificates")
    signed = models.JSONField()
    issued_at = models.DateTimeField()
    until = models.DateTimeField()
    status = models.CharField(max_length=12, choices=STANDINGS, default="live")
    changed_at = models.DateTimeField(null=True, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["passport", "-issued_at"])]

    def __str__(self) -> str:
        return self.id
