"""Passports with a Dice House run open when Passport.dice_open came: the flag set, so that their runs
keep rolling (the desk's hook asks nothing of a passport without it)."""

from typing import Any

from django.db import migrations


def mark_open(apps: Any, schema_editor: Any) -> None:
    DiceRun = apps.get_model("dice_house", "DiceRun")
    Passport = apps.get_model("town", "Passport")
    open_runs = DiceRun.objects.filter(state="open").values("passport_id")
    Passport.objects.filter(pk__in=open_runs).update(dice_open=True)


class Migration(migrations.Migration):
    dependencies = [
        ("dice_house", "0001_initial"),
        ("town", "0015_passport_dice_open"),
    ]

    operations = [
        migrations.RunPython(mark_open, migrations.RunPython.noop),
    ]
