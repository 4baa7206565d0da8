from django.db import models


class CallCount(models.Model):
    """Calls of one tool with one outcome whose duration fell in one bucket of the latency histogram,
    and their seconds summed: every worker adds its counts here (clockford/metrics/counting.py), so
    /metrics answers for the whole town, whichever worker serves it."""

    tool = models.CharField(max_length=64)
    outcome = models.CharField(max_length=80)
    # The index of the histogram's first upper bound (counting.BUCKETS) at or above the duration;
    # len(BUCKETS) for a call slower than the last.
    bucket = models.PositiveSmallIntegerField()
    count = models.BigIntegerField(default=0)
    seconds = models.FloatField(default=0.0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tool", "outcome", "bucket"], name="metrics_callcount_key")]

    def __str__(self) -> str:
        return f"{self.tool} {self.outcome} bucket {self.bucket}: {self.count}"
