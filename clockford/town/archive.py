"""The Archive: every call is a footstep, and footsteps are leaves of a signed Merkle tree.

Writing a footstep is one INSERT in the call's own transaction; its number comes from the database's
sequence. Folding footsteps into the tree happens apart from calls, in batches (a background loop of
the server, or `manage.py archive fold`), so no call waits on the tree. Each fold signs a checkpoint:
`clockford-archive\\n<size>\\n<base64 root>\\n`, the body of a C2SP tlog checkpoint note.
"""

import base64
import datetime as dt
import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone

from clockford.town import head, merkle, signing
from clockford.town.models import ArchiveBlock, ArchiveLeaf, Checkpoint, Footstep, Passport
from clockford.town.prepared import prepared

ORIGIN = "clockford-archive"
FOLD_BATCH = 5000
# Leaves in a block (ArchiveBlock): a proof reads a root for each block before the leaf's own, and the
# leaves of at most two blocks, where it read every leaf (a second at 200,000 footsteps, on PostgreSQL).
BLOCK = 256
# A call's transaction never lasts this long; a footstep committed late is still picked up.
LATE_COMMIT_MARGIN = dt.timedelta(seconds=120)


def entry_bytes(f: Footstep) -> bytes:
    """The canonical bytes of a footstep: what its leaf hash commits to."""
    return _entry_bytes((f.number, f.at, f.tool, f.passport, f.outcome, f.digest, f.job_id))


# A footstep's fields in the order _entry_bytes takes them, as a fold reads them (no model instances:
# a fold reads thousands of rows, and building each as a Footstep cost more than hashing it).
ENTRY_FIELDS = ("number", "at", "tool", "passport", "outcome", "digest", "job_id")


def _entry_bytes(row: tuple[Any, ...]) -> bytes:
    number, at, tool, passport, outcome, digest, job_id = row
    return signing.canonical_json(
        {
            "v": 1,
            "number": number,
            "at": at.astimezone(dt.UTC).isoformat(timespec="microseconds"),
            "tool": tool,
            "passport": passport,
            "outcome": outcome,
            "digest": digest,
            "job": job_id,
        }
    )


@dataclass(frozen=True)
class Step:
    """One footstep to write: the call's tool, passport, outcome, arguments (kept as a keyed digest,
    never their text) and job, and `beside`, one more write of the call (an UPDATE and its parameters,
    the desk's count on the passport) that goes with it."""

    tool: str
    passport: str
    outcome: str
    arguments: dict[str, Any]
    job_id: str | None
    beside: tuple[str, list[Any]] | None = None


def record(step: Step) -> int:
    """Write one footstep inside the caller's transaction and return its number.

    One plain INSERT ... RETURNING: every call of the town passes here, and the ORM's model
    machinery costs several times the statement itself. The step's `beside` goes, on PostgreSQL, in
    the same statement, as a data-modifying WITH, so the footstep and the count cost one round trip;
    elsewhere it runs just before. Either way both are in the caller's transaction, and commit or roll
    back together."""
    db = connections[DEFAULT_DB_ALIAS]  # once: each use of the proxy, `connection`, finds it again
    with db.cursor() as c:
        if step.beside is not None and db.vendor != "postgresql":
            c.execute(*step.beside)
            step = replace(step, beside=None)
        c.execute(*footstep_statement(step))
        row = c.fetchone()
    return int(row[0])


def footstep_statement(step: Step, number: int | None = None) -> tuple[str, list[Any]]:
    """record's INSERT and its parameters, with the step's `beside` in a WITH (PostgreSQL's); or, given
    the `number` taken ahead (NUMBER_AHEAD), the INSERT of the footstep with that number, which returns
    nothing: the desk sends it in the message of the call's COMMIT."""
    db = connections[DEFAULT_DB_ALIAS]
    at = db.ops.adapt_datetimefield_value(timezone.now())
    digest = signing.keyed_digest(step.arguments)
    params: list[Any] = [at, step.tool, step.passport, step.outcome[:80], digest, step.job_id]
    sql = _INSERT_FOOTSTEP
    if number is not None:
        sql, params = _INSERT_NUMBERED, [number, *params]
    if step.beside is None:
        return prepared(sql), params
    return prepared(f"WITH beside AS ({step.beside[0]}) {sql}"), [*step.beside[1], *params]


