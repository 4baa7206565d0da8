"""How much an address or an account has asked of the town: 001 "Too many requests. Try again later."

Counted in the database, so every worker (and every process of a town served by several) shares
one count. Each address, and each signed-in account, has one row in town_tally: the requests and
failures of the current window (a fixed window of REQUEST_WINDOW_SECONDS), and until when the
address is held back after repeated failures. A request costs one upsert, which starts a new window
in place when the last one has passed and returns the counts; a failure costs one more. A count
that cannot be taken in time is lost, never the request (see _tally).
"""

import datetime as dt
import functools
import ipaddress
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.db import OperationalError, connection

from clockford.sqlite.base import waiting_briefly
from clockford.town.models import Tally
from clockford.town.prepared import prepared
from clockford.town.several import sends_several

# 001's body for every refusal of this module, at /mcp (plain text) and at the hall's doors (in their
# own error format).
TOO_MANY = "Too many requests. Try again later."


@dataclass(frozen=True)
class Over:
    """The caller is over a limit, or held back, until `retry_after` seconds from now."""

    retry_after: int


def counted_as(address: str) -> str:
    """The address as every limit per address counts it: an IPv4 address alone (and one carried in an
    IPv6 address, ::ffff:a.b.c.d, NAT64's 64:ff9b::a.b.c.d, the old ::a.b.c.d, as that IPv4 address),
    an IPv6 address by its /64 (a 6to4 one by its host's /48, loopback as ::1). A host is usually given
    a whole /64, and counting each of its addresses apart gave it 2^64 limits of its own. Anything else
    (no address could be read) is counted as it is."""
    if ":" not in address:
        return address  # IPv4, which reads back as written, or no address: 4.5 us a request spared
    return _counted_as_v6(address)


