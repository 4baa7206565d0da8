"""The Post Office's services, shared by its tools and the hall (letters, and an agent's box page).

`access_*` fetch and authorize in one call; `do_*` change state. A box is named by its owner: the
passport without sign-in.
"""

import hashlib
import re
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Case, Count, IntegerField, QuerySet, Sum, Value, When
from django.utils import timezone

from clockford.town import clock, handoff
from clockford.town.holds import NotDecided, letter_repeat
from clockford.town.models import Passport, lock, lock_passport_then, locked
from clockford.town.prepared import prepared
from clockford.town.signing import canonical_text
from clockford.town.tooling import NotFound, Part, Refused, changed_since_asked
from districts.post_office.models import Letter, Note

KEY_CHARS = re.compile(r"[A-Za-z0-9._/:-]{1,64}")
MAX_KEYS = 64
VALUE_CAP = 4000
# The box's size allowance (000 section 07): 16 KB for a box without sign-in, and 32 KB for a signed-in
# account across its clients (each client's passport keeps a box of its own; their sizes add up).
ALLOWANCE_BYTES = 16 * 1024
ACCOUNT_ALLOWANCE_BYTES = 32 * 1024

NOT_KEPT_SAY = "Nothing kept under that key."


def box_of(passport: Passport) -> str:
    return passport.id


def note_size(key: str, value: str) -> int:
    return len(key.encode()) + len(value.encode())


def check_key(key: str) -> None:
    if not KEY_CHARS.fullmatch(key):
        raise Refused("A key may use only letters, digits and . _ - / : characters.", "key")


def keys_of(passport: Passport) -> list[str]:
    return list(Note.objects.filter(box=box_of(passport)).order_by("key").values_list("key", flat=True))


def find_notes(passport: Passport) -> QuerySet[Note]:
    """Every note in the passport's P.O. box, by key: what its person reads in the hall."""
    return Note.objects.filter(box=box_of(passport)).order_by("key")


def with_words(passport_ids: list[str]) -> set[str]:
    """Which of these passports have anything at the Post Office for their person: a note in the box
    or a letter. Two queries, for a page of the hall's agents (a passport with neither, and no hold, is
    one its person may fold away)."""
    boxes = set(Note.objects.filter(box__in=passport_ids).values_list("box", flat=True).distinct())
    letters = set(Letter.objects.filter(passport_id__in=passport_ids).values_list("passport_id", flat=True).distinct())
    return boxes | letters


# do_forget's note and its letters' copies go together, and its passport lock needs a transaction: in
# the desk's call it joins the call's own (no savepoint, on a hot path); from the hall it opens one.
@transaction.atomic(savepoint=False)
def do_empty_box(passport: Passport) -> int:
    """Empty the whole box, as if the agent had forgotten every key (do_forget, key by key, so its
    letters still waiting lose their copies too); returns how many notes went."""
    keys = list(Note.objects.filter(box=box_of(passport)).values_list("key", flat=True))
    return sum(1 for key in keys if do_forget(passport, key))


def _could_be_kept(key: str) -> bool:
    # A key outside the charset was never kept, and is never sent to the database: PostgreSQL's
    # text cannot even hold some of the characters an agent may send (NUL).
    return KEY_CHARS.fullmatch(key) is not None


def access_note(passport: Passport, key: str) -> Note:
    note = Note.objects.filter(box=box_of(passport), key=key).first() if _could_be_kept(key) else None
    if note is None:
        not_found = NotFound(NOT_KEPT_SAY, keys=keys_of(passport))
        # The keys are the agent's own words read back, as in recall's list, even on the refusal.
        not_found.parts.append(Part("keys[]", "agent-written", own=True))
        raise not_found
    return note


def holds_key(passport: Passport, key: str) -> bool:
    """Whether the box holds a note under `key`, its owner's passport locked first: remember and
    send_letter lock it too, so the answer stands until the call's transaction ends."""
    lock(Passport.objects.filter(pk=passport.pk))
    return _could_be_kept(key) and Note.objects.filter(box=box_of(passport), key=key).exists()


