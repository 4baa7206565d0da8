"""MCP sessions kept in the database: minted on initialize, checked on every later request.

Any worker can serve any session, and a restart loses none. Without sign-in, each session gets a new
passport (000 "Sign-in"); clientInfo.name is kept on it for the person to see. Signed in, a session
records the passport of its token's (account, client), which is the same on every reconnect, and
only that account and client may use the session.

Without sign-in a session's id is its passport's only credential, so the town keeps no id as it is:
a session is kept under the SHA-256 of its id (`key_of`), hashed here where the id comes in, and the
id itself goes only to the client, once, in the reply to its initialize. The database and its
backups hold keys, which open nothing: a key sent as an id is a session not found (secrets are
never stored or archived, the design's SECURITY-NOTES.md).
"""

import datetime as dt
import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from clockford.credentials import secret_digest
from clockford.town import limits, reports
from clockford.town.limits import column
from clockford.town.models import McpSession, Passport, TownState, lock_name
from districts.registry import START_PLACE

# last_seen is written at most this often, so a busy session does not write on every request; and
# at least four times per idle limit, so a session in use never looks idle (a town may set a short one).
TOUCH_EVERY = dt.timedelta(seconds=60)


# The ids the town mints are 64 hex characters (open_session): a longer one, or none, names no session
# and is never hashed nor looked up.
LONGEST_ID = 64


def key_of(sid: str) -> str | None:
    """The key a session with that id is kept under: the SHA-256 of the id, in hex (64 characters);
    None for an id no session can have."""
    if not (0 < len(sid) <= LONGEST_ID):
        return None
    return secret_digest(sid)


def _touch_every(idle: dt.timedelta) -> dt.timedelta:
    return min(TOUCH_EVERY, idle / 4)


def _limits() -> tuple[dt.timedelta, dt.timedelta]:
    c = settings.CLOCKFORD
    return dt.timedelta(seconds=c["SESSION_IDLE_SECONDS"]), dt.timedelta(seconds=c["SESSION_MAX_AGE_SECONDS"])


def _counted_from(address: str, now: dt.datetime) -> "QuerySet[McpSession]":
    """The sessions an address has spent: those opened within the window, ended or not, and those
    still open however long ago they were opened."""
    idle, max_age = _limits()
    window = dt.timedelta(seconds=settings.CLOCKFORD["SESSION_WINDOW_SECONDS"])
    still_open = Q(ended_at__isnull=True, last_seen__gt=now - idle, created_at__gt=now - max_age)
    return McpSession.objects.filter(Q(created_at__gt=now - window) | still_open, address=address)


def sessions_from(address: str) -> int:
    """How many new or open sessions the address has (001 "Too many new or open sessions")."""
    return _counted_from(limits.counted_as(address), timezone.now()).count()


def room_in_town() -> str | None:
    """Why the town has no room for a new session: "closed to visitors" when staff have stopped new
    visitors in the hall, "full" when its open sessions are at SESSIONS_IN_TOWN; None when there is
    room. Read on initialize only, so the sessions already open never pay for it. Two initializes at
    once may both take the last place: the ceiling guards the town's size, not an exact number."""
    if not TownState.is_welcoming():
        return "closed to visitors"
    idle, max_age = _limits()
    now = timezone.now()
    ceiling = settings.CLOCKFORD["SESSIONS_IN_TOWN"]
    if ceiling <= 0:
        return None  # 0: no ceiling, as every limit of the town is off at 0
    open_now = McpSession.objects.filter(ended_at__isnull=True, last_seen__gt=now - idle, created_at__gt=now - max_age)
    # Counting stops at the ceiling: a town with many sessions reads no more rows than it allows.
    return "full" if open_now[:ceiling].count() >= ceiling else None


def _seconds_until_room(address: str, now: dt.datetime, cap: int) -> int:
    """When the address may open a session again: the moment enough of its counted sessions stop
    counting, each when it has left the window and is no longer open (an open one may stay longer)."""
    idle, max_age = _limits()
    window = dt.timedelta(seconds=settings.CLOCKFORD["SESSION_WINDOW_SECONDS"])
    leaves = sorted(
        max(created + window, min(seen + idle, created + max_age) if ended is None else created)
        for created, seen, ended in _counted_from(address, now).values_list("created_at", "last_seen", "ended_at")
    )
    over = len(leaves) - cap  # this many must leave before there is room for one more
    if over < 0:
        return 1
    return max(1, math.ceil((leaves[over] - now).total_seconds()))


