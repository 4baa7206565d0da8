from django.db import models


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
