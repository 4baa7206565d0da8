"""Taking the census: import a file or sync a registry, fold versions into lots, derive, index and seal.

Every step is idempotent and commits in batches, so an interrupted run is safe to run again:

1. ingest: entries are upserted by (name, version); an entry whose canonical JSON is unchanged is not
   written, and a new or changed one waits to be folded (`folded = False`). A sync saves its cursor
   with each page, so a rerun resumes where it stopped.
2. fold: every server with entries waiting is folded into its lot's facts. New servers take the next
   lot numbers, in the order they were first registered; a lot's number never changes.
3. derive: each lot's record, integrity and house are computed from its facts and what the rest of the
   census shows (hosts shared, names that differ only in case, the census's date). Only rows whose
   values changed are written, and only those are indexed again.
4. seal: the Merkle root over every record, in lot order.
"""

import base64
import datetime as dt
import functools
import hashlib
import http.client
import json
import math
import re
import socket
import ssl
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.db import connection, transaction
from django.db.models import Max, Min, Q
from django.utils import timezone

from clockford.leaves import deeper_than, leaves
from clockford.town import clock, signing, words
from clockford.town.tooling import counted
from districts.town_hall import integrity, services
from districts.town_hall.models import CensusState, Entry, Lot

OFFICIAL = "io.modelcontextprotocol.registry/official"
BATCH = 2000
FOLD_BATCH = 1000
PAGE_LIMIT = 100
CURSOR_MOST = 500  # the length of CensusState.sync_cursor
DEMO_FILE = Path(__file__).resolve().parent / "demo_census.json"
# What every entry of the demo census says in its _meta, and no real listing does.
DEMO_MARK = "io.clockford/demo"
USER_AGENT = "Clockford census sync"
CENSUS_LOCK = "clockford-census"  # the advisory lock one census run holds on PostgreSQL


class CensusError(Exception):
    """A census that cannot be taken as asked: said plainly to the operator."""


# -- Progress on the terminal ----------------------------------------------------------------------