@functools.lru_cache(maxsize=4096)
def _counted_as_v6(address: str) -> str:
    try:
        ip = ipaddress.IPv6Address(address)  # an address with a colon, if any, is IPv6
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    if ip.is_loopback:
        return "::1"
    # An IPv4 address carried whole in the IPv6 one (NAT64's 64:ff9b::/96, and the old IPv4-compatible
    # ::a.b.c.d) is that IPv4 address: its /64 would be every IPv4 host's at once.
    if ip in _NAT64 or (ip in _COMPATIBLE and int(ip) > 0xFFFF):
        return str(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    # A 6to4 host (2002::/16) holds a /48 made from its IPv4 address.
    bits = 48 if ip.sixtofour is not None else 64
    return str(ipaddress.IPv6Network((int(ip) >> (128 - bits) << (128 - bits), bits)))


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_COMPATIBLE = ipaddress.IPv6Network("::/96")


def address_key(address: str) -> str:
    return "address:" + counted_as(address)[:100]


def account_key(account: str) -> str:
    return "account:" + account[:100]


def ceremony_key(address: str) -> str:
    return "ceremony:" + counted_as(address)[:100]


def column(meta: Any, name: str) -> str:
    """A model field's column, quoted for this database."""
    return connection.ops.quote_name(meta.get_field(name).column)


@cache
def _names() -> tuple[str, ...]:
    m = Tally._meta
    fields = ("key", "period", "requests", "failures", "held_until")
    return (connection.ops.quote_name(m.db_table), *(column(m, f) for f in fields))


@cache
def _count_sql(rows: int) -> str:
    """Count a request against `rows` keys in one statement (a new window starts over at 1)."""
    t, key, period, requests, failures, held = _names()
    same = f"{t}.{period} = excluded.{period}"
    values = ", ".join(["(%s, %s, 1, 0, 0)"] * rows)
    return (
        f"INSERT INTO {t} ({key}, {period}, {requests}, {failures}, {held}) VALUES {values} "  # noqa: S608 (names from the model)
        f"ON CONFLICT ({key}) DO UPDATE SET "
        f"{requests} = CASE WHEN {same} THEN {t}.{requests} + 1 ELSE 1 END, "
        f"{failures} = CASE WHEN {same} THEN {t}.{failures} ELSE 0 END, "
        f"{period} = excluded.{period} "
        f"RETURNING {key}, {requests}, {held}"
    )


@cache
def _fail_sql() -> str:
    """Count a failure against a key; at the limit, hold it back (every right-hand side reads the row
    as it was, on PostgreSQL and SQLite alike)."""
    t, key, period, requests, failures, held = _names()
    same = f"{t}.{period} = excluded.{period}"
    now_failures = f"CASE WHEN {same} THEN {t}.{failures} + 1 ELSE 1 END"
    return (
        f"INSERT INTO {t} ({key}, {period}, {requests}, {failures}, {held}) VALUES (%s, %s, 0, 1, %s) "  # noqa: S608 (names from the model)
        f"ON CONFLICT ({key}) DO UPDATE SET "
        f"{failures} = {now_failures}, "
        f"{requests} = CASE WHEN {same} THEN {t}.{requests} ELSE 0 END, "
        f"{held} = CASE WHEN {now_failures} >= %s THEN %s ELSE {t}.{held} END, "
        f"{period} = excluded.{period} "
        f"RETURNING {held}"
    )


def _tally(sql: str, params: Sequence[str | int]) -> list[tuple[Any, ...]]:
    """Run one counting statement and return its rows. A count that cannot be taken (the lock not had
    in time, the database busy) is lost, never the request: the limits are a defence against floods,
    and a lost count lets one request through that the limit might have refused.

    On PostgreSQL, where the driver sends several statements in one message (clockford/town/several.py),
    the count commits without waiting for the disk (synchronous_commit off for its own transaction):
    a count the server loses in a crash lets a few requests through again, and every request waited on
    that flush for nothing else. The call's own transaction, its footstep's, still waits for it.

    On SQLite the count waits only briefly for the one write lock (waiting_briefly): a call holds that
    lock for its whole transaction, and every request is counted, so a count that waited as long as a
    call may would make every request (a 404, a 429 in flight) wait behind the busiest call."""
    try:
        with waiting_briefly(), connection.cursor() as cur:
            if sends_several(cur.cursor):
                cur.execute(_NO_FLUSH + prepared(sql), params)
                cur.cursor.nextset()  # past the SET's result, to the count's rows
            else:
                cur.execute(sql, params)
            return list(cur.fetchall())
    except OperationalError:
        return []


# SET LOCAL lasts until the end of the transaction: here, the implicit one of the message's statements
# (the count runs outside the call's transaction, in autocommit).
_NO_FLUSH = "SET LOCAL synchronous_commit TO OFF; "


def _window(now: float) -> tuple[int, int]:
    """The current window's number and the whole seconds until the next one starts (at least 1)."""
    length = max(1, settings.CLOCKFORD["REQUEST_WINDOW_SECONDS"])
    period = int(now // length)
    return period, max(1, math.ceil((period + 1) * length - now))


def count(address: str, account: str | None) -> Over | None:
    """Count one request from the address (and the signed-in account): Over when either is past its
    limit in this window, or the address is held back after repeated failures."""
    return _Counting(_requests(address, account)).take()


def count_ceremony(address: str) -> Over | None:
    """Count one step of a passkey ceremony from the address, on a key of its own (a person's hall
    and their agent's calls share an address on one machine): Over when the address is past
    CEREMONIES_PER_ADDRESS in this window. Whether it is held back after failures is `held`'s."""
    return _Counting({ceremony_key(address): settings.CLOCKFORD["CEREMONIES_PER_ADDRESS"]}).take()


def _requests(address: str, account: str | None) -> dict[str, int]:
    """The keys a request on /mcp or /api counts against, with their limits."""
    c = settings.CLOCKFORD
    limits = {address_key(address): c["REQUESTS_PER_ADDRESS"]}
    if account is not None:
        limits[account_key(account)] = c["REQUESTS_PER_ACCOUNT"]
    return limits


class _Counting:
    """One request's count: the keys it counts against (and their limits), the statement's parameters,
    and the window it falls in."""

    def __init__(self, limits: dict[str, int]) -> None:
        self.limits = limits
        self.now = time.time()
        period, self.left = _window(self.now)
        self.params: list[str | int] = [v for key in self.limits for v in (key, period)]

    def take(self) -> Over | None:
        """Count it, in one statement, and say whether any key is over."""
        return self.verdict(_tally(_count_sql(len(self.limits)), self.params))

    def verdict(self, rows: Sequence[Sequence[Any]]) -> Over | None:
        """Over, from the counted rows (key, requests, held_until), when any key is past its limit or held."""
        wait = 0
        for key, requests, held_until in rows:
            if held_until > self.now:
                wait = max(wait, math.ceil(held_until - self.now))
            if 0 < self.limits[key] < requests:
                wait = max(wait, self.left)
        return Over(wait) if wait else None


def count_and_read(address: str, read: str, params: Sequence[Any]) -> tuple[Over | None, list[tuple[Any, ...]]]:
    """Count one request from the address, as count() does, and run one read beside it: on PostgreSQL in
    the same statement, so a request costs one round trip where it cost two; on SQLite, where a statement
    costs no trip, after the count. Returns the verdict and the read's rows. The read's first column must
    never be NULL: on PostgreSQL its rows come back joined to the count, and a NULL there means none."""
    if connection.vendor != "postgresql":
        return count(address, None), rows_of(read, params)
    counting = _Counting(_requests(address, None))
    both = f"WITH counted AS ({_count_sql(1)}) SELECT * FROM counted LEFT JOIN ({read}) found ON true"  # noqa: S608 (both statements are the town's own; values are parameters)
    rows = _tally(both, [*counting.params, *params])
    if not rows:
        return None, rows_of(read, params)  # the count was lost (see _tally), and the read with it
    found = [tuple(row[3:]) for row in rows if row[3] is not None]
    return counting.verdict([row[:3] for row in rows[:1]]), found


def rows_of(read: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of one read, without a count (count_and_read's read alone)."""
    with connection.cursor() as cur:
        cur.execute(read, params)
        return list(cur.fetchall())


def failed(address: str) -> Over | None:
    """Count a failure from the address (a refused token, registration or passkey): Over when the
    address is held back, now or already."""
    c = settings.CLOCKFORD
    most = c["FAILURES_PER_ADDRESS"]
    if most <= 0:
        return None
    now = time.time()
    period, _ = _window(now)
    until = int(now + c["FAILURE_HOLD_SECONDS"])  # floor: Retry-After never says more than the hold
    rows = _tally(_fail_sql(), [address_key(address), period, until if most <= 1 else 0, most, until])
    held_until = rows[0][0] if rows else 0
    return Over(max(1, math.ceil(held_until - now))) if held_until > now else None


def held(address: str) -> Over | None:
    """Whether the address is held back after repeated failures, read without counting anything: for
    the hall's own doors (a registration), which count their refusals with `failed`."""
    until = Tally.objects.filter(pk=address_key(address)).values_list("held_until", flat=True).first() or 0
    now = time.time()
    return Over(max(1, math.ceil(until - now))) if until > now else None


def tidy(now: dt.datetime) -> dict[str, int]:
    """The sweep's part (clockford/town/sweep.py): a row from a window that has passed, not holding
    its caller back, reads exactly as no row (the next request starts the window over at one, with no
    failures). Windows are counted by the wall clock, not the town's, and swept by it too."""
    from clockford.town.sweep import delete_in_batches

    wall = min(now.timestamp(), time.time())
    period, _ = _window(wall)
    old = Tally.objects.filter(period__lt=period, held_until__lte=wall)
    return {Tally._meta.db_table: delete_in_batches(old)}
