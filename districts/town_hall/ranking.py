"""The Directory's ranking: who publishes what, what the need says, and how well kept a listing is.

The official registry proves a namespace before it takes a listing: a reverse-DNS namespace
(`com.example/...`) by a DNS or HTTP challenge on that domain, `io.github.<owner>/...` by signing in to
GitHub as that owner. So a namespace whose owner *is* the product a need names (or the product's
maker) is the strongest sign that a server is the product's own. A namespace on a hosting platform's
shared domain (`app.vercel.<site>`, `com.trycloudflare.<tunnel>`) proves the site, not the platform.

Every signal a ranking used is said in the result's `why`, in the town's words only. docs/directory.md
lists the signals and their weights.
"""

import bisect
import datetime as dt
import json
import math
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from clockford.postgresql.green import holding_the_loop
from districts.town_hall import vocabulary
from districts.town_hall.textindex import TextIndex

# A shared domain whose sites belong to their own publishers (the Public Suffix List's private
# section, the part of it the census holds, and tunnels): the owner is the label below it.
HOSTED = frozenset(
    """vercel.app netlify.app fly.dev workers.dev pages.dev trycloudflare.com herokuapp.com onrender.com
    github.io web.app firebaseapp.com ngrok.app ngrok-free.app ngrok.io replit.app repl.co deno.dev
    glitch.me azurewebsites.net cloudfunctions.net run.app appspot.com modal.run alpic.live up.railway.app
    railway.app dyndns-server.com duckdns.org vercel.sh smithery.ai""".split()
)
HOSTED_LONGEST_FIRST = sorted(HOSTED, key=len, reverse=True)
# Top-level domains that are one company's brand: the top-level domain is the owner.
BRAND_TLDS = frozenset("aws amazon google microsoft apple azure".split())
# Second-level labels under a country's domain (co.uk, com.br): the owner is the label below.
SECOND_LEVEL = frozenset("co com org net ac gov edu ltd plc ne or go".split())
# How an organisation's GitHub login or domain often wraps its product's name (getsentry, makenotion,
# mongodb-js, Snowflake-Labs, googleapis). A wrapped owner counts only when the listing itself also
# names the product, so a look-alike login (sentrysurface, ExaDev) never does.
PREFIXES = ("get", "make", "use", "try", "join", "go", "hello", "with")
SUFFIXES = (
    "hq inc app apps labs lab ai io dev js oss db hub official team corp tech cloud api apis platform "
    "cloudplatform data software"
).split()

# The weights (docs/directory.md). The text's own weight is at most about 3.5.
W_OFFICIAL = 4.0  # the namespace is the product the need names
W_MAKER = 3.4  # the namespace is the maker of the product the need names
W_SILENT = 0.8  # the namespace is a word of the need, but the listing never names it
W_WRAPPED = 2.8  # a GitHub login wraps the product's name, and the listing names the product
W_WRAPPED_DOMAIN = 3.4  # a domain wraps the product's or its maker's name (googleapis.com)
W_FLAGSHIP = 0.3  # and the server's own name is the product's
RARE_NAME = 2  # a name this few lots hold is a server's name only beside another of the need's words
W_NAMES = 1.0  # share of the names a need writes with capitals that its name or title holds
BROUGHT = 0.35  # a product the vocabulary brought, not the need's own word, counts this much
W_CONCEPT = 0.6  # share of the vocabulary's words for the need that the listing holds
# An owner with this many servers or more names the maker, not the server (googleapis has 17).
CROWDED = 5
CROWDED_WHY = "its namespace publishes many servers, and this one holds none of your other words"
RECENT_DAYS = 90
INACTIVE = 8.0  # more than any signal gives: a server that is not active goes after every active one


@dataclass(frozen=True)
class Owner:
    """Who a namespace belongs to: `key` is the owner's name folded to letters and digits, `how` is
    "domain" (proven by DNS or HTTP) or "github" (proven by GitHub sign-in)."""

    key: str
    how: str


def fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.casefold())


