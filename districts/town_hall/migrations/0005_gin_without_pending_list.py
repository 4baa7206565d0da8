"""PostgreSQL: the search index without GIN's pending list.

With fastupdate on (the default), new entries wait in a pending list that every search scans in full
until a vacuum merges it; after an import that is the whole census, and a search took ten times as
long. The census is written in batches and read constantly, so entries go straight into the index.
"""

from django.db import migrations


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER INDEX town_hall_lot_search_doc SET (fastupdate = off)")
        schema_editor.execute("SELECT gin_clean_pending_list('town_hall_lot_search_doc')")


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER INDEX town_hall_lot_search_doc SET (fastupdate = on)")


class Migration(migrations.Migration):
    dependencies = [("town_hall", "0004_census_common_words")]

    operations = [migrations.RunPython(forward, backward)]
