"""The roots of the Archive's blocks of leaves (ArchiveBlock), so that a proof need not read every leaf:
made here for the leaves a town already holds, every block whose leaves are all there (a leaf missing
spoils its own block only), by the rule the fold follows (clockford.town.merkle.Blocks)."""

from django.db import migrations, models

from clockford.town.merkle import whole_blocks

BLOCK = 256  # clockford.town.archive.BLOCK, as it was when this was written


def make_blocks(apps, schema_editor):  # type: ignore[no-untyped-def]
    leaf = apps.get_model("town", "ArchiveLeaf")
    block = apps.get_model("town", "ArchiveBlock")
    rows = leaf.objects.order_by("index").values_list("index", "hash").iterator(chunk_size=5000)
    made = []
    for index, root in whole_blocks(((i, bytes.fromhex(h)) for i, h in rows), BLOCK):
        made.append(block(index=index, hash=root.hex()))
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