def owner_of(name: str) -> Owner | None:
    ns = name.split("/", 1)[0].casefold()
    labels = [x for x in ns.split(".") if x]
    if len(labels) >= 3 and labels[0] == "io" and labels[1] == "github":
        return Owner(fold(labels[2]), "github")
    if len(labels) < 2:
        return None
    if labels[0] in BRAND_TLDS:
        return Owner(labels[0], "domain")
    domain = ".".join(reversed(labels))
    for suffix in HOSTED_LONGEST_FIRST:
        if domain.endswith("." + suffix):
            return Owner(fold(domain[: -len(suffix) - 1].rsplit(".", 1)[-1]), "domain")
    i = 2 if len(labels) > 2 and len(labels[0]) == 2 and labels[1] in SECOND_LEVEL else 1
    return Owner(fold(labels[i]), "domain") if i < len(labels) else None


def wraps(owner: str, product: str) -> bool:
    if not owner.startswith(product) and not owner.endswith(product):
        return False
    rest = owner[len(product) :] if owner.startswith(product) else owner[: -len(product)]
    return rest in SUFFIXES if owner.startswith(product) else rest in PREFIXES


# -- What a need names ------------------------------------------------------------------------------


@dataclass
class Reading:
    """What the ranking reads in a need: its own words, the products it may name (each with the
    namespace owners that would make a server the product's own), and the vocabulary's words."""

    terms: list[str]
    products: dict[str, tuple[str, ...]] = field(default_factory=dict)
    concepts: list[tuple[str, ...]] = field(default_factory=list)
    # the words a need writes as names, and the products read from words it writes in lower case
    # beside them (services.casing): both empty for a need that capitalises nothing or everything
    names: frozenset[str] = frozenset()
    plain: set[str] = field(default_factory=set)
    # a name of two words the need writes together ("Google Drive"): each word -> the joined name
    whole: dict[str, str] = field(default_factory=dict)

    @property
    def extra(self) -> list[str]:
        out: list[str] = []
        for group in self.concepts:
            for w in group:
                if w not in self.terms and w not in out and " " not in w:
                    out.append(w)
        return out


def read(
    terms: list[str],
    names: frozenset[str] = frozenset(),
    plain: frozenset[str] = frozenset(),
    verbs: frozenset[str] = frozenset(),
) -> Reading:
    r = Reading(terms, names=names)
    pairs = list(zip(terms, terms[1:], strict=False))
    joined = [a + b for a, b in pairs]
    phrases = [f"{a} {b}" for a, b in pairs]
    for w in [*terms, *joined]:
        key = fold(w)
        if len(key) < 2 or w in vocabulary.NOT_PRODUCTS:
            continue
        r.products[key] = vocabulary.MAKERS.get(key, ())
    r.plain = {fold(w) for w in terms if w in plain} | {fold(a + b) for a, b in pairs if a in plain and b in plain}
    for a, b in pairs:
        if a in names and b in names:
            r.whole.setdefault(fold(a), fold(a + b))
            r.whole.setdefault(fold(b), fold(a + b))
    for w in phrases:
        group = vocabulary.CONCEPTS.get(w)
        if group:
            r.concepts.append(group)
    for w in terms:
        group = vocabulary.CONCEPTS.get(w)
        # "call a gRPC service" is no phone call: a verb in its ordinary sense (services.ordinary_verbs)
        # brings no product
        if group and w not in verbs:
            r.concepts.append(group)
    # a product the vocabulary brings ("chats" brings slack and teams) may be named too, weaker
    for w in r.extra:
        key = fold(w)
        if key in r.products or (key not in vocabulary.MAKERS and w in vocabulary.NOT_PRODUCTS):
            continue  # the need's own product (its words may name it), or never a product
        r.products.setdefault("~" + key, vocabulary.MAKERS.get(key, ()))
        if plain:
            # a need that writes its products' names with capitals names them; what the vocabulary
            # brings for its other words is not one of them
            r.plain.add(key)
    return r


