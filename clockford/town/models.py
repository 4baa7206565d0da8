"""The core's records: the town's mode, passports, MCP sessions, and the Archive.

Districts keep their own records in their own apps; these are the ones every call touches.
"""

import secrets
from collections.abc import Sequence
from typing import Any, ClassVar, Self

from django.conf import settings
from django.db import connection, models
from django.db.models import Q, QuerySet

from clockford.town.prepared import prepared
from clockford.town.several import sends_several
from clockford.town.tooling import NotFound

# Unambiguous letters and digits for the random part of ids an agent reads aloud or types.
ID_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def new_id(prefix: str, length: int = 12) -> str:
    """A random, unguessable id after its prefix (DECISIONS 14): ids are never counted up."""
    return prefix + "".join(secrets.choice(ID_ALPHABET) for _ in range(length))


def locked[M: models.Model](rows: QuerySet[M], **how: Any) -> QuerySet[M]:
    """`rows` read FOR UPDATE where the database has row locks (PostgreSQL), held until the call's
    transaction ends, so that two calls at once cannot both pass a check on the same state. SQLite
    has no row locks and needs none: its IMMEDIATE transactions run one writer at a time. `how` is
    passed on (of=("self",), no_key=True)."""
    if not connection.features.has_select_for_update:
        return rows
    if how.get("no_key") and not connection.features.has_select_for_no_key_update:
        how = {k: v for k, v in how.items() if k != "no_key"}
    return rows.select_for_update(**how)


def lock(rows: QuerySet[Any]) -> None:
    """Take the row locks of `rows` and read nothing else: a guard around a count ("two letters at once
    cannot both be the twentieth"). On SQLite it costs no statement at all (see `locked`)."""
    if connection.features.has_select_for_update:
        list(rows.select_for_update().values_list("pk", flat=True))


def lock_name(name: str) -> None:
    """Take a lock on a name until the transaction ends, where there is no row to lock: a guard around
    a count of rows not written yet ("two registrations at once cannot both be the last one allowed").
    On PostgreSQL a transaction-scoped advisory lock; SQLite's IMMEDIATE transactions already run one
    writer at a time, and it costs no statement there."""
    if connection.vendor == "postgresql":
        with connection.cursor() as c:
            c.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [name])


_LOCK_PASSPORT = "SELECT 1 FROM town_passport WHERE id = %s FOR UPDATE"


def lock_passport_then(
    pk: str, read: str, params: Sequence[Any], write: tuple[str, Sequence[Any]] | None = None
) -> tuple[list[tuple[Any, ...]], int]:
    """lock(Passport.objects.filter(pk=pk)) as one plain statement (on SQLite no work at all), then one
    read, whose rows it returns: the guard on a hot path (remember takes it on every call), where
    building the ORM's query cost more than the lock. Where the driver sends several statements in one
    message (clockford/town/several.py) both go in one: still two statements, so the read sees what
    committed while the lock was awaited, as a read after it must.

    `write`, a statement that may follow the read, goes in the same message too, and its rowcount is
    returned beside the rows; where it cannot go with them (SQLite, where a statement costs no round
    trip anyway) it is not sent, and the count is 0."""
    locks = connection.features.has_select_for_update
    with connection.cursor() as c:
        if locks and sends_several(c.cursor):
            sent, values = [prepared(_LOCK_PASSPORT), read], [pk, *params]
            if write is not None:
                sent.append(write[0])
                values += write[1]
            c.execute("; ".join(sent), values)
            c.cursor.nextset()  # past the lock's row, to the read's
            rows = list(c.fetchall())
            if write is None:
                return rows, 0
            c.cursor.nextset()  # to the write's
            return rows, c.cursor.rowcount
        if locks:
            c.execute(prepared(_LOCK_PASSPORT), [pk])
        c.execute(read, params)
        return list(c.fetchall()), 0


class TownState(models.Model):
    """One row: the town's mode. `closed` stops every call until a person looks."""

    MODES = [("open", "open"), ("read-only", "read-only"), ("closed", "closed")]
    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    mode = models.CharField(max_length=16, choices=MODES, default="open")
    why = models.CharField(max_length=200, blank=True, default="")
    changed_at = models.DateTimeField(auto_now=True)
    # Staff turn this off in the hall to stop new sessions while the ones open go on (001 "The town is
    # not taking new visitors right now.").
    welcoming = models.BooleanField(default=True, db_default=True)

    def __str__(self) -> str:
        return self.mode

    @classmethod
    def is_welcoming(cls) -> bool:
        """Whether the town takes new visitors (no row yet: it does)."""
        return cls.objects.filter(pk=1).values_list("welcoming", flat=True).first() is not False

    @classmethod
    def welcome(cls, welcoming: bool) -> None:
        """Staff take new visitors, or stop taking them; the town's mode is left as it is."""
        cls.objects.update_or_create(pk=1, defaults={"welcoming": welcoming})


