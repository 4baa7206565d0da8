"""The hall's browser sessions kept under the SHA-256 of their keys, never the keys (hall/sessions.py),
in a table of the hall's own: Django's (django_session) keeps each key as it is, in a column too short
for a digest.

The sessions of a running town are carried: each one still live is written into the new table under
its key's digest, its data as it was, so that every person signed in before the upgrade stays signed
in after it, their browser sending the same cookie; then Django's table is emptied, so that no key is
left in the database, nor in any backup made from then on. Going back cannot undo a hash: the older
version finds no session by its key, and every person signs in again.
"""

import hashlib

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.utils import timezone

BATCH = 500


def digests_for_keys(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Each live session copied under its key's digest, a batch at a time in the keys' order (each row
    read once), then Django's table emptied, expired sessions with it. The digest is written out here as
    hall/sessions.py makes it, so that this migration does not change if that code does."""
    using = schema_editor.connection.alias
    Old = apps.get_model("sessions", "Session")
    New = apps.get_model("hall", "BrowserSession")
    live = Old.objects.using(using).filter(expire_date__gt=timezone.now()).order_by("session_key")
    after = ""
    while batch := list(live.filter(session_key__gt=after)[:BATCH]):
        New.objects.using(using).bulk_create(
            New(
                session_key=hashlib.sha256(s.session_key.encode()).hexdigest(),
                session_data=s.session_data,
                expire_date=s.expire_date,
            )
            for s in batch
        )
        after = batch[-1].session_key
    Old.objects.using(using).all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("hall", "0008_ceremony_session"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="BrowserSession",
            fields=[
                ("session_key", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("session_data", models.TextField(verbose_name="session data")),
                ("expire_date", models.DateTimeField(db_index=True, verbose_name="expire date")),
            ],
            options={"verbose_name": "session", "verbose_name_plural": "sessions", "abstract": False},
        ),
        migrations.RunPython(digests_for_keys, migrations.RunPython.noop, elidable=False),
    ]