# PostgreSQL's next footstep number, taken ahead of the call (in the statement that counts its request
# and reads its session, clockford/face/server.py): the number a reply carries is then known before its
# footstep is written, and the footstep's INSERT goes with the COMMIT, one round trip where there were
# two. A number taken and never written (a call the face refused first) leaves a gap, as a rolled-back
# INSERT always has; the fold folds what is there, in number order, and looks for late commits (_pending).
NUMBER_AHEAD = "nextval(pg_get_serial_sequence('town_footstep', 'number'))"


_INSERT_LEAF = 'INSERT INTO town_archiveleaf ("index", footstep_id, hash) VALUES (%s, %s, %s)'

_INSERT_FOOTSTEP = (
    "INSERT INTO town_footstep (at, tool, passport, outcome, digest, job_id) "
    "VALUES (%s, %s, %s, %s, %s, %s) RETURNING number"
)
_INSERT_NUMBERED = (
    "INSERT INTO town_footstep (number, at, tool, passport, outcome, digest, job_id) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s)"
)


def checkpoint_body(size: int, root: bytes) -> bytes:
    return f"{ORIGIN}\n{size}\n{base64.b64encode(root).decode()}\n".encode()


def latest_checkpoint() -> Checkpoint | None:
    return Checkpoint.objects.order_by("-size").first()


def _frontier(cp: Checkpoint | None) -> merkle.Frontier:
    return [(h, bytes.fromhex(x)) for h, x in cp.frontier] if cp else []


def fold_floor(last: Checkpoint | None) -> dt.datetime | None:
    """The oldest time a footstep not yet in the tree can honestly have; older ones were hidden.

    Not the last checkpoint's own time: a fold that stopped at its batch limit leaves footsteps of
    any age behind it. They all come after the last footstep it folded (folds go in number order,
    and numbers follow time within a call's length), and a footstep that was still committing
    during that fold is younger than the fold by less than the margin.
    """
    if last is None:
        return None
    newest = Footstep.objects.filter(leaf__index=last.size - 1).values_list("at", flat=True).first()
    return min(last.at, newest or last.at) - LATE_COMMIT_MARGIN


def _pending(
    settle: dt.timedelta, settled: dt.datetime | None = None
) -> tuple[Checkpoint | None, dt.datetime, dt.datetime | None, list[QuerySet[Footstep]]]:
    """The last checkpoint, now, the fold's floor, and the footsteps a fold may look at now (each query
    of the list a part); of those it takes the ones no older than the floor. A footstep has settled when
    it is older than `settled` (by default, now less `settle`).

    Those without a leaf after the newest footstep the last checkpoint signed, in number order, up to
    the first one that has not settled: a run of numbers, so none is passed over whatever the clock
    did, found through the primary key in time that grows with the run, not with the Archive. On PostgreSQL calls commit out
    of number order, so a footstep numbered below the newest one folded can commit after that fold:
    those late ones are looked for too, among the footsteps no older than any fold could still take.
    On SQLite a call holds the one write lock from its footstep to its commit, so footsteps commit in
    number order and none can come late (the look for them cost each fold a scan of two minutes of
    footsteps, holding the write lock every call waits for)."""
    last = latest_checkpoint()
    now = timezone.now()
    # The newest footstep among the leaves the last checkpoint signed: a leaf slipped in past them
    # moves nothing, and the fold meets it (an IntegrityError) instead of passing over what it hides.
    # On SQLite, where footsteps are folded in number order, that is the last leaf signed.
    size = last.size if last else 0
    if connection.vendor == "sqlite":
        signed = ArchiveLeaf.objects.filter(index=size - 1)
    else:
        signed = ArchiveLeaf.objects.filter(index__lt=size).order_by("-footstep_id")
    newest = signed.values_list("footstep_id", flat=True).first() or 0
    # Without a leaf: a copy cut behind its last checkpoint may hold leaves past it (verify says so).
    after = Footstep.objects.filter(number__gt=newest, leaf__isnull=True)
    if settled is None:
        settled = now - settle
    first_unsettled = after.filter(at__gte=settled).order_by("number").values_list("number", flat=True).first()
    run = after if first_unsettled is None else after.filter(number__lt=first_unsettled)
    late = None
    if connection.vendor != "sqlite":
        # Apart from the run: one query with both would scan every footstep.
        late = Footstep.objects.filter(number__lt=newest, leaf__isnull=True, at__lt=settled)
    floor = fold_floor(last)
    if floor is not None and late is not None:
        late = late.filter(at__gte=floor)  # only for speed: a late footstep is newer than this
    return last, now, floor, [run] if late is None else [run, late]