def _one_at_a_time(address: str) -> None:
    """Initializes from one address take turns between counting and opening, so two at once cannot
    both be the last one the cap allows. On PostgreSQL a transaction-scoped advisory lock on the
    address (no row to lock: the session counted is the one not made yet); SQLite's IMMEDIATE
    transactions already run one writer at a time."""
    lock_name("clockford-sessions:" + address)


@dataclass(frozen=True)
class NoRoom:
    """The address has too many new or open sessions; it may try again after `retry_after` seconds."""

    retry_after: int


def passport_for(account_id: int, client_pk: int, client_name: str) -> Passport:
    """The passport of a signed-in (account, client): made the first time the pair enters the town,
    the same one ever after."""
    passport = Passport.objects.filter(account_id=account_id, client_id=client_pk).first()
    if passport is not None:
        return passport
    now = timezone.now()
    try:
        with transaction.atomic():
            return Passport.objects.create(
                account_id=account_id,
                client_id=client_pk,
                sign_in=True,
                client_name=client_name[:200],
                issued_at=now,
                last_seen=now,
                place=START_PLACE,
                # Probation holds every passport of the account, this new one too: unwatched, the desk
                # would never ask about it, and a new client would carry on as if nothing was upheld.
                watched=reports.on_probation(account_id),
            )
    except IntegrityError:  # another request of the same pair made it first
        return Passport.objects.get(account_id=account_id, client_id=client_pk)


def kept_name(client_name: str) -> str:
    """clientInfo.name as a passport keeps it: at most 200 characters, and without NUL. The name is
    only a label, so the character is dropped rather than the client refused; kept, it would be a 500 and a
    traceback on PostgreSQL, whose text refuses it (a DataError), and SQLite kept what PostgreSQL cannot
    (clockford/nul.py)."""
    return client_name.replace("\x00", "")[:200]


class Opened(NamedTuple):
    """A session just opened: the row, kept under its key, and the id, for the client alone."""

    session: McpSession
    sid: str


