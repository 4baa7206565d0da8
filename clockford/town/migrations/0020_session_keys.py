"""Sessions kept under the SHA-256 of their id, never the id itself (clockford/face/sessions.py key_of).

The rows of a running town are carried: each id becomes its key, so every session open before the
upgrade goes on after it, its client sending the same id. No other table refers to a session. Going
back cannot undo a hash: the older version finds no session by its id, and each client is told its
session is not found and starts a new one.
"""

import hashlib

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def keys_for_ids(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Each session's id replaced by its key: the ids read once, then one UPDATE a row. The key is
    written out here as key_of makes it, so that this migration does not change if that code does."""
    McpSession = apps.get_model("town", "McpSession")
    rows = McpSession.objects.using(schema_editor.connection.alias)
    for sid in list(rows.values_list("id", flat=True)):
        rows.filter(pk=sid).update(id=hashlib.sha256(sid.encode()).hexdigest())


class Migration(migrations.Migration):
    dependencies = [
        ("town", "0019_replay_digest"),
    ]

    operations = [
        migrations.RunPython(keys_for_ids, migrations.RunPython.noop, elidable=False),
    ]
