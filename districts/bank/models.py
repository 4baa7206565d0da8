"""The Bank's records: what each passport and each account drew in an hour, and requests for more."""

from django.db import models

from clockford.town.models import Decided


class Ledger(models.Model):
    """What one holder drew in one clock hour, and what its person granted on top of the hour's amount.

    A holder is a passport (its id) or an account ("account:<pk>"): a change draws from both. Rows of
    past hours are never read again; time is derived from `hour`, never swept."""

    holder = models.CharField(max_length=40)
    hour = models.DateTimeField()
    drawn = models.PositiveIntegerField(default=0)
    granted = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["holder", "hour"], name="bank_one_ledger_per_hour")]

    def __str__(self) -> str:
        return f"{self.holder} {self.hour:%Y-%m-%d %H}:00"


class AuthorityRequest(Decided):
    """An agent's request for more changes this hour, which its person allows or refuses in the hall.

    `status` is what was decided; a request still waiting when its hour ends reads as lapsed."""

    NOT_FOUND_SAY = "No request you decide has that number."
    hour = models.DateTimeField()
    reason = models.CharField(max_length=32)
    amount = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, default="waiting")
    asked_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["passport", "asked_at"])]
