"""The General Store's records: one gauge per passport."""

from django.db import models


class Gauge(models.Model):
    """What the town has put into one passport's context. One row per passport, read and written once
    per reply, inside the call's transaction; bounded: today's counts by tool (yesterday's are dropped
    on the first reply of a new day), the last RING replies, and the run since the last pause."""

    passport = models.OneToOneField("town.Passport", on_delete=models.CASCADE, primary_key=True, related_name="+")
    counted_since = models.DateTimeField()
    day = models.DateField()
    # {tool: [calls, text bytes, data bytes]} for `day`: one entry per tool the passport called.
    today = models.JSONField(default=dict)
    # The last replies, oldest first: [tool, text bytes, data bytes, digest, at (ISO 8601)].
    ring = models.JSONField(default=list)
    run_since = models.DateTimeField()
    run_calls = models.PositiveIntegerField(default=0)
    run_text = models.PositiveBigIntegerField(default=0)
    run_data = models.PositiveBigIntegerField(default=0)
    last_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"gauge of {self.passport_id}"
