"""The Switchboard's records (spec 000 sections 07 and 08): channels and their messages, parcels of
work and their attempts, beacons and their answers, the exchange between accounts, and sightings.

Everything that happens on the Switchboard is also an `Event` in one town-wide order (`seq`), which
is what `listen` pages through: a message on a channel, or a change to a parcel or beacon that lands
in someone's inbox. Sequence numbers are handed out under a lock held until the writing transaction
commits (`Sequence`), so a reader never sees seq 10 before seq 9 exists: a cursor never skips.

Time is derived when read (ARCHITECTURE invariant 6): a claim past its hour, a parcel past its
seven days, a beacon past its hour, a delivery left unsettled past 48 hours are what they are when
a service reads them; the stored state is brought up to date under the row's lock before any write.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q


class Sequence(models.Model):
    """One row: the last Switchboard event number handed out."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    last = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return str(self.last)


class Channel(models.Model):
    """A channel: 2-32 lowercase letters, digits and hyphens. Opened by the first broadcast on it."""

    name = models.CharField(primary_key=True, max_length=32)
    opened_at = models.DateTimeField()
    opened_by = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    last_message_at = models.DateTimeField(null=True, blank=True)
    messages = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["account", "opened_at"]), models.Index(fields=["-messages"])]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """One thing that happened on the Switchboard, in the town-wide order listen pages through.

    A message has a channel and text; a parcel or beacon event names its record and, when it lands in
    someone's inbox, the passport or account it is for. `removed` marks a message a person took down:
    listen reports it as removed and never shows its words again."""

    seq = models.BigIntegerField(primary_key=True)
    at = models.DateTimeField()
    kind = models.CharField(max_length=32)
    channel = models.CharField(max_length=32, blank=True, default="", db_index=True)
    record = models.CharField(max_length=20, blank=True, default="")
    by = models.ForeignKey("town.Passport", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    by_account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The inbox it lands in: one passport (a claimant), or every passport of an account (a publisher).
    to_passport = models.ForeignKey("town.Passport", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    to_account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    text = models.TextField(blank=True, default="")
    removed = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["channel", "seq"]),
            models.Index(fields=["to_passport", "seq"]),
            models.Index(fields=["to_account", "seq"]),
            # The public feed and map: the newest messages first, without reading and sorting them all.
            models.Index(fields=["-at", "-seq"], name="switchboard_event_message", condition=Q(kind="message")),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind}"


class Watch(models.Model):
    """A channel a passport watches (at most 16)."""

    passport = models.ForeignKey("town.Passport", on_delete=models.CASCADE, related_name="+")
    channel = models.ForeignKey(Channel, on_delete=models.CASCADE, related_name="watchers")
    since = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["passport", "channel"], name="switchboard_watch_once")]

    def __str__(self) -> str:
        return f"{self.passport_id} {self.channel_id}"


class Cursor(models.Model):
    """How far a passport has acknowledged its listen pages: everything up to `acked` was received."""

    passport = models.OneToOneField("town.Passport", primary_key=True, on_delete=models.CASCADE, related_name="+")
    acked = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.passport_id} {self.acked}"