def owners_sought(reading: Reading, known: dict[str, list[int]]) -> list[str]:
    """Every owner key in the census a namespace could have to be named: the products, their makers,
    and their wrapped forms (getsentry, googleapis)."""
    out: list[str] = []
    for product, makers in reading.products.items():
        for base in (product.lstrip("~"), *makers):
            forms = [base]
            if len(base) >= 4:
                forms += [base + s for s in SUFFIXES] + [p + base for p in PREFIXES]
            out += [k for k in forms if k in known and k not in out]
    return out


# -- The census as the ranking sees it ---------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    name: str
    versions: int
    has_repo: bool
    remote: bool
    package: bool
    updated: str
    full: bool
    owner: Owner | None


# What the ranking reads of a lot besides its Facts: (name words, title, description, integrity, status).
Row = tuple[str, str, str, int, str]


class Census:
    """Per census root: every lot's owner, the facts and words the ranking reads, the text index of
    the searchable lots (textindex.TextIndex), and each lot's record as a reply shows it, kept in this
    process and built in one pass. The root is a Merkle root over every lot's record, so none of this
    can change while the root stays the same: a question reads only the root from the database."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.root: str | None = None
        self.by_owner: dict[str, list[int]] = {}
        self.facts: dict[int, Facts] = {}
        self.rows: dict[int, Row] = {}
        # Each lot's upkeep (quality: its weight and what it says), which depends only on the census.
        self.kept: dict[int, tuple[float, list[str]]] = {}
        # Each searchable lot's census record, as compact JSON: a reply decodes the few it shows, so
        # that a question costs no round trip for them (a few megabytes for the whole census).
        self.records: dict[int, str] = {}
        # The census's common words (CensusState.common), read once per seal.
        self.common: dict[str, float] = {}
        # How many lots hold each word (folded, as terms_of folds a need), for spelling a need's words.
        self.words: dict[str, int] = {}
        # The same words in order, to ask whether any lot holds a word beginning so (holds_start).
        self.ordered: list[str] = []
        # The words of the lots' registry names (a product's name, as its publisher spells it), for
        # spelling a brand few lots hold (spelled's `brands`).
        self.named: frozenset[str] = frozenset()
        self.text: TextIndex | None = None
        self.as_of: dt.datetime | None = None

    def load(self, root: str, as_of: dt.datetime | None) -> "Census":
        # A call on the loop that let the loop go at each query would leave the lock held for the next
        # call on the same thread, which would wait for it for ever: this load keeps the loop.
        with self.lock, holding_the_loop():
            if self.root == root:
                return self
            from districts.town_hall.models import CensusState, Lot

            by_owner: dict[str, list[int]] = {}
            facts: dict[int, Facts] = {}
            lots: dict[int, Row] = {}
            kept: dict[int, tuple[float, list[str]]] = {}
            records: dict[int, str] = {}
            words: Counter[str] = Counter()
            named: set[str] = set()
            rows = Lot.objects.exclude(status="deleted").values_list(
                "number", "name", "record", "search_name", "search_title", "search_description", "score", "status"
            )
            for number, name, record, name_words, title, description, score, status in rows.iterator(chunk_size=2000):
                # "Node.js" and "C#" are read as one word each (nodejs, csharp), as a need's are.
                title, description = signed_names(title, keep=True), signed_names(description, keep=True)
                owner = owner_of(name)
                if owner is not None:
                    by_owner.setdefault(owner.key, []).append(number)
                facts[number] = Facts(
                    name=name,
                    versions=len(record.get("versions") or []),
                    has_repo=bool(record.get("hasRepo")),
                    remote=record.get("remote") is not None,
                    package=record.get("package") is not None,
                    updated=record.get("updatedAt") or "",
                    full=record.get("fidelity") != "partial",
                    owner=owner,
                )
                lots[number] = (name_words, title, description, score, status)
                words.update(set(WORD.findall(f"{name_words} {title} {description}".casefold())))
                named.update(WORD.findall(name.casefold()))
                kept[number] = quality(facts[number], score, as_of)
                records[number] = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            text = TextIndex((n, r[0], r[1], r[2]) for n, r in lots.items())
            common = CensusState.objects.filter(pk=1).values_list("common", flat=True).first() or {}
            # The old index is not closed here: a question that began on it may still be asking it. It
            # goes when the last of them lets go of it.
            self.text = text
            self.by_owner, self.facts, self.rows, self.kept = by_owner, facts, lots, kept
            self.records = records
            self.words = dict(words)
            self.ordered = sorted(words)
            self.named = frozenset(named)
            self.common, self.as_of, self.root = common, as_of, root
            return self

    def holds_start(self, start: str) -> bool:
        """Whether any lot holds a word that begins with `start` (folded): a name the need writes that
        none holds can be held by no candidate, as score_all reads them."""
        i = bisect.bisect_left(self.ordered, start)
        return i < len(self.ordered) and self.ordered[i].startswith(start)

    def forget(self) -> None:
        with self.lock:
            self.root = None
            self.by_owner, self.facts, self.rows, self.kept, self.common = {}, {}, {}, {}, {}
            self.records = {}
            self.words = {}
            self.ordered = []
            self.named = frozenset()
            self.text = None


CENSUS = Census()


# -- A need's words as the census spells them ---------------------------------------------------------

WORD = re.compile(r"[^\W_]+")
_SIGNED = [(re.compile(p, re.IGNORECASE), word) for p, word in vocabulary.SIGNED_NAMES]
# What every name of vocabulary.SIGNED_NAMES holds: a text without any is read as it is, at one search.
_SIGNED_ANY = re.compile(r"#|\+\+|\.net\b|objective-c|\.js\b", re.IGNORECASE)


def signed_names(text: str, keep: bool = False) -> str:
    """The text with each name of vocabulary.SIGNED_NAMES ("Node.js", "C#") read as its one word
    ("nodejs", "csharp"): in its place, or with `keep` beside it (a listing, whose words as written are
    searched too). Linear: one pass of each of a few expressions, none when the text holds no sign."""
    if not _SIGNED_ANY.search(text):
        return text
    for pattern, word in _SIGNED:
        text = pattern.sub((lambda m, w=word: f"{m.group(0)} {m.expand(w)}") if keep else word, text)
    return text


LETTERS = "abcdefghijklmnopqrstuvwxyz"
# A word is read as a slip of the keyboard only when it is this long (and no longer than SPELL_UPTO:
# a word's edits are about 54 times its length, each as long as it), at most this many lots hold it,
# and the word one edit away is held by at least this many lots and this many times as many; of a
# word no lot holds, by at least SPELL_UNHELD lots (a product a few servers serve: "dropbx" is Dropbox,
# which 4 lots hold); or by at least one lot when the word is in a lot's registry name (`brands`): a
# brand a lot or two serve is as often misspelled ("webflw" is Webflow, "mixpanle" Mixpanel, each held by
# 2 lots), and a brand's spelling is its publisher's own. Only of a word this long: a word of five letters
# is one edit from a registry name's word as often as not ("serif" from serff, another language's "neues"
# from neus and "tenho" from teneo).
SPELL_BRAND_FROM = 6
SPELL_FROM = 5
SPELL_UPTO = 30
SPELL_RARE = 2
SPELL_COMMON = 5
SPELL_RATIO = 5
SPELL_UNHELD = 3


def one_edit(word: str) -> set[str]:
    """Every word one deletion, transposition, replacement or insertion of a letter away (about 54
    times the word's length of them: bounded, since a term is a word of a need)."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return {
        *(a + b[1:] for a, b in splits if b),
        *(a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1),
        *(a + c + b[1:] for a, b in splits if b for c in LETTERS),
        *(a + c + b for a, b in splits for c in LETTERS),
    }