class Tally(models.Model):
    """Requests and failures of one address or account in the current window (clockford/face/
    limits.py). One row per key, rewritten in place when a new window starts, so the table holds one
    row per caller seen, and a request costs one upsert on it."""

    key = models.CharField(max_length=120, primary_key=True)
    period = models.BigIntegerField()  # which window: its start in seconds over the window's length
    requests = models.PositiveIntegerField(default=0)
    failures = models.PositiveIntegerField(default=0)
    held_until = models.BigIntegerField(default=0)  # seconds since the epoch; 0: not held back

    def __str__(self) -> str:
        return self.key


def new_passport_id() -> str:
    return new_id("PP-", 10)


class Passport(models.Model):
    """The agent in town. Without sign-in, each MCP session gets a new one; signed in, it belongs to
    an (account, client) pair, so reconnecting returns it (000 "Sign-in")."""

    id = models.CharField(primary_key=True, max_length=16, default=new_passport_id)
    pennant = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001 (none chosen is not "")
    client_name = models.CharField(max_length=200, blank=True, default="")
    issued_at = models.DateTimeField()
    place = models.CharField(max_length=200, default="Town Hall")
    footsteps = models.PositiveIntegerField(default=0)
    sign_in = models.BooleanField(default=False)
    last_seen = models.DateTimeField()
    # Signed in: the person's account and the OAuth client they connected. PROTECT, because the
    # Archive names this passport for good.
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="passports"
    )
    client = models.ForeignKey(
        settings.OAUTH2_PROVIDER_APPLICATION_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="passports",
    )
    # The clerk's rate window: calls made since `calls_since` (a fixed window of a minute). Kept in
    # the passport's own row, written by the same UPDATE that counts the footstep.
    calls_since = models.DateTimeField(null=True, blank=True)
    calls = models.PositiveIntegerField(default=0)
    # Set once a report, a plan or probation could hold this passport's calls: until then the desk
    # need not ask (holds.standing), which saves every write a round trip to the database.
    watched = models.BooleanField(default=False)
    # Set while the passport has a Dice House run open (the Dice House sets it as a run begins and
    # clears it as the run ends): without it the desk's dice hook asks the database nothing about a
    # reply, which saves every call of a dice tool a statement (a round trip on PostgreSQL).
    dice_open = models.BooleanField(default=False)
    # Last, in the order of clockford/face/sessions.py's PASSPORT_FIELDS: Model.from_db takes a
    # plain SELECT's values in the order the fields are declared here.

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["account", "client"],
                condition=Q(account__isnull=False),
                name="town_one_passport_per_account_client",
            )
        ]

    def __str__(self) -> str:
        return self.id


class McpSession(models.Model):
    """An MCP session over streamable HTTP, kept in the database so any worker can serve it."""

    # The SHA-256 (hex) of the Mcp-Session-Id the client sends, never the id itself: without sign-in
    # the id is the passport's only credential (clockford/face/sessions.py key_of; migration 0020).
    id = models.CharField(primary_key=True, max_length=64)
    passport = models.ForeignKey(Passport, on_delete=models.CASCADE, related_name="sessions")
    address = models.CharField(max_length=64, db_index=True)
    created_at = models.DateTimeField()
    last_seen = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["address", "ended_at", "last_seen"])]

    def __str__(self) -> str:
        return self.id[:8]