def do_remember(passport: Passport, key: str, value: str) -> int:
    """Keep `value` under `key`; returns how many keys the box holds now."""
    check_key(key)
    box = box_of(passport)
    size = note_size(key, value)
    kept_at = connection.ops.adapt_datetimefield_value(timezone.now())
    # Without sign-in the box's allowance needs no read of its own, so on PostgreSQL the note is written
    # in the message of the lock and the box's read (one round trip where there were two), on the same
    # conditions as the checks below, evaluated by the database as it writes. When they held, that is
    # all; when they did not (or nothing was sent: SQLite), the checks say why, or the note is written.
    keep = None
    if passport.account_id is None:
        allowed = [key, box, MAX_KEYS, size, ALLOWANCE_BYTES, size, settings.CLOCKFORD["POST_OFFICE_ROOM_BYTES"]]
        keep = prepared(_KEEP_IF_ALLOWED), [box, key, value, size, kept_at, *allowed]
    notes, town_total, written = _box_and_room(passport.pk, box, keep)
    keys = len(notes) + (0 if key in notes else 1)
    if written:
        return keys
    _check_room(passport, key, size, notes, town_total)
    # Signed in (or room made by another box between the read and the write): the box's keys are known
    # (and locked) already, so update or insert straight away, in plain SQL (the ORM's update() or
    # create() would cost more than the statement itself).
    with connection.cursor() as c:
        if key in notes:
            c.execute(prepared(_REKEEP), [value, size, kept_at, box, key])
        else:
            c.execute(prepared(_KEEP), [box, key, value, size, kept_at])
    return keys


def check_room(args: Any, passport: Passport) -> None:
    """remember's refusal before any hold (Tool.before_hold): a note the box or the Post Office has no
    room for is refused before its person is asked about it (their yes could not make room). The
    owner's passport is locked by the read, so the room found stands until the call runs."""
    notes, town_total, _ = _box_and_room(passport.pk, box_of(passport), None)
    _check_room(passport, args.key, note_size(args.key, args.value), notes, town_total)


def _check_room(passport: Passport, key: str, size: int, notes: dict[str, int], town_total: int) -> None:
    """do_remember's refusals, from the box's notes (key: size) and the bytes every box keeps."""
    if key not in notes and len(notes) >= MAX_KEYS:
        raise Refused(f"Your P.O. box is full ({MAX_KEYS} keys). Use forget first.", "box-full")
    allowance, whose, elsewhere = _allowance(passport)
    used = elsewhere + sum(notes.values()) - notes.get(key, 0)
    if used + size > allowance:
        raise Refused(
            f"That would take your P.O. box past its size allowance ({whose}). Use forget first.",
            "box-size",
            keptBytes=used,
            allowanceBytes=allowance,
        )
    if town_total - notes.get(key, 0) + size > settings.CLOCKFORD["POST_OFFICE_ROOM_BYTES"]:
        raise Refused("The Post Office has no room for more notes right now. Try again later.", "room")


# The box's keys and sizes, and the size of every note in town (the last row, its key NULL): one plain
# statement on every remember, where the ORM's two cost more than the statements themselves.
# The room is read in the parts the database keeps as notes are written (models.Room), not summed
# over every note in town: that sum grew with the town, and every remember paid it.
_BOX_AND_ROOM = (
    'SELECT "key", size FROM post_office_note WHERE box = %s '
    "UNION ALL SELECT NULL, COALESCE(SUM(bytes), 0) FROM post_office_room"
)