class Progress:
    """A progress bar on a terminal; elsewhere, one line per quarter so logs stay short."""

    def __init__(self, stream: IO[str] | None = None, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.tty = bool(stream and stream.isatty())
        self.label = ""
        self.total = 0
        self.done = 0
        self.shown = -1

    def start(self, label: str, total: int) -> None:
        self.label, self.total, self.done, self.shown = label, total, 0, -1
        self.draw()

    def advance(self, n: int) -> None:
        self.done += n
        self.draw()

    def draw(self) -> None:
        if not self.stream:
            return
        frac = self.done / self.total if self.total else 1.0
        if self.tty and not self.total:
            self.stream.write(f"\r{self.label:<10} {self.done:,} entries")
            self.stream.flush()
        elif self.tty:
            filled = int(frac * self.width)
            self.stream.write(
                f"\r{self.label:<10} [{'#' * filled}{'.' * (self.width - filled)}] {self.done:,}/{self.total:,}"
            )
            self.stream.flush()
        elif self.total:
            step = int(frac * 4)
            if step != self.shown:
                self.shown = step
                self.stream.write(f"{self.label}: {self.done:,}/{self.total:,}\n")

    def finish(self) -> None:
        if self.stream and self.tty:
            self.stream.write("\n")
            self.stream.flush()


# -- Reading entries -------------------------------------------------------------------------------


@dataclass
class Incoming:
    name: str
    version: str
    published_at: dt.datetime | None
    updated_at: dt.datetime | None
    status: str
    digest: str
    body: str


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(value: Any) -> str | None:
    """A listing's field that is words: a number or an object in its place reads as absent, so that a
    record says a package's fields are words or null, as every reader of it expects (the read API's
    schema refused the lot with a 500)."""
    return value if isinstance(value, str) else None


# The most one registry entry may hold, as canonical JSON: four times the largest in the real snapshot
# (61,761 bytes of 25,150 entries). The registry caps a description at 100 characters; a mirror that does
# not check could send megabytes, which every enter and verify of the lot would carry.
ENTRY_BYTES = 256 * 1024
# The deepest an entry may nest, objects and arrays: eight times the real snapshot's deepest (8 levels).
# A reader of the listing (the integrity scan, a record's view) need never walk deeper than this.
ENTRY_LEVELS = 64
# The versions a record names, newest first: the real snapshot's most is 97. Each entry is bounded
# (ENTRY_BYTES) but their number is not, and every enter, verify and ask_directory of the lot sends
# the record twice: ten thousand versions made replies of 5 MB, past what an SDK client reads.
VERSIONS_KEPT = 100


def _storable(value: Any) -> bool:
    """Whether every database the town runs on can keep this JSON as it is: no NUL character in any
    string or key (PostgreSQL's text and jsonb refuse it, where SQLite takes it), and no number that
    is not finite (NaN, Infinity: JSON has no words for them, but Python's reader takes them, and
    PostgreSQL's json refuses them). Walked without recursion, however deep the JSON (clockford/leaves.py)."""
    for leaf in leaves(value):
        if (isinstance(leaf, str) and "\x00" in leaf) or (isinstance(leaf, float) and not math.isfinite(leaf)):
            return False
    return True


class Doubled(dict[str, Any]):
    """An object of a registry's answer that names a key more than once. Python's reader keeps the last
    value, another reader may keep the first: a listing could show one name, or one remote, to the town
    and another to the agent that checks it. Kept as read, and marked, so that what holds it is refused."""


# What an entry of the list that names a key twice is read as (read_json): skipped, and counted.
DOUBLED: Any = object()


def read_json(text: str | bytes) -> Any:
    """JSON as the census reads it: an object that names a key twice is a Doubled, and an entry of the
    list ("servers") that holds one is DOUBLED. Only a document that has one is walked for them."""
    found: list[bool] = []

    def read_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        value = dict(pairs)
        if len(value) == len(pairs):
            return value
        found.append(True)
        return Doubled(value)

    document = json.loads(text, object_pairs_hook=read_object)
    if found and isinstance(document, dict) and isinstance(document.get("servers"), list):
        document["servers"] = [DOUBLED if doubles_a_key(item) else item for item in document["servers"]]
    return document


def doubles_a_key(document: Any) -> bool:
    """Whether any object in the document names a key twice (read by read_json). Walked with a list,
    like clockford/leaves.py: one look at each object and array, however deep."""
    waiting: list[Any] = [document]
    while waiting:
        value = waiting.pop()
        if isinstance(value, Doubled):
            return True
        if isinstance(value, dict):
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
    return False


def read_entry(item: Any) -> Incoming | None:
    """One entry of the registry's list shape, or None when it cannot be one (counted as skipped): no
    name or version, one longer than its column (its lot's case-folded name too: "ß" folds to "ss"),
    more than ENTRY_BYTES or nested deeper than ENTRY_LEVELS, or anything the database cannot keep (_storable, or a lone surrogate, which UTF-8 cannot write).
    A registry's one odd entry is skipped and said in the count; it must not stop every later import
    and sync, as an entry taken in and then never folded would."""
    if not isinstance(item, dict) or not isinstance(item.get("server"), dict):
        return None
    server = item["server"]
    name, version = server.get("name"), server.get("version")
    if not isinstance(name, str) or not name.strip() or len(name) > 255 or len(name.casefold()) > 255:
        return None
    if not isinstance(version, str) or len(version) > 255:
        return None
    if not _storable(item) or deeper_than(item, ENTRY_LEVELS):
        return None
    try:
        canonical = signing.canonical_json(item)
    except UnicodeEncodeError:  # a lone surrogate (\ud800), which JSON reads and UTF-8 cannot write
        return None
    if len(canonical) > ENTRY_BYTES:
        return None
    meta = _dict(item.get("_meta"))
    official = _dict(meta.get(OFFICIAL))
    status = official.get("status")
    # A listing without a status came from the registry's first weeks, when every listing was active.
    status = status if status in ("active", "deprecated", "deleted") else "active"
    return Incoming(
        name=name,
        version=version,
        published_at=integrity.parse_time(official.get("publishedAt")),
        updated_at=integrity.parse_time(official.get("updatedAt")),
        status=status,
        digest=hashlib.sha256(canonical).hexdigest(),
        body=canonical.decode("utf-8"),
    )


@dataclass
class Tally:
    received: int = 0
    skipped: int = 0
    new: int = 0
    changed: int = 0
    new_lots: int = 0
    folded: int = 0
    pages: int = 0
    # Entries whose name and version came earlier in the same run: the last one read is kept.
    repeated: int = 0
    # Skipped entries (counted in `skipped` too) that name a key twice in one object (Doubled).
    doubled: int = 0
    notes: list[str] = field(default_factory=list)
    # What the run has read and written, for the counts above: every (name, version) read, and the lots
    # whose record it wrote (a new lot's first, then any its census-wide reading changed).
    seen: set[tuple[str, str]] = field(default_factory=set, repr=False)
    written: set[int] = field(default_factory=set, repr=False)

    @property
    def derived(self) -> int:
        """The records the run wrote, new or changed."""
        return len(self.written)

    def line(self) -> str:
        doubled = f", {self.doubled:,} of them naming a key twice" if self.doubled else ""
        repeated = f", {self.repeated:,} repeated" if self.repeated else ""
        return (
            f"{counted(self.received, 'entry', 'entries')} read ({self.skipped:,} skipped{doubled}{repeated}), {self.new:,} new, "
            f"{self.changed:,} changed; {counted(self.folded, 'server', 'servers')} folded "
            f"({counted(self.new_lots, 'new lot', 'new lots')}); {counted(self.derived, 'record', 'records')} new or changed."
        )


def ingest(items: Iterable[Any], tally: Tally) -> None:
    """Upsert one batch of entries in one transaction. Later duplicates of a (name, version) win, and are
    counted."""
    write(read(items, tally), tally)


def read(items: Iterable[Any], tally: Tally) -> dict[tuple[str, str], Incoming]:
    """A batch's entries as the census keeps them, read before any transaction: reading is the CPU's
    work (every leaf walked, canonical JSON, a digest), which a write transaction must not hold."""
    batch: dict[tuple[str, str], Incoming] = {}
    for item in items:
        tally.received += 1
        if item is DOUBLED:
            tally.skipped += 1
            tally.doubled += 1
            continue
        e = read_entry(item)
        if e is None:
            tally.skipped += 1
            continue
        key = (e.name, e.version)
        if key in tally.seen:
            tally.repeated += 1
        tally.seen.add(key)
        batch[key] = e
    return batch


def write(batch: dict[tuple[str, str], Incoming], tally: Tally) -> None:
    """Upsert entries read by `read`, in one transaction."""
    if not batch:
        return
    names = {n for n, _ in batch}
    # The batch's versions as well as its names: a server listed in a hundred thousand versions had
    # every one of them read again for each page that brought more, a sync's time the square of them.
    versions = {v for _, v in batch}
    with transaction.atomic():
        existing = {
            (n, v): (pk, d)
            for pk, n, v, d in Entry.objects.filter(name__in=names, version__in=versions).values_list(
                "id", "name", "version", "digest"
            )
        }
        new, changed = [], []
        for key, e in batch.items():
            fields = {
                "published_at": e.published_at,
                "updated_at": e.updated_at,
                "status": e.status,
                "digest": e.digest,
                "body": e.body,
                "folded": False,
            }
            if key not in existing:
                new.append(Entry(name=e.name, version=e.version, **fields))
            elif existing[key][1] != e.digest:
                changed.append(Entry(id=existing[key][0], name=e.name, version=e.version, **fields))
        Entry.objects.bulk_create(new, batch_size=500)
        Entry.objects.bulk_update(
            changed, ["published_at", "updated_at", "status", "digest", "body", "folded"], batch_size=500
        )
        tally.new += len(new)
        tally.changed += len(changed)


# -- Folding versions into lots --------------------------------------------------------------------

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def _when(e: Entry) -> dt.datetime:
    return e.published_at or e.updated_at or EPOCH


def publisher_of(name: str) -> str:
    """The namespace's owner: a GitHub login (io.github.OWNER) as github.com/OWNER, a reversed domain
    (com.example.mcp) as the domain it names (mcp.example.com)."""
    ns = name.split("/", 1)[0]
    owner = integrity.namespace_owner(name)
    if owner is not None:
        return f"github.com/{owner}"
    return ".".join(reversed(ns.split(".")))


def host_of(url: str) -> str | None:
    """A remote's host, or None when it names none that DNS could: a name is at most 253 characters
    (and the lot's host column 255)."""
    try:
        host = (urllib.parse.urlsplit(url).hostname or "").lower()
    except ValueError:
        return None
    return host if 0 < len(host) <= 253 else None


def remote_url(url: str) -> str | None:
    """A remote's URL as its record keeps it, or None when it is no way to reach a server: an MCP remote
    is reached over HTTP, and a javascript:, data: or file: URL (or one naming no host) reaches none,
    where it was handed to every agent as the server's remote and spared the listing every rule of its
    remotes. A user and password in it are withheld (https://…@host/mcp): the credential rule reads
    the listing itself and counts them, and the town does not hand them on. Every remote in the real
    snapshot is https, none with a user, and is kept exactly as written."""
    if not url.strip():
        return None
    try:
        parts = urllib.parse.urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    if "@" in parts.netloc:
        return url.replace(parts.netloc, "…@" + parts.netloc.rsplit("@", 1)[1], 1)
    return url


def newest_first(entries: list[Entry]) -> list[Entry]:
    """A server's versions newest first, the live ones only when it has any: the first speaks for it."""
    live = [e for e in entries if e.status != "deleted"]
    return sorted(live or entries, key=lambda e: (_when(e), e.version), reverse=True)


def fold(name: str, entries: list[Entry], latest_body: str | None = None) -> dict[str, Any]:
    """One server's facts from all its entries: the newest live version speaks for it. Its body is
    `latest_body` when given, so that the other entries' bodies need not be read."""
    live = [e for e in entries if e.status != "deleted"]
    newest = newest_first(entries)
    latest = newest[0]
    body = json.loads(latest.body if latest_body is None else latest_body)
    server = _dict(body.get("server"))
    census_meta = _dict(_dict(body.get("_meta")).get("census"))
    repo = _dict(server.get("repository"))
    repo_url = repo.get("url") if isinstance(repo.get("url"), str) and repo["url"].strip() else None
    # A remote is read as words; one without a web URL says nothing of how to reach the server, and is
    # not one (it spared the listing the rule of no way to run). None in the real snapshot lacks one.
    remotes = [
        {"type": _text(r.get("type")) or "", "url": url}
        for r in _list(server.get("remotes"))
        if isinstance(r, dict) and (url := remote_url(_text(r.get("url")) or ""))
    ]
    package = None
    for p in _list(server.get("packages")):
        if isinstance(p, dict):
            transport = _dict(p.get("transport"))
            package = {
                "registryType": _text(p.get("registryType")),
                "identifier": _text(p.get("identifier")),
                "version": _text(p.get("version")),
                "transport": _text(transport.get("type")),
            }
            break
    published = [t for e in entries if (t := e.published_at or e.updated_at) is not None]
    updated = [t for e in entries if (t := e.updated_at or e.published_at) is not None]
    title = server.get("title") if isinstance(server.get("title"), str) else None
    description = server.get("description") if isinstance(server.get("description"), str) else ""
    return {
        "name": name,
        "title": title,
        "description": description,
        "publisher": publisher_of(name),
        "version": latest.version,
        "versions": [e.version for e in newest[:VERSIONS_KEPT]],
        "status": "deleted" if not live else latest.status,
        "firstSeen": clock.iso(min(published)) if published else None,
        "updatedAt": clock.iso(max(updated)) if updated else None,
        "repoUrl": repo_url.strip() if repo_url else None,
        "remotes": remotes,
        "host": host_of(remotes[0]["url"]) if remotes else None,
        "package": package,
        # The census's own sources mark copies that kept only some fields: absent is then unknown.
        "cutDown": census_meta.get("fidelity") == "lossy",
        "scan": integrity.scan(server),
    }


def update_lots(lots: list[Lot], fields: Sequence[str]) -> None:
    """Write `fields` of each lot: one UPDATE statement, run once per lot with that lot's values.
    Django's bulk_update would build one CASE expression per field over the whole batch, and
    building it cost some fifty times what running it did (most of a demo census's import)."""
    if not lots:
        return
    wanted = set(fields)
    columns = [f for f in Lot._meta.concrete_fields if f.name in wanted]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(c.column or c.attname)} = %s" for c in columns)
    sql = f"UPDATE {quote(Lot._meta.db_table)} SET {assignments} WHERE {quote('number')} = %s"  # noqa: S608 (names from the model)
    rows = [[c.get_db_prep_save(getattr(lot, c.attname), connection) for c in columns] + [lot.number] for lot in lots]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


