"""Django's system checks find nothing in the town's code. The town's own commands skip them
(clockford/commands.py), `./town up` runs them once in `migrate`; this is where the suite does."""

from django.core import checks


def test_djangos_system_checks_find_nothing(db: None) -> None:
    # db: a JSON field's check asks the database whether it can hold JSON.
    assert checks.run_checks(include_deployment_checks=False) == []
