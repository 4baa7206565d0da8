"""The Tavern's records: the notice board."""

from django.db import models


class Notice(models.Model):
    """A notice pinned on the board. It is published only after the agent's person said yes to the
    exact words (the desk holds the call until then); the board keeps the newest few hundred."""

    id = models.CharField(primary_key=True, max_length=20)
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="notices")
    # The pennant the passport flew when it posted: a later change of pennant does not rewrite the board.
    pennant = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001 (none chosen is not "")
    text = models.TextField()
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["-at", "-id"])]

    def __str__(self) -> str:
        return self.id