# The tries a batch of the fold gets to find the census as it read it (see fold_pending).
FOLD_TRIES = 3


@dataclass
class FoldPlan:
    """One batch of servers folded, its new lots numbered and derived: the CPU's work (every listing's
    JSON parsed, scanned by the integrity rules, each record hashed), done before the batch's write
    transaction, with what it was computed from, so that the transaction can check that nothing moved."""

    entries: set[tuple[int, str]]  # every version of the batch's servers, (pk, digest), as read
    numbers: dict[str, int]  # the batch's servers that had lots, and their numbers
    last: int | None  # the census's highest lot number
    new: list[Lot]
    changed: list[Lot]

    def holds(self, chunk: list[str]) -> bool:
        """Whether the census is still as the plan read it (reads only: no JSON, no hashing). Another
        run at once (two operators on SQLite, where no lock keeps runs apart) may have written a version
        or numbered a lot between the plan and its transaction."""
        entries = set(Entry.objects.filter(name__in=chunk).values_list("pk", "digest"))
        numbers = dict(Lot.objects.filter(name__in=chunk).values_list("name", "number"))
        return (
            entries == self.entries
            and numbers == self.numbers
            and Lot.objects.aggregate(m=Max("number"))["m"] == self.last
        )


def plan_fold(chunk: list[str], as_of: dt.datetime | None) -> FoldPlan:
    """A batch's lots as the fold would write them, read and computed without writing anything."""
    # Every version's dates and status, but the body of the newest alone: a registry may list one server
    # in a hundred thousand versions of 256 KiB each, and reading every body held them all in memory.
    by_name: dict[str, list[Entry]] = defaultdict(list)
    for e in Entry.objects.filter(name__in=chunk).only(
        "name", "version", "published_at", "updated_at", "status", "digest"
    ):
        by_name[e.name].append(e)
    latest = {name: newest_first(by_name[name])[0].pk for name in chunk}
    bodies = dict(Entry.objects.filter(pk__in=latest.values()).values_list("pk", "body"))
    lots = {lot.name: lot for lot in Lot.objects.filter(name__in=chunk)}
    last = Lot.objects.aggregate(m=Max("number"))["m"]
    next_number = 0 if last is None else last + 1
    ctx = integrity.Context(as_of=as_of)
    new, changed = [], []
    for name in chunk:
        facts = fold(name, by_name[name], bodies[latest[name]])
        lot = lots.get(name)
        if lot is None:
            lot = Lot(number=next_number, name=name, folded_name=name.casefold(), facts=facts)
            next_number += 1
            apply(lot, derive(lot.number, facts, ctx, []))
            new.append(lot)
        elif lot.facts != facts:
            lot.facts = facts
            changed.append(lot)
    return FoldPlan(
        entries={(e.pk, e.digest) for versions in by_name.values() for e in versions},
        numbers={name: lot.number for name, lot in lots.items()},
        last=last,
        new=new,
        changed=changed,
    )