def spelled(
    terms: list[str], words: dict[str, int], names: frozenset[str] = frozenset(), brands: frozenset[str] = frozenset()
) -> list[str]:
    """The terms, each word that almost no lot holds replaced by the word one edit away that many lots
    hold ("wether" is weather, "salesfroce" salesforce), when there is one. A word the vocabulary knows
    is kept as it is, and so is a common English word (vocabulary.ENGLISH: "quilt" is not built); a
    slip is never of a word's first letter (few are, and "fridge" is not bridge nor "fails" rails), and so is any word with a digit or a letter outside a-z (a name, a version), and
    any of `names`, the words a sentence writes as names (services.written_as_names): "a shop in Lagos"
    names a city, not logos. A word no lot holds with no such word one edit away is read as one of
    `brands` (the words of the lots' registry names) one edit away that any lot holds."""
    out: list[str] = []
    for term in terms:
        held = words.get(term, 0)
        if (
            term not in names
            and SPELL_FROM <= len(term) <= SPELL_UPTO
            and held <= SPELL_RARE
            and term.isascii()
            and term.isalpha()
            and term not in vocabulary.CONCEPTS
            and term not in vocabulary.MAKERS
            and term not in vocabulary.ENGLISH
        ):
            least = max(SPELL_COMMON, SPELL_RATIO * held) if held else SPELL_UNHELD
            best = max(
                (
                    (words.get(w, 0), w)
                    for w in one_edit(term)
                    if w != term and w[:1] == term[:1] and words.get(w, 0) >= least
                ),
                default=None,
            )
            if best is None and not held and brands and len(term) >= SPELL_BRAND_FROM:
                # Of the words one edit away, a brand's that the most lots hold (one, two): the first
                # letter kept, as above.
                best = max(
                    (
                        (words.get(w, 0), w)
                        for w in one_edit(term)
                        if w != term and w[:1] == term[:1] and w in brands and words.get(w, 0) > 0
                    ),
                    default=None,
                )
            if best is not None:
                term = best[1]
        out.append(term)
    return list(dict.fromkeys(out))  # a word spelled as another already searched is searched once