class Footstep(models.Model):
    """One call, as the Archive records it: never the arguments' text, only a keyed digest.

    Append-only: a database trigger refuses UPDATE and DELETE (migration 0002). The number comes
    from the database's own sequence, so concurrent calls never queue on one counter.
    """

    number = models.BigAutoField(primary_key=True)
    at = models.DateTimeField(db_index=True)
    tool = models.CharField(max_length=64)
    passport = models.CharField(max_length=16)
    outcome = models.CharField(max_length=80)
    digest = models.CharField(max_length=64)
    job_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (absent is not "")

    class Meta:
        # One index on the passport, named here rather than by db_index: on PostgreSQL db_index adds a
        # second one for LIKE (varchar_pattern_ops) that no query of the Archive uses, and every
        # footstep, the town's largest table, paid for both.
        indexes = [
            models.Index(fields=["passport"], name="town_footstep_passport"),
            # A job's footsteps, newest first (my_jobs, the hall's job page): only footsteps that name a
            # job, so the calls made without one, most of the table, cost this index nothing.
            models.Index(
                fields=["passport", "job_id", "number"], name="town_footstep_job", condition=Q(job_id__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.tool} {self.outcome}"


class ArchiveLeaf(models.Model):
    """A footstep's place in the Merkle tree: leaves are numbered in the order they were folded."""

    index = models.BigIntegerField(primary_key=True)
    footstep = models.OneToOneField(Footstep, on_delete=models.PROTECT, related_name="leaf")
    hash = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"leaf {self.index}"


class ArchiveBlock(models.Model):
    """The root of a block of the tree's leaves (archive.BLOCK of them in a row, the `index`th block),
    written by the fold that completes it, so that a proof need not read and hash every leaf again. Only
    a help: a proof made with it is checked against the signed checkpoint, and made again from the
    leaves when it does not verify (clockford/town/archive.py)."""

    index = models.BigIntegerField(primary_key=True)
    hash = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"block {self.index}"


class Checkpoint(models.Model):
    """A signed tree head: the root of the first `size` leaves, signed with the town key."""

    size = models.BigIntegerField(primary_key=True)
    root = models.CharField(max_length=64)
    # The roots of the perfect subtrees that make up the tree, left to right, so the next fold
    # extends the tree without reading any leaf again.
    frontier = models.JSONField(default=list)
    at = models.DateTimeField()
    key_id = models.CharField(max_length=16)
    signature = models.CharField(max_length=128)

    def __str__(self) -> str:
        return f"checkpoint {self.size}"


# -- What waits for a person (spec 000 section 02) ---------------------------------------------------
#
# Holds, plans and reports belong to the core, not to a district: the desk checks them on every call
# that changes things, and the core never imports a district.

HOLD_STATUSES = ["held", "allowed", "used", "refused", "lapsed", "frozen"]


def watch(which: Q) -> None:
    """Mark passports whose calls a report, a plan or probation may hold (Passport.watched): from
    now on the desk asks about them on every call that changes things."""
    Passport.objects.filter(which, watched=False).update(watched=True)


def for_person(account: Any) -> Q:
    """The records a person decides (holds, plans, reports, letters): their own account's, and on a
    town without sign-in, the owner's for every passport that has no account."""
    mine = Q(account_id=account.pk)
    if getattr(account, "is_owner", False):
        mine |= Q(account__isnull=True)
    return mine


class Signed(models.Model):
    """What a person signed with a passkey, kept so that anyone can check it later: the canonical
    statement and the passkey's answer over its hash (both empty until it is signed)."""

    statement = models.TextField(blank=True, default="")
    assertion = models.JSONField(null=True, blank=True)

    class Meta:
        abstract = True


class Decided(Signed):
    """What a person decides in the hall with a passkey (ARCHITECTURE invariant 3): a hold, a letter,
    a plan, a report, and more as districts open. Each kind is a model of its own built on this one:
    whose agent asked, which person decides (`for_person`), and the signed decision, kept so that
    anyone can check it later: the canonical statement and the passkey's answer over its hash."""

    id = models.CharField(primary_key=True, max_length=20)
    passport = models.ForeignKey(Passport, on_delete=models.PROTECT, related_name="%(class)ss")
    # The account whose person decides; None on a town without sign-in, where the owner decides.
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="%(class)ss"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    # What `access` says for an id that is not this person's to decide (or does not exist).
    NOT_FOUND_SAY: ClassVar[str] = "Nothing you decide has that number."

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.id

    @classmethod
    def create_for(cls, passport: Passport, prefix: str, **fields: Any) -> Self:
        """A new record that waits on the person of `passport`'s account (the owner, without sign-in):
        an unguessable id after `prefix`, and whose agent asked."""
        return cls._default_manager.create(
            id=new_id(prefix), passport=passport, account_id=passport.account_id, **fields
        )

    @classmethod
    def for_person(cls, account: Any) -> QuerySet[Self]:
        """The records of this kind that `account`'s person decides, with their passports."""
        return cls._default_manager.filter(for_person(account)).select_related("passport")

    @classmethod
    def access(cls, account: Any, record_id: str) -> Self:
        """One record this person decides; NotFound for any other id, whether it exists or not."""
        found = cls.for_person(account).filter(pk=record_id).first()
        if found is None:
            raise NotFound(cls.NOT_FOUND_SAY)
        return found


class Hold(Decided):
    """A call that waits for a person: the exact call (tool and arguments) and what became of it.

    `status` is what was decided; time is derived when read (ARCHITECTURE invariant 6): a `held` row
    past `waits_until`, or an `allowed` row past `allowed_until`, reads as lapsed.
    """

    NOT_FOUND_SAY = "No call you decide for has that number."
    tool = models.CharField(max_length=64)
    # Why it waits: publish (a yes), harbour (repeats foreign words), budget (the reply gate),
    # probation, plan (off the approved plan).
    why = models.CharField(max_length=16)
    # sha256 of the call (tool and arguments, request_id and job_id aside): "exactly the same call".
    call_digest = models.CharField(max_length=64)
    # The exact arguments, their free words in the kept form the desk made (what will be published),
    # for the person to read; their digest is what a decision signs, so words changed after the page
    # was drawn fail the decision.
    arguments = models.JSONField()
    words_digest = models.CharField(max_length=64)
    # The free-word fields the desk cut to their cap, each with its cap ({"text": 280}): the words
    # above are the kept ones, exactly what will be published, and the hold's page says they were cut.
    cut = models.JSONField(default=dict, blank=True)
    repeats = models.JSONField(null=True, blank=True)
    plan = models.CharField(max_length=20, blank=True, default="")
    # A call a person wrote (edit and allow, clockford/town/rewrite.py): the held call whose words they
    # rewrote. Its arguments are the person's words, allowed and signed; the original stays held.
    rewrites = models.CharField(max_length=20, blank=True, default="")
    status = models.CharField(max_length=12, default="held")
    created_at = models.DateTimeField()
    waits_until = models.DateTimeField()
    allowed_until = models.DateTimeField(null=True, blank=True)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["passport", "call_digest"]),
            models.Index(fields=["passport", "-created_at"]),
            models.Index(fields=["account", "status"]),
            models.Index(fields=["status", "waits_until"]),
        ]
        constraints = [
            # Repeating a held call returns the same hold: two racing repeats cannot make two.
            models.UniqueConstraint(
                fields=["passport", "call_digest"], condition=Q(status="held"), name="town_one_waiting_hold_per_call"
            )
        ]


