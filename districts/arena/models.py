"""The Arena's records: each run an agent asked for, its tasks (with the census's answers, never shown
before the run is scored), the agent's answers and, once scored, the signed result."""

from django.db import models


class Run(models.Model):
    id = models.CharField(primary_key=True, max_length=20)  # A- and 12 random characters
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="arena_runs")
    task_set = models.CharField(max_length=40)
    seed = models.CharField(max_length=32)
    census = models.CharField(max_length=64)  # the sealed census's root the tasks were built from
    census_name = models.CharField(max_length=300)
    # [{task, kind, ask, expect, name?, shape, answer}]: shape and answer stay with the town until scored.
    tasks = models.JSONField()
    # {task: the answer as the town read it}: a later answer to the same task replaces the earlier.
    answers = models.JSONField(default=dict)
    begun = models.DateTimeField()
    until = models.DateTimeField()
    scored_at = models.DateTimeField(null=True, blank=True)
    # {statement, signature, alg, publicKey}, once scored.
    result = models.JSONField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["passport", "-begun"]),
            models.Index(fields=["begun"]),
            models.Index(fields=["scored_at", "until"]),
        ]

    def __str__(self) -> str:
        return self.id
