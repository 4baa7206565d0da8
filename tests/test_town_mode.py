"""manage.py town_mode: a person reads and sets the town's mode; /status and the desk follow."""

import pytest
from django.core.management import CommandError, call_command

from clockford.town import desk
from clockford.town.models import TownState

pytestmark = pytest.mark.django_db


def test_it_reads_and_sets_the_mode(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("town_mode")
    assert capsys.readouterr().out.strip() == "The town is open."
    call_command("town_mode", "closed", "--why", "Looking at the Archive.")
    assert capsys.readouterr().out.strip() == "The town is closed (Looking at the Archive.)."
    assert TownState.objects.get(pk=1).mode == "closed"
    assert desk.town_mode() == "closed"
    call_command("town_mode", "open")
    assert TownState.objects.get(pk=1).mode == "open"
    assert desk.town_mode() == "open"


def test_it_refuses_a_mode_that_does_not_exist() -> None:
    with pytest.raises(CommandError, match="invalid choice"):
        call_command("town_mode", "half-open")
