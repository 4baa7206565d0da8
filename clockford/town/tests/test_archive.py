"""The Archive in process: folding, `archive verify` over ten thousand footsteps and every kind of
tampering, inclusion proofs, signed checkpoints, and the append-only triggers."""

import base64
import datetime as dt
import hashlib
import io
import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from nacl.signing import SigningKey

from clockford.town import archive, head, merkle, signing
from clockford.town.models import ArchiveLeaf, Checkpoint, Footstep, new_passport_id

pytestmark = pytest.mark.django_db

TOOLS = ["look_around", "walk_to", "show_passport", "remember", "recall", "forget"]
OUTCOMES = ["ok"] * 9 + ["refused:not_found", "refused:secret", "busy", "error"]
ARCHIVE_TABLES = ["town_footstep", "town_archiveleaf", "town_checkpoint"]


def make_footsteps(n: int, spacing: dt.timedelta = dt.timedelta(seconds=1), seed: int = 7) -> list[int]:
    """n footsteps as calls leave them: town tools, a few dozen passports, mostly ok, some refusals,
    job ids now and then, one per `spacing`, the newest a few seconds old. Returns their numbers."""
    rnd = random.Random(seed)
    passports = [new_passport_id() for _ in range(40)]
    start = timezone.now() - spacing * n - dt.timedelta(seconds=5)
    tick = spacing // dt.timedelta(microseconds=1)
    rows = []
    for i in range(n):
        tool = rnd.choice(TOOLS)
        arguments: dict[str, Any] = {"key": f"notes/{i % 97}", "value": f"note {i}"} if tool == "remember" else {}
        job = f"job-{rnd.randrange(1000)}" if rnd.random() < 0.3 else None
        if job:
            arguments["job_id"] = job
        rows.append(
            Footstep(
                at=start + spacing * i + dt.timedelta(microseconds=rnd.randrange(tick)),
                tool=tool,
                passport=rnd.choice(passports),
                outcome=rnd.choice(OUTCOMES),
                digest=signing.keyed_digest(arguments),
                job_id=job,
            )
        )
    Footstep.objects.bulk_create(rows, batch_size=2000)
    return list(Footstep.objects.order_by("number").values_list("number", flat=True))


def drop_append_only(table: str) -> None:
    with connection.cursor() as c:
        if connection.vendor == "sqlite":
            c.execute(f"DROP TRIGGER {table}_no_update")
            c.execute(f"DROP TRIGGER {table}_no_delete")
        else:
            c.execute(f"DROP TRIGGER {table}_append_only ON {table}")


def create_append_only(table: str) -> None:
    with connection.cursor() as c:
        if connection.vendor == "sqlite":
            for op in ("UPDATE", "DELETE"):
                c.execute(
                    f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, 'The Archive is append-only.'); END"
                )
        else:
            c.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION clockford_append_only()"
            )


@contextmanager
def as_an_attacker(*tables: str) -> Iterator[None]:
    """What someone with the database's owner rights can do: drop the triggers, write, put them back."""
    for t in tables:
        drop_append_only(t)
    try:
        yield
    finally:
        for t in tables:
            create_append_only(t)


class Undo(Exception):
    pass


@contextmanager
def undone() -> Iterator[None]:
    """Run a tampering and the checks on it in a savepoint that is rolled back afterwards."""
    try:
        with transaction.atomic():
            yield
            raise Undo
    except Undo:
        pass


