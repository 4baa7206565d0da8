"""The census's search index, in each database's own kind of table.

SQLite: an FTS5 table (rowid = lot number) with the Porter stemmer over unicode61, ranked by bm25.
PostgreSQL: a tsvector per lot (name weight A, title B, description C) under a GIN index, ranked by
ts_rank_cd. services.index_lots keeps either one.
"""

from django.db import migrations


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        schema_editor.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS town_hall_lot_fts USING fts5("
            "name, title, description, tokenize = 'porter unicode61 remove_diacritics 2')"
        )
    elif vendor == "postgresql":
        schema_editor.execute(
            "CREATE TABLE IF NOT EXISTS town_hall_lot_search (lot integer PRIMARY KEY, doc tsvector NOT NULL)"
        )
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS town_hall_lot_search_doc ON town_hall_lot_search USING GIN (doc)"
        )
    else:
        raise RuntimeError(f"The census's search needs SQLite or PostgreSQL, not {vendor}.")


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        schema_editor.execute("DROP TABLE IF EXISTS town_hall_lot_fts")
    elif vendor == "postgresql":
        schema_editor.execute("DROP TABLE IF EXISTS town_hall_lot_search")


class Migration(migrations.Migration):
    dependencies = [("town_hall", "0001_initial")]

    operations = [migrations.RunPython(create, drop)]