_KEEP = 'INSERT INTO post_office_note (box, "key", value, size, kept_at) VALUES (%s, %s, %s, %s, %s)'
_REKEEP = 'UPDATE post_office_note SET value = %s, size = %s, kept_at = %s WHERE box = %s AND "key" = %s'
# do_remember's three checks in SQL (a new key in a full box; the box past its allowance; the town past
# its room), from one scan of the box, the note written only when none refuses. Sent on PostgreSQL
# only (lock_passport_then). Parameters: the note's five; the key and the box; MAX_KEYS; the size and
# the allowance; the size and the room.
_KEEP_IF_ALLOWED = (
    'INSERT INTO post_office_note (box, "key", value, size, kept_at) SELECT %s, %s, %s, %s, %s '
    "FROM (SELECT COUNT(*) AS notes, COALESCE(SUM(size), 0) AS bytes, "
    'COALESCE(MAX(CASE WHEN "key" = %s THEN size END), -1) AS old FROM post_office_note WHERE box = %s) kept, '
    "(SELECT COALESCE(SUM(bytes), 0) AS bytes FROM post_office_room) town "
    "WHERE (kept.old >= 0 OR kept.notes < %s) AND kept.bytes - GREATEST(kept.old, 0) + %s <= %s "
    "AND town.bytes - GREATEST(kept.old, 0) + %s <= %s "
    'ON CONFLICT (box, "key") DO UPDATE SET value = excluded.value, size = excluded.size, kept_at = excluded.kept_at'
)


def _box_and_room(owner: str, box: str, keep: tuple[str, list[Any]] | None) -> tuple[dict[str, int], int, bool]:
    """The box's notes (key: size) and the bytes every box in town keeps, read once its owner's
    passport is locked: two calls at once cannot both take the 64th key (or, signed in, the account's
    last bytes: its clients' boxes share one allowance); and whether `keep`, sent after the read, wrote."""
    rows, written = lock_passport_then(owner, prepared(_BOX_AND_ROOM), [box], keep)
    notes = {key: int(size) for key, size in rows if key is not None}
    return notes, next(int(size) for key, size in rows if key is None), written == 1


def _allowance(passport: Passport) -> tuple[int, str, int]:
    """The box's size allowance, in bytes and in words, and what the account's other boxes already
    keep of it (signed in, its clients' boxes share one allowance; without sign-in, nothing)."""
    if passport.account_id is None:
        return ALLOWANCE_BYTES, f"{ALLOWANCE_BYTES // 1024} KB without sign-in", 0
    lock(get_user_model().objects.filter(pk=passport.account_id))
    others = Passport.objects.filter(account_id=passport.account_id).exclude(pk=passport.pk).values("id")
    kept = Note.objects.filter(box__in=others).aggregate(total=Sum("size"))["total"] or 0
    return ACCOUNT_ALLOWANCE_BYTES, f"{ACCOUNT_ALLOWANCE_BYTES // 1024} KB for your account across its clients", kept


@transaction.atomic(savepoint=False)  # see do_empty_box
def do_forget(passport: Passport, key: str) -> bool:
    """Remove the note under `key`, and its copy from the passport's letters still waiting; returns
    whether there was a note. Its text leaves the town's state. A letter already opened keeps the
    copy its person read."""
    if not _could_be_kept(key):
        return False
    # The owner's passport first, as send_letter locks it before it copies a note: a letter sent at the
    # same time is then either committed before the waiting letters are read below, or finds the note
    # gone. Without it, a letter committed after that read kept the forgotten words for the person.
    lock(Passport.objects.filter(pk=passport.pk))
    deleted, _ = Note.objects.filter(box=box_of(passport), key=key).delete()
    for letter in Letter.objects.filter(passport=passport, status="held"):
        kept = [n for n in letter.notes if n["key"] != key]
        if len(kept) != len(letter.notes):
            # Only while it still waits: a letter its person opened since the read above (the decision
            # held its row) keeps the copy they read and signed.
            Letter.objects.filter(pk=letter.pk, status="held").update(
                notes=kept,
                size=_letter_size(letter.subject, letter.body, kept),
                marked=_marked(passport, letter, key, kept),
            )
    return bool(deleted)


def _marked(passport: Passport, letter: Letter, key: str, kept: list[dict[str, str]]) -> dict[str, Any] | None:
    """A waiting letter's mark once the note under `key` left it: a mark found in that note (alone, or
    with the letter's other words) would tell its person of a note no longer there, so Safe Harbour
    reads what the letter still carries again; any other mark stands."""
    if letter.marked is None or note_shown(key) not in str(letter.marked.get("in", "")):
        return letter.marked
    notes = [(note_shown(n["key"]), n["value"]) for n in kept]
    return letter_repeat(passport, [("subject", letter.subject), ("body", letter.body), *notes])


