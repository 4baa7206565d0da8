"""Passport.dice_open: set as a run begins, cleared as it is reported or lapses, in the same transaction
as the run; while it is clear, a reply of a dice tool asks the database nothing about dice."""

from datetime import timedelta
from importlib import import_module
from typing import Any

from django.apps import apps

from clockford.town import clock
from clockford.town.models import Passport
from districts.dice_house.models import DiceRun
from districts.testing import visit
from tests.support import statements_seen


def _flag(p: Passport) -> bool:
    return Passport.objects.get(pk=p.pk).dice_open


def _statements_of(p: Passport, tool: str, **arguments: Any) -> list[str]:
    with statements_seen() as sent:
        visit(p, tool, **arguments)
    return sent


def test_no_run_no_statement_about_dice(alice: Passport) -> None:
    assert _flag(alice) is False
    sent = _statements_of(alice, "look_around")
    assert sent and not [s for s in sent if "dice_house" in s]


def test_begun_then_reported(alice: Passport) -> None:
    run = visit(alice, "dice_house", begin=True).structured["run"]
    assert _flag(alice) is True
    rolled = visit(alice, "look_around")
    assert rolled.structured["diceHouse"]["run"] == run
    assert [s for s in _statements_of(alice, "look_around") if "dice_house" in s]
    assert visit(alice, "dice_house_report", noticed=[]).is_error is False
    assert _flag(alice) is False
    assert "diceHouse" not in visit(alice, "look_around").structured


def test_lapsed_clears_it(alice: Passport) -> None:
    visit(alice, "dice_house", begin=True)
    clock.advance(timedelta(minutes=31))
    assert "diceHouse" not in visit(alice, "look_around").structured
    assert _flag(alice) is False
    assert DiceRun.objects.get(passport=alice).state == "lapsed"


def test_a_refused_begin_leaves_it_as_it_was(alice: Passport) -> None:
    visit(alice, "dice_house", begin=True)
    again = visit(alice, "dice_house", begin=True)  # one open at a time
    assert again.is_error and _flag(alice) is True
    visit(alice, "dice_house_report", noticed=[])
    refused = visit(alice, "dice_house", begin=True, replay="D-NOTAREALRUN")
    assert refused.is_error and _flag(alice) is False


def test_the_migration_marks_runs_open_before_the_flag(alice: Passport) -> None:
    """A town that had runs open when the flag came: its migration sets it for their passports only."""
    visit(alice, "dice_house", begin=True)
    Passport.objects.filter(pk=alice.pk).update(dice_open=False)
    migration = import_module("districts.dice_house.migrations.0002_open_runs_on_their_passports")
    migration.mark_open(apps, None)
    assert _flag(alice) is True
    assert Passport.objects.filter(dice_open=True).count() == 1
    assert visit(alice, "look_around").structured["diceHouse"]["roll"] == 1