def fold_batch(chunk: list[str], as_of: dt.datetime | None) -> FoldPlan:
    """Plan a batch, then write it in a transaction that first checks the census did not move. The last
    try plans inside its transaction, as the fold did before: a census that moved under every other try
    (another run writing the same servers at once) still gets folded, and correctly."""
    for _ in range(FOLD_TRIES - 1):
        plan = plan_fold(chunk, as_of)
        with transaction.atomic():
            if plan.holds(chunk):
                write_fold(plan, chunk)
                return plan
    with transaction.atomic():
        plan = plan_fold(chunk, as_of)
        write_fold(plan, chunk)
    return plan


def write_fold(plan: FoldPlan, chunk: list[str]) -> None:
    Lot.objects.bulk_create(plan.new, batch_size=500)
    update_lots(plan.changed, ["facts"])
    services.index_lots(plan.new)
    Entry.objects.filter(name__in=chunk, folded=False).update(folded=True)


def fold_pending(tally: Tally, progress: Progress, as_of: dt.datetime | None) -> None:
    """Fold every server with entries waiting. New servers are numbered in first-registered order.
    Each batch is planned before its write transaction (plan_fold), which then only checks and writes:
    a write transaction held while some thousand listings were parsed, scanned and hashed kept every
    other writer of the town (a desk's footstep, a sign-in) waiting seconds at a time on SQLite."""
    pending = list(
        Entry.objects.filter(folded=False).values("name").annotate(first=Min("published_at"), seen=Min("updated_at"))
    )
    pending.sort(key=lambda r: (r["first"] or r["seen"] or dt.datetime.max.replace(tzinfo=dt.UTC), r["name"]))
    names = [r["name"] for r in pending]
    progress.start("fold", len(names))
    for i in range(0, len(names), FOLD_BATCH):
        chunk = names[i : i + FOLD_BATCH]
        plan = fold_batch(chunk, as_of)
        tally.folded += len(chunk)
        tally.new_lots += len(plan.new)
        tally.written.update(lot.number for lot in plan.new)
        progress.advance(len(chunk))
    progress.finish()


# -- Deriving records ------------------------------------------------------------------------------

SHARED_WITH_SHOWN = 10


@dataclass
class Derived:
    record: dict[str, Any]
    deductions: list[dict[str, Any]]
    status: str
    host: str
    score: int
    lamp_lit: bool
    leaf: str
    search_name: str
    search_title: str
    search_description: str


def derive(number: int, facts: dict[str, Any], ctx: integrity.Context, host_lots: list[int]) -> Derived:
    """The census record a lot serves, from its facts and the rest of the census."""
    ds = integrity.deductions(facts, ctx)
    score = integrity.score(ds)
    house = integrity.house(score, facts, ctx)
    others = [n for n in host_lots if n != number]
    record = {
        "lot": number,
        "name": facts["name"],
        "title": facts["title"],
        "publisher": facts["publisher"],
        "version": facts["version"],
        "versions": facts["versions"],
        "status": facts["status"],
        "firstSeen": facts["firstSeen"],
        "updatedAt": facts["updatedAt"],
        "host": facts["host"],
        "hasRepo": facts["repoUrl"] is not None,
        "remote": facts["remotes"][0] if facts["remotes"] else None,
        "package": facts["package"],
        "hostSharedWith": {"count": len(others), "lots": others[:SHARED_WITH_SHOWN]},
        "caseTwins": list(ctx.twin_lots),
        "fidelity": "partial" if facts["cutDown"] else "full",
        "house": house,
        "integrity": {"score": score, "reasons": integrity.reasons(ds)},
        "words": {"description": facts["description"]},
    }
    return Derived(
        record=record,
        deductions=ds,
        status=facts["status"],
        host=facts["host"] or "",
        score=score,
        lamp_lit=house["lampLit"],
        leaf=services.leaf_of(record),
        search_name=services.name_words(facts["name"]),
        search_title=facts["title"] or "",
        search_description=facts["description"],
    )


DERIVED_FIELDS = (
    "record",
    "deductions",
    "status",
    "host",
    "score",
    "lamp_lit",
    "leaf",
    "search_name",
    "search_title",
    "search_description",
)
SEARCHED = ("status", "search_name", "search_title", "search_description")


def apply(lot: Lot, d: Derived) -> list[str]:
    """Set the derived values on a lot; returns the names of those that changed."""
    changed = []
    for name in DERIVED_FIELDS:
        value = getattr(d, name)
        if getattr(lot, name, None) != value:
            setattr(lot, name, value)
            changed.append(name)
    return changed


def derive_all(tally: Tally, progress: Progress, as_of: dt.datetime | None) -> None:
    lots = list(Lot.objects.order_by("number"))
    host_lots: dict[str, list[int]] = defaultdict(list)
    by_folded: dict[str, list[Lot]] = defaultdict(list)
    for lot in lots:
        if lot.facts.get("host"):
            host_lots[lot.facts["host"]].append(lot.number)
        by_folded[lot.folded_name].append(lot)
    twins: dict[int, list[Lot]] = {}
    for group in by_folded.values():
        if len(group) > 1:
            for lot in group:
                twins[lot.number] = [o for o in group if o.number != lot.number]
    # A name the registry's pattern refuses (non-ASCII, hidden characters) that is drawn like another
    # lot's: a look-alike of a popular server verified as real. Its case twins are counted as such.
    by_look: dict[str, list[Lot]] = defaultdict(list)
    for lot in lots:
        by_look[integrity.look_alike_key(lot.name)].append(lot)
    look_alikes: dict[int, tuple[str, ...]] = {}
    for group in by_look.values():
        if len(group) > 1:
            for lot in group:
                if not integrity.NAME_PATTERN.fullmatch(lot.name):
                    others = tuple(o.name for o in group if o.folded_name != lot.folded_name)
                    if others:
                        look_alikes[lot.number] = others
    progress.start("derive", len(lots))
    changed: list[Lot] = []
    reindex: list[Lot] = []
    for lot in lots:
        ctx = integrity.Context(
            as_of=as_of,
            host_others=max(0, len(host_lots.get(lot.facts.get("host") or "", [])) - 1),
            twins=tuple(o.name for o in twins.get(lot.number, [])),
            twin_lots=tuple(o.number for o in twins.get(lot.number, [])),
            look_alikes=look_alikes.get(lot.number, ()),
        )
        d = derive(lot.number, lot.facts, ctx, host_lots.get(lot.facts.get("host") or "", []))
        fields = apply(lot, d)
        if fields:
            changed.append(lot)
            if set(fields) & set(SEARCHED):
                reindex.append(lot)
    progress.advance(len(lots) - len(changed))
    for i in range(0, len(changed), BATCH):
        chunk = changed[i : i + BATCH]
        with transaction.atomic():
            update_lots(chunk, DERIVED_FIELDS)
            services.index_lots([lot for lot in chunk if lot in reindex])
        progress.advance(len(chunk))
    progress.finish()
    tally.written.update(lot.number for lot in changed)


