"""The town's room for notes is kept by the database as notes are written (models.Room, migration 0004):
whatever path writes or drops a note, the room's parts add up to the bytes every note keeps."""

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum
from django.utils import timezone

from clockford.town.models import Passport
from districts.post_office import services
from districts.post_office.models import Note, Room
from districts.testing import visit


def kept() -> int:
    return Note.objects.aggregate(n=Sum("size"))["n"] or 0


def room() -> int:
    return Room.objects.aggregate(n=Sum("bytes"))["n"] or 0


def test_every_write_of_a_note_counts_in_the_room(alice: Passport, bob: Passport) -> None:
    start = room()
    steps: list[tuple[Any, ...]] = [
        (alice, "remember", {"key": "a", "value": "x" * 40}),
        (bob, "remember", {"key": "b", "value": "é" * 30}),
        (alice, "remember", {"key": "a", "value": "y" * 7}),  # smaller, in place
        (alice, "remember", {"key": "a", "value": "z" * 7}),  # the same size
        (bob, "remember", {"key": "c", "value": "w" * 300}),
        (alice, "forget", {"key": "a"}),
    ]
    for who, tool, arguments in steps:
        assert visit(who, tool, **arguments).is_error is False
        assert room() - start == kept(), (tool, arguments)
    assert kept() == (1 + 60) + (1 + 300)  # a note's size is its key's bytes and its value's


def test_notes_dropped_or_moved_in_bulk_count_too(alice: Passport, bob: Passport) -> None:
    for i in range(20):
        visit(alice if i % 2 else bob, "remember", key=f"k{i}", value="v" * i)
    assert room() == kept() > 0
    Note.objects.filter(box=services.box_of(alice)).update(box="PP-SOMEWHEREELSE7")
    assert room() == kept()
    Note.objects.filter(key__in=["k2", "k4", "k5"]).delete()
    assert room() == kept()
    services.forget_words_of(Passport.objects.filter(pk=bob.pk))
    assert room() == kept()
    Note.objects.all().delete()
    assert room() == 0 and not Room.objects.exclude(bytes=0).exists()


def test_a_flush_in_any_order_leaves_the_room_right(alice: Passport) -> None:
    """A flush of the database (a test's) deletes the tables in any order: parts first, then the notes,
    leaves no part below nothing, and the parts are made again as notes come."""
    visit(alice, "remember", key="a", value="x" * 40)
    Room.objects.all().delete()
    Note.objects.all().delete()
    assert not Room.objects.exists()
    visit(alice, "remember", key="b", value="y" * 10)
    assert room() == kept() == 11 and Room.objects.count() == 1


def test_a_refusal_for_room_reads_the_parts(settings: Any, alice: Passport) -> None:
    """The room's parts are what the refusal reads: the notes' own sum is never taken."""
    settings.CLOCKFORD = {**settings.CLOCKFORD, "POST_OFFICE_ROOM_BYTES": 1000}
    # As if other boxes kept 990 bytes (the part may be missing: a flush of another test takes the parts).
    Room.objects.update_or_create(shard=0, defaults={"bytes": 990})
    r = visit(alice, "remember", key="a", value="x" * 10)
    assert r.structured["say"] == "The Post Office has no room for more notes right now. Try again later."
    assert not Note.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_counts_the_notes_already_kept() -> None:
    MigrationExecutor(connection).migrate([("post_office", "0003_letter_decided_by_a_person")])
    try:
        with connection.cursor() as c:
            for i, box in enumerate(["PP-AAAAAAAAAA", "PP-BBBBBBBBBB", "PP-AAAAAAAAAB", "PP-Z"]):
                c.execute(
                    'INSERT INTO post_office_note (box, "key", value, size, kept_at) VALUES (%s, %s, %s, %s, %s)',
                    [box, f"k{i}", "v", 10 * (i + 1), connection.ops.adapt_datetimefield_value(timezone.now())],
                )
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert room() == kept() == 100 and Room.objects.count() == 16
    # By the last character's code: "A" (65) is part 1, "B" (66) part 2, "Z" (90) part 10.
    parts = dict(Room.objects.filter(bytes__gt=0).values_list("shard", "bytes"))
    assert parts == {1: 10, 2: 20 + 30, 10: 40}