# -- The score, and its reasons ---------------------------------------------------------------------


@dataclass
class Scored:
    number: int
    score: float
    why: list[str]


def namespace_signal(reading: Reading, f: Facts, text: str) -> tuple[float, str | None, str | None]:
    """How strongly the namespace says this is the named product's own server, the reason, and the
    product it matched."""
    if f.owner is None:
        return 0.0, None, None
    domain = f.owner.how == "domain"
    proven = "a domain the registry proves by DNS or HTTP" if domain else "a GitHub account the registry proves"
    best, why, which = 0.0, None, None
    for product, makers in reading.products.items():
        brought = product.startswith("~")
        p = product.lstrip("~")
        if f.owner.key == p:
            w, r = W_OFFICIAL, "its namespace is the product you named"
            if p not in fold(text):
                # A namespace that shares a word with the need but whose listing never speaks of it
                # (com.pdf serving weather) is a weak sign.
                w, r = W_SILENT, "its namespace is a word you used, though its listing does not speak of it"
        elif f.owner.key in makers:
            w, r = W_MAKER, "its namespace is the maker of the product you named"
        elif len(p) >= 4 and wraps(f.owner.key, p) and (domain or p in fold(text)):
            w, r = (
                (W_WRAPPED_DOMAIN if domain else W_WRAPPED),
                "its namespace is the organisation of the product you named",
            )
        elif domain and any(len(m) >= 4 and wraps(f.owner.key, m) for m in makers):
            w, r = W_WRAPPED_DOMAIN, "its namespace is the organisation of the maker of the product you named"
        else:
            continue
        if p in fold(f.name.split("/", 1)[-1]):
            w += W_FLAGSHIP
            r += ", and its own name is the product's"
        if brought:
            w *= BROUGHT
            r = r.replace(
                "the product you named", "a product the Directory's vocabulary relates to your words, not one you named"
            )
        elif p in reading.whole and reading.whole[p] not in fold(text):
            # "Google Drive": Google's namespace is Drive's only where its listing speaks of Drive
            w, r = (
                min(w, W_SILENT),
                "its namespace is part of a name you wrote, though its listing does not speak of the whole name",
            )
        if p in reading.plain:
            w = min(w, W_SILENT * (BROUGHT if brought else 1.0))
            r = (
                "its namespace is a word the Directory's vocabulary relates to yours, not a name you wrote"
                if brought
                else "its namespace is a word you wrote, though not as a name"
            )
        if w > best:
            best, why, which = w, f"{r} ({proven})", p
    return best, why, which


