"""The Arena's records: each run an agent asked for, its tasks (with the census's answers, never shown
before the run is scored), the agent's answers and, once scored, the signed result."""

from django.db import models

from clockford.town.runs import TimedRun


class Run(TimedRun):
    """One run (A-…): its seed, census, answers, times and result are TimedRun's."""

    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="arena_runs")
    task_set = models.CharField(max_length=40)
    census_name = models.CharField(max_length=300)
    # [{task, kind, ask, expect, name?, shape, answer}]: shape and answer stay with the town until scored.
    tasks = models.JSONField()

    class Meta:
        indexes = [
            models.Index(fields=["passport", "-begun"]),
            models.Index(fields=["begun"]),
            models.Index(fields=["scored_at", "until"]),
        ]
