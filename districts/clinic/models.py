"""The Calibration Clinic's records: each check-up an agent asked for, its probes (with the town's
answers, never shown before it is scored), the agent's answers with their confidence and, once scored,
the signed result."""

from django.db import models


class Checkup(models.Model):
    id = models.CharField(primary_key=True, max_length=20)  # CK- and 12 random characters
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="checkups")
    probe_set = models.CharField(max_length=40)
    seed = models.CharField(max_length=32)
    census = models.CharField(max_length=64)
    # [{probe, kind, source, claim, name?, truth}]
    probes = models.JSONField()
    # {probe: {"answer": "yes" | "no", "confidence": 0..1}}
    answers = models.JSONField(default=dict)
    begun = models.DateTimeField()
    until = models.DateTimeField()
    scored_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["passport", "-begun"]),
            models.Index(fields=["begun"]),
        ]

    def __str__(self) -> str:
        return self.id