def sealing() -> tuple[list[str], str, dict[str, float]]:
    """What a seal is computed from, and what it computes: every lot's leaf, the root over them, and
    the census's common words (every searchable lot's words read)."""
    leaves = list(Lot.objects.order_by("number").values_list("leaf", flat=True))
    return leaves, services.seal_root(leaves), services.common_words()


def seal(as_of: dt.datetime | None, source: str | None, demo: bool | None) -> CensusState:
    """Count and seal the census. The seal's time moves only when its root does. The root and the common
    words are computed before the write transaction, which checks that no lot's leaf moved meanwhile
    (the same leaves are the same records, words and all); the last try computes inside it, as the
    fold's does (fold_batch)."""
    for attempt in range(FOLD_TRIES):
        planned = sealing() if attempt < FOLD_TRIES - 1 else None
        with transaction.atomic():
            if planned is None:
                planned = sealing()
            elif list(Lot.objects.order_by("number").values_list("leaf", flat=True)) != planned[0]:
                continue
            s = write_seal(planned, as_of, source, demo)
        break
    services.forget_summary()
    return s


def write_seal(
    planned: tuple[list[str], str, dict[str, float]], as_of: dt.datetime | None, source: str | None, demo: bool | None
) -> CensusState:
    """Write a seal planned by `sealing`, inside the seal's transaction."""
    leaves, root, common = planned
    s = services.state()
    s.common = common
    s.entries = Entry.objects.count()
    s.servers = len(leaves)
    s.lit_lamps = Lot.objects.filter(lamp_lit=True).count()
    s.as_of = as_of
    if source is not None:
        s.source = source
    if demo is not None:
        s.demo = demo
    if root != s.root or s.holds != len(leaves):
        s.root, s.holds, s.sealed_at = root, len(leaves), timezone.now()
    s.save()
    return s


def census_as_of() -> dt.datetime | None:
    """The census's date: the newest time a listing of it was updated (or, with no update times,
    published). A listing dated later than now (a registry's wrong clock, an odd file) does not
    count: one entry of 2099 made the census's date 2099, so that every other listing read as stale
    and every lamp went out, and each later sync asked only for what changed after 2099."""
    now = timezone.now()
    agg = Entry.objects.aggregate(
        u=Max("updated_at", filter=Q(updated_at__lte=now)), p=Max("published_at", filter=Q(published_at__lte=now))
    )
    return agg["u"] or agg["p"]


def settle(tally: Tally, progress: Progress, source: str | None, demo: bool | None) -> CensusState:
    """Steps 2 to 4, after entries came in. Derive runs over the whole census every time: it is cheap,
    and the census's date, shared hosts and case twins reach lots whose own entries did not change."""
    as_of = census_as_of()
    fold_pending(tally, progress, as_of)
    derive_all(tally, progress, as_of)
    s = seal(as_of, source, demo)
    services.analyze_index()
    services.CLERK.forget_all()
    return s


# -- Import, sync, demo ----------------------------------------------------------------------------


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def read_file(path: Path) -> dict[str, Any]:
    try:
        data = read_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as err:  # RecursionError: arrays nested past the reader
        raise CensusError(f"Could not read {path.name} as JSON: {err}") from None
    if not isinstance(data, dict) or not isinstance(data.get("servers"), list):
        raise CensusError(f'{path.name} is not in the registry\'s list shape: {{"servers": [...]}}.')
    if isinstance(data, Doubled):
        raise CensusError(
            f"{path.name} names a key twice in its outermost object, so that one reader could take one value "
            "and the next another."
        )
    return data


def make_room(demo: bool, replace: bool) -> None:
    """The demo census is made up: it never mixes with a real one. Real data replaces the demo; the
    demo never replaces a real census unless asked."""
    s = services.state()
    if not Lot.objects.exists() and not Entry.objects.exists():
        return
    if s.demo and not demo:
        wipe()
    elif not s.demo and demo:
        if not replace:
            raise CensusError(
                "The census holds real registry data; the demo census will not replace it unless asked with --replace."
            )
        wipe()


def wipe() -> None:
    with transaction.atomic():
        services.clear_index()
        Lot.objects.all().delete()
        Entry.objects.all().delete()
        CensusState.objects.filter(pk=1).delete()
    services.forget_summary()


@contextmanager
def one_run_at_a_time() -> Iterator[None]:
    """A census run (an import, a sync) waits while another runs. On PostgreSQL two at once (a sync
    beside an import, two operators) both numbered new lots from the same highest number, and one
    stopped with an IntegrityError, its lots left unfolded until the next run: a session advisory
    lock, held across the run's many transactions, lets one finish before the next begins. SQLite's
    IMMEDIATE transactions already run one writer at a time, batch by batch."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as c:
        c.execute("SELECT pg_advisory_lock(hashtextextended(%s, 0))", [CENSUS_LOCK])
    try:
        yield
    finally:
        with connection.cursor() as c:
            c.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [CENSUS_LOCK])


def import_file(path: Path, stream: IO[str] | None = None, replace: bool = False) -> tuple[Tally, CensusState]:
    data = read_file(path)
    demo = bool(data.get("demo"))
    source = "the demo census the town ships" if demo else f"the file {path.name}"
    return import_items(data["servers"], source, demo, stream, replace)


def import_items(
    items: list[Any], source: str, demo: bool = False, stream: IO[str] | None = None, replace: bool = False
) -> tuple[Tally, CensusState]:
    """Entries in the registry's list shape, taken into the census."""
    with one_run_at_a_time():
        return _import_items(items, source, demo, stream, replace)


def _import_items(
    items: list[Any], source: str, demo: bool, stream: IO[str] | None, replace: bool
) -> tuple[Tally, CensusState]:
    make_room(demo, replace)
    tally = Tally()
    progress = Progress(stream)
    progress.start("read", len(items))
    for chunk in chunks(items, BATCH):
        ingest(chunk, tally)
        progress.advance(len(chunk))
    progress.finish()
    return tally, settle(tally, progress, source, demo)


