"""The roots of the Archive's blocks of leaves (ArchiveBlock), so that a proof need not read every leaf:
made here for the leaves a town already holds, in order, up to the first one missing."""

import hashlib

from django.db import migrations, models

BLOCK = 256  # clockford.town.archive.BLOCK, as it was when this was written


def _root(level: list[bytes]) -> bytes:
    while len(level) > 1:
        level = [hashlib.sha256(b"\x01" + level[i] + level[i + 1]).digest() for i in range(0, len(level), 2)]
    return level[0]


def make_blocks(apps, schema_editor):  # type: ignore[no-untyped-def]
    leaf = apps.get_model("town", "ArchiveLeaf")
    block = apps.get_model("town", "ArchiveBlock")
    rows = leaf.objects.order_by("index").values_list("index", "hash").iterator(chunk_size=5000)
    hashes: list[bytes] = []
    made = []
    for expected, (index, h) in enumerate(rows):
        if index != expected:
            break
        hashes.append(bytes.fromhex(h))
        if len(hashes) == BLOCK:
            made.append(block(index=index // BLOCK, hash=_root(hashes).hex()))
            hashes = []
            if len(made) == 1000:
                block.objects.bulk_create(made)
                made = []
    block.objects.bulk_create(made)


class Migration(migrations.Migration):
    dependencies = [
        ("town", "0017_footstep_job_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="ArchiveBlock",
            fields=[
                ("index", models.BigIntegerField(primary_key=True, serialize=False)),
                ("hash", models.CharField(max_length=64)),
            ],
        ),
        migrations.RunPython(make_blocks, migrations.RunPython.noop),
    ]
