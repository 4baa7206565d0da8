"""The Post Office's services, shared by its tools and (later) the hall's box page.

`access_*` fetch and authorize in one call; `do_*` change state. A box is named by its owner: the
passport without sign-in.
"""

import re

from django.conf import settings
from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from clockford.town.models import Passport
from clockford.town.tooling import Refused
from districts.post_office.models import Note

KEY_CHARS = re.compile(r"[A-Za-z0-9._/:-]{1,64}")
MAX_KEYS = 64
VALUE_CAP = 4000
ALLOWANCE_BYTES = 16 * 1024  # without sign-in; a signed-in account's box has 32 KB across its clients

NOT_KEPT_SAY = "Nothing kept under that key."


def box_of(passport: Passport) -> str:
    return passport.id


def note_size(key: str, value: str) -> int:
    return len(key.encode()) + len(value.encode())


def check_key(key: str) -> None:
    if not KEY_CHARS.fullmatch(key):
        raise Refused("A key may use only letters, digits and . _ - / : characters.", "key")


def access_keys(passport: Passport) -> list[str]:
    return list(Note.objects.filter(box=box_of(passport)).order_by("key").values_list("key", flat=True))


def _could_be_kept(key: str) -> bool:
    # A key outside the charset was never kept, and is never sent to the database: PostgreSQL's
    # text cannot even hold some of the characters an agent may send (NUL).
    return KEY_CHARS.fullmatch(key) is not None


def access_note(passport: Passport, key: str) -> Note:
    note = Note.objects.filter(box=box_of(passport), key=key).first() if _could_be_kept(key) else None
    if note is None:
        raise Refused(NOT_KEPT_SAY, "not-found", keys=access_keys(passport))
    return note


def do_remember(passport: Passport, key: str, value: str) -> int:
    """Keep `value` under `key`; returns how many keys the box holds now."""
    check_key(key)
    box = box_of(passport)
    # Lock the owner so two calls at once cannot both take the 64th key. SQLite has no row locks
    # (Django would still run the SELECT); its IMMEDIATE transactions run one writer at a time.
    if connection.features.has_select_for_update:
        Passport.objects.select_for_update().filter(pk=passport.pk).values_list("pk").first()
    notes: dict[str, int] = dict(Note.objects.filter(box=box).values_list("key", "size"))
    size = note_size(key, value)
    if key not in notes and len(notes) >= MAX_KEYS:
        raise Refused(f"Your P.O. box is full ({MAX_KEYS} keys). Use forget first.", "box-full")
    used = sum(notes.values()) - notes.get(key, 0)
    if used + size > ALLOWANCE_BYTES:
        raise Refused(
            "That would take your P.O. box past its size allowance (16 KB without sign-in). Use forget first.",
            "box-size",
            keptBytes=used,
            allowanceBytes=ALLOWANCE_BYTES,
        )
    room = settings.CLOCKFORD["POST_OFFICE_ROOM_BYTES"]
    town_total = Note.objects.aggregate(total=Sum("size"))["total"] or 0
    if town_total - notes.get(key, 0) + size > room:
        raise Refused("The Post Office has no room for more notes right now. Try again later.", "room")
    # The box's keys are known (and locked) already: update or insert straight away.
    if key in notes:
        Note.objects.filter(box=box, key=key).update(value=value, size=size, kept_at=timezone.now())
    else:
        Note.objects.create(box=box, key=key, value=value, size=size, kept_at=timezone.now())
    return len(notes) + (0 if key in notes else 1)


def do_forget(passport: Passport, key: str) -> bool:
    """Remove the note under `key`; returns whether there was one. Its text leaves the town's state."""
    if not _could_be_kept(key):
        return False
    deleted, _ = Note.objects.filter(box=box_of(passport), key=key).delete()
    return bool(deleted)