def import_demo(stream: IO[str] | None = None, replace: bool = False) -> tuple[Tally, CensusState]:
    return import_file(DEMO_FILE, stream, replace)


Fetch = Callable[[str], dict[str, Any]]

# The most one page of the list may be: a hundred entries of the most one entry may hold (ENTRY_BYTES)
# and room for the page's own fields, about 25 MiB. The real registry's pages are near 100 KiB (the
# snapshot's 25,150 entries are 23 MB). A registry that sends more is refused before it is all read:
# its bytes were read whole, however many, and a page of gigabytes filled the town's memory.
PAGE_BYTES = PAGE_LIMIT * ENTRY_BYTES + 64 * 1024
# The longest one page may take, from asking to its last byte. The socket's timeout bounds each wait
# for a byte, but a registry that sends one byte a minute never trips it.
PAGE_SECONDS = 120.0
READ_CHUNK = 64 * 1024
# The most one sync reads: the real registry's list is some 250 pages of 100, so 5,000 pages is twenty
# times it; and an hour. A registry whose list never ends (a new cursor every page) is stopped there,
# where it held `./town up` for ever; the cursor is kept, so the next sync goes on from it.
SYNC_PAGES = 5000
SYNC_SECONDS = 3600.0
# And a million entries, forty times the real registry's: a page may hold far more than the hundred
# asked for (up to PAGE_BYTES of small ones), and every entry a sync reads is remembered (Tally.seen).
SYNC_ENTRIES = 1_000_000


class WebRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a registry's redirect only to http or https: urllib's own also follows one to ftp://."""

    def redirect_request(
        self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str, headers: Any, newurl: str
    ) -> urllib.request.Request | None:
        if urllib.parse.urlsplit(newurl).scheme not in ("http", "https"):
            raise urllib.error.HTTPError(
                req.full_url, code, "a redirect to an address that is not http or https", headers, fp
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class Deadline:
    """One page's deadline, from asking to its last byte. At it, every connection the request opened (a
    redirect opens another) is shut, so that whatever read waits on one ends at once: the socket's
    timeout bounds each wait for a byte alone, and a registry that sent its status line or a header a
    byte a minute held the sync, and `./town up` with it, for ever."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self.fired = False
        self.lock = threading.Lock()
        self.watched: list[socket.socket] = []
        self.timer = threading.Timer(seconds, self.fire)
        self.timer.daemon = True

    def watch(self, sock: socket.socket) -> None:
        # A copy of the socket, which stays open until the request ends: TLS takes over the one it wraps,
        # and shutting either copy down ends the connection both read.
        copy = sock.dup()
        with self.lock:
            self.watched.append(copy)
            if self.fired:
                shut(copy)

    def fire(self) -> None:
        with self.lock:
            self.fired = True
            for sock in self.watched:
                shut(sock)

    @property
    def passed(self) -> bool:
        """Whether the page's time is up: the timer fired, or a wait of the socket's own ended after the
        deadline, just before the timer would have."""
        return self.fired or time.monotonic() >= self.at

    def __enter__(self) -> "Deadline":
        self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.timer.cancel()
        with self.lock:
            for sock in self.watched:
                sock.close()
            self.watched.clear()


def shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed by the other end


class WatchedHTTP(http.client.HTTPConnection):
    """A connection its deadline can shut (made by `watched`)."""

    deadline: Deadline

    def connect(self) -> None:
        super().connect()
        self.deadline.watch(self.sock)


class WatchedHTTPS(http.client.HTTPSConnection, WatchedHTTP):
    """HTTPSConnection.connect calls WatchedHTTP's before it wraps the socket in TLS: the handshake too is
    inside the deadline."""


def watched(cls: type[WatchedHTTP], deadline: Deadline) -> Callable[..., WatchedHTTP]:
    def connection(*args: Any, **kwargs: Any) -> WatchedHTTP:
        conn = cls(*args, **kwargs)
        conn.deadline = deadline
        return conn

    return connection


class DeadlineHTTP(urllib.request.HTTPHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__()
        self.deadline = deadline

    def do_open(self, http_class: Any, req: urllib.request.Request, **kwargs: Any) -> http.client.HTTPResponse:
        return super().do_open(watched(WatchedHTTP, self.deadline), req, **kwargs)


@functools.cache
def tls() -> ssl.SSLContext:
    """The system's trusted authorities, loaded once: loading them took a third of a second, each page."""
    return ssl.create_default_context()


class DeadlineHTTPS(urllib.request.HTTPSHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__(context=tls())
        self.deadline = deadline

    def do_open(self, http_class: Any, req: urllib.request.Request, **kwargs: Any) -> http.client.HTTPResponse:
        return super().do_open(watched(WatchedHTTPS, self.deadline), req, **kwargs)


def opener(deadline: Deadline) -> urllib.request.OpenerDirector:
    """urllib's opener, its redirects to the web only and each connection under one page's deadline."""
    return urllib.request.build_opener(WebRedirects, DeadlineHTTP(deadline), DeadlineHTTPS(deadline))


def drawn(text: str) -> str:
    """A registry's words in the town's line (an HTTP reason, an error's text), with every character a
    person could not see, a terminal's escape above all, drawn as its token (⟦U+001B⟧): the line is
    printed to the operator's terminal and log."""
    return words.shown_text(text, as_is="")


def read_page(resp: Any, url: str, deadline: Deadline) -> bytes:
    """A page's bytes, at most PAGE_BYTES within PAGE_SECONDS of asking, read a chunk at a time (read1:
    what has come, never waiting to fill a chunk)."""
    encoding = (resp.headers.get("Content-Encoding") or "identity").strip().lower()
    if encoding != "identity":
        raise CensusError(
            f"The registry answered {url} with its list encoded as {drawn(encoding)[:40]}, which the town did "
            "not ask for (it asks for identity); the sync stopped there."
        )
    length = resp.headers.get("Content-Length") or ""
    if length.isdigit() and int(length) > PAGE_BYTES:
        raise CensusError(too_large(url))
    got, size = [], 0
    while chunk := resp.read1(READ_CHUNK):
        size += len(chunk)
        if size > PAGE_BYTES:
            raise CensusError(too_large(url))
        if deadline.passed:
            raise CensusError(too_slow(url))
        got.append(chunk)
    if deadline.passed:  # the connection shut at the deadline reads as the end of the page
        raise CensusError(too_slow(url))
    if length.isdigit() and size < int(length):
        # read1 takes a connection closed early as the end, where read() says it was cut short.
        raise http.client.IncompleteRead(b"".join(got), int(length) - size)
    return b"".join(got)


def too_slow(url: str) -> str:
    return (
        f"The registry took more than {PAGE_SECONDS:.0f} seconds to send one page of its list ({url}); "
        "the sync stopped there."
    )


def too_large(url: str) -> str:
    return (
        f"The registry sent more than {PAGE_BYTES // (1024 * 1024)} MiB for one page of its list ({url}), "
        f"more than {PAGE_LIMIT} entries can hold; the sync stopped there."
    )


# A query parameter whose name says it carries a secret (token=, api_key=, sig=, password=...).
SECRET_PARAM = re.compile(r"token|key|secret|pass|auth|sig|session|credential|jwt", re.IGNORECASE)
WITHHELD = "…"


def shown_url(url: str) -> str:
    """A registry's address as the town prints and keeps it: a user and password in it
    (https://user:token@host/) withheld as …@, and the value of any query parameter whose name says it
    carries a secret as name=…. CLOCKFORD_REGISTRY_URL may carry a registry's credentials: they went
    into the sync's lines, the log of `./town up`, and the census's stored state."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    # The authority ends at the first / ? or #, as urllib reads it.
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, tail = rest[:end], rest[end:]
    if "@" in authority:
        authority = WITHHELD + "@" + authority.rsplit("@", 1)[1]
    path, q, query = tail.partition("?")
    query, hashmark, fragment = query.partition("#")
    if query:
        pairs = []
        for pair in query.split("&"):
            name, eq, _value = pair.partition("=")
            pairs.append(name + eq + WITHHELD if eq and SECRET_PARAM.search(urllib.parse.unquote(name)) else pair)
        query = "&".join(pairs)
    return f"{scheme}://{authority}{path}{q}{query}{hashmark}{fragment}"


def secrets_in(url: str) -> list[str]:
    """The secrets a registry's address carries (its user and password, and each secret parameter's
    value), as written and as read: withheld from any error's text that repeats the address."""
    found: list[str] = []
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return found
    if "@" in parts.netloc:
        found.extend(parts.netloc.rsplit("@", 1)[0].split(":", 1))
    found.extend(v for n, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True) if SECRET_PARAM.search(n))
    found.extend(urllib.parse.quote(v, safe="") for v in list(found))
    found.extend(urllib.parse.unquote(v) for v in list(found))
    return sorted({v for v in found if len(v) >= 3}, key=len, reverse=True)