def weak_name(reading: Reading, f: Facts, product: str | None, listing: str) -> bool:
    """Whether a namespace matched a product only weakly: a common English word (vocabulary.ENGLISH)
    the need does not write as a name, that the namespace merely wraps (takehub for "take") while the
    listing never uses it as a word of its own."""
    if product is None or product not in vocabulary.ENGLISH or product in reading.names or f.owner is None:
        return False
    wrapped = f.owner.key != product and f.owner.key not in reading.products.get(product, ())
    return wrapped and re.search(rf"\b{re.escape(product)}\b", listing, re.IGNORECASE) is None


def crowded(f: Facts, product: str | None, census: "Census") -> bool:
    """Whether the server's owner publishes so many servers that its namespace cannot say which of
    them a need means, and this one's own name (after the namespace) is not the product's."""
    if f.owner is None or len(census.by_owner.get(f.owner.key, ())) < CROWDED:
        return False
    return product is None or product not in fold(f.name.split("/", 1)[-1])


def recent(updated: str, as_of: dt.datetime | None) -> bool:
    if not updated or as_of is None:
        return False
    try:
        t = dt.datetime.fromisoformat(updated.replace("Z", "+00:00"))
    except ValueError:
        return False
    return (as_of - t).days <= RECENT_DAYS


def quality(f: Facts, integrity_score: int, as_of: dt.datetime | None) -> tuple[float, list[str]]:
    q = 0.25 * integrity_score / 100
    kept: list[str] = []
    if f.has_repo:
        q += 0.1
        kept.append("a repository")
    if f.remote:
        q += 0.1
        kept.append("a remote")
    elif f.package:
        q += 0.05
        kept.append("a package")
    if f.versions > 1:
        q += 0.1 * min(1.0, math.log(f.versions) / math.log(20))
        kept.append(f"{f.versions} versions")
    if recent(f.updated, as_of):
        q += 0.1
        kept.append(f"updated within {RECENT_DAYS} days of the census")
    if f.full:
        q += 0.05
    return q, kept


def holds_pattern(words: list[str]) -> re.Pattern[str] | None:
    if not words:
        return None
    return re.compile("|".join(rf"\b({re.escape(w)})" for w in words), re.IGNORECASE)


