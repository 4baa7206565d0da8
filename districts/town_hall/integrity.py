"""Integrity: the town's reading of one registry listing, as a score from 100 down, with every point explained.

Each rule reads only what the census record shows; nothing here opens a connection to anything. A rule
that fires is a deduction: its rule id, its points, a reason in the town's words, the listing field
that would clear it (the Signal House checklist: title, repository.url, description, version), and its
evidence, quoted from the record (the publisher's words, so it travels labelled as theirs). The score
is 100 minus the points, never below 0. docs/integrity.md documents every rule; a test keeps the two
lists equal.

The house (class, floors, lamp) is derived from the same record: see `house` below and the doc.
"""

import datetime as dt
import ipaddress
import re
import socket
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from clockford.town import matching, words

# A host that serves this many other lots is a shared host (a gateway or hosting platform).
SHARED_HOST_OTHERS = 10
STALE_DAYS = 180
LAMP_DAYS = 90
NAME_PATTERN = re.compile(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+")
# semver.org's own regular expression, version 2.0.0.
SEMVER = re.compile(
    r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?"
)

# Words that try to replace a model's instructions: the grammar of prompt injection.
INJECTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|earlier|preceding|system|existing)\s+"
    r"(?:instructions?|prompts?|messages?|rules|directions)"
    r"|<\s*/?\s*(?:system|assistant|instructions?|im_start|im_end)\s*>|<\|im_(?:start|end)\|>|\[/?INST\]"
    r"|\byou\s+are\s+now\s+(?:a|an|in)\b"
    r"|\bnew\s+(?:system\s+)?instructions\s*:"
    r"|\b(?:do\s+not|don't|never)\s+(?:tell|inform|show|mention\s+(?:this\s+)?to)\s+the\s+user"
    r"|\b(?:reveal|print|output|repeat)\s+(?:your|the)\s+(?:system\s+prompt|hidden\s+instructions)",
    re.IGNORECASE,
)
# Words that tell a model what to call or prefer: steering, milder than injection.
STEERING = re.compile(
    r"\balways\s+(?:call|invoke|run|use)\s+\S+\s+(?:first|before)\b"
    r"|\balways\s+(?:call|invoke)\b"
    r"|\byou\s+(?:must|should)\s+(?:always\s+|never\s+|first\s+)?(?:call|use|invoke|run|prefer)\b"
    r"|\bbefore\s+(?:calling|using|invoking)\s+any\s+other\s+tools?\b"
    r"|\b(?:never|do\s+not|don't)\s+(?:call|use)\s+(?:any\s+)?other\s+(?:tools|servers)\b"
    r"|\binstead\s+of\s+(?:any\s+)?other\s+(?:tools|servers)\b",
    re.IGNORECASE,
)
# A credential-shaped value that is plainly an example, not a credential.
PLACEHOLDER = re.compile(
    r"\.\.\.|…|x{4,}|\byour[_-]|<[^>]*>|\{[^}]*\}|\bexample\b|placeholder|changeme|\buser:pass(?:word)?@|:password@|:secret@",
    re.IGNORECASE,
)
FILLER_WORDS = {"mcp", "server", "servers", "pack", "the", "a", "an", "for", "model", "context", "protocol", "tool"}


@dataclass(frozen=True)
class Hit:
    """A rule that fired: what in the record shows it (publisher words, quoted), and a count for the reason."""

    evidence: str | None = None
    n: int = 0


Facts = dict[str, Any]


@dataclass(frozen=True)
class Context:
    """What a rule may know beyond the record itself: the rest of the census."""

    as_of: dt.datetime | None = None
    host_others: int = 0
    twins: tuple[str, ...] = ()
    twin_lots: tuple[int, ...] = ()
    # Other lots' names this lot's name is drawn like (look_alike_key), when this one breaks the
    # registry's pattern and they are not its case twins.
    look_alikes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    id: str
    points: int
    # The listing field whose new value clears it (the Signal House checklist), or None.
    clears: str | None
    # The reason, in the town's words; {n} is the hit's count.
    reason: str
    check: Callable[[Facts, Context], Hit | None] = field(repr=False)
    # The reason when {n} is not 1, where the count changes more than a number ("lots' names differ").
    reason_many: str | None = None


def parse_time(value: Any) -> dt.datetime | None:
    """A listing's time, or None when it gives none: not a string (a number, an object), not ISO 8601,
    or outside the years 1 to 9999 once in UTC, where it is kept (0001-01-01T00:00:00+01:00)."""
    if not isinstance(value, str) or not value:
        return None
    try:
        t = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    t = t if t.tzinfo else t.replace(tzinfo=dt.UTC)
    try:
        t.astimezone(dt.UTC)
    except OverflowError:
        return None
    return t


def is_semver(version: str) -> bool:
    return SEMVER.fullmatch(version) is not None


