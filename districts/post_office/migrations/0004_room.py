"""The town's room for notes, counted as notes are written (models.Room): the sixteen parts, filled from
the notes already kept, and the triggers that keep them. Each part is the notes whose box's last
character's code leaves that remainder by 16 ("%%" is "%" once Django has passed the statement on)."""

# ruff: noqa: S608 (every statement is built from this file's own names and numbers; nothing comes from outside)

from django.db import migrations, models

PARTS = 16


def _part(vendor: str, box: str) -> str:
    code = f"unicode(substr({box}, -1))" if vendor == "sqlite" else f"ascii(right({box}, 1))"
    return f"(COALESCE({code}, 0) %% {PARTS})"


def _add(vendor: str, box: str, amount: str) -> str:
    """Add `amount` to the part of `box`, making the part if it is missing (a flush of the database,
    a test's, takes the parts away with the notes)."""
    part = _part(vendor, box)
    if vendor == "sqlite":
        return (
            f"INSERT OR IGNORE INTO post_office_room (shard, bytes) VALUES ({part}, 0); "
            f"UPDATE post_office_room SET bytes = bytes + {amount} WHERE shard = {part};"
        )
    return (
        f"INSERT INTO post_office_room (shard, bytes) VALUES ({part}, {amount}) "
        "ON CONFLICT (shard) DO UPDATE SET bytes = post_office_room.bytes + excluded.bytes;"
    )


def _take(vendor: str, box: str, amount: str) -> str:
    """Take `amount` from the part of `box`, where the part is: a part that is missing went with the
    notes it counted (a flush takes the tables in any order)."""
    return f"UPDATE post_office_room SET bytes = bytes - {amount} WHERE shard = {_part(vendor, box)};"


def forwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    vendor = schema_editor.connection.vendor
    run = schema_editor.execute
    run(
        f"INSERT INTO post_office_room (shard, bytes) SELECT {_part(vendor, 'box')}, SUM(size) "
        f"FROM post_office_note GROUP BY {_part(vendor, 'box')}"
    )
    for part in range(PARTS):
        if vendor == "sqlite":
            run(f"INSERT OR IGNORE INTO post_office_room (shard, bytes) VALUES ({part}, 0)")
        else:
            run(f"INSERT INTO post_office_room (shard, bytes) VALUES ({part}, 0) ON CONFLICT (shard) DO NOTHING")
    if vendor == "sqlite":
        run(
            f"CREATE TRIGGER post_office_room_insert AFTER INSERT ON post_office_note BEGIN {_add(vendor, 'NEW.box', 'NEW.size')} END"
        )
        run(
            f"CREATE TRIGGER post_office_room_delete AFTER DELETE ON post_office_note BEGIN {_take(vendor, 'OLD.box', 'OLD.size')} END"
        )
        run(
            "CREATE TRIGGER post_office_room_update AFTER UPDATE OF box, size ON post_office_note "
            "WHEN NEW.size <> OLD.size OR NEW.box <> OLD.box BEGIN "
            f"{_take(vendor, 'OLD.box', 'OLD.size')} {_add(vendor, 'NEW.box', 'NEW.size')} END"
        )
    elif vendor == "postgresql":
        run(
            "CREATE OR REPLACE FUNCTION post_office_room_count() RETURNS trigger AS $$ BEGIN "
            "IF TG_OP = 'UPDATE' AND NEW.box = OLD.box THEN "
            f"IF NEW.size <> OLD.size THEN {_add(vendor, 'NEW.box', 'NEW.size - OLD.size')} END IF; "
            "RETURN NULL; END IF; "
            f"IF TG_OP IN ('UPDATE', 'DELETE') THEN {_take(vendor, 'OLD.box', 'OLD.size')} END IF; "
            f"IF TG_OP IN ('UPDATE', 'INSERT') THEN {_add(vendor, 'NEW.box', 'NEW.size')} END IF; "
            "RETURN NULL; END $$ LANGUAGE plpgsql"
        )
        run(
            "CREATE TRIGGER post_office_room_count AFTER INSERT OR DELETE OR UPDATE OF box, size "
            "ON post_office_note FOR EACH ROW EXECUTE FUNCTION post_office_room_count()"
        )


def backwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        for op in ("insert", "delete", "update"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS post_office_room_{op}")
    elif vendor == "postgresql":
        schema_editor.execute("DROP TRIGGER IF EXISTS post_office_room_count ON post_office_note")
        schema_editor.execute("DROP FUNCTION IF EXISTS post_office_room_count()")


class Migration(migrations.Migration):
    dependencies = [("post_office", "0003_letter_decided_by_a_person")]

    operations = [
        migrations.CreateModel(
            name="Room",
            fields=[
                ("shard", models.PositiveSmallIntegerField(primary_key=True, serialize=False)),
                ("bytes", models.BigIntegerField(default=0)),
            ],
        ),
        migrations.RunPython(forwards, backwards),
    ]
