"""Agent University's records: each published version of a course, the course keys that signed
them, and attendance (000 section 11)."""

from django.db import models


class CourseVersion(models.Model):
    """One version of a course as it was published: its text whole, and the town's signature over
    its statement. A version never changes; a changed file is published as the next version. The
    signature stays the one made at publishing, so an old version keeps verifying with the key that
    signed it after the town key rotates."""

    course = models.CharField(max_length=64)
    version = models.PositiveIntegerField()
    title = models.CharField(max_length=200)
    summary = models.CharField(max_length=400)
    text = models.TextField()
    bytes = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    published = models.DateTimeField()
    # The signed statement as it was signed: {statement, signature, alg, publicKey}.
    signed = models.JSONField()
    key_id = models.CharField(max_length=16)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["course", "version"], name="university_one_version")]
        indexes = [models.Index(fields=["course", "-version"])]

    def __str__(self) -> str:
        return f"{self.course} v{self.version}"


class CourseKey(models.Model):
    """Every course key the town has signed with: the Foundry reads slips signed by any of them, and
    `courses`/`foundry` name them. Derived from the town key, so a new one appears when it rotates."""

    id = models.CharField(primary_key=True, max_length=16)
    public_key = models.CharField(max_length=64)
    first_used = models.DateTimeField()

    def __str__(self) -> str:
        return self.id


class Attendance(models.Model):
    """A course handed over whole to a passport at a footstep: what a slip states. Private: the
    passport and its person read their own; the public sees only rounded daily counts."""

    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="attendances")
    # The person whose agent attended, for counting distinct people; None without sign-in (then the
    # passport is its own person).
    account_id = models.BigIntegerField(null=True, blank=True)
    course = models.CharField(max_length=64)
    version = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    day = models.DateField()
    footstep = models.BigIntegerField(unique=True)
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["passport", "course"]), models.Index(fields=["day", "course"])]

    def __str__(self) -> str:
        return f"{self.course} at #{self.footstep}"