def _width(text: str) -> int:
    """Columns, a wide script's letter two: a wide symbol (an emoji) is no letter of a script that is
    not split into words, and counting it so let one emoji spare a thin description its check."""
    if text.isascii():
        return len(text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" and unicodedata.category(c)[0] == "L" else 1 for c in text)


def matching_form(text: str) -> str:
    """words.for_matching, skipped for plain ASCII (which has no hidden or compatibility characters)."""
    return text if text.isascii() else words.for_matching(text)


def thin_description(description: str, name: str) -> bool:
    """Too short to say what the server does: under 20 columns, or fewer than two words of its own once
    the name's words and filler (MCP, server, pack, ...) are taken out. Wide scripts count two columns
    a character and are not split into words."""
    d = description.strip()
    if _width(d) < 20:
        return True
    if _width(d) != len(d):
        return False
    own = set(re.findall(r"[^\W_]+", name.casefold()))
    informative = [w for w in re.findall(r"[^\W_]+", d.casefold()) if w not in FILLER_WORDS and w not in own]
    return len(informative) < 2


def strings(value: Any) -> Iterator[str]:
    """Every string in a listing, nested ones included (package and header descriptions, defaults), in
    the order they are written. Walked with a list, not by recursion (as clockford/leaves.py): a listing
    nested a few thousand deep overflowed the stack, and its import stopped every later one."""
    waiting: list[Any] = [value]
    while waiting:
        v = waiting.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            waiting.extend(reversed(v.values()))
        elif isinstance(v, list):
            waiting.extend(reversed(v))


def find_credential(t: str) -> tuple[str, str] | None:
    """(kind, masked) of a credential-shaped value that is not plainly a placeholder, in text already
    in its matching form."""
    for rule in words.SECRET_RULES:
        for m in rule.pattern.finditer(t):
            value = m.group(m.lastindex or 0)
            if rule.min_entropy and words._entropy(value.split()[-1]) < rule.min_entropy:
                continue
            if PLACEHOLDER.search(m.group(0)):
                continue
            return rule.kind, words.mask(m.group(0))
    return None


def _quote(text: str, m: re.Match[str]) -> str:
    """The matched passage with a little context either side: evidence, not the whole text."""
    a, b = max(0, m.start() - 30), min(len(text), m.end() + 30)
    return ("…" if a else "") + text[a:b] + ("…" if b < len(text) else "")


def scan(server: dict[str, Any]) -> dict[str, Any]:
    """What the latest entry's own words show: kept in the lot's facts, so rules never rescan."""
    found: dict[str, Any] = {"injection": None, "steering": None, "credential": None}
    for text in strings(server):
        # A model reads the words a person cannot see (tag characters, a right-to-left run as drawn)
        # as well as the visible ones, so they are read here too.
        for t in (matching_form(text), *matching.hidden_readings(text)):
            if found["injection"] is None and (m := INJECTION.search(t)):
                found["injection"] = _quote(t, m)
            if found["steering"] is None and (m := STEERING.search(t)):
                found["steering"] = _quote(t, m)
            if found["credential"] is None and (c := find_credential(t)):
                found["credential"] = {"kind": c[0], "masked": c[1]}
    return found


def remote_problems(remotes: list[dict[str, Any]]) -> tuple[str | None, str | None]:
    """(the first remote over plain http to a public host, the first remote on a private or local host)."""
    plain = private = None
    for r in remotes:
        url = str(r.get("url") or "")
        try:
            parts = urlsplit(url)
            host = (parts.hostname or "").lower()
        except ValueError:
            continue
        if is_private_host(host):
            private = private or url
        elif parts.scheme == "http":
            plain = plain or url
    return plain, private


def is_private_host(host: str) -> bool:
    # A trailing dot only says a name is whole: "localhost." is localhost.
    host = host.rstrip(".")
    if host in ("localhost", "") or host.endswith((".localhost", ".local", ".internal", ".lan")):
        return host != ""
    ip = _address(host)
    return ip is not None and (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_unspecified)


# The other ways an IPv4 address is written that clients' resolvers read as one (inet_aton's): parts
# left out (127.1), one number (2130706433), hexadecimal (0x7f000001) or octal (0177.0.0.1).
_IPV4_WRITTEN = re.compile(r"[0-9a-fx.]{1,40}")


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if _IPV4_WRITTEN.fullmatch(host) and host[0].isdigit():
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def look_alike_key(name: str) -> str:
    """A name as it is drawn: compatibility forms (fullwidth ｐ, ⅿ), hidden characters (a zero-width
    space, a right-to-left override), combining marks and look-alike letters (Cyrillic о, Greek ο, a
    dotless ı) folded to the Latin letter a reader sees, then case. Two names with one key look the
    same to a person or a model reading them. A name in the registry's own pattern is plain ASCII and
    its key is its case-folded self, so real names never meet by the fold."""
    if name.isascii():
        return name.casefold()
    folded = "".join(matching.fold_char(ch) for ch in words.for_matching(name))
    return folded.casefold()


def namespace_owner(name: str) -> str | None:
    """The GitHub owner a namespace io.github.OWNER names (the registry verified that login), else None."""
    ns = name.split("/", 1)[0]
    return ns[len("io.github.") :] if ns.casefold().startswith("io.github.") else None


def repo_owner(url: str | None) -> str | None:
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if (parts.hostname or "").lower() not in ("github.com", "www.github.com"):
        return None
    owner = parts.path.strip("/").split("/", 1)[0]
    return owner or None


def _stale_days(f: Facts, c: Context) -> int | None:
    updated = parse_time(f.get("updatedAt"))
    if updated is None or c.as_of is None:
        return None
    return (c.as_of - updated).days


def _title(f: Facts, c: Context) -> Hit | None:
    return Hit() if not f["cutDown"] and not (f.get("title") or "").strip() else None


def _repository(f: Facts, c: Context) -> Hit | None:
    return None if f.get("repoUrl") else Hit()


def _description(f: Facts, c: Context) -> Hit | None:
    d = f.get("description") or ""
    return Hit(d or None) if thin_description(d, f["name"]) else None


def _version(f: Facts, c: Context) -> Hit | None:
    return None if is_semver(f["version"]) else Hit(f["version"])


def _deprecated(f: Facts, c: Context) -> Hit | None:
    return Hit() if f["status"] == "deprecated" else None


def _deleted(f: Facts, c: Context) -> Hit | None:
    return Hit() if f["status"] == "deleted" else None


def _plain_http(f: Facts, c: Context) -> Hit | None:
    url = remote_problems(f.get("remotes") or [])[0]
    return Hit(url) if url else None


def _private_remote(f: Facts, c: Context) -> Hit | None:
    url = remote_problems(f.get("remotes") or [])[1]
    return Hit(url) if url else None


def _injection(f: Facts, c: Context) -> Hit | None:
    return Hit(f["scan"]["injection"]) if f["scan"]["injection"] else None


def _steering(f: Facts, c: Context) -> Hit | None:
    return Hit(f["scan"]["steering"]) if f["scan"]["steering"] else None


def _credential(f: Facts, c: Context) -> Hit | None:
    found = f["scan"]["credential"]
    return Hit(found["masked"]) if found else None


def _mismatch(f: Facts, c: Context) -> Hit | None:
    ns, repo = namespace_owner(f["name"]), repo_owner(f.get("repoUrl"))
    if ns is None or repo is None or ns.casefold() == repo.casefold():
        return None
    return Hit(f.get("repoUrl"))


def _shared_host(f: Facts, c: Context) -> Hit | None:
    return Hit(f.get("host"), c.host_others) if f.get("host") and c.host_others >= SHARED_HOST_OTHERS else None


def _case_twin(f: Facts, c: Context) -> Hit | None:
    return Hit(", ".join(c.twins), len(c.twins)) if c.twins else None


def _look_alike(f: Facts, c: Context) -> Hit | None:
    return Hit(", ".join(c.look_alikes), len(c.look_alikes)) if c.look_alikes else None


def _name_pattern(f: Facts, c: Context) -> Hit | None:
    # A look-alike's reason says its name breaks the pattern already.
    return None if NAME_PATTERN.fullmatch(f["name"]) or c.look_alikes else Hit(f["name"])


def _no_launch(f: Facts, c: Context) -> Hit | None:
    return Hit() if not f["cutDown"] and not f.get("remotes") and not f.get("package") else None


def _stale(f: Facts, c: Context) -> Hit | None:
    days = _stale_days(f, c)
    return Hit(f.get("updatedAt"), days) if days is not None and days > STALE_DAYS else None


RULES: tuple[Rule, ...] = (
    Rule("no-title", 5, "title", "The listing sets no title, so people see only its registry name.", _title),
    Rule(
        "no-repository",
        15,
        "repository.url",
        "The listing names no source repository, so its code cannot be read.",
        _repository,
    ),
    Rule(
        "thin-description",
        10,
        "description",
        "The description is too short to say what the server does.",
        _description,
    ),
    Rule(
        "version-not-semver",
        10,
        "version",
        "The latest version is not a semantic version (like 1.2.0), so updates cannot be ordered.",
        _version,
    ),
    Rule("deprecated", 40, None, "Its publisher marked the server deprecated in the registry.", _deprecated),
    Rule("deleted", 80, None, "The registry marks the server deleted.", _deleted),
    Rule(
        "plain-http-remote",
        20,
        None,
        "A remote is reached over plain http, so what passes to it can be read or changed on the way.",
        _plain_http,
    ),
    Rule(
        "private-remote",
        15,
        None,
        "A remote points at a local or private address, which no one else can reach.",
        _private_remote,
    ),
    Rule(
        "injection-words",
        60,
        None,
        "The listing's words try to replace a model's instructions (prompt injection).",
        _injection,
    ),
    Rule(
        "model-steering",
        15,
        None,
        "The listing's words tell a model what to call or to prefer, instead of describing the server.",
        _steering,
    ),
    Rule(
        "credential-in-listing",
        30,
        None,
        "The listing carries a value shaped like a real credential.",
        _credential,
    ),
    Rule(
        "namespace-repo-mismatch",
        10,
        None,
        "The repository belongs to another GitHub owner than the namespace the registry verified.",
        _mismatch,
    ),
    Rule(
        "shared-host",
        10,
        None,
        "Its remote's host also serves {n} other lots: a shared gateway says less about who runs this server.",
        _shared_host,
    ),
    Rule(
        "case-twin",
        10,
        None,
        "{n} other lot's name differs from this one only in case: check you have the one you mean.",
        _case_twin,
        "{n} other lots' names differ from this one only in case: check you have the one you mean.",
    ),
    Rule(
        "look-alike-name",
        40,
        None,
        "The name is written with characters registry names do not use, and is drawn like {n} other lot's "
        "name: it may pose as that server.",
        _look_alike,
        "The name is written with characters registry names do not use, and is drawn like {n} other lots' "
        "names: it may pose as one of those servers.",
    ),
    Rule(
        "name-off-pattern",
        5,
        None,
        "The name breaks the registry's own name pattern (namespace/name).",
        _name_pattern,
    ),
    Rule(
        "no-launch-info",
        10,
        None,
        "The listing gives neither a package nor a remote, so it does not say how to run the server.",
        _no_launch,
    ),
    Rule(
        "stale",
        5,
        None,
        "The listing was last updated {n} days before the census was taken.",
        _stale,
    ),
)
RULES_BY_ID = {r.id: r for r in RULES}
CHECKLIST = ("title", "repository.url", "description", "version")


def reason_text(rule: Rule, hit: Hit) -> str:
    reason = rule.reason_many if rule.reason_many is not None and hit.n != 1 else rule.reason
    return reason.format(n=hit.n) if "{n}" in reason else reason


def deductions(facts: Facts, ctx: Context) -> list[dict[str, Any]]:
    out = []
    for rule in RULES:
        hit = rule.check(facts, ctx)
        if hit is not None:
            out.append(
                {
                    "rule": rule.id,
                    "points": rule.points,
                    "reason": reason_text(rule, hit),
                    "clears": rule.clears,
                    "evidence": hit.evidence,
                }
            )
    return out


def score(ds: list[dict[str, Any]]) -> int:
    return max(0, 100 - sum(d["points"] for d in ds))


def reasons(ds: list[dict[str, Any]]) -> list[str]:
    """One line per deduction, in the town's words only (the evidence stays in the kit, labelled)."""
    return [f"{d['reason']} (-{d['points']}, {d['rule']})" for d in ds]


# The house. Its class reads the score; its floors count what the listing shows set; its lamp is lit
# while the server is active and was updated lately.
CLASSES: tuple[tuple[int, str, str], ...] = (
    (90, "A", "A well-kept listing: the record raises no concern beyond small points."),
    (75, "B", "A sound listing with a few gaps its publisher can fill."),
    (50, "C", "A listing with real gaps or one concern: read the reasons before you rely on it."),
    (25, "D", "A listing with serious concerns: read every reason before you use the server."),
    (0, "E", "A listing that is deprecated, deleted or deeply flawed: do not rely on it."),
)


def checklist_set(facts: Facts) -> dict[str, bool | None]:
    """Whether the record shows each checklist field set; None where the census copy cannot say."""
    return {
        "title": None if facts["cutDown"] else bool((facts.get("title") or "").strip()),
        "repository.url": bool(facts.get("repoUrl")),
        "description": not thin_description(facts.get("description") or "", facts["name"]),
        "version": is_semver(facts["version"]),
    }


def lamp_lit(facts: Facts, ctx: Context) -> bool:
    days = _stale_days(facts, ctx)
    # A listing dated after the census was taken (later than the import's now: a registry's wrong
    # clock, or one that lies to keep its lamp lit) was not updated lately; its lamp was lit for ever.
    return facts["status"] == "active" and days is not None and 0 <= days <= LAMP_DAYS


def house(points: int, facts: Facts, ctx: Context) -> dict[str, Any]:
    cls, meaning = next((c, m) for floor, c, m in CLASSES if points >= floor)
    floors = 1 + sum(1 for v in checklist_set(facts).values() if v)
    return {"class": cls, "meaning": meaning, "floors": floors, "lampLit": lamp_lit(facts, ctx)}