# -- Letters ----------------------------------------------------------------------------------------

SUBJECT_CAP = 80
BODY_CAP = 2000
NOTES_MAX = 8


def _letter_size(subject: str, body: str, notes: list[dict[str, str]]) -> int:
    return len(subject.encode()) + len(body.encode()) + sum(note_size(n["key"], n["value"]) for n in notes)


def letters_count(passport: Passport) -> dict[str, int]:
    """show_passport's letters: { held, read, declined }."""
    counts = dict(
        Letter.objects.filter(passport=passport).values("status").annotate(n=Count("id")).values_list("status", "n")
    )
    return {"held": counts.get("held", 0), "read": counts.get("opened", 0), "declined": counts.get("declined", 0)}


def note_shown(key: str) -> str:
    """How a letter's note is named where Safe Harbour marks it ("This letter's note “k” repeats ...")."""
    return f"note “{key}”"


def _notes_of(passport: Passport, keys: list[str]) -> dict[str, str]:
    """The values kept under these keys (each once), by key; a key the box does not hold is left out."""
    wanted = [k for k in dict.fromkeys(keys) if _could_be_kept(k)]
    return dict(Note.objects.filter(box=box_of(passport), key__in=wanted).values_list("key", "value"))


def notes_carried(args: Any, passport: Passport) -> dict[str, str]:
    """send_letter's Tool.carries: the notes a letter would carry, as its person is shown them."""
    keys = list(dict.fromkeys(args.notes or []))
    if not keys:
        return {}
    found = _notes_of(passport, keys)
    return {note_shown(k): found[k] for k in keys if k in found}


def do_send_letter(
    passport: Passport,
    subject: str,
    body: str,
    keys: list[str],
    marked: dict[str, Any] | None,
    carried: dict[str, str] | None = None,
) -> Letter:
    """Keep a letter for the person, with copies of the named notes; it waits until they decide.
    `carried` is what Safe Harbour read of those notes before the call's transaction (notes_carried)."""
    # Lock the passport: two letters at once cannot both be the twentieth unopened, and a remember or
    # forget (which lock it too) cannot change a note between the reading below and the copy.
    lock(Passport.objects.filter(pk=passport.pk))
    wanted = list(dict.fromkeys(keys))
    found = _notes_of(passport, wanted)
    missing = [k for k in wanted if k not in found]
    if missing:
        # The key is the agent's own words, which say (the town's voice) never carries: it goes back
        # as `missing`, labelled as the agent's, beside the keys the box does hold.
        refused = Refused(
            "A key in notes is not in your P.O. box, so the letter was not sent. missing names it; keys lists what "
            "is there.",
            "not-found",
            missing=missing[0],
            keys=keys_of(passport),
        )
        refused.parts += [Part("missing", "agent-written", own=True), Part("keys[]", "agent-written", own=True)]
        raise refused
    waiting = Letter.objects.filter(passport=passport, status="held")
    # Both refusals below wait for the person to open or decline letters: like every reply that waits
    # for a person, they say where (hallUrl, the hall's front door, which lists the letters waiting, as
    # the refusal for a full table of held calls does).
    decide = {"hallUrl": handoff.front_url()}
    if waiting.count() >= settings.CLOCKFORD["LETTERS_UNOPENED"]:
        raise Refused(
            "Twenty of your letters are still unopened. Wait for your person to open or decline some before you write again.",
            "letters-full",
            **decide,
        )
    if {note_shown(k): found[k] for k in wanted} != (carried or {}):
        # A note was kept anew since Safe Harbour read it: words its person would be shown unread are
        # never passed on. Busy, and the same call again is read like any other.
        raise changed_since_asked()
    notes = [{"key": k, "value": found[k]} for k in wanted]
    size = _letter_size(subject, body, notes)
    held = waiting.aggregate(total=Sum("size"))["total"] or 0
    if held + size > settings.CLOCKFORD["LETTER_BYTES_HELD"]:
        raise Refused(
            "Your letters waiting for your person already hold as many words as the town keeps for them. Wait for "
            "your person to open some, or send fewer notes.",
            "letters-size",
            **decide,
        )
    return Letter.create_for(
        passport,
        "L-",
        subject=subject,
        body=body,
        notes=notes,
        marked=marked,
        size=size,
        sent_at=clock.now(),
    )