class Handed(models.Model):
    """Foreign words the town handed a passport (publisher-words, other agents' words, untrusted):
    what Safe Harbour compares the agent's public writes with. Only the text and whose it was."""

    passport = models.ForeignKey(Passport, on_delete=models.CASCADE, related_name="+")
    digest = models.CharField(max_length=64)
    label = models.CharField(max_length=20)
    where = models.CharField(max_length=120)
    field = models.CharField(max_length=120)
    text = models.TextField()
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["passport", "digest"], name="town_handed_once")]
        indexes = [models.Index(fields=["passport", "-at"])]

    def __str__(self) -> str:
        return f"{self.passport_id} {self.field}"


class ReplyBudget(models.Model):
    """How many bytes of private content a passport's replies carried on one UTC day."""

    passport = models.ForeignKey(Passport, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    spent = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["passport", "day"], name="town_one_budget_a_day")]

    def __str__(self) -> str:
        return f"{self.passport_id} {self.day}"


class Plan(Decided):
    """A declared plan: the calls that change things an agent means to make, approved once."""

    NOT_FOUND_SAY = "No plan you decide has that number."

    # [{tool, channel?, record?, action?, times, left}]
    steps = models.JSONField()
    hours = models.PositiveSmallIntegerField()
    # waiting, approved, declined, replaced, ended (a person ended it early); lapsed is derived.
    status = models.CharField(max_length=12, default="waiting")
    declared_at = models.DateTimeField()
    until = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["passport", "status"])]


