"""The General Store's records: one gauge per passport."""

from django.db import models


class Gauge(models.Model):
    """What the town has put into one passport's context. One row per passport, read and written once
    per reply, inside the call's transaction, in plain SQL (services.count); bounded: today's counts by
    tool (yesterday's are dropped on the first reply of a new day), the last RING replies, and the run
    since the last pause. The two JSON columns are text, so that the one UPDATE is the same statement
    on SQLite and PostgreSQL."""

    passport = models.OneToOneField("town.Passport", on_delete=models.CASCADE, primary_key=True, related_name="+")
    counted_since = models.DateTimeField()
    day = models.CharField(max_length=10)  # YYYY-MM-DD, the town's (UTC) day `today` counts
    # JSON {tool: [calls, text bytes, data bytes]} for `day`: one entry per tool the passport called.
    today = models.TextField()
    # JSON list of the last replies, oldest first: [tool, text bytes, data bytes, digest, at (ISO 8601)].
    # Its last entry is the last reply: when it came is the time the run's pause is measured from.
    ring = models.TextField()
    # Random, new at every write (services._stamp): a worker that wrote the row last writes on it where
    # the stamp is still the one it set, comparing one number instead of the row's three columns.
    stamp = models.BigIntegerField(default=0)
    run_since = models.DateTimeField()
    run_calls = models.PositiveIntegerField(default=0)
    run_text = models.PositiveBigIntegerField(default=0)
    run_data = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"gauge of {self.passport_id}"