def fold(limit: int | None = None, settle: dt.timedelta | None = None, settled: dt.datetime | None = None) -> int:
    """Fold settled footsteps into the tree and sign a checkpoint. Returns how many were folded."""
    if limit is None:
        limit = FOLD_BATCH
    if settle is None:
        settle = dt.timedelta(seconds=settings.CLOCKFORD["FOLD_SETTLE_SECONDS"])
    # A look first, outside any write transaction: on SQLite a fold's transaction holds the one
    # write lock every call waits for, and most turns of the fold loop find nothing to do.
    if not any(part.exists() for part in _pending(settle, settled)[3]):
        return 0
    # A database behind the town's last signed checkpoint (clockford/town/head.py) is never folded:
    # its next checkpoint would sign other leaves at a size the town has signed already.
    if why := head.behind():
        raise Behind(why)
    built_on: list[int] = []
    try:
        folded = _fold(limit, settle, settled, built_on)
    except IntegrityError:
        # Two folders at once (two workers' loops, or a person's `archive fold`): both wrote leaf
        # number `size` next, its primary key made this one fail and roll back whole, so the tree
        # never forks. If the other one's checkpoint is there now, nothing was lost: not an error.
        now_last = latest_checkpoint()
        if built_on and now_last is not None and now_last.size > built_on[0]:
            return 0
        raise
    if folded:
        cp = latest_checkpoint()
        if cp is not None:
            head.remember(cp)
    return folded


class Behind(RuntimeError):
    """The database's Archive is behind the last checkpoint this town signed."""


def _fold(limit: int, settle: dt.timedelta, settled: dt.datetime | None, built_on: list[int]) -> int:
    with transaction.atomic():
        last, now, floor, pending = _pending(settle, settled)
        built_on.append(last.size if last else 0)
        batch = sorted(row for part in pending for row in part.order_by("number").values_list(*ENTRY_FIELDS)[:limit])
        # Never folded: a footstep older than any fold could still take was hidden from the tree, and
        # verify says so. (Left out here, not in the query: on SQLite a condition on the time would
        # have the query walk the index of times, two minutes of footsteps, instead of the numbers.)
        batch = [row for row in batch[:limit] if floor is None or row[1] >= floor]
        if not batch:
            return 0
        size = last.size if last else 0
        frontier = _frontier(last)
        leaves = []
        for i, row in enumerate(batch):
            h = merkle.leaf_hash(_entry_bytes(row))
            frontier = merkle.append(frontier, h)
            leaves.append((size + i, row[0], h.hex()))
        with connection.cursor() as c:
            c.executemany(_INSERT_LEAF, leaves)
        _write_blocks(size, [bytes.fromhex(h) for _, _, h in leaves])
        size += len(batch)
        root = merkle.frontier_root(frontier)
        Checkpoint.objects.create(
            size=size,
            root=root.hex(),
            frontier=[[h, x.hex()] for h, x in frontier],
            at=now,
            key_id=signing.key_id(),
            signature=signing.sign_bytes(checkpoint_body(size, root)),
        )
        return len(batch)


def _write_blocks(size: int, new: list[bytes]) -> None:
    """The roots of the blocks that the leaves `new`, folded after the first `size`, complete: those
    whose leaves are all here (merkle.Blocks), with the leaves already folded of the block they begin in."""
    start = size - size % BLOCK  # the first leaf of the block the new leaves begin in
    rows = ArchiveLeaf.objects.filter(index__gte=start, index__lt=size).order_by("index").values_list("index", "hash")
    before = [(index, bytes.fromhex(h)) for index, h in rows] if start < size else []
    made = merkle.whole_blocks(itertools.chain(before, enumerate(new, start=size)), BLOCK)
    blocks = [ArchiveBlock(index=index, hash=r.hex()) for index, r in made]
    # A row already there for a block the tree did not hold (written by hand, or left from another
    # tree) is only a wrong help: it is replaced, where its primary key stopped every fold from now on.
    ArchiveBlock.objects.filter(index__in=[b.index for b in blocks]).delete()
    ArchiveBlock.objects.bulk_create(blocks)


