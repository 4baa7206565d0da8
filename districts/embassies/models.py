"""The Embassies' records: visas."""

from django.db import models


class Visa(models.Model):
    """A passport's visa, issued the first time it asks at the Embassies within its first day. It gives
    no extra allowance: while it holds (until `until`, with `left` above zero), each refusal the
    passport meets carries one more text block of plain next steps, and uses one of them."""

    passport = models.OneToOneField("town.Passport", on_delete=models.CASCADE, primary_key=True, related_name="+")
    issued_at = models.DateTimeField()
    # The end of the passport's first day: a visa never outlives it.
    until = models.DateTimeField()
    left = models.PositiveSmallIntegerField()

    def __str__(self) -> str:
        return f"visa of {self.passport_id}"
