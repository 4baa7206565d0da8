"""town_tally unlogged on PostgreSQL: every request on /mcp rewrites a row of it, and a logged table
would make each of those a durable commit (a WAL flush). The counts are a defence against floods,
not a record: after a crash PostgreSQL empties an unlogged table, which starts every count over."""

from typing import Any

from django.db import migrations


def unlogged(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE town_tally SET UNLOGGED")


def logged(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE town_tally SET LOGGED")


class Migration(migrations.Migration):
    dependencies = [
        ("town", "0011_tally_and_welcome"),
    ]

    operations = [migrations.RunPython(unlogged, logged)]