def _leaf_rows(lo: int, hi: int) -> list[str]:
    """The hashes of the leaves lo to hi - 1, as long as none is missing from the start."""
    rows = ArchiveLeaf.objects.filter(index__gte=lo, index__lt=hi).order_by("index").values_list("index", "hash")
    found = []
    for expected, (index, h) in enumerate(rows, start=lo):
        if index != expected:
            break
        found.append(h)
    return found


@dataclass(frozen=True)
class Mended:
    written: int
    removed: int
    right: int


def mend_blocks() -> Mended:
    """Make every block again from the leaves as they are (`archive blocks`), where `archive verify`
    found one wrong or missing: the fold writes only the blocks it completes, so one changed or lost
    afterwards stayed so. Writes the wrong and missing ones, removes those whose leaves are not all
    here, leaves the right ones alone. Reads every leaf, once."""
    kept = dict(ArchiveBlock.objects.values_list("index", "hash"))
    rows = ArchiveLeaf.objects.order_by("index").values_list("index", "hash").iterator(chunk_size=5000)
    leaves = ((index, h) for index, hx in rows if (h := _hash_or_none(hx)) is not None)
    made = {index: root.hex() for index, root in merkle.whole_blocks(leaves, BLOCK)}
    wrong = [index for index, root in made.items() if kept.get(index) != root]
    stale = [index for index in kept if index not in made]
    with transaction.atomic():
        for part in range(0, len(wrong) + len(stale), 1000):
            ArchiveBlock.objects.filter(index__in=(wrong + stale)[part : part + 1000]).delete()
        # A fold completing one of them meanwhile writes the same root: its row stands.
        ArchiveBlock.objects.bulk_create(
            [ArchiveBlock(index=i, hash=made[i]) for i in wrong], batch_size=1000, ignore_conflicts=True
        )
    return Mended(written=len(wrong), removed=len(stale), right=len(made) - len(wrong))


def fold_all(settle: dt.timedelta | None = None) -> int:
    """Fold every footstep that had settled when this began, in batches. Not the ones that settle
    meanwhile: under a steady stream of calls more settle during every batch, and a fold that chased
    them went on turning, a checkpoint a few footsteps at a time, for as long as the calls came (the
    next turn of the fold loop takes them)."""
    if settle is None:
        settle = dt.timedelta(seconds=settings.CLOCKFORD["FOLD_SETTLE_SECONDS"])
    settled = timezone.now() - settle
    total = 0
    while n := fold(settle=settle, settled=settled):
        total += n
    return total


@dataclass
class Verdict:
    ok: bool
    size: int
    problems: list[str]
    # The blocks (ArchiveBlock) that are wrong or missing: said, but the Archive still verifies. A block
    # is only a help to proofs: one made with a wrong root does not verify against the signed root and
    # is made again from every leaf, and a missing one is read from its leaves; slower, never untrue.
    blocks: list[str] = field(default_factory=list)

    def blocks_said(self) -> str:
        """What follows a verdict's sentence when blocks are wrong or missing (nothing when none are).
        They never fail it: they slow a proof, and never make one untrue."""
        if not self.blocks:
            return ""
        return (
            f" {len(self.blocks)} of its blocks are wrong or missing: proofs there are made from the "
            "leaves, slower but as true (manage.py archive blocks makes them again)."
        )