class Report(Decided):
    """A report of a suspicious instruction. While it is open, the passport's consequential calls
    are frozen; a person reviews it (upheld or dismissed: its decision), or it lapses after 72 hours."""

    NOT_FOUND_SAY = "No report you review has that number."

    quote = models.TextField()
    where = models.CharField(max_length=120)
    errand = models.TextField(blank=True, default="")
    frozen = models.PositiveIntegerField(default=0)
    filed_at = models.DateTimeField()
    lapses_at = models.DateTimeField()
    # open, upheld, dismissed; lapsed is derived from lapses_at.
    status = models.CharField(max_length=12, default="open")
    # Upheld: every call that changes things waits for the person until then (probation).
    probation_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["passport", "status"]), models.Index(fields=["account", "status"])]


class Replay(models.Model):
    """The first reply to a write made with a request_id (post_parcel, broadcast, raise_beacon): the
    same request_id within a day returns it again with replayed: true, instead of doing it twice."""

    passport = models.ForeignKey(Passport, on_delete=models.CASCADE, related_name="+")
    tool = models.CharField(max_length=64)
    request_id = models.CharField(max_length=64)
    say = models.TextField()
    fields = models.JSONField()
    parts = models.JSONField()
    at = models.DateTimeField()
    # The keyed digest of the first call's arguments but its request_id (signing.keyed_digest, never the
    # text): the same request_id with other arguments is another write, not a repeat. Empty on replies
    # kept before it was recorded, which replay as before.
    digest = models.CharField(max_length=64, default="", blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["passport", "tool", "request_id"], name="town_one_reply_per_request")
        ]

    def __str__(self) -> str:
        return f"{self.tool} {self.request_id}"


class Wall(models.Model):
    """A district or a Switchboard channel, and its wall (001 "walled off for now"): the faults counted
    against it in the breaker's window, and, while it is walled off, since when, by whom and until
    when. One row per name that ever had a fault or a wall; a row with `since` empty is open."""

    KINDS = [("district", "district"), ("channel", "channel")]
    BY = [("faults", "faults"), ("staff", "staff")]
    kind = models.CharField(max_length=16, choices=KINDS)
    name = models.CharField(max_length=200)
    # The breaker's window: faults counted since `faults_since` (a fixed window, begun by the first
    # fault after the last window ended).
    faults = models.PositiveIntegerField(default=0)
    faults_since = models.DateTimeField(null=True, blank=True)
    since = models.DateTimeField(null=True, blank=True)
    # A wall the breaker raised comes down by itself at `until`; a wall staff raised stays until staff
    # reopen (until empty).
    until = models.DateTimeField(null=True, blank=True)
    by = models.CharField(max_length=16, choices=BY, blank=True, default="")
    why = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "name"], name="town_one_wall_per_name")]

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"


class PostingTally(models.Model):
    """Public posts one holder (a passport, or an account) proposed on one UTC day: what the daily and
    weekly posting budgets read (clockford/town/budgets.py). One row per holder per day it proposed."""

    holder = models.CharField(max_length=40)  # "passport:PP-..." or "account:7"
    day = models.DateField()
    posts = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["holder", "day"], name="town_one_posting_tally_a_day")]

    def __str__(self) -> str:
        return f"{self.holder} {self.day}"


class Closure(Decided):
    """A passport staff closed (001 "Closed: stop"), and what a person ruled: every call of it is
    answered "This passport is closed." until a member of staff rules with a passkey: reopened, or a
    confirmed case, either serious (the account may no longer enter) or the rehab ward (public surfaces
    and the member's data closed until `until`). `account` is the agent's account (None without
    sign-in); staff, not that account's person, decide (clockford/town/closures.py)."""

    NOT_FOUND_SAY = "No closed passport has that number."

    # closed (waits for a ruling), reopened, banned, rehab; a rehab ward past `until` reads as discharged.
    status = models.CharField(max_length=12, default="closed")
    # Staff's note for people (never shown to an agent).
    note = models.CharField(max_length=500, blank=True, default="")
    closed_at = models.DateTimeField()
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status"]), models.Index(fields=["passport", "status"])]


class Withheld(models.Model):
    """A reply the reply gate withheld (001 "The town withheld this reply"): which passport's call, and
    where in the reply private content was that is not that passport's to receive. Staff read it in
    the staff room; the content itself is never kept."""

    passport = models.ForeignKey(Passport, on_delete=models.PROTECT, related_name="+")
    tool = models.CharField(max_length=64)
    at = models.DateTimeField(db_index=True)
    # [{path, readers}]: the reply paths withheld and whom they were for.
    paths = models.JSONField()
    read_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.tool} {self.passport_id}"