def open_session(address: str, client_name: str, passport: Passport | None = None) -> Opened | NoRoom:
    """A new session, with a new passport (no sign-in) or the signed-in one given; NoRoom when the
    address has too many new or open sessions."""
    cap = settings.CLOCKFORD["SESSIONS_PER_ADDRESS"]
    address = limits.counted_as(address)  # an IPv6 address by its /64, as every limit per address
    with transaction.atomic():
        _one_at_a_time(address)
        now = timezone.now()
        # 0: no cap, as every limit of the town is off at 0 (it answered 500 here: no session to wait for).
        if cap > 0 and _counted_from(address, now).count() >= cap:
            return NoRoom(_seconds_until_room(address, now, cap))
        if passport is None:
            passport = Passport.objects.create(
                client_name=kept_name(client_name), issued_at=now, last_seen=now, place=START_PLACE
            )
        sid = secrets.token_hex(LONGEST_ID // 2)
        session = McpSession.objects.create(
            id=secret_digest(sid), passport=passport, address=address, created_at=now, last_seen=now
        )
        return Opened(session, sid)


def discard(sid: str) -> None:
    """A session whose initialize failed: it never existed (nor did its passport, unless signed in)."""
    key = key_of(sid)
    s = None if key is None else McpSession.objects.filter(pk=key).select_related("passport").first()
    if s is not None:
        with transaction.atomic():
            passport = s.passport
            s.delete()
            if passport.footsteps == 0 and passport.account_id is None:
                passport.delete()


# A passport read by a plain SELECT: every request on a session, and every signed-in request, reads
# one, and the ORM's query building costs ten times the statement itself. This one list names its
# columns: the statements below are built from it, and so is the reading of a row into a Passport.
# Model.from_db takes the values in the order the model declares its fields, and a field left out
# would be read again, one query at a time, whenever it is touched: so the list is every field of
# Passport, in that order (clockford/face/tests/test_rows.py checks it).
PASSPORT_FIELDS = (
    "id",
    "pennant",
    "client_name",
    "issued_at",
    "place",
    "footsteps",
    "sign_in",
    "last_seen",
    "account_id",
    "client_id",
    "calls_since",
    "calls",
    "watched",
    "dice_open",
)


def _aware(value: Any) -> dt.datetime:
    """A datetime as the ORM would give it: SQLite hands plain cursors naive UTC (or text)."""
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def _aware_or_none(value: Any) -> dt.datetime | None:
    return None if value is None else _aware(value)


# Fields whose plain-cursor values are already what the model holds.
AS_READ = {
    "CharField",
    "TextField",
    "IntegerField",
    "PositiveIntegerField",
    "BigIntegerField",
    "SmallIntegerField",
    "PositiveSmallIntegerField",
    "PositiveBigIntegerField",
    "ForeignKey",
}


def _reading(field: Any) -> Callable[[Any], Any] | None:
    """How a plain cursor's value becomes the field's value (None: as it is)."""
    kind = field.get_internal_type()
    if kind == "DateTimeField":
        return _aware_or_none if field.null else _aware
    if kind == "BooleanField":
        return bool
    if kind in AS_READ:
        return None
    raise TypeError(f"Passport.{field.name} ({kind}): teach clockford/face/sessions.py to read it from a plain SELECT")


_READINGS = tuple(_reading(Passport._meta.get_field(name)) for name in PASSPORT_FIELDS)


def passport_columns(alias: str) -> str:
    """The SELECT list of PASSPORT_FIELDS, for the passport table under that alias."""
    return ", ".join(f"{alias}.{column(Passport._meta, name)}" for name in PASSPORT_FIELDS)


def passport_from_row(row: Sequence[Any]) -> Passport:
    """A passport from its columns in PASSPORT_FIELDS order, read by a plain SELECT."""
    values = [v if read is None else read(v) for read, v in zip(_READINGS, row, strict=True)]
    return Passport.from_db("default", PASSPORT_FIELDS, values)


@cache
def _find_sql() -> str:
    """The live session with an id and its passport, in one statement."""
    qn = connection.ops.quote_name
    s, p = McpSession._meta, Passport._meta
    return (
        f"SELECT s.{column(s, 'created_at')}, s.{column(s, 'last_seen')}, {passport_columns('p')} "  # noqa: S608 (names from the models; the id is a parameter)
        f"FROM {qn(s.db_table)} s JOIN {qn(p.db_table)} p ON p.{column(p, 'id')} = s.{column(s, 'passport')} "
        f"WHERE s.{column(s, 'id')} = %s AND s.{column(s, 'ended_at')} IS NULL"
    )


def find_session(sid: str) -> McpSession | None:
    """The live session with that id, or None when it is unknown, ended, idle too long or too old."""
    key = key_of(sid)
    if key is None:
        return None
    with connection.cursor() as c:
        c.execute(*session_read(key))
        row = c.fetchone()
    return found_session(key, row)


def session_read(key: str) -> tuple[str, list[str]]:
    """The statement that reads the session kept under that key (key_of) and its passport
    (found_session makes them of its row)."""
    return _find_sql(), [key]


def found_session(key: str, row: Sequence[Any] | None) -> McpSession | None:
    """The live session of a row session_read's statement returned, or None (none found, or one ended,
    idle too long or too old)."""
    if row is None:
        return None
    created_at, last_seen = _aware(row[0]), _aware(row[1])
    idle, max_age = _limits()
    now = timezone.now()
    if last_seen < now - idle or created_at < now - max_age:
        return None
    passport = passport_from_row(row[2:])
    session = McpSession.from_db(
        "default",
        ("id", "passport_id", "address", "created_at", "last_seen", "ended_at"),
        (key, passport.pk, "", created_at, last_seen, None),
    )
    session.passport = passport
    if now - last_seen > _touch_every(idle):
        session.last_seen = now
        McpSession.objects.filter(pk=key).update(last_seen=now)
    return session


def end_session(sid: str) -> bool:
    """End a live session (DELETE). One that is unknown, ended or expired is not found, as for any request."""
    key = key_of(sid)
    if key is None:
        return False
    idle, max_age = _limits()
    now = timezone.now()
    live = McpSession.objects.filter(
        pk=key, ended_at__isnull=True, last_seen__gt=now - idle, created_at__gt=now - max_age
    )
    return bool(live.update(ended_at=now))