def verify(public_key_hex: str | None = None) -> Verdict:
    """Check the whole log: every footstep's bytes against its leaf, every leaf against the signed
    root, every checkpoint's signature, key and frontier, and that no footstep was kept out. And every
    block's root against the leaves read for the rest, none read twice: Verdict.blocks."""
    problems: list[str] = []
    pk = public_key_hex or signing.public_key_hex()
    kid = signing.key_id(bytes.fromhex(pk))
    checkpoints = {cp.size: cp for cp in Checkpoint.objects.all()}
    # Read after the checkpoints and before the leaves, as a fold writes them in one transaction: every
    # block within the largest checkpoint read is here, and a block folded while this runs is not
    # called missing.
    signed = max(checkpoints, default=0)
    kept_blocks = dict(ArchiveBlock.objects.values_list("index", "hash"))
    blocks = merkle.Blocks(BLOCK)
    wrong_blocks: list[str] = []
    frontier: merkle.Frontier = []
    index = 0
    # Leaves and footsteps are read apart, so a leaf whose footstep is gone is seen, not skipped by a join.
    leaves = ArchiveLeaf.objects.order_by("index").values_list("index", "footstep_id", "hash")
    chunk: list[tuple[int, int, str]] = []

    def check(chunk: list[tuple[int, int, str]]) -> None:
        nonlocal frontier, index
        steps = Footstep.objects.in_bulk([f for _, f, _ in chunk])
        for leaf_index, number, stored in chunk:
            if leaf_index != index:
                problems.append(f"leaf {index} is missing (found {leaf_index})")
                index = leaf_index
            f = steps.get(number)
            leaf: bytes | None
            if f is None:
                problems.append(f"leaf {leaf_index} names footstep #{number}, which is not in the Archive")
                h = leaf = bytes.fromhex(stored)
            else:
                h = leaf = merkle.leaf_hash(entry_bytes(f))
                if h.hex() != stored:
                    problems.append(f"footstep #{number} does not match its leaf {leaf_index}")
                    leaf = _hash_or_none(stored)
            # A block is made of the leaves as stored, what a proof reads.
            if leaf is not None and (made := blocks.add(leaf_index, leaf)) is not None:
                check_block(*made)
            frontier = merkle.append(frontier, h)
            index += 1
            cp = checkpoints.get(index)
            if cp is not None:
                check_checkpoint(cp)

    def check_block(block: int, root: bytes) -> None:
        kept = kept_blocks.pop(block, None)
        if kept is None and (block + 1) * BLOCK <= signed:
            wrong_blocks.append(f"block {block} ({_leaves_of(block)}) is missing: proofs read its leaves instead")
        elif kept is not None and kept != root.hex():
            wrong_blocks.append(
                f"block {block} ({_leaves_of(block)}) does not match its leaves: a proof that reads it is "
                "made again from every leaf"
            )

    def check_checkpoint(cp: Checkpoint) -> None:
        if merkle.frontier_root(frontier).hex() != cp.root:
            problems.append(f"the root of the first {cp.size} leaves is not the signed one")
        if not signing.verify_bytes(checkpoint_body(cp.size, bytes.fromhex(cp.root)), cp.signature, pk):
            problems.append(f"the checkpoint of size {cp.size} is not signed by the town key")
        if cp.key_id != kid:
            problems.append(f"the checkpoint of size {cp.size} names key {cp.key_id}, not the town key {kid}")
        # The next fold builds on the frontier alone; a bent one would make it sign a wrong root.
        if cp.frontier != [[h, x.hex()] for h, x in frontier]:
            problems.append(f"the frontier kept with the checkpoint of size {cp.size} does not match the leaves")

    for row in leaves.iterator(chunk_size=2000):
        chunk.append(row)
        if len(chunk) == 2000:
            check(chunk)
            chunk = []
    check(chunk)
    for size in sorted(checkpoints):
        if size > index:
            problems.append(f"a checkpoint names {size} leaves but only {index} exist")
    # A footstep the tree never took, older than any fold could still take, is one hidden from it.
    floor = fold_floor(latest_checkpoint())
    if floor is not None:
        hidden = Footstep.objects.filter(leaf__isnull=True, at__lt=floor).order_by("number")
        numbers = list(hidden.values_list("number", flat=True)[:50])
        problems += [f"footstep #{n} was never folded into the tree" for n in numbers]
        if len(numbers) == 50:
            problems.append(f"{hidden.count()} footsteps in all were never folded into the tree")
    problems += passport_counts()
    # Kept for a block whose leaves are not all here: one the tree has not reached yet (the fold that
    # completes it writes it again), or one with a leaf missing (said above).
    wrong_blocks += [
        f"block {b} ({_leaves_of(b)}) is kept, but not all its leaves are in the Archive" for b in sorted(kept_blocks)
    ]
    return Verdict(ok=not problems, size=index, problems=problems, blocks=wrong_blocks)


def _leaves_of(block: int) -> str:
    return f"leaves {block * BLOCK} to {block * BLOCK + BLOCK - 1}"


def _hash_or_none(stored: str) -> bytes | None:
    try:
        return bytes.fromhex(stored)
    except ValueError:
        return None


