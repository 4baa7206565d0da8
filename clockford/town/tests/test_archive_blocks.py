"""A proof reads the roots of the Archive's blocks of leaves (ArchiveBlock), written by the fold that
completes each block, and the leaves of at most two blocks, not every leaf: at 200,000 footsteps an
inclusion proof read and hashed them all, a second a request on PostgreSQL, for anyone who asked."""

import datetime as dt
import importlib
import io
import random

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clockford.town import archive, merkle
from clockford.town.models import ArchiveBlock, ArchiveLeaf, Checkpoint
from clockford.town.tests.test_archive import as_an_attacker, make_footsteps, run_verify

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


VERIFIES = f"The Archive verifies: {SIZE} footsteps, every checkpoint signed by the town key."


def test_verify_names_each_wrong_or_missing_block_and_still_verifies(folded: list[int]) -> None:
    """`archive verify` checks every block against the leaves it reads for the rest, and says which
    are wrong or missing; they slow a proof and never make one untrue, so the Archive still verifies.
    It did not look at the blocks at all. `archive blocks` makes them again from the leaves."""
    ArchiveBlock.objects.filter(index=0).update(hash="00" * 32)
    ArchiveBlock.objects.filter(index=1).delete()
    ArchiveBlock.objects.filter(index=2).update(hash="zz")
    ArchiveBlock.objects.create(index=7, hash="ab" * 32)
    with CaptureQueriesContext(connection) as seen:
        ok, out, err = run_verify()
    assert ok, err
    assert err.splitlines() == [
        "block 0 (leaves 0 to 255) does not match its leaves: a proof that reads it is made again from every leaf",
        "block 1 (leaves 256 to 511) is missing: proofs read its leaves instead",
        "block 2 (leaves 512 to 767) does not match its leaves: a proof that reads it is made again from every leaf",
        "block 7 (leaves 1792 to 2047) is kept, but not all its leaves are in the Archive",
    ]
    assert out == (
        f"{VERIFIES} 4 of its blocks are wrong or missing: proofs there are made from the leaves, slower but as "
        "true (manage.py archive blocks makes them again).\n"
    )
    # Every leaf is read once, for the footsteps, the checkpoints and the blocks alike.
    leaf_reads = [q["sql"] for q in seen.captured_queries if 'FROM "town_archiveleaf" ORDER BY' in q["sql"]]
    assert len(leaf_reads) == 1, leaf_reads
    out_blocks = io.StringIO()
    call_command("archive", "blocks", stdout=out_blocks)
    assert out_blocks.getvalue() == "Blocks made again from the leaves: 3 written, 1 removed, 0 already right.\n"
    assert run_verify() == (True, VERIFIES + "\n", "")
    leaves = every_leaf()
    assert dict(ArchiveBlock.objects.values_list("index", "hash")) == {
        i: merkle.root(leaves[i * archive.BLOCK : (i + 1) * archive.BLOCK]).hex() for i in range(3)
    }


def test_a_proof_from_the_blocks_does_not_see_a_leaf_missing_from_a_block_it_does_not_read(
    folded: list[int],
) -> None:
    """What docs/signatures.md says of proofs: a proof reads the roots of whole blocks and the leaves of
    at most two (the leaf's own, and the tree's last when it is not whole), so a leaf missing from any
    other block goes unseen by it. The proof is still the true one against the signed root (the block's
    root commits to the leaf that was there); `archive verify` is what notices the leaf missing."""
    before = every_leaf()
    with as_an_attacker("town_archiveleaf"):
        ArchiveLeaf.objects.filter(index=10).delete()  # in block 0
    p = archive.inclusion(folded[2 * archive.BLOCK + 5])  # in block 2; the last, partial block is 3
    assert archive.verify_inclusion(p)
    assert [bytes.fromhex(x) for x in p["proof"]] == merkle.inclusion_proof(p["index"], before)
    with pytest.raises(archive.Damaged):
        archive.inclusion(folded[20])  # its own block is read, and lacks a leaf
    ok, _, err = run_verify()
    assert not ok and "leaf 10 is missing (found 11)" in err


def test_a_block_folded_while_verify_runs_is_not_called_missing(folded: list[int]) -> None:
    """verify reads the checkpoints, then the blocks, then the leaves: a fold that commits between the
    blocks and the leaves leaves leaves whole past the checkpoints read, without their block. As here,
    where the checkpoints past 679 leaves were cut: block 2 (leaves 512 to 767) is past them."""
    with as_an_attacker("town_checkpoint"):
        Checkpoint.objects.filter(size__gt=7 * 97).delete()
    ArchiveBlock.objects.filter(index=2).delete()
    verdict = archive.verify()
    assert verdict.ok and verdict.blocks == []
