"""Jobs (docs/jobs.md): the records of the jobs an agent names with job_id, and the calls it declares it
made outside the town. The calls themselves are footsteps (clockford.town.models.Footstep.job_id): a job
keeps only what footsteps cannot say, which holds its calls made, and whether a person ended it."""

from django.conf import settings
from django.db import models

from clockford.town.models import new_id


def new_job_id() -> str:
    return new_id("J-", 10)


class Job(models.Model):
    """One job of one passport: the name the agent gave it (its job_id), the first and last footstep
    that named it, and, once a person ended it in the hall, when and by whom."""

    id = models.CharField(primary_key=True, max_length=16, default=new_job_id)
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="jobs")
    name = models.CharField(max_length=64)
    # The footsteps that first and last named it; empty only inside the call that makes it.
    first_step = models.BigIntegerField(null=True, blank=True)
    first_at = models.DateTimeField()
    last_step = models.BigIntegerField(null=True, blank=True)
    last_at = models.DateTimeField()
    calls = models.PositiveIntegerField(default=0)
    # The holds its calls made, oldest first: [{id, footstep}], at most HOLDS_KEPT (districts/jobs/services.py).
    holds = models.JSONField(default=list, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["passport", "name"], name="jobs_one_job_per_name")]
        indexes = [models.Index(fields=["passport", "-last_at"])]

    def __str__(self) -> str:
        return f"{self.passport_id} {self.name}"


class Outside(models.Model):
    """A call the agent declares it made outside the town, for a job (job_outside): which server, which
    tool, and why, in the agent's own words (screened like any words, kept for its person to read)."""

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="outside")
    footstep = models.BigIntegerField(null=True, blank=True)
    at = models.DateTimeField()
    server = models.CharField(max_length=200)
    tool = models.CharField(max_length=64)
    why = models.TextField()

    class Meta:
        indexes = [models.Index(fields=["job", "at"])]

    def __str__(self) -> str:
        return f"{self.job_id} {self.server} {self.tool}"
