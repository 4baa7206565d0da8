"""The Dice House's records: the runs agents asked for and each roll of them (docs/dice-house.md)."""

from django.db import models


class DiceRun(models.Model):
    """One resilience run. While it is open, every reply of a dice tool (look_around, ask_directory, verify,
    enter) to its passport is a roll; the seed decides which rolls misbehave and how, so a replay (same
    seed) repeats them roll for roll. Ended by the agent's report, or lapsed after OPEN_MINUTES."""

    id = models.CharField(primary_key=True, max_length=20)
    passport = models.ForeignKey("town.Passport", on_delete=models.PROTECT, related_name="dice_runs")
    account_id = models.BigIntegerField(null=True, blank=True)
    seed = models.CharField(max_length=40)
    replay_of = models.CharField(max_length=20, blank=True, default="")
    begun = models.DateTimeField()
    until = models.DateTimeField()
    state = models.CharField(max_length=12, default="open")  # open, reported, lapsed
    rolls = models.PositiveIntegerField(default=0)
    # The last honest reply of the run ({say, fields, parts}): what "an answer for another question" serves.
    last = models.JSONField(null=True, blank=True)
    noticed = models.JSONField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    signed = models.JSONField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["passport", "state"]),
            models.Index(fields=["passport", "-begun"]),
            models.Index(fields=["account_id", "begun"]),
        ]

    def __str__(self) -> str:
        return self.id


class Roll(models.Model):
    """One reply of a run: its number, the tool, and what the town made wrong in it ("" when nothing)."""

    run = models.ForeignKey(DiceRun, on_delete=models.CASCADE, related_name="roll_set")
    number = models.PositiveIntegerField()
    tool = models.CharField(max_length=64)
    kind = models.CharField(max_length=24, blank=True, default="")
    footstep = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["run", "number"], name="dice_one_roll_per_number")]

    def __str__(self) -> str:
        return f"{self.run_id} roll {self.number}"