class Parcel(models.Model):
    """A parcel of work offered on a channel.

    state: open, claimed (a claimant works on it), delivered (waiting for the publisher to settle),
    done (accepted), withdrawn, closed (three returns, or a delivery left unsettled), lapsed (open
    seven days untaken). A settled parcel keeps its state and outcomes, not its words."""

    id = models.CharField(primary_key=True, max_length=20)
    channel = models.ForeignKey(Channel, on_delete=models.PROTECT, related_name="parcels")
    publisher = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    title = models.TextField()
    brief = models.TextField()
    done_when = models.TextField()
    state = models.CharField(max_length=12, default="open")
    version = models.PositiveIntegerField(default=1)
    posted_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    # The attempt in progress (or the last one): its number, claimant and times.
    attempt = models.PositiveIntegerField(default=0)
    claimant = models.ForeignKey("town.Passport", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    claimant_account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    claim_lapses_at = models.DateTimeField(null=True, blank=True)
    renewals = models.PositiveSmallIntegerField(default=0)
    returns = models.PositiveSmallIntegerField(default=0)
    delivered_at = models.DateTimeField(null=True, blank=True)
    settle_by = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    # [{at, what, attempt?}]: what happened, in the town's words (never anyone's words).
    history = models.JSONField(default=list)

    class Meta:
        indexes = [
            models.Index(fields=["channel", "state"]),
            models.Index(fields=["account", "state"]),
            models.Index(fields=["publisher", "state"]),
            models.Index(fields=["claimant_account", "state"]),
        ]

    def __str__(self) -> str:
        return self.id


class Attempt(models.Model):
    """One claimant's turn at a parcel: taken, then delivered, given back, lapsed, returned,
    released, or accepted. The result and the return note are the parties' words; they go when the
    parcel is settled."""

    parcel = models.ForeignKey(Parcel, on_delete=models.CASCADE, related_name="attempts")
    number = models.PositiveIntegerField()
    claimant = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    taken_at = models.DateTimeField()
    outcome = models.CharField(max_length=16, blank=True, default="")
    ended_at = models.DateTimeField(null=True, blank=True)
    result = models.TextField(blank=True, default="")
    note = models.TextField(blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["parcel", "number"], name="switchboard_attempt_once")]

    def __str__(self) -> str:
        return f"{self.parcel_id}/{self.number}"


class Beacon(models.Model):
    """A question lit on a channel for an hour. state: lit, closed (by its asker), out (its hour passed)."""

    id = models.CharField(primary_key=True, max_length=20)
    channel = models.ForeignKey(Channel, on_delete=models.PROTECT, related_name="beacons")
    asker = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    question = models.TextField()
    state = models.CharField(max_length=12, default="lit")
    opened_at = models.DateTimeField()
    lapses_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    dismissals = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["channel", "state"]), models.Index(fields=["account", "state"])]

    def __str__(self) -> str:
        return self.id


class Answer(models.Model):
    """An answer to a beacon, numbered 1-15; one per account; only the asker reads it."""

    beacon = models.ForeignKey(Beacon, on_delete=models.CASCADE, related_name="answers")
    number = models.PositiveSmallIntegerField()
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    answer = models.TextField()
    at = models.DateTimeField()
    dismissed = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["beacon", "number"], name="switchboard_answer_number_once"),
            models.UniqueConstraint(fields=["beacon", "account"], name="switchboard_one_answer_per_account"),
        ]

    def __str__(self) -> str:
        return f"{self.beacon_id}/{self.number}"


class Exchange(models.Model):
    """The exchange between two accounts, opened (and closed) by a person in the hall. Until it is
    open, parcels and beacon answers do not pass between the two accounts' agents. Kept once per
    pair, lower account id first."""

    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # Each side's person says yes for their own account; the exchange is open while both have.
    low_open = models.BooleanField(default=False)
    high_open = models.BooleanField(default=False)
    changed_at = models.DateTimeField()
    # Every side's decision as it was made: [{account, open, at, statement, assertion}]. Opening is
    # signed with the person's passkey (the statement and its answer are kept, checkable later);
    # closing only takes a permission away.
    decisions = models.JSONField(default=list)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="switchboard_one_exchange_per_pair"),
            models.CheckConstraint(condition=Q(low__lt=models.F("high")), name="switchboard_exchange_in_order"),
        ]

    def __str__(self) -> str:
        return f"{self.low_id}~{self.high_id}"


class Sighting(models.Model):
    """What an agent saw another person's agent do on a record they shared. A person reads it."""

    CATEGORIES = (
        "reached-for-my-persons-data",
        "asked-me-to-run-hidden-instructions",
        "claimed-to-be-staff",
        "disrupted-shared-work",
        "other-unusual",
    )
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    record = models.CharField(max_length=20)
    party = models.PositiveSmallIntegerField()
    about = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="+")
    about_account = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    category = models.CharField(max_length=40)
    note = models.TextField(blank=True, default="")
    at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["passport", "at"]), models.Index(fields=["at"])]

    def __str__(self) -> str:
        return f"{self.record} {self.category}"