def score_all(
    reading: Reading, found: dict[int, float], census: Census, stem: Any, sought: list[str] | None = None
) -> list[Scored]:
    """Score every candidate: its text relevance by lot, already scaled to 0..1; its name words,
    title, description, integrity and status are the census's (Census.rows). `sought` is
    owners_sought(reading, census.by_owner), when the caller has it already."""
    # A name the need writes that no lot holds (a city the census never names, "in Berlin") is held by
    # no candidate: counted, it only kept every candidate from holding all the need's words. A word in
    # lower case that no lot holds still counts (a task the census has no server for).
    name_stems = {stem(w) for w in reading.names}
    searched = list(dict.fromkeys(stem(t) for t in reading.terms))
    stems = [t for t in searched if t not in name_stems or census.holds_start(t)]
    # The words a reason counts are these; the answer's `terms` still lists every word searched.
    aside = ", leaving aside the names no server in the census holds" if len(stems) < len(searched) else ""
    n = max(1, len(stems))
    held_by = holds_pattern(stems)
    # the need's names, by their places in held_by (services.casing: "Slack", "Google Drive")
    names = {i + 1 for i, t in enumerate(stems) if t in name_stems}
    # A name few lots hold and no namespace is ("Paulo" of São Paulo, "Tokyo", a person's name) is as
    # likely a place or a person as a product: it counts as the name of a server only where that server
    # holds another of the need's words too.
    rare_stems = {stem(w) for w in reading.names if census.words.get(w, 0) <= RARE_NAME and w not in census.by_owner}
    rare = {i + 1 for i, t in enumerate(stems) if t in rare_stems}
    groups = [holds_pattern(list(g)) for g in reading.concepts]
    # Only a namespace whose owner could be named is read further (owners_sought, wrapped forms too).
    wanted = set(owners_sought(reading, census.by_owner) if sought is None else sought)
    out: list[Scored] = []
    for number, relevance in found.items():
        # A lot missing from any of these was sealed out while this question was asked: skip it.
        f, row, upkeep = census.facts.get(number), census.rows.get(number), census.kept.get(number)
        if f is None or row is None or upkeep is None:
            continue
        name, title, description, integrity_score, status = row
        named_text = f"{name} {title}"
        text = f"{named_text} {description}"
        named = {m.lastindex for m in held_by.finditer(named_text) if m.lastindex} if held_by else set()
        held = named | ({m.lastindex for m in held_by.finditer(description) if m.lastindex} if held_by else set())
        every = len(held) == len(stems) and bool(stems)
        s = 2.0 * every + relevance + 0.5 * len(held) / n + 0.3 * len(named) / n
        why: list[str] = []
        credited = names & named
        if credited & rare and not held - rare:
            credited -= rare
        if credited:
            s += W_NAMES * len(credited) / len(names)
            why.append(
                "its name or title holds the name you wrote"
                if len(names) == 1
                else f"its name or title holds {len(credited)} of the {len(names)} names you wrote"
            )
        ns, ns_why, product = (
            namespace_signal(reading, f, f"{f.name.split('/', 1)[-1]} {title} {description}")
            if f.owner is not None and f.owner.key in wanted
            else (0.0, None, None)
        )
        if ns:
            # A namespace names the product; the rest of the need says which of its servers.
            # The product's maker named beside it ("gmail ... google drive") is the same namespace
            # again, not a word that says which of the maker's servers: googleapis' Cloud Run and
            # Cloud SQL servers hold "google", and came first for Gmail and Drive.
            makers = () if product is None else reading.products.get(product, reading.products.get("~" + product, ()))
            others = [
                i + 1
                for i, t in enumerate(stems)
                if product is None or (fold(t) not in product and fold(t) not in makers)
            ]
            # of a need that names products ("Google Drive"), the other names say which server
            others = [i for i in others if i in names] or others
            if others:
                share = len(held & set(others)) / len(others)
                if weak_name(reading, f, product, f"{title} {description}"):
                    # A common English word ("take", "book") is read as a product's name only on strong
                    # evidence: the namespace is the word itself or its product's maker, the need
                    # writes it as a name, or the listing holds the need's other words too.
                    ns *= share
                    if not ns:
                        ns_why = None
                elif not share and crowded(f, product, census):
                    # A maker with many servers (googleapis, microsoft): its namespace says whose a
                    # server is, not which; one that holds none of the need's other words and is
                    # not named for the product is not the one asked for ("google calendar").
                    ns, ns_why = min(ns, W_SILENT), CROWDED_WHY
                else:
                    ns *= 0.85 + 0.15 * share
            s += ns
            if ns:
                why.append(ns_why or "")
        if every and stems:
            counted = f"all {len(stems)} of your words" if len(stems) > 1 else "your word"
            why.append(f"it holds {counted}{aside}")
        elif held:
            why.append(f"it holds {len(held)} of your {len(stems)} words{aside}")
        if named:
            why.append(f"{len(named)} of them in its name or title")
        if groups:
            hit = sum(1 for g in groups if g is not None and g.search(text))
            if hit:
                s += W_CONCEPT * hit / len(groups)
                why.append("it holds words the vocabulary gives for yours")
        q, kept = upkeep
        s += q
        why.append(f"integrity {integrity_score}")
        if kept:
            why.append(", ".join(kept))
        if status != "active":
            s -= INACTIVE
            why.append(f"it is {status}, so it goes after active servers")
        out.append(Scored(number, s, why))
    out.sort(key=lambda c: (-c.score, c.number))
    return out


def explain(place: int, reasons: list[str]) -> str:
    return f"Ranked {place}: " + "; ".join(r for r in reasons if r) + "."