def withheld(text: str, url: str) -> str:
    for secret in secrets_in(url):
        text = text.replace(secret, WITHHELD)
    return text


def asking(url: str) -> urllib.request.Request:
    """The request for one page: a user and password in the address are sent as HTTP Basic
    authorization, never in the address itself (urllib took "user:token@host" for a host name, which no
    DNS knows), and only with the request asked: a redirect, wherever it points, does not carry them
    (an unredirected header), so that a registry cannot send them on to another host."""
    parts = urllib.parse.urlsplit(url)
    headers = {"Accept": "application/json", "Accept-Encoding": "identity", "User-Agent": USER_AGENT}
    if "@" not in parts.netloc:
        return urllib.request.Request(url, headers=headers)  # noqa: S310 (http_fetch checked the scheme)
    userinfo, host = parts.netloc.rsplit("@", 1)
    user, _, password = userinfo.partition(":")
    req = urllib.request.Request(urllib.parse.urlunsplit(parts._replace(netloc=host)), headers=headers)  # noqa: S310
    pair = f"{urllib.parse.unquote(user)}:{urllib.parse.unquote(password)}".encode()
    req.add_unredirected_header("Authorization", "Basic " + base64.b64encode(pair).decode("ascii"))
    return req


def http_fetch(url: str, timeout: float = 60) -> dict[str, Any]:
    """One page of a registry's list. Every line it says names the page as shown_url does."""
    if not url.startswith(("http://", "https://")):
        raise CensusError("A registry's address starts with http:// or https://.")
    try:
        req = asking(url)
    except ValueError:  # an address urllib cannot read (a bracket with no IPv6 address in it)
        raise CensusError(f"The town cannot read the registry's address {shown_url(url)}.") from None
    address, url = url, shown_url(url)  # from here on, `url` is the address as lines say it
    deadline = Deadline(PAGE_SECONDS)
    try:
        with deadline, opener(deadline).open(req, timeout=timeout) as resp:
            body = read_page(resp, url, deadline)
        payload = read_json(body.decode("utf-8"))
    # OSError: no answer, or an HTTP error; ValueError: not UTF-8 or not JSON; HTTPException: an answer
    # cut short (IncompleteRead) or past http.client's limits (more than 100 header lines); RecursionError:
    # arrays nested past the reader. Each stopped the sync with a traceback, and `./town up` with it.
    except (OSError, ValueError, http.client.HTTPException, RecursionError) as err:
        if deadline.passed:  # the connection shut at the deadline, whatever it was reading then
            raise CensusError(too_slow(url)) from None
        said = withheld(str(err), address)
        raise CensusError(f"The registry did not answer {url} with its list: {drawn(said)[:300]}") from None
    if not isinstance(payload, dict) or not isinstance(payload.get("servers"), list):
        raise CensusError(f"The registry's answer to {url} is not its list shape.")
    # An entry that names a key twice is skipped and counted (read); a page that does so outside its
    # entries (two lists, two next cursors) cannot be read one way only, and is refused whole.
    if isinstance(payload, Doubled) or doubles_a_key({k: v for k, v in payload.items() if k != "servers"}):
        raise CensusError(
            f"The registry's answer to {url} names a key twice in one object outside its entries, so that "
            "one reader could take one value and the next another; the sync stopped there."
        )
    return payload


def list_url(base: str) -> str:
    """The list API's address; a query in the registry's address (?token=...) is kept, after the path."""
    base, q, query = base.partition("?")
    base = base.rstrip("/")
    if not base.endswith(("/v0.1/servers", "/v0/servers")):
        base += "/v0.1/servers"
    return base + q + query


def page_url(endpoint: str, params: dict[str, str]) -> str:
    return endpoint + ("&" if "?" in endpoint else "?") + urllib.parse.urlencode(params)


def since_text(t: dt.datetime) -> str:
    return t.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def sync(
    url: str, stream: IO[str] | None = None, fetch: Fetch = http_fetch, full: bool = False
) -> tuple[Tally, CensusState]:
    """Page through a registry's list API. The first sync reads everything; later ones ask only for
    what changed since the last complete sync (updated_since, which includes deleted listings)."""
    with one_run_at_a_time():
        return _sync(url, stream, fetch, full)