def passport_counts(most: int = 50) -> list[str]:
    """Each passport's own count of its footsteps (Passport.footsteps, what show_passport and the hall
    show) against the footsteps the Archive holds for it: a footstep cut from the log, or added to
    it, shows as a difference. Passports no longer kept are not compared."""
    held = dict(Footstep.objects.values("passport").annotate(n=Count("number")).values_list("passport", "n"))
    problems = []
    for pid, counted in Passport.objects.order_by("id").values_list("id", "footsteps").iterator(chunk_size=2000):
        found = held.get(pid, 0)
        if found != counted:
            problems.append(f"passport {pid} counts {counted} footsteps, but the Archive holds {found} of its own")
            if len(problems) == most:
                break
    return problems


# The Archive numbers footsteps with a 64-bit sequence: a larger number names no footstep, and is
# never sent to a database that could not even compare it (SQLite raises on it).
FOOTSTEP_MAX = 2**63 - 1


def names_a_footstep(number: int) -> bool:
    """Whether `number` could be a footstep's number, before any database is asked about it."""
    return 0 < number <= FOOTSTEP_MAX


def in_tree(number: int) -> bool:
    """Whether footstep `number` has its leaf in the Archive's tree (an inclusion proof can be made)."""
    return names_a_footstep(number) and ArchiveLeaf.objects.filter(footstep_id=number).exists()


class Damaged(ValueError):
    """The leaves in this database do not make the tree a checkpoint signs: no proof can be given."""


def inclusion(number: int) -> dict[str, Any]:
    """An inclusion proof for footstep `number` against the latest checkpoint."""
    leaf = ArchiveLeaf.objects.select_related("footstep").get(footstep_id=number)
    cp = latest_checkpoint()
    if cp is None or cp.size <= leaf.index:  # leaves and their checkpoint are written together
        raise ValueError(f"footstep #{number} has a leaf but no checkpoint covers it")
    leaf_hash = merkle.leaf_hash(entry_bytes(leaf.footstep))
    proof = merkle.inclusion_path(leaf.index, cp.size, Tree(cp.size).subtree)
    if not merkle.verify_inclusion(leaf.index, cp.size, leaf_hash, proof, bytes.fromhex(cp.root)):
        proof = merkle.inclusion_proof(leaf.index, leaf_hashes(cp.size))  # from every leaf, as it is
    return {
        "footstep": number,
        "index": leaf.index,
        "size": cp.size,
        "leaf": leaf_hash.hex(),
        "proof": [p.hex() for p in proof],
        "root": cp.root,
        "checkpoint": checkpoint_body(cp.size, bytes.fromhex(cp.root)).decode(),
        "signature": cp.signature,
        "keyId": cp.key_id,
        # The key itself, so a verifier outside the town can check the checkpoint with nothing else.
        "publicKey": signing.public_key_hex() if signing.key_id() == cp.key_id else None,
    }


def verify_inclusion(p: dict[str, Any]) -> bool:
    return merkle.verify_inclusion(
        p["index"],
        p["size"],
        bytes.fromhex(p["leaf"]),
        [bytes.fromhex(x) for x in p["proof"]],
        bytes.fromhex(p["root"]),
    )


