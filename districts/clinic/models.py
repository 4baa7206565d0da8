"""The Calibration Clinic's records: each check-up an agent asked for, its probes (with the town's
answers, never shown before it is scored), the agent's answers with their confidence and, once scored,
the signed result."""

from django.db import models

from clockford.town.runs import TimedRun


class Checkup(TimedRun):
    """One check-up (CK-…): its seed, census, answers ({probe: {"answer": "yes" | "no", "confidence":
    0..1}}), times and result are TimedRun's."""

    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="checkups")
    probe_set = models.CharField(max_length=40)
    # [{probe, kind, source, claim, name?, truth}]
    probes = models.JSONField()

    class Meta:
        indexes = [
            models.Index(fields=["passport", "-begun"]),
            models.Index(fields=["begun"]),
        ]
