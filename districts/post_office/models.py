from django.db import models

from clockford.town.models import Decided


class Note(models.Model):
    """A note in a P.O. box. Without sign-in a box belongs to one passport."""

    box = models.CharField(max_length=40)
    key = models.CharField(max_length=64)
    value = models.TextField()
    # UTF-8 bytes of key and value: what the box's size allowance and the shared room count.
    size = models.PositiveIntegerField()
    kept_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["box", "key"], name="one_note_per_key")]
        indexes = [models.Index(fields=["box", "key"])]

    def __str__(self) -> str:
        return f"{self.box}/{self.key}"


class Room(models.Model):
    """The bytes every box in town keeps (what POST_OFFICE_ROOM_BYTES caps), in sixteen parts: kept by
    the database's own triggers on every write of a note (migration 0004), so a note kept or dropped by
    any path counts, and read in sixteen rows instead of a sum over every note in town. Parts, so that
    two boxes' notes kept at once on PostgreSQL seldom wait for the same row."""

    shard = models.PositiveSmallIntegerField(primary_key=True)
    bytes = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"room {self.shard}: {self.bytes} bytes"


class Letter(Decided):
    """A letter to the person who runs the agent. It waits (status held) until that person opens or
    declines it in the hall; a declined letter's words are dropped."""

    NOT_FOUND_SAY = "No letter to you has that number."

    subject = models.TextField()
    body = models.TextField()
    # Copies of P.O. box notes passed by reference: [{key, value}]. forget removes a copy while the
    # letter waits.
    notes = models.JSONField(default=list)
    # Foreign words the letter repeats: {label, where, field, passage, in} (marked, never held).
    marked = models.JSONField(null=True, blank=True)
    # held (waiting for the person), opened, declined
    status = models.CharField(max_length=12, default="held")
    size = models.PositiveIntegerField(default=0)
    sent_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["passport", "status"]), models.Index(fields=["account", "status"])]
