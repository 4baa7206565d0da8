"""The footstep's passport keeps one index. On PostgreSQL `db_index` had made two, the second (`_like`,
varchar_pattern_ops) for LIKE, which no query of the Archive makes; the first is kept under its new
name rather than built again, which on a large Archive would take the migration a long time."""

from typing import Any

from django.db import migrations, models

OLD = "town_footstep_passport_02642fc2"
NEW = "town_footstep_passport"


def one_index(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {OLD}_like")
        schema_editor.execute(f"ALTER INDEX {OLD} RENAME TO {NEW}")
    else:  # SQLite renames no index: the one it had goes, and one is made under the new name
        schema_editor.execute(f"DROP INDEX IF EXISTS {OLD}")
        schema_editor.execute(f"CREATE INDEX {NEW} ON town_footstep (passport)")


def two_indexes(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER INDEX {NEW} RENAME TO {OLD}")
        schema_editor.execute(f"CREATE INDEX {OLD}_like ON town_footstep (passport varchar_pattern_ops)")
    else:
        schema_editor.execute(f"DROP INDEX IF EXISTS {NEW}")
        schema_editor.execute(f"CREATE INDEX {OLD} ON town_footstep (passport)")


class Migration(migrations.Migration):
    dependencies = [
        ("town", "0015_passport_dice_open"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(one_index, two_indexes)],
            state_operations=[
                migrations.AlterField(
                    model_name="footstep",
                    name="passport",
                    field=models.CharField(max_length=16),
                ),
                migrations.AddIndex(
                    model_name="footstep",
                    index=models.Index(fields=["passport"], name=NEW),
                ),
            ],
        ),
    ]