# -- Letters in the hall --------------------------------------------------------------------------------


def letters_for(account: Any) -> QuerySet[Letter]:
    """The letters a person reads: unopened first, newest first. By a flag rather than by status's
    letters, whose order ("held" before "opened") says nothing about which comes first."""
    unopened = Case(When(status="held", then=Value(0)), default=Value(1), output_field=IntegerField())
    return Letter.for_person(account).exclude(status="declined").order_by(unopened, "-sent_at")


def waiting_letters(account: Any) -> QuerySet[Letter]:
    return Letter.for_person(account).filter(status="held").order_by("-sent_at")


def access_letter(account: Any, letter_id: str) -> Letter:
    return Letter.access(account, letter_id)


def letter_digest(letter: Letter) -> str:
    return hashlib.sha256(
        canonical_text({"subject": letter.subject, "body": letter.body, "notes": letter.notes}).encode()
    ).hexdigest()


LETTER_DECISIONS = ("open", "decline")


def letter_statement(letter: Letter, decision: str) -> str:
    return canonical_text(
        {"kind": "clockford-letter-1", "letter": letter.id, "decision": decision, "words": letter_digest(letter)}
    )


def do_read_letter(letter: Letter, account: Any) -> Letter:
    """The person read the letter on its page: a held letter is opened (read) by whoever marked it so
    there (the page's POST; drawing the page reads nothing). Reading decides nothing, so no passkey is asked and nothing is signed; declining it afterwards (its
    words dropped) still takes the passkey. The conditional UPDATE reads it once."""
    if letter.status == "held":
        Letter.objects.filter(pk=letter.pk, status="held").update(
            status="opened", decided_at=clock.now(), decided_by=account
        )
        letter.refresh_from_db()
    return letter


DECLINABLE = ("held", "opened")


def do_decide_letter(letter: Letter, account: Any, decision: str, statement: str, assertion: dict[str, Any]) -> Letter:
    """Open a letter (it is read) or decline it (its words are dropped), with a passkey. A letter is
    opened once; a letter read on its page (do_read_letter) may still be declined, once."""
    # Read the letter again under a lock: a forget landing between the page and this decision
    # changes its words, and the person signed the words they were shown.
    letter = locked(Letter.objects.filter(pk=letter.pk)).get()
    if decision not in LETTER_DECISIONS or statement != letter_statement(letter, decision):
        raise NotDecided(
            "The passkey signed something other than this decision, or the letter changed. Reload the page."
        )
    fields: dict[str, Any] = {
        "status": "opened" if decision == "open" else "declined",
        "decided_at": clock.now(),
        "decided_by": account,
        "statement": statement,
        "assertion": assertion,
    }
    if decision == "decline":
        # A declined letter's words are dropped: only that it was sent and declined stays.
        fields.update(subject="", body="", notes=[], marked=None, size=0)
    done = Letter.objects.filter(pk=letter.pk, status__in=DECLINABLE if decision == "decline" else ("held",)).update(
        **fields
    )
    letter.refresh_from_db()
    if not done:
        raise NotDecided(f"This letter was already {letter.status}. Nothing changed.")
    return letter


# -- Closing an account (hall/export.py) ------------------------------------------------------------------


def forget_words_of(passports: QuerySet[Passport]) -> dict[str, int]:
    """A person closed their account: every note of these passports' boxes goes, and every letter's
    words are dropped (the letter stays, as a declined one's does, with its signed decision)."""
    notes = 0
    for passport in passports:
        notes += Note.objects.filter(box=box_of(passport)).delete()[0]
    # size counts the words a letter keeps (as a declined letter's, it goes to 0 with them).
    letters = Letter.objects.filter(passport__in=passports).update(subject="", body="", notes=[], marked=None, size=0)
    return {"post_office_note": notes, "post_office_letter": letters}