def run_verify() -> tuple[bool, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("archive", "verify", stdout=out, stderr=err)
    except CommandError as e:
        return False, out.getvalue(), err.getvalue() + str(e)
    return True, out.getvalue(), err.getvalue()


def one_byte_off(text: str, at: int = -1, kind: str = "text") -> str:
    """`text` with the character at `at` changed, and nothing else. A digit stays a digit and a hex
    digit stays a lower-case hex digit (so "a" never becomes "A", which is the same byte in hex)."""
    c = text[at]
    if kind == "digit":
        new = str((int(c) + 1) % 10)
    elif kind == "hex":
        new = format((int(c, 16) + 1) % 16, "x")
    elif c.isdigit():
        new = "x"
    else:
        new = "A" if c != "A" else "B"
    i = at % len(text)
    assert new != c
    return text[:i] + new + text[i + 1 :]


# ---------------------------------------------------------------------------------------------
# Ten thousand footsteps, folded, verified, and tampered with one byte at a time.


@pytest.fixture
def ten_thousand() -> list[int]:
    t0 = time.perf_counter()
    numbers = make_footsteps(10_000)
    out = io.StringIO()
    call_command("archive", "fold", stdout=out)
    assert out.getvalue().strip() == "Folded 10000 footsteps."
    print(f"\n10,000 footsteps made and folded in {time.perf_counter() - t0:.2f} s on {connection.vendor}")
    return numbers


def twenty_folded() -> Checkpoint:
    """Twenty footsteps, folded; the checkpoint that signs them."""
    make_footsteps(20)
    archive.fold_all()
    last = archive.latest_checkpoint()
    assert last is not None
    return last


def unfolded(at: dt.datetime, tool: str, digit: str) -> Footstep:
    """A footstep numbered now but timed `at`, as a call whose transaction commits after a fold leaves
    it, and not folded yet; its digest is `digit` 64 times."""
    return Footstep.objects.create(at=at, tool=tool, passport="PP-2345678923", outcome="ok", digest=digit * 64)


@pytest.mark.heavy
def test_verify_passes_on_ten_thousand_footsteps_and_fails_on_any_one_byte_change(ten_thousand: list[int]) -> None:
    t0 = time.perf_counter()
    ok, out, err = run_verify()
    assert ok, err
    assert out.strip() == "The Archive verifies: 10000 footsteps, every checkpoint signed by the town key."
    print(f"verify of 10,000 in {time.perf_counter() - t0:.2f} s")
    assert ArchiveLeaf.objects.count() == 10_000
    assert Checkpoint.objects.order_by("-size").first().size == 10_000  # type: ignore[union-attr]

    middle = ten_thousand[5_000]
    with_job = Footstep.objects.filter(job_id__isnull=False).order_by("number")[2_000]
    index_of = dict(ArchiveLeaf.objects.values_list("footstep_id", "index"))

    def tampered(number: int, column: str, value: Any) -> str:
        with as_an_attacker("town_footstep"):
            assert Footstep.objects.filter(number=number).update(**{column: value}) == 1
        ok, _, err = run_verify()
        assert not ok, column
        return err

    for column in ("tool", "passport", "outcome", "digest"):
        with undone():
            old = getattr(Footstep.objects.get(number=middle), column)
            err = tampered(
                middle, column, one_byte_off(old, at=len(old) // 2, kind="hex" if column == "digest" else "text")
            )
            assert f"footstep #{middle} does not match its leaf {index_of[middle]}" in err, column
    with undone():
        err = tampered(with_job.number, "job_id", one_byte_off(with_job.job_id or ""))
        assert f"footstep #{with_job.number} does not match its leaf {index_of[with_job.number]}" in err
    with undone():
        old_at = Footstep.objects.get(number=middle).at.isoformat(timespec="microseconds")
        new_at = dt.datetime.fromisoformat(one_byte_off(old_at, at=old_at.index("+") - 1, kind="digit"))
        err = tampered(middle, "at", new_at)
        assert f"footstep #{middle} does not match its leaf {index_of[middle]}" in err

    # A renumbered footstep: its leaf is made to follow it, as a careful attacker would, so the
    # database's own foreign key has nothing to say; the leaf hash still does.
    last = ten_thousand[-1]
    digits = str(last)
    i = next(k for k, c in enumerate(digits) if c != "9")
    renumbered = int(digits[:i] + "9" + digits[i + 1 :])
    assert renumbered not in index_of
    with undone():
        with as_an_attacker("town_footstep", "town_archiveleaf"):
            Footstep.objects.filter(number=last).update(number=renumbered)
            ArchiveLeaf.objects.filter(footstep_id=last).update(footstep_id=renumbered)
        ok, _, err = run_verify()
        assert not ok
        assert f"footstep #{renumbered} does not match its leaf {index_of[last]}" in err

    # The stored leaf hash, one hex digit off.
    with undone():
        leaf = ArchiveLeaf.objects.get(footstep_id=middle)
        with as_an_attacker("town_archiveleaf"):
            ArchiveLeaf.objects.filter(pk=leaf.pk).update(hash=one_byte_off(leaf.hash, at=0, kind="hex"))
        ok, _, err = run_verify()
        assert not ok and f"footstep #{middle} does not match its leaf {leaf.index}" in err
        # The block made of it, from the leaves as stored (what a proof reads), is said to be wrong too.
        assert f"block {leaf.index // archive.BLOCK} (leaves " in err

    # A leaf taken out of the tree: its place is missing, and its footstep is never in the tree.
    with undone():
        with as_an_attacker("town_archiveleaf"):
            ArchiveLeaf.objects.filter(footstep_id=middle).delete()
        ok, _, err = run_verify()
        assert not ok
        assert f"leaf {index_of[middle]} is missing" in err
        assert f"footstep #{middle}" in err

    # A checkpoint whose signature is one hex digit off, and one signed by another key.
    cp = Checkpoint.objects.order_by("size").first()
    assert cp is not None
    with undone():
        with as_an_attacker("town_checkpoint"):
            Checkpoint.objects.filter(pk=cp.pk).update(signature=one_byte_off(cp.signature, at=10, kind="hex"))
        ok, _, err = run_verify()
        assert not ok and f"the checkpoint of size {cp.size} is not signed by the town key" in err
    with undone():
        forged_root = hashlib.sha256(b"another history").digest()
        stranger = SigningKey.generate()
        with as_an_attacker("town_checkpoint"):
            Checkpoint.objects.filter(pk=cp.pk).update(
                root=forged_root.hex(),
                signature=stranger.sign(archive.checkpoint_body(cp.size, forged_root)).signature.hex(),
            )
        ok, _, err = run_verify()
        assert not ok
        assert f"the root of the first {cp.size} leaves is not the signed one" in err
        assert f"the checkpoint of size {cp.size} is not signed by the town key" in err

    # Every tampering above was undone, triggers included: the log verifies again and stays append-only.
    ok, _, err = run_verify()
    assert ok, err
    with pytest.raises(DatabaseError), transaction.atomic():
        Footstep.objects.filter(number=middle).update(tool="walk_to")
    print(f"the whole test body in {time.perf_counter() - t0:.2f} s")


@pytest.mark.heavy
def test_an_inclusion_proof_verifies_for_first_middle_and_last(ten_thousand: list[int]) -> None:
    pk = signing.public_key_hex()
    for number in (ten_thousand[0], ten_thousand[len(ten_thousand) // 2], ten_thousand[-1]):
        p = archive.inclusion(number)
        assert p["footstep"] == number and p["size"] == 10_000
        assert archive.verify_inclusion(p)
        # Everything needed to check it is in the proof and the public key.
        assert p["leaf"] == merkle.leaf_hash(archive.entry_bytes(Footstep.objects.get(number=number))).hex()
        origin, size, root_b64, end = p["checkpoint"].split("\n")
        assert (origin, int(size), end) == ("clockford-archive", 10_000, "")
        assert base64.b64decode(root_b64).hex() == p["root"]
        assert signing.verify_bytes(p["checkpoint"].encode(), p["signature"], pk)
        assert p["keyId"] == hashlib.sha256(bytes.fromhex(pk)).hexdigest()[:16] == signing.key_id()
        # The same proof does not verify for another leaf, place or root.
        assert not archive.verify_inclusion({**p, "leaf": merkle.leaf_hash(b"x").hex()})
        assert not archive.verify_inclusion({**p, "index": (p["index"] + 1) % 10_000})
        assert not archive.verify_inclusion({**p, "root": hashlib.sha256(b"x").hexdigest()})
        assert not signing.verify_bytes(p["checkpoint"].replace("10000", "9999").encode(), p["signature"], pk)

        out = io.StringIO()
        call_command("archive", "proof", str(number), stdout=out)
        printed = json.loads(out.getvalue())
        assert printed["verifies"] is True
        assert {k: v for k, v in printed.items() if k != "verifies"} == p

    out = io.StringIO()
    call_command("archive", "checkpoint", stdout=out)
    text = out.getvalue()
    assert text.startswith("clockford-archive\n10000\n")
    assert f"signed by key {signing.key_id()} ({signing.public_key_hex()}): " in text
    # A number past the Archive's 64-bit numbers, or below its first, names no footstep either.
    for number in (ten_thousand[-1] + 1000, 10**21, 2**63, 0, -5):
        with pytest.raises(CommandError, match=r"is not in the tree \(yet\)\."):
            call_command("archive", "proof", str(number))


# ---------------------------------------------------------------------------------------------
# Folding.


def test_a_backlog_larger_than_one_batch_is_folded_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hours of footsteps the tree never took (a town run over stdio, a folder that was down): the
    first batch must not push the rest below the fold's floor, where they would stay forever."""
    monkeypatch.setattr(archive, "FOLD_BATCH", 100)
    numbers = make_footsteps(350, spacing=dt.timedelta(seconds=30))
    assert archive.fold_all() == 350
    assert sorted(ArchiveLeaf.objects.values_list("footstep_id", flat=True)) == numbers
    assert list(Checkpoint.objects.order_by("size").values_list("size", flat=True)) == [100, 200, 300, 350]
    verdict = archive.verify()
    assert verdict.ok, verdict.problems
    assert verdict.size == 350


def test_footsteps_younger_than_the_settle_time_wait_for_the_next_fold() -> None:
    make_footsteps(10)
    now = timezone.now()
    fresh = unfolded(now, "look_around", "0")
    assert archive.fold_all() == 10
    assert not ArchiveLeaf.objects.filter(footstep=fresh).exists()
    assert archive.verify().ok
    assert archive.fold_all(settle=dt.timedelta(0)) == 1
    assert ArchiveLeaf.objects.get(footstep=fresh).index == 10


def test_a_fold_takes_what_had_settled_when_it_began_not_what_settles_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Calls go on while the fold works: each batch, more footsteps settle. fold_all folds those that had
    settled when it began and stops; chasing the others made it turn, a checkpoint a few footsteps at a
    time, for as long as the calls came."""
    make_footsteps(10)
    folds: list[int] = []
    fold = archive.fold

    def fold_while_calls_come(**kwargs: Any) -> int:
        n = fold(**kwargs)
        folds.append(n)
        if len(folds) < 50:
            unfolded(timezone.now(), "look_around", str(len(folds)))  # a call, settled at the next look
        return n

    monkeypatch.setattr(archive, "fold", fold_while_calls_come)
    assert archive.fold_all(settle=dt.timedelta(0)) == 10
    assert folds == [10, 0] and Checkpoint.objects.count() == 1
    assert Footstep.objects.filter(leaf__isnull=True).count() == 2  # the next turn's
    assert archive.verify().ok


def test_a_late_commit_within_the_margin_is_folded_and_not_called_hidden() -> None:
    """A call whose transaction commits after a fold, with a number and time before it."""
    last = twenty_folded()
    late = unfolded(last.at - archive.LATE_COMMIT_MARGIN + dt.timedelta(seconds=5), "remember", "1")
    # Not yet folded, and younger than the margin: nothing is wrong.
    verdict = archive.verify()
    assert verdict.ok, verdict.problems
    ok, out, err = run_verify()  # the command folds it first
    assert ok, err
    assert "21 footsteps" in out
    assert ArchiveLeaf.objects.get(footstep=late).index == 20


def test_footsteps_are_folded_in_number_order_whatever_their_times_say() -> None:
    """A clock that went back: the newer footstep is timed before the older one. The fold takes a
    run of numbers up to the first footstep that has not settled, so neither is passed over."""
    last = twenty_folded()
    now = timezone.now()
    first = unfolded(now, "look_around", "3")  # not settled yet
    second = unfolded(now - dt.timedelta(seconds=30), "look_around", "4")  # settled, numbered after it
    assert archive.fold_all() == 0
    assert archive.fold_all(settle=dt.timedelta(0)) == 2
    assert [ArchiveLeaf.objects.get(footstep=f).index for f in (first, second)] == [last.size, last.size + 1]
    assert archive.verify().ok


def test_a_fold_looks_at_the_footsteps_after_the_tree_not_at_two_minutes_of_them() -> None:
    """What a fold reads does not grow with the footsteps of the last two minutes (every call's, at
    hundreds a second): past the tree's newest footstep by number, and on PostgreSQL, where calls
    commit out of number order, for late ones too, apart."""
    twenty_folded()
    make_footsteps(5)
    sent: list[str] = []

    def watch(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        assert archive.fold_all() == 5
    # Every look for footsteps without a leaf starts past the tree's newest footstep by number...
    looks = [sql for sql in sent if "LEFT OUTER JOIN" in sql]
    past = [sql for sql in looks if '"town_footstep"."number" >' in sql]
    late = [sql for sql in looks if '"town_footstep"."number" <' in sql]
    assert past and sorted(past + late) == sorted(looks)
    # ...and on PostgreSQL, apart, below it for late ones too; on SQLite none can come late: a call
    # holds the one write lock until it commits.
    assert bool(late) == (connection.vendor != "sqlite")


def test_a_footstep_older_than_the_margin_left_out_of_the_tree_is_reported() -> None:
    last = twenty_folded()
    newest_leaf_at = Footstep.objects.filter(leaf__isnull=False).order_by("-number")[0].at
    hidden = unfolded(
        min(last.at, newest_leaf_at) - archive.LATE_COMMIT_MARGIN - dt.timedelta(seconds=1), "forget", "2"
    )
    assert archive.fold_all() == 0
    verdict = archive.verify()
    assert not verdict.ok
    assert f"footstep #{hidden.number} was never folded into the tree" in verdict.problems


def test_a_fold_that_meets_a_leaf_it_did_not_write_fails_loudly() -> None:
    """Losing a race to another folder is quiet (0, see the live crowd test); a leaf slipped into
    the next place by anyone else is not a race, and the fold says so rather than skip it."""
    numbers = make_footsteps(8)
    archive.fold(limit=5)
    ArchiveLeaf.objects.create(index=5, footstep_id=numbers[7], hash="0" * 64)
    # Seen before the fold writes anything: the leaves no longer end where the latest checkpoint says.
    with pytest.raises(archive.Behind, match="signs 5 leaves, but the leaves end at 6"):
        archive.fold()
    assert archive.latest_checkpoint().size == 5  # type: ignore[union-attr]
    verdict = archive.verify()
    assert f"footstep #{numbers[7]} does not match its leaf 5" in verdict.problems
    assert "a checkpoint names" not in " ".join(verdict.problems)


def test_an_empty_archive_verifies_and_has_no_checkpoint() -> None:
    assert archive.fold_all() == 0
    ok, out, _ = run_verify()
    assert ok and "0 footsteps" in out
    o = io.StringIO()
    call_command("archive", "checkpoint", stdout=o)
    assert o.getvalue().strip() == "No checkpoint yet: the Archive is empty."


def test_a_checkpoint_keeps_the_frontier_the_next_fold_builds_on() -> None:
    make_footsteps(13)
    archive.fold(limit=5)
    archive.fold(limit=5)
    archive.fold(limit=5)
    hashes = [bytes.fromhex(h) for h in ArchiveLeaf.objects.order_by("index").values_list("hash", flat=True)]
    for cp in Checkpoint.objects.order_by("size"):
        assert cp.root == merkle.root(hashes[: cp.size]).hex()
        assert cp.key_id == signing.key_id()
        frontier: merkle.Frontier = []
        for h in hashes[: cp.size]:
            frontier = merkle.append(frontier, h)
        assert cp.frontier == [[height, node.hex()] for height, node in frontier]
    # A frontier bent in the database would make every later fold sign a wrong root: verify says so.
    with as_an_attacker("town_checkpoint"):
        Checkpoint.objects.filter(size=10).update(frontier=[[3, "00" * 32], [1, "11" * 32]])
    verdict = archive.verify()
    assert not verdict.ok
    assert "the frontier kept with the checkpoint of size 10 does not match the leaves" in verdict.problems


# ---------------------------------------------------------------------------------------------
# Append-only.


@pytest.mark.parametrize("table", ARCHIVE_TABLES)
def test_update_and_delete_on_the_archive_raise(table: str) -> None:
    make_footsteps(3)
    archive.fold_all()
    q = connection.ops.quote_name
    key = q({"town_footstep": "number", "town_archiveleaf": "index", "town_checkpoint": "size"}[table])
    column = {"town_footstep": "tool", "town_archiveleaf": "hash", "town_checkpoint": "root"}[table]
    with connection.cursor() as c:
        c.execute(f"SELECT {key} FROM {table} ORDER BY {key} LIMIT 1")  # noqa: S608 (a fixed list of tables)
        (pk,) = c.fetchone()
    for sql in (
        f"UPDATE {table} SET {column} = 'x' WHERE {key} = %s",  # noqa: S608
        f"DELETE FROM {table} WHERE {key} = %s",  # noqa: S608
        f"DELETE FROM {table}",  # noqa: S608
    ):
        with pytest.raises(DatabaseError, match="The Archive is append-only"), transaction.atomic():
            with connection.cursor() as c:
                c.execute(sql, [pk] if "%s" in sql else None)
    model = {"town_footstep": Footstep, "town_archiveleaf": ArchiveLeaf, "town_checkpoint": Checkpoint}[table]
    with pytest.raises(DatabaseError, match="The Archive is append-only"), transaction.atomic():
        model.objects.filter(pk=pk).update(**{column: "y"})  # type: ignore[attr-defined]
    assert Footstep.objects.count() == 3 and ArchiveLeaf.objects.count() == 3


def test_behind_its_signed_head_the_archive_command_says_so_in_words(settings: Any, tmp_path: Any) -> None:
    """A database behind the town's signed head (restored from an older backup) is never folded: `archive
    fold` says why, and `archive proof` still proves a footstep already in the tree, neither with a
    traceback."""
    numbers = make_footsteps(5)
    call_command("archive", "fold", stdout=io.StringIO())
    settings.CLOCKFORD = {**settings.CLOCKFORD, "ARCHIVE_HEAD_FILE": tmp_path / "archive-head.json"}
    (tmp_path / "archive-head.json").write_text(json.dumps({"size": 500, "root": "00" * 32, "key_id": "x"}))
    make_footsteps(3, seed=8)
    with pytest.raises(CommandError) as refused:
        call_command("archive", "fold", stdout=io.StringIO())
    assert str(refused.value) == (
        "The Archive in this database reaches 5 footsteps, but this town signed a checkpoint of 500: the "
        "database is behind its own Archive (restored from an older backup?). Nothing was folded "
        "(manage.py archive head)."
    )
    out, err = io.StringIO(), io.StringIO()
    call_command("archive", "proof", str(numbers[0]), stdout=out, stderr=err)
    assert json.loads(out.getvalue())["verifies"] is True
    assert "is behind its own Archive" in err.getvalue()
    assert Checkpoint.objects.order_by("-size").values_list("size", flat=True).first() == 5


def test_a_footstep_pays_for_one_index_on_its_passport() -> None:
    """Every footstep writes each of its table's indexes: beside its number, one on its time and one on
    its passport, on both databases (on PostgreSQL db_index had also made a LIKE index on the passport
    that no query of the Archive uses). A footstep that names a job also writes the jobs' index, which
    holds only those (a partial index: the calls made without a job, most of them, never pay for it)."""
    with connection.cursor() as c:
        found = connection.introspection.get_constraints(c, "town_footstep")
    indexes = {name: about["columns"] for name, about in found.items() if about["index"] and not about["primary_key"]}
    assert indexes == {
        "town_footstep_at_32220bcb": ["at"],
        "town_footstep_passport": ["passport"],
        "town_footstep_job": ["passport", "job_id", "number"],
    }


def _kept_as_head(settings: Any, tmp_path: Any) -> Checkpoint:
    """The latest checkpoint, kept as the town's signed head in a head file of the test's own."""
    settings.CLOCKFORD = {**settings.CLOCKFORD, "ARCHIVE_HEAD_FILE": tmp_path / "archive-head.json"}
    cp = archive.latest_checkpoint()
    assert cp is not None
    head.remember(cp)
    assert head.behind() is None
    return cp


def test_a_rolled_back_database_with_the_heads_checkpoint_written_in_is_not_served(
    settings: Any, tmp_path: Any
) -> None:
    """Rolled back to fewer footsteps, with a row written in by hand that has the head's size and root
    (both public): the head's look alone passed it, and the next fold signed a fork. The latest
    checkpoint must be the town's, and the leaves must reach it."""
    make_footsteps(12)
    archive.fold(limit=8)
    old = archive.latest_checkpoint()
    archive.fold_all(settle=dt.timedelta(0))
    signed = _kept_as_head(settings, tmp_path)
    # The rollback: the leaves past 8 gone, and the checkpoint of 12 written back by hand.
    with as_an_attacker("town_archiveleaf", "town_checkpoint"):
        ArchiveLeaf.objects.filter(index__gte=8).delete()
        Checkpoint.objects.filter(size__gt=8).delete()
    assert old is not None
    for forged in (
        {"frontier": [], "signature": "not-a-signature"},  # as the probe wrote it
        {"frontier": signed.frontier, "signature": "00" * 64},  # the true frontier, a made-up signature
        {"frontier": signed.frontier, "signature": signed.signature},  # the real row, copied back
    ):
        with as_an_attacker("town_checkpoint"):
            Checkpoint.objects.filter(size=12).delete()
        Checkpoint.objects.create(size=12, root=signed.root, at=timezone.now(), key_id=signed.key_id, **forged)
        why = head.behind()
        assert why is not None and why.startswith("The Archive's latest checkpoint in this database (12 footsteps)")
        with pytest.raises(archive.Behind):
            archive.fold(settle=dt.timedelta(0))
    assert "the leaves end at 8" in (head.behind() or "")


def test_a_tail_cut_under_a_kept_checkpoint_is_not_served(settings: Any, tmp_path: Any) -> None:
    make_footsteps(10)
    archive.fold_all(settle=dt.timedelta(0))
    _kept_as_head(settings, tmp_path)
    with as_an_attacker("town_archiveleaf"):
        ArchiveLeaf.objects.filter(index__gte=7).delete()
    assert head.behind() == (
        "The Archive's latest checkpoint in this database (10 footsteps) signs 10 leaves, but the leaves end at 7: "
        "the log was cut or added to."
    )


def test_a_last_leaf_that_is_not_its_footsteps_is_not_served(settings: Any, tmp_path: Any) -> None:
    make_footsteps(6)
    archive.fold_all(settle=dt.timedelta(0))
    _kept_as_head(settings, tmp_path)
    with as_an_attacker("town_archiveleaf"):
        ArchiveLeaf.objects.filter(index=5).update(hash="ab" * 32)
    assert head.behind() == (
        "The Archive's latest checkpoint in this database (6 footsteps) ends with a leaf that is not its "
        "footstep's: the log was changed."
    )


def test_a_database_ahead_on_another_tree_is_not_called_behind(settings: Any, tmp_path: Any) -> None:
    make_footsteps(6)
    archive.fold_all(settle=dt.timedelta(0))
    settings.CLOCKFORD = {**settings.CLOCKFORD, "ARCHIVE_HEAD_FILE": tmp_path / "archive-head.json"}
    (tmp_path / "archive-head.json").write_text(json.dumps({"size": 3, "root": "00" * 32, "key_id": "x"}))
    assert head.behind() == (
        "The Archive in this database reaches 6 footsteps but holds no checkpoint of 3, the last this town "
        "signed: the database is not this town's, or was changed."
    )


def test_a_sound_archive_is_looked_at_in_a_few_small_statements(settings: Any, tmp_path: Any) -> None:
    """The look runs at every fresh read of the town's mode: a bounded number of statements whatever
    the Archive's size, and the signature checked once per checkpoint, not at every look."""
    from django.test.utils import CaptureQueriesContext

    make_footsteps(40)
    archive.fold_all(settle=dt.timedelta(0))
    _kept_as_head(settings, tmp_path)
    with CaptureQueriesContext(connection) as seen:
        assert head.behind() is None
    assert len(seen.captured_queries) == 3  # the head's row, the latest checkpoint with its leaves, a footstep


def test_a_changed_town_key_closes_the_town_until_a_person_accepts_it(
    settings: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second probe: after a new town key, `archive head --accept` and `town_mode open` sent the person
    round in a circle, since the latest checkpoint names the old key. Accepted, it is built on, and the
    next fold signs with the new key."""
    make_footsteps(6)
    archive.fold_all(settle=dt.timedelta(0))
    _kept_as_head(settings, tmp_path)
    monkeypatch.setattr(signing, "_seed", lambda: b"\x07" * 32)
    why = head.behind()
    assert why is not None and "the town key was changed since" in why and "archive head --accept" in why
    head.accept_restore()
    assert head.behind() is None
    make_footsteps(3, seed=9)
    assert archive.fold_all(settle=dt.timedelta(0)) == 3
    latest = archive.latest_checkpoint()
    assert latest is not None and latest.key_id == signing.key_id() and head.behind() is None


def test_a_town_that_kept_no_head_writes_it_at_its_first_start(settings: Any, tmp_path: Any) -> None:
    """A town from before the head file (2026-12-01) upgraded: checkpoints, and no head. The look at
    start (desk.close_if_behind, as the server loads) writes the head at once: it waited for the first
    fold after the upgrade, and a backup restored before then (or a town with nothing to fold) was
    served with nothing to say it was behind."""
    from clockford.town import desk

    make_footsteps(10)
    archive.fold(limit=4, settle=dt.timedelta(0))
    archive.fold_all(settle=dt.timedelta(0))
    cp = archive.latest_checkpoint()
    assert cp is not None and cp.size == 10
    settings.CLOCKFORD = {**settings.CLOCKFORD, "ARCHIVE_HEAD_FILE": tmp_path / "archive-head.json"}
    assert head.signed_head() is None
    assert desk.close_if_behind() is False
    assert head.signed_head() == head.Head(cp.size, cp.root, cp.key_id)
    # The backup of before the last fold, restored now: behind, with no fold since.
    with as_an_attacker("town_archiveleaf", "town_checkpoint"):
        ArchiveLeaf.objects.filter(index__gte=4).delete()
        Checkpoint.objects.filter(size=10).delete()
    assert head.behind() == (
        "The Archive in this database reaches 4 footsteps, but this town signed a checkpoint of 10: the "
        "database is behind its own Archive (restored from an older backup?)."
    )


def test_a_town_with_no_checkpoint_keeps_no_head(settings: Any, tmp_path: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "ARCHIVE_HEAD_FILE": tmp_path / "archive-head.json"}
    assert head.behind() is None
    assert not (tmp_path / "archive-head.json").exists()


def test_archive_head_keeps_the_first_head_and_says_so(settings: Any, tmp_path: Any) -> None:
    """`archive head` on a town that kept none yet said it had signed no checkpoint; it keeps the head."""
    make_footsteps(3)
    archive.fold_all(settle=dt.timedelta(0))
    settings.CLOCKFORD = {**settings.CLOCKFORD, "ARCHIVE_HEAD_FILE": tmp_path / "archive-head.json"}
    out = io.StringIO()
    call_command("archive", "head", stdout=out)
    assert out.getvalue() == "This database reaches the last checkpoint the town signed: 3 footsteps.\n"


def test_a_head_that_cannot_be_written_at_the_first_look_stops_no_fold(
    settings: Any, tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The first look keeps the head when it can; where the head cannot be written it says so and stops
    nothing the fold did not stop before (the fold folds, and its own keeping of the head fails)."""
    make_footsteps(3)
    archive.fold_all(settle=dt.timedelta(0))
    (tmp_path / "archive-head.json.lock").mkdir()  # where its lock file goes: no file can be opened there
    settings.CLOCKFORD = {**settings.CLOCKFORD, "ARCHIVE_HEAD_FILE": tmp_path / "archive-head.json"}
    assert head.behind() is None
    assert "could not keep the Archive's head" in caplog.text
    make_footsteps(2, seed=8)
    with pytest.raises(OSError):
        archive.fold(settle=dt.timedelta(0))
    assert Checkpoint.objects.order_by("-size").values_list("size", flat=True).first() == 5
