"""The Archive is append-only in the database itself: UPDATE and DELETE on footsteps, leaves and
checkpoints raise. Someone with the database's owner rights can still drop the triggers; that is
what `archive verify` and the signed checkpoints are for."""

from django.db import migrations

TABLES = ["town_footstep", "town_archiveleaf", "town_checkpoint"]


def forwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    vendor = schema_editor.connection.vendor
    for table in TABLES:
        if vendor == "sqlite":
            for op in ("UPDATE", "DELETE"):
                schema_editor.execute(
                    f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, 'The Archive is append-only.'); END"
                )
        elif vendor == "postgresql":
            schema_editor.execute(
                "CREATE OR REPLACE FUNCTION clockford_append_only() RETURNS trigger AS $$ "
                "BEGIN RAISE EXCEPTION 'The Archive is append-only.'; END $$ LANGUAGE plpgsql"
            )
            schema_editor.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION clockford_append_only()"
            )


def backwards(apps, schema_editor):  # type: ignore[no-untyped-def]
    vendor = schema_editor.connection.vendor
    for table in TABLES:
        if vendor == "sqlite":
            for op in ("update", "delete"):
                schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_{op}")
        elif vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
    if vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS clockford_append_only()")


class Migration(migrations.Migration):
    dependencies = [("town", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