def _sync(url: str, stream: IO[str] | None, fetch: Fetch, full: bool) -> tuple[Tally, CensusState]:
    endpoint = list_url(url)
    # The address as the census keeps and says it: any credentials in it withheld (shown_url).
    shown = shown_url(endpoint)
    s = services.state()
    if s.sync_url != shown or full:
        s.sync_url, s.sync_cursor, s.sync_since = shown, "", ""
        s.save()
    since, cursor = s.sync_since, s.sync_cursor
    tally = Tally()
    progress = Progress(stream)
    progress.start("sync", 0)
    if cursor:
        tally.notes.append("Resumed an interrupted sync where it stopped.")
    # The cursors this run was given: a registry that gives one again would be read round and round
    # for ever (and `./town up`, which syncs before it serves, would never serve). One that gives a new
    # cursor each time, its pages empty or not, is stopped by the count of pages and the clock.
    seen = {cursor}
    began = time.monotonic()
    while True:
        taken = time.monotonic() - began
        if tally.pages >= SYNC_PAGES or tally.received >= SYNC_ENTRIES or taken > SYNC_SECONDS:
            raise CensusError(
                f"The registry at {shown} had more to give after {counted(tally.pages, 'page', 'pages')}, "
                f"{counted(tally.received, 'entry', 'entries')} and {taken:.0f} seconds, more than one sync "
                f"reads ({SYNC_PAGES:,} pages, {SYNC_ENTRIES:,} entries, {SYNC_SECONDS // 60:.0f} minutes); the "
                "sync stopped there, and the next one goes on from where it stopped."
            )
        params = {"limit": str(PAGE_LIMIT)}
        if cursor:
            params["cursor"] = cursor
        if since:
            params["updated_since"] = since
        page = fetch(page_url(endpoint, params))
        tally.pages += 1
        if tally.pages == 1 and services.state().demo:
            # The demo gives way to real data once the registry has answered with its list, not before:
            # a registry down or broken from its first page left a town that served the demo census with
            # an empty one, and `./town up` said it served the census as it was. The wipe takes the
            # census's state with it: this sync's place is kept again.
            make_room(False, False)
            CensusState.objects.update_or_create(pk=1, defaults={"sync_url": shown})
        nxt = _dict(page.get("metadata")).get("nextCursor") or ""
        if not isinstance(nxt, str) or len(nxt) > CURSOR_MOST or "\x00" in nxt:
            raise CensusError(
                f"The registry at {shown} gave a next cursor the town cannot keep (words of at most "
                f"{CURSOR_MOST} characters); the sync stopped there."
            )
        if nxt and nxt in seen:
            raise CensusError(
                f"The registry at {shown} gave a cursor it had given before, so its list goes round "
                "in a circle; the sync stopped there."
            )
        seen.add(nxt)
        # A page is read outside the transaction that writes it and its cursor: a registry's page may
        # hold far more than the hundred entries asked for (up to PAGE_BYTES of them).
        batch = read(page["servers"], tally)
        with transaction.atomic():
            write(batch, tally)
            CensusState.objects.filter(pk=1).update(sync_cursor=nxt)
        progress.total = tally.received
        progress.advance(len(page["servers"]))
        # A page of no entries that names a next one is not the end: the registry says there is more
        # (the sync stopped at it, and took the census as whole while the rest went unread).
        if not nxt:
            break
        cursor = nxt
    progress.finish()
    state = settle(tally, progress, f"the registry at {shown}", False)
    newest = census_as_of()
    CensusState.objects.filter(pk=1).update(sync_cursor="", sync_since=since_text(newest) if newest else "")
    state.refresh_from_db()
    return tally, state


def cut_short() -> bool:
    """Whether a run stopped between its first batch and its seal (a town killed mid-import): entries
    read and never folded, or lots the seal does not hold. Each batch commits on its own, so what was
    read is kept, but the census's counts and seal still say what they said before the run (nothing,
    when it replaced the demo census), while the Directory already finds the lots."""
    if Entry.objects.filter(folded=False).exists():
        return True
    s = services.state()
    if s.holds != Lot.objects.count():
        return True
    # A run again over listings the census holds, stopped after its records were derived and before
    # its seal: no entry waits and no lot is new, but the lots' leaves no longer make the seal's root.
    leaves = list(Lot.objects.order_by("number").values_list("leaf", flat=True))
    return bool(leaves) and services.seal_root(leaves) != s.root


def only_demo_entries() -> bool:
    """Whether every entry the census holds is one of the demo census's (each says so in its _meta)."""
    return not Entry.objects.exclude(body__contains=f'"{DEMO_MARK}"').exists()


def ensure(url: str | None, stream: IO[str] | None = None) -> str:
    """What `./town up` does: sync from a registry when one is named, else the demo when the census is empty."""
    if url:
        try:
            tally, s = sync(url, stream)
        except CensusError as err:
            if not Lot.objects.exists():
                # The demo gave way at the registry's first page, and a later one stopped the sync: what
                # it read waits, unfolded, for the next sync to go on from where it stopped.
                return f"Census sync failed, and the census is empty until a sync finishes: {err}"
            return f"Census sync failed, serving the census as it was: {err}"
        return f"Census synced from {shown_url(list_url(url))}: {s.servers:,} servers. {tally.line()}"
    stopped = cut_short()  # once: it reads every lot's leaf
    if stopped and only_demo_entries():
        wipe()
        tally, s = import_demo(stream)
        return (
            f"Census: loading the demo census was cut short (the town stopped mid-run?); loaded it again "
            f"({s.servers} made-up servers, labelled demo)."
        )
    if stopped:
        with one_run_at_a_time():
            s = settle(Tally(), Progress(stream), None, None)
        # Whether it had read its whole file is not known here (each batch commits on its own): an import
        # run again takes what is missing, and changes nothing where nothing is.
        return (
            f"Census: an import was cut short before its seal (the town stopped mid-run?); sealed what it "
            f"had read: {s.servers:,} servers, seal {s.root[:16]}. If it had more to read, run it again: it "
            "takes what is missing and changes nothing else."
        )
    if Lot.objects.exists():
        s = services.state()
        return f"Census: {s.servers:,} servers{' (the demo census)' if s.demo else ''}, seal {s.root[:16]}."
    tally, s = import_demo(stream)
    return f"Census was empty: loaded the demo census ({s.servers} made-up servers, labelled demo)."


def main_stream() -> IO[str]:
    return sys.stderr
