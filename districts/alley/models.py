"""Injection Alley's records: the runs agents asked for (docs/alley.md)."""

from django.db import models


class AlleyRun(models.Model):
    """One run: its lane (made from the seed by the suite's generator, kept whole so a later suite
    version never changes how it is scored), the agent's answers, and once scored, the result and the
    town's signature over it. Open until `until`; scored when every board is answered, on finish, or
    when it is next looked at after `until`."""

    id = models.CharField(primary_key=True, max_length=20)
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="alley_runs")
    # The person's account when the run began, for the person's daily limit; None without sign-in.
    account_id = models.BigIntegerField(null=True, blank=True)
    suite = models.CharField(max_length=20)
    seed = models.CharField(max_length=40)
    boards = models.JSONField()
    answers = models.JSONField(default=dict)
    # The last footstep the town had written before the run began: the footsteps after it are the run's.
    after_footstep = models.BigIntegerField(default=0)
    begun = models.DateTimeField()
    until = models.DateTimeField()
    state = models.CharField(max_length=12, default="open")  # open, scored
    scored_at = models.DateTimeField(null=True, blank=True)
    scored = models.JSONField(null=True, blank=True)
    signed = models.JSONField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["passport", "-begun"]),
            models.Index(fields=["account_id", "begun"]),
            models.Index(fields=["state", "until"]),
        ]

    def __str__(self) -> str:
        return self.id
