"""The Courthouse's records: disputes of footsteps, on the staff's docket.

Reports of suspicious instructions are the core's (clockford.town.models.Report), because the desk
reads them on every call that changes things; the Courthouse only files them.
"""

from django.conf import settings
from django.db import models


class Dispute(models.Model):
    """One footstep an agent disputes, with its reason, until a member of staff rules on it.

    Ids are "D-" and eight random digits: Dice House runs are "D-" and letters (DECISIONS 14).
    """

    id = models.CharField(primary_key=True, max_length=20)
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="disputes")
    footstep = models.BigIntegerField()
    # Copied from the footstep when the dispute is filed, so the docket reads without the Archive.
    tool = models.CharField(max_length=64)
    outcome = models.CharField(max_length=80)
    reason = models.TextField()
    filed_at = models.DateTimeField()
    # open, ruled
    status = models.CharField(max_length=8, default="open")
    ruled_at = models.DateTimeField(null=True, blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The staff's words: what was decided and why.
    ruling = models.TextField(blank=True, default="")

    class Meta:
        indexes = [models.Index(fields=["passport", "status"]), models.Index(fields=["status", "filed_at"])]

    def __str__(self) -> str:
        return self.id