def checkpoint_view(cp: Checkpoint) -> dict[str, Any]:
    """A signed checkpoint as anyone may read it: its body (what the town key signed), the signature,
    and the key, so a verifier needs nothing else."""
    return {
        "size": cp.size,
        "root": cp.root,
        "at": cp.at.astimezone(dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "checkpoint": checkpoint_body(cp.size, bytes.fromhex(cp.root)).decode(),
        "signature": cp.signature,
        "keyId": cp.key_id,
        "publicKey": signing.public_key_hex() if signing.key_id() == cp.key_id else None,
    }


class Tree:
    """The roots a proof asks for in the tree of the first `size` leaves: a range of whole blocks from
    their roots (ArchiveBlock), any other from its leaves, read a block at a time when first needed.
    Damaged when a leaf it reads is missing."""

    def __init__(self, size: int, blocks: bool = True) -> None:
        self.size = size
        rows = ArchiveBlock.objects.filter(index__lt=size // BLOCK).values_list("index", "hash") if blocks else []
        # A root that is not one (not 64 hex digits, a row changed by hand) is left out: its block is
        # read from its leaves, where it stopped every proof with Python's own words (a 404).
        self.blocks = {index: bytes.fromhex(h) for index, h in rows if _is_root(h)}
        self.leaves: dict[int, list[bytes]] = {}
        # Every root found, for the next proof in the same tree (an export proves thousands of footsteps).
        self.found: dict[tuple[int, int], bytes] = {}

    def subtree(self, lo: int, hi: int) -> bytes:
        if (lo, hi) not in self.found:
            self.found[lo, hi] = self._subtree(lo, hi)
        return self.found[lo, hi]

    def _subtree(self, lo: int, hi: int) -> bytes:
        n = hi - lo
        if n >= BLOCK and lo % BLOCK == 0 and n & (n - 1) == 0:
            roots = [self.blocks.get(b) for b in range(lo // BLOCK, hi // BLOCK)]
            if all(r is not None for r in roots):
                return merkle.root([r for r in roots if r is not None])
        if lo // BLOCK == (hi - 1) // BLOCK:
            start = lo - lo % BLOCK
            return merkle.root(self._block_leaves(start // BLOCK)[lo - start : hi - start])
        k = merkle.split(n)
        return merkle.node_hash(self.subtree(lo, lo + k), self.subtree(lo + k, hi))

    def forget_before(self, index: int) -> None:
        """Let go of what no proof of a leaf at `index` or later asks for: the leaves of the blocks before its
        own and the roots found inside them (a proof asks, below a block, only for roots in its own). An
        export proves footsteps in order, and kept all of them (15 MB for 20,000 footsteps)."""
        start = index - index % BLOCK
        self.leaves = {block: leaves for block, leaves in self.leaves.items() if block * BLOCK >= start}
        self.found = {k: root for k, root in self.found.items() if k[1] > start or k[1] - k[0] >= BLOCK}

    def _block_leaves(self, block: int) -> list[bytes]:
        if block not in self.leaves:
            lo, hi = block * BLOCK, min(block * BLOCK + BLOCK, self.size)
            found = _leaf_rows(lo, hi)
            if len(found) != hi - lo:
                raise _damaged(self.size)
            self.leaves[block] = [bytes.fromhex(h) for h in found]
        return self.leaves[block]


def _is_root(h: str) -> bool:
    return len(h) == 64 and all(c in "0123456789abcdef" for c in h)


def _damaged(size: int) -> "Damaged":
    return Damaged(
        f"The Archive in this database does not hold the {size} leaves its checkpoint signs, so no proof "
        "can be given; `manage.py archive verify` says what is wrong."
    )


def leaf_hashes(size: int) -> list[bytes]:
    """The hashes of the first `size` leaves; Damaged when the database does not hold them all."""
    rows = ArchiveLeaf.objects.filter(index__lt=size).order_by("index").values_list("index", "hash")
    hashes = []
    for expected, (index, h) in enumerate(rows.iterator(chunk_size=5000)):
        if index != expected:
            break
        hashes.append(bytes.fromhex(h))
    if len(hashes) != size:
        raise _damaged(size)
    return hashes


def consistency(first: int, second: int) -> dict[str, Any]:
    """A consistency proof (RFC 6962 section 2.1.2) between the signed checkpoints of `first` and
    `second` leaves: that the tree of `second` leaves begins with the tree of `first`. Both must be
    sizes the town signed; ValueError names the one that is not."""
    if not 0 < first <= second:
        raise ValueError("The first size must be at least 1 and no larger than the second.")
    old = Checkpoint.objects.filter(size=first).first()
    new = Checkpoint.objects.filter(size=second).first()
    for size, cp in ((first, old), (second, new)):
        if cp is None:
            raise ValueError(f"The town signed no checkpoint of size {size}.")
    assert old is not None and new is not None
    proof = merkle.consistency_path(first, second, Tree(second).subtree)
    old_root, new_root = bytes.fromhex(old.root), bytes.fromhex(new.root)
    if not merkle.verify_consistency(first, second, old_root, new_root, proof):
        proof = merkle.consistency_proof(first, leaf_hashes(second))  # from every leaf, as it is
    return {
        "first": checkpoint_view(old),
        "second": checkpoint_view(new),
        "proof": [p.hex() for p in proof],
    }


def verify_consistency(p: dict[str, Any]) -> bool:
    return merkle.verify_consistency(
        p["first"]["size"],
        p["second"]["size"],
        bytes.fromhex(p["first"]["root"]),
        bytes.fromhex(p["second"]["root"]),
        [bytes.fromhex(x) for x in p["proof"]],
    )
