"""A proof reads the roots of the Archive's blocks of leaves (ArchiveBlock), written by the fold that
completes each block, and the leaves of at most two blocks, not every leaf: at 200,000 footsteps an
inclusion proof read and hashed them all, a second a request on PostgreSQL, for anyone who asked."""

import datetime as dt
import importlib
import random

import pytest
from django.apps import apps

from clockford.town import archive, merkle
from clockford.town.models import ArchiveBlock, ArchiveLeaf, Checkpoint
from clockford.town.tests.test_archive import as_an_attacker, make_footsteps

pytestmark = pytest.mark.django_db
SIZE = 3 * archive.BLOCK + 50


@pytest.fixture
def folded() -> list[int]:
    numbers = make_footsteps(SIZE)
    # Folds of uneven lengths, so that blocks are completed across folds, and one checkpoint in the middle.
    while archive.fold(limit=97, settle=dt.timedelta(0)):
        pass
    return numbers


def every_leaf() -> list[bytes]:
    return [bytes.fromhex(h) for h in ArchiveLeaf.objects.order_by("index").values_list("hash", flat=True)]


def test_each_fold_writes_the_roots_of_the_blocks_it_completes(folded: list[int]) -> None:
    leaves = every_leaf()
    blocks = dict(ArchiveBlock.objects.values_list("index", "hash"))
    assert sorted(blocks) == [0, 1, 2]
    for i, h in blocks.items():
        assert h == merkle.root(leaves[i * archive.BLOCK : (i + 1) * archive.BLOCK]).hex()


def test_a_proof_does_not_read_every_leaf(folded: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    leaves = every_leaf()
    monkeypatch.setattr(archive, "leaf_hashes", lambda size: pytest.fail("read every leaf"))
    for number in (folded[0], folded[300], folded[-1]):
        p = archive.inclusion(number)
        assert archive.verify_inclusion(p)
        assert [bytes.fromhex(x) for x in p["proof"]] == merkle.inclusion_proof(p["index"], leaves[: p["size"]])
    sizes = list(Checkpoint.objects.order_by("size").values_list("size", flat=True))
    for first in (sizes[0], sizes[3], sizes[-2]):
        c = archive.consistency(first, sizes[-1])
        assert archive.verify_consistency(c)
        assert [bytes.fromhex(x) for x in c["proof"]] == merkle.consistency_proof(first, leaves)


def test_a_wrong_block_root_is_not_believed(folded: list[int]) -> None:
    """The blocks are only a help: a proof made with a wrong root does not verify against the signed
    checkpoint, and is made again from the leaves."""
    ArchiveBlock.objects.filter(index=0).update(hash="00" * 32)
    assert archive.verify_inclusion(archive.inclusion(folded[-1]))
    sizes = list(Checkpoint.objects.order_by("size").values_list("size", flat=True))
    assert archive.verify_consistency(archive.consistency(sizes[-2], sizes[-1]))


def test_leaves_missing_where_a_proof_reads_them_give_no_proof(folded: list[int]) -> None:
    with as_an_attacker("town_archiveleaf"):
        ArchiveLeaf.objects.filter(index__gte=SIZE - 10).delete()
    with pytest.raises(archive.Damaged):
        archive.inclusion(folded[5])


def test_a_block_root_that_is_not_one_is_left_out(folded: list[int]) -> None:
    """A block's row changed by hand to what is not a root (not 64 hex digits) is read from its leaves:
    it made every proof fail with Python's own words, which the read API answered as a 404."""
    ArchiveBlock.objects.filter(index=0).update(hash="zz" * 32)
    ArchiveBlock.objects.filter(index=1).update(hash="00")
    assert archive.verify_inclusion(archive.inclusion(folded[-1]))
    sizes = list(Checkpoint.objects.order_by("size").values_list("size", flat=True))
    assert archive.verify_consistency(archive.consistency(sizes[1], sizes[-1]))


def test_a_block_row_the_tree_does_not_hold_yet_does_not_stop_the_fold() -> None:
    """A row for a block the tree has not reached (written by hand, or left from another tree) is
    replaced by the fold that completes the block: its primary key made every fold fail from then on."""
    make_footsteps(archive.BLOCK + 10)
    archive.fold(limit=100, settle=dt.timedelta(0))
    ArchiveBlock.objects.create(index=0, hash="00" * 32)
    archive.fold_all(settle=dt.timedelta(0))
    cp = archive.latest_checkpoint()
    assert cp is not None and cp.size == archive.BLOCK + 10
    assert ArchiveBlock.objects.get(index=0).hash == merkle.root(every_leaf()[: archive.BLOCK]).hex()


def test_the_migration_makes_the_blocks_the_fold_makes_past_a_missing_leaf() -> None:
    """A leaf missing in the middle spoils its own block, and no other, for the fold and for the
    migration that made the blocks of a town that already had leaves (one rule, merkle.Blocks): the
    migration stopped at the first missing leaf, and made none of the blocks after it."""
    make_footsteps(SIZE)
    archive.fold(limit=archive.BLOCK + 34, settle=dt.timedelta(0))
    with as_an_attacker("town_archiveleaf"):
        ArchiveLeaf.objects.filter(index=archive.BLOCK + 14).delete()  # in block 1, not yet whole
    while archive.fold(limit=97, settle=dt.timedelta(0)):
        pass
    folded = dict(ArchiveBlock.objects.values_list("index", "hash"))
    assert sorted(folded) == [0, 2]
    ArchiveBlock.objects.all().delete()
    importlib.import_module("clockford.town.migrations.0018_archive_blocks").make_blocks(apps, None)
    assert dict(ArchiveBlock.objects.values_list("index", "hash")) == folded
    leaves = dict(ArchiveLeaf.objects.values_list("index", "hash"))
    assert folded[2] == merkle.root([bytes.fromhex(leaves[i]) for i in range(512, 768)]).hex()


def test_a_block_is_made_exactly_when_all_its_leaves_are_given() -> None:
    rnd = random.Random(3)
    for _ in range(300):
        n = rnd.randrange(40)
        given = sorted(rnd.sample(range(n), rnd.randrange(n + 1)))
        leaves = [(i, i.to_bytes(32, "big")) for i in given]
        whole = [b for b in range(n // 4) if all(b * 4 + j in given for j in range(4))]
        expected = [(b, merkle.root([i.to_bytes(32, "big") for i in range(b * 4, b * 4 + 4)])) for b in whole]
        assert list(merkle.whole_blocks(leaves, 4)) == expected
