"""The Town Hall's services: finding lots, the census's views and provenance, the seal, and search.

`access_*` fetch or refuse in one call. Search is ranked full-text over each lot's name (split into
words), title and description. The Directory asks an in-process FTS5 index built once per seal
(textindex.py, kept in ranking.CENSUS), so it ranks the same on every database; the database's own
index (SQLite's FTS5 ranked by bm25, PostgreSQL's tsvector with a GIN index ranked by ts_rank_cd) is
kept and asked by `search_sqlite` and `search_postgresql`. The Directory remembers answers: a
repeated question is answered from memory and does not count against the clerk's limits.

Import, fold, derive and sync live in ingest.py; the integrity rules and the house in integrity.py.
"""

import functools
import json
import logging
import math
import re
import threading
import time
import unicodedata
from collections import Counter, OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection

from clockford.town import clock, merkle, signing, words
from clockford.town.tooling import Busy, NotFound, Part
from districts.town_hall import ranking, vocabulary
from districts.town_hall.models import CensusState, Lot

log = logging.getLogger(__name__)

NO_LOT_SAY = "No lot by that number or name."
RESULT_KEYS = (
    "lot",
    "name",
    "title",
    "publisher",
    "versions",
    "status",
    "updatedAt",
    "hasRepo",
    "remote",
    "package",
    "integrity",
    "words",
    "why",
)
# Every value of a record that someone other than the town wrote: the publisher's words. A path
# ending in a field name labels everything under it.
PUBLISHER_PATHS = ("name", "title", "publisher", "version", "versions[]", "host", "remote", "package", "words")
SEAL_NOTE = (
    "A Merkle root (RFC 6962, SHA-256) over the canonical JSON of every lot's census record, in lot order. "
    "`manage.py census proof LOT` proves any record's inclusion."
)
NEVER_CONNECTS = "The town never opens a connection to a server it lists."


def state() -> CensusState:
    s, _ = CensusState.objects.get_or_create(pk=1)
    return s


# What a question reads of the census's state, on every question: the root (the census's version),
# and what the reply's source line says. Written out, the statement costs a fraction of what the ORM
# spends building it; Manager.raw still gives a CensusState, its other fields deferred.
SEAL_SQL = f"SELECT id, demo, as_of, servers, root FROM {CensusState._meta.db_table} WHERE id = 1"  # noqa: S608 (constants)


def seal() -> CensusState:
    """The census's state without its common words (the Directory reads those once per seal, from
    ranking.CENSUS) or its other counts: what a question needs, read on every question."""
    found = next(iter(CensusState.objects.raw(SEAL_SQL)), None)
    return found if found is not None else state()


def build_ahead() -> None:
    """The census's index for the root sealed now, built before a question needs it: each worker runs
    this on a desk thread as it starts and every few seconds after (CLOCKFORD_AHEAD). Otherwise the
    first question after a seal builds it (about half a second for the whole census), on the loop's
    thread, with every other request of its worker waiting behind it. A question that comes while it
    is being built waits for it, as before, for what is left of it."""
    s = next(iter(CensusState.objects.raw(SEAL_SQL)), None)
    if s is None or ranking.CENSUS.root == s.root:
        return  # nothing imported yet (seal() would make the row), or built already
    began = time.perf_counter()
    known = ranking.CENSUS.load(s.root, s.as_of)
    log.info(
        "built the census's index ahead for root %s: %d lots in %.2f s",
        s.root,
        len(known.rows),
        time.perf_counter() - began,
    )


def census_name(s: CensusState) -> str | None:
    if not s.servers:
        return None
    as_of = clock.iso(s.as_of) if s.as_of else "an unknown date"
    if s.demo:
        return f"Clockford demo census (made-up servers, not the official registry), as of {as_of}"
    return f"official MCP registry census, as of {as_of}"


def source_line(s: CensusState | None = None) -> str:
    s = s or state()
    name = census_name(s)
    if name is None:
        return "The census is empty: no registry has been imported yet. " + NEVER_CONNECTS
    return f"The town's {name}, sealed with root {s.root}. {NEVER_CONNECTS}"


_summary: tuple[float, dict[str, Any]] | None = None


def town_summary() -> dict[str, Any]:
    """look_around's town block, apart from the count of open districts. A second-old copy is good
    enough: an import in this process forgets it (ingest.seal, ingest.wipe), one in another process
    (manage.py census import beside a running town) shows within a second."""
    global _summary
    if _summary is not None and time.monotonic() - _summary[0] <= 1.0:
        return _summary[1]
    _summary = (time.monotonic(), _town_summary())
    return _summary[1]


def forget_summary() -> None:
    global _summary
    _summary = None


def _town_summary() -> dict[str, Any]:
    s = state()
    if not s.servers:
        seal = {"holds": 0, "root": None, "note": "No census has been imported yet, so there is nothing to seal."}
    else:
        seal = {"holds": s.holds, "root": s.root, "note": SEAL_NOTE}
    return {
        "census": census_name(s),
        "servers": s.servers,
        "registryEntriesBeforeDedup": s.entries,
        "litLamps": s.lit_lamps,
        "seal": seal,
    }


def find_census() -> dict[str, Any]:
    """The census as staff read it in the hall: where it came from, its counts, its seal, and how far
    the last sync got (a sync still under way keeps its place)."""
    s = state()
    return {
        "name": census_name(s),
        "source": s.source,
        "asOf": s.as_of,
        "sealedAt": s.sealed_at,
        "entries": s.entries,
        "servers": s.servers,
        "litLamps": s.lit_lamps,
        "root": s.root,
        "holds": s.holds,
        "syncSince": s.sync_since,
        "syncUnderWay": bool(s.sync_cursor),
    }


# -- Finding a lot ---------------------------------------------------------------------------------


def parse_lot(value: int | str) -> int | str:
    """A lot number given as ASCII digits is a number; registry names always hold a slash."""
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,12}", value.strip()):
        return int(value.strip())
    return value


def nameable(name: str) -> bool:
    """Whether a text could be a lot's name at all. NUL never is (and PostgreSQL's text cannot hold
    it, so it never reaches a query)."""
    return 0 < len(name) <= 255 and "\x00" not in name


def find_lot(value: int | str) -> Lot | None:
    v = parse_lot(value)
    if isinstance(v, int):
        return Lot.objects.filter(number=v).first()
    v = v.strip()
    return Lot.objects.filter(name=v).first() if nameable(v) else None


def no_lot() -> NotFound:
    """The refusal for a lot no census holds, with the lots that are."""
    last = Lot.objects.order_by("-number").values_list("number", flat=True).first()
    if last is None:
        return NotFound(f"{NO_LOT_SAY} The census holds no lots yet.", "no-lot")
    return NotFound(f"{NO_LOT_SAY} Lots run from 0 to {last}.", "no-lot", lots={"first": 0, "last": last})


def same_but_case(name: str) -> list[Lot]:
    name = name.strip()
    if not nameable(name):
        return []
    return list(Lot.objects.filter(folded_name=name.casefold()).exclude(name=name).order_by("number"))


def neighbors(lot: Lot) -> list[dict[str, Any]]:
    near = Lot.objects.filter(number__in=[lot.number - 1, lot.number + 1]).order_by("number")
    return [{"lot": n.number, "name": n.name} for n in near.only("number", "name")]


# -- Views and provenance --------------------------------------------------------------------------


# Of those, the ones a result of ask_directory holds (RESULT_KEYS): a result has no version or host.
RESULT_PUBLISHER_PATHS = tuple(p for p in PUBLISHER_PATHS if p.removesuffix("[]") in RESULT_KEYS)


def record_parts(prefix: str) -> list[Part]:
    return [Part(f"{prefix}.{p}", "publisher-words") for p in PUBLISHER_PATHS]


def result_parts(prefix: str) -> list[Part]:
    """The provenance of ask_directory's results: exactly the publisher's fields a result holds."""
    return [Part(f"{prefix}.{p}", "publisher-words") for p in RESULT_PUBLISHER_PATHS]


def result_view(record: dict[str, Any]) -> dict[str, Any]:
    return {k: record[k] for k in RESULT_KEYS}


def house_view(lot: Lot) -> dict[str, Any]:
    """Where an agent stands when it stands at a house: look_around's and walk_to's `here`."""
    return {
        "lot": lot.number,
        "name": lot.name,
        "note": f"The house on lot {lot.number}, from the census. Use enter for its facts. {NEVER_CONNECTS}",
    }


def enter_note(lot: Lot) -> str:
    note = (
        "The facts are the registry's listing as the census copied it, folded over every version; "
        "integrity and the house are the town's reading of that record. " + NEVER_CONNECTS
    )
    if lot.facts.get("cutDown"):
        note += (
            " This lot's census copy came from a source that kept only the name, description, version, "
            "status, dates and repository: its title, packages and remotes are unknown here, and no rule "
            "counts their absence."
        )
    return note


# -- The seal --------------------------------------------------------------------------------------


def leaf_of(record: dict[str, Any]) -> str:
    return merkle.leaf_hash(signing.canonical_json(record)).hex()


def seal_root(leaves: list[str]) -> str:
    return merkle.root([bytes.fromhex(x) for x in leaves]).hex()


def inclusion_proof(value: int | str) -> dict[str, Any]:
    """Proof that one lot's record is in the sealed census: recompute the root from the leaf and path."""
    lot = find_lot(value)
    if lot is None:
        raise no_lot()
    leaves = list(Lot.objects.order_by("number").values_list("leaf", flat=True))
    numbers = list(Lot.objects.order_by("number").values_list("number", flat=True))
    index = numbers.index(lot.number)
    raw = [bytes.fromhex(x) for x in leaves]
    path = merkle.inclusion_proof(index, raw)
    s = state()
    leaf = merkle.leaf_hash(signing.canonical_json(lot.record))
    return {
        "lot": lot.number,
        "index": index,
        "holds": len(leaves),
        "leaf": leaf.hex(),
        "proof": [p.hex() for p in path],
        "root": s.root,
        "verified": merkle.verify_inclusion(index, len(raw), leaf, path, bytes.fromhex(s.root)),
    }


# -- Search ----------------------------------------------------------------------------------------

# Other languages' articles, prepositions and pronouns, so that "un canal de discord" searches for canal
# and discord, not the UN's servers; only words that are not also English ones or a field's (die, per,
# den, ton, mit as in MIT, os as in OS, im, su and com stay searched).
OTHER_STOPWORDS = frozenset(
    """un una unos unas el la los las de del al y en con para por que mi mis tu tus sus le les des du au aux
    et ou pour avec dans sur mon ma mes ta tes ce cette ces qui der dem und oder fur von zu ein eine
    einen einem einer mein meine meinen ich uma meu minha meus minhas nos nas il lo gli della dello
    degli nel nella di da het een voor ik mijn""".split()
)
STOPWORDS = OTHER_STOPWORDS | frozenset(
    """a an and any are as at be but by can do does for from get give has have how i in into is it its
    just let like me my need needs no not of on one only or our please some that the their them then there
    these this to too use used using want wants was we what when where which while who will with would you
    your mcp server servers model context protocol something thing things find looking look
    so very really still also right now today todays tonight tomorrow tomorrows yesterday yesterdays
    currently week weeks weekend hi thanks thank errand errands asked necessarily don doesn didn isn aren
    know never much nobody anybody somebody everybody""".split()
)
# Of the stop words, those a need that holds no other word still searches for.
ASKING_FOR_SERVERS = frozenset("mcp server servers model context protocol".split())
MAX_TERMS = 10
# Everyday words that say little about which server a need wants: of a need longer than MAX_TERMS,
# they are the first left out, after its products' names and before the rarest of its other words.
FILLER = frozenset(
    """about above after again against ago all almost along already always am among another anyway
    around away back because been before being below best better between big both bunch came come comes
    coming could day days did doing done down during each easy else enough even ever every everything
    few first going gone got gotten guess had having here honestly hour hours huge kind know last later
    least less little lot lots made mainly make makes many maybe mean might more most mostly much must
    never new next nice off often once other others out over own part pretty probably quite rather
    same says see seems shall should since single small some someone sometimes soon sort stuff such
    sure take takes than thing think those though through thus time times together tried try trying two
    under until upon usually way ways well went were whatever whenever whether why within without
    would yeah yes yet basically actually literally simply okay ok hey hi lately""".split()
)
NEED_CAP = 200  # what an agent asks the Directory for, in characters (000 section 05)
CANDIDATES = 60
# Candidates the vocabulary's words bring, and lots one namespace owner brings at most.
EXTRA_CANDIDATES = 30
OWNED_MAX = 40
# A word held by more than this share of the lots, and by more than COMMON_LOTS of them, is common: it
# ranks results but does not recall them. (A small census has no common words.)
COMMON_SHARE = 0.03
COMMON_LOTS = 300
# Terms this long also match longer words ("postgres" finds "postgresql"); shorter ones match whole words.
PREFIX_FROM = 5
TLD_LIKE = frozenset("com net org io dev ai app co me sh xyz tech cloud so gg fyi us uk de".split())


def name_words(name: str) -> str:
    """A registry name as words for the index: the namespace's owner and the server's own name, with
    camelCase split too. `io.github.` and a leading top-level domain carry no meaning and are left out."""
    ns, _, rest = name.partition("/")
    parts = ns.split(".")
    if ns.casefold().startswith("io.github."):
        parts = parts[2:]
    elif parts and parts[0].casefold() in TLD_LIKE:
        parts = parts[1:]
    out: list[str] = []
    for token in re.findall(r"[^\W_]+", " ".join(parts) + " " + rest):
        out.append(token)
        pieces = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", token)
        if len(pieces) > 1:
            out.extend(pieces)
    return " ".join(out)


# An agent often writes its need inside words of its own: a greeting, a label, the asking and a
# thanks ("Hello there. Could you find something to <need>? Much appreciated."). Those words are rare
# in the census, so searched they bring servers named for them ("hello", "ideas") before the need's
# own. `unframed` leaves them out where they frame the need: a clause at its start or its end made of
# them alone ("Urgent:", "Any ideas?", "Kind regards"), the asking that opens its first clause
# ("could you find something to"), and the thanks that closes its last ("... asap, thx"). The same
# word within the need stays searched ("set the ticket's priority to urgent").
FRAME_WORDS = frozenset(
    """hello hey hiya howdy greetings yo dear hola bonjour salut hallo ciao ola
    please pls plz kindly thanks thx ty tia cheers regards kind appreciated appreciate much advance
    grateful sincerely best wishes gracias favor merci danke bitte obrigado obrigada grazie
    could would should might anyone anybody someone somebody anything got know tell wondering hoping
    hope trying able lets allows enables ideas idea thoughts advice advise suggest suggestions
    suggestion recommend recommendation recommendations options option help question questions
    quick quickly urgent urgently asap important task request fyi note agent assistant bot person
    boss user team town morning afternoon evening night good great love open ok okay sure possible
    everyone all folks guys friend friends well doing day um oh census tool tools ll re ve im ive""".split()
)
# Of those, the words that open the asking, left out before the need in its first clause, and those
# that close it, left out after the need in its last. Not among the first: words a need may begin with
# as its own ("Recommend products to shoppers", "Suggest tags", "Quick notes", "Urgent care clinics"),
# nor a greeting, which frames a need in a clause of its own ("Hello, ...") and may begin one ("Hello
# World example server").
OPENING_WORDS = frozenset(
    """please pls plz kindly could would should anyone anybody someone somebody anything wondering hoping
    trying able lets allows enables urgently ok okay um oh so""".split()
)
CLOSING_WORDS = frozenset("please pls plz thanks thx ty tia cheers asap urgently kindly".split())
# Where a clause ends: a sentence's end, a colon or semicolon, a bracket, a dash between spaces, a comma.
_CLAUSE_END = re.compile(r"[.!?;:()\[\]{}|,]+|\s[-\u2013\u2014]+\s|--+|->")


# A URL pasted into a need ("open https://acme.atlassian.net/browse/OPS-1182 ...", "summarize
# https://www.youtube.com/watch?v=...") names its product by its host: its path, its query and the
# host's other labels (www, a customer's "acme", the com) are words no server is about, and searched
# they ranked servers of "com", "watch" and "ops" before the product's. A URL is read as the label of
# its host's registered domain (youtube, atlassian; the label before a country's "co.uk" or "com.au"),
# with the word before it when that word names one of the maker's products (HOST_PRODUCTS:
# docs.google.com is google docs). A host that names no product (example.com, localhost, an IP
# address) is read as "website": the need asks for something done to a site it gives.
_URL = re.compile(r"(?<![\w@])(?:https?://|www\.)[^\s<>\"'`]+", re.IGNORECASE)
_SCHEME = re.compile(r"https?://", re.IGNORECASE)
_HOST = re.compile(r"(?:[^/?#@\s]*@)?([^/?#:\s]+)")
HOST_PRODUCTS = frozenset(
    """docs drive mail calendar sheets slides forms maps cloud console meet analytics photos music
    news translate scholar keep ads search""".split()
)
_SECOND_LEVEL = frozenset("co com org net ac gov edu".split())
_NO_PRODUCT = frozenset("example localhost".split())


def _host_words(m: re.Match[str]) -> str:
    """The words a URL is read as (_URL above): one or two, between spaces."""
    url = m.group()
    scheme = _SCHEME.match(url)
    host = _HOST.match(url, scheme.end() if scheme else 0)
    labels = [x for x in host.group(1).casefold().split(".") if x] if host else []
    if labels[:1] == ["www"]:
        labels = labels[1:]
    if not all(x.isalnum() or x.replace("-", "").isalnum() for x in labels):
        return " "  # no host a product has: "https:///", "http://[::1]"
    if not labels or all(x.isdigit() for x in labels):
        return " website "
    at = len(labels) - 2 if len(labels) >= 2 else 0
    if at > 0 and len(labels[-1]) == 2 and labels[at] in _SECOND_LEVEL:
        at -= 1  # bbc.co.uk, abc.com.au
    label = labels[at]
    if label in _NO_PRODUCT:
        return " website "
    before = labels[at - 1] if at > 0 and labels[at - 1] in HOST_PRODUCTS else ""
    return f" {label} {before} "


@functools.lru_cache(maxsize=256)
def unframed(need: str) -> tuple[str, int, int]:
    """The need as read (words.for_matching, each URL as the product its host names: _URL) and where
    in it the need is, without the words an agent framed it in (FRAME_WORDS above): all of it when
    nothing else would be left. Each clause is looked at once from each end, and each word of the
    first and the last once: linear."""
    text = _URL.sub(_host_words, words.for_matching(need))
    cuts = [0]
    for m in _CLAUSE_END.finditer(text):
        cuts += [m.start(), m.end()]
    cuts.append(len(text))
    clauses = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2)]
    first, last = 0, len(clauses) - 1
    while first <= last and _only_frame(text, *clauses[first]):
        first += 1
    while last >= first and _only_frame(text, *clauses[last]):
        last -= 1
    if first > last:
        return text, 0, len(text)
    start, end = clauses[first][0], clauses[last][1]
    opening = list(ranking.WORD.finditer(text, start, clauses[first][1]))
    lead = 0
    while lead < len(opening) - 1 and _is(opening[lead], OPENING_WORDS):
        lead += 1
    if any(m.group().casefold() in OPENING_WORDS for m in opening[:lead]):
        start = opening[lead].start()
    closing = list(ranking.WORD.finditer(text, max(start, clauses[last][0]), end))
    tail = len(closing)
    while tail > 1 and _is(closing[tail - 1], CLOSING_WORDS):
        tail -= 1
    if any(m.group().casefold() in CLOSING_WORDS for m in closing[tail:]):
        end = closing[tail - 1].end()
    return text, start, end


def _only_frame(text: str, start: int, end: int) -> bool:
    folded = (w.casefold() for w in ranking.WORD.findall(text, start, end))
    # A letter alone is searched by no need: the m of "I'm", the s of "what's".
    return all(w in STOPWORDS or w in FRAME_WORDS or (len(w) == 1 and w.isascii()) for w in folded)


def _is(m: re.Match[str], frame: frozenset[str]) -> bool:
    """Whether a word is one of `frame`'s or a stop word (searched by no need)."""
    w = m.group().casefold()
    return w in frame or w in STOPWORDS


# Phrases whose words include a stop word, which would leave the phrase's meaning with its other word
# ("who is on call" would search "call", the vocabulary's phone calls): each is read as one word, the
# vocabulary's (CONCEPTS "oncall"), before stop words go. Written with a space or a dash.
JOINED = {"on call": "oncall"}
_JOINED = re.compile(r"\b(" + "|".join(re.escape(p).replace(r"\ ", r"[\s-]+") for p in JOINED) + r")\b", re.IGNORECASE)


# A joined word is held by a listing that writes its phrase ("on-call schedules" holds oncall).
_SPOKEN = {w: r"[\s-]*".join(map(re.escape, p.split())) for p, w in JOINED.items()}


def terms_of(need: str) -> list[str]:
    """The need's words: folded, stop words, single letters and lone digits out, each once, in the
    order given (a need is at most 200 characters, so at most 100 words)."""
    need = _JOINED.sub(lambda m: JOINED[re.sub(r"[\s-]+", " ", m.group(1).casefold())], need)
    # A technology's name with a dot or a sign is one word ("Node.js" nodejs, "C#" csharp).
    found = re.findall(r"[^\W_]+", ranking.signed_names(words.for_matching(need)).casefold())
    # A need of stop words, single letters and lone digits alone ("the and of to a", a regular
    # expression's \d and {1,}) has nothing to search: it gets none, not its stop words.
    kept = [w for w in found if w not in STOPWORDS and (len(w) > 1 or not w.isascii())]
    if not kept:
        # "MCP server" asks for servers at all: those words are searched when there are no others.
        kept = [w for w in found if w in ASKING_FOR_SERVERS]
    return list(dict.fromkeys(kept))


# Words English capitalises by grammar that name no product: the days and months ("next Tuesday"),
# the continents and the countries most asked about, their peoples' adjectives and their languages
# ("earthquakes near Japan", "German invoices", "translate into French"), and the cities, states and
# regions most asked about ("for a shop in London": 32 lots hold "london", most of them about the
# city, and none is the server a shop in London asks for). Cities that are also products or everyday
# words (Phoenix, Aurora, Lima, Mesa, Nice, Derby) are not among them. Each is still searched, as
# any word is; it only does not count as a name the need gives (ranking.read).
CALENDAR = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday january february march april may june july
    august september october november december
    africa america americas antarctica asia australia europe oceania
    african american asian australian european
    argentina austria belgium brazil canada chile china colombia czechia denmark egypt england finland
    france germany greece hungary iceland india indonesia iran iraq ireland israel italy japan kenya korea
    mexico morocco netherlands nigeria norway pakistan peru philippines poland portugal romania russia
    scotland singapore spain sweden switzerland taiwan thailand turkey uk ukraine usa vietnam wales
    argentinian austrian belgian brazilian canadian chilean chinese colombian czech danish dutch egyptian
    english finnish french german greek hungarian icelandic indian indonesian iranian irish israeli
    italian japanese kenyan korean mexican moroccan nigerian norwegian pakistani peruvian polish
    portuguese romanian russian scottish spanish swedish swiss taiwanese thai turkish ukrainian
    vietnamese welsh arabic hebrew hindi persian
    london paris berlin madrid rome milan vienna prague budapest warsaw krakow amsterdam rotterdam
    brussels antwerp zurich geneva basel bern munich hamburg frankfurt cologne stuttgart dusseldorf
    lisbon porto barcelona valencia seville bilbao dublin edinburgh glasgow manchester liverpool
    birmingham leeds bristol oxford cambridge copenhagen stockholm oslo helsinki reykjavik athens
    istanbul ankara bucharest belgrade zagreb kyiv kiev moscow riga tallinn vilnius marseille lyon
    toulouse bordeaux naples turin florence venice bologna genoa tokyo osaka kyoto yokohama seoul busan
    beijing shanghai shenzhen guangzhou hangzhou chengdu taipei bangkok jakarta manila hanoi saigon
    mumbai bombay delhi bangalore bengaluru chennai hyderabad kolkata pune karachi lahore dhaka colombo
    kathmandu dubai doha riyadh jeddah tehran baghdad jerusalem beirut amman cairo almaty tashkent lagos
    nairobi accra johannesburg durban casablanca marrakech tunis algiers addis ababa kampala kigali
    dakar abuja kinshasa luanda guadalajara monterrey bogota medellin quito santiago caracas havana
    montevideo brasilia recife curitiba janeiro paulo aires york francisco angeles kong vegas diego
    lumpur aviv minh boston seattle chicago houston dallas denver detroit philadelphia pittsburgh
    atlanta baltimore minneapolis portland sacramento austin miami tampa raleigh columbus toronto
    montreal vancouver calgary ottawa sydney melbourne brisbane perth adelaide auckland wellington
    canberra texas california florida colorado oregon nevada arizona ohio michigan illinois georgia
    virginia carolina massachusetts pennsylvania tennessee utah alaska hawaii quebec ontario bavaria
    catalonia scandinavia balkans baltics caribbean patagonia siberia""".split()
)
# The searched words a need writes as names, those it writes only in lower case beside them, and the
# words it uses as verbs in their ordinary sense where the vocabulary reads a noun (ordinary_verbs).
Cased = tuple[frozenset[str], frozenset[str], frozenset[str]]
NOT_CASED: Cased = (frozenset(), frozenset(), frozenset())


def _as_written(need: str) -> tuple[list[str], list[str]]:
    """The need's words as it writes them, less the words it is framed in (unframed): those that begin
    a sentence (its first, and each after a full stop, a question mark or an exclamation mark), which
    grammar capitalises, and the rest."""
    text, start, stop = unframed(need)
    starts: list[str] = []
    within: list[str] = []
    end = 0
    for m in ranking.WORD.finditer(text):
        between = text[end : m.start()]
        if start <= m.start() < stop:
            (starts if end == 0 or any(c in between for c in ".!?") else within).append(m.group())
        end = m.end()
    return starts, within


def written_as_names(need: str) -> frozenset[str]:
    """The words (folded) a need writes as names: those it capitalises within a sentence, when it
    capitalises some but not all of them (a sentence that writes "Slack" and "deploy"). None when it
    capitalises nothing within its sentences (keyword queries, all lower case) or everything (a title).
    A word that begins a sentence is never one, being capitalised by grammar ("Hi! Quick question: ...")."""
    return _names_within(_as_written(need)[1])


def _names_within(within: list[str]) -> frozenset[str]:
    """written_as_names, from the words a need writes within its sentences."""
    if not any(w[0].isupper() for w in within) or all(w[0].isupper() for w in within):
        return frozenset()
    return frozenset(w.casefold() for w in within if w[0].isupper())


def casing(need: str, terms: list[str]) -> Cased:
    """The searched words the need writes as names (written_as_names, less the words capitalised by
    grammar: CALENDAR), and those it writes only in lower case, when it writes some as names: a
    sentence that writes "Slack" and "deploy" names a product by the one and a task by the other."""
    starts, within = _as_written(need)
    written = _names_within(within)
    kept = set(terms)
    # "S3-compatible storage", "an OpenAI-compatible endpoint": the product names an interface other
    # servers speak, not the server wanted: its namespace, or its maker's, weighs no more than that of
    # a word written in lower case (ranking.namespace_signal); a name it is still counts as one.
    like = {m.group(1).casefold() for m in _COMPATIBLE.finditer(need)} & kept
    # What a need does without ("self-hosted, no cloud"; vocabulary.DOES_WITHOUT) is searched, for the
    # servers that say so are the ones wanted, but names no product. A need with either of these reads
    # every product the vocabulary brings as a word written in lower case too (ranking.read), so AWS
    # and Azure, brought for "cloud", no longer come first for "no cloud".
    like |= {m.group(1).casefold() for m in _DOES_WITHOUT.finditer(need)} & vocabulary.DOES_WITHOUT & kept
    verbs = ordinary_verbs(wanted_and_not(need)[0]) & kept  # "Team Chat statt Discord" acts on nothing
    if not written:
        return frozenset(), frozenset(like), verbs
    names = written - CALENDAR
    plain = ({w.casefold() for w in within} - names - {w.casefold() for w in starts}) | like
    return frozenset(names & kept), frozenset(plain & kept), verbs


# Words whose entry in vocabulary.CONCEPTS is their noun's sense (a phone call, a team chat, a shop, a
# design file, a drawing) used as English verbs: before what they act on, an article, a possessive or
# "with" between ("call a gRPC service", "chat with my PDFs", "store embeddings"), or "call" after a
# thing ("a JSON-RPC call", "API calls").
_AS_VERB = re.compile(
    r"\b(call|chat|store|design|draw)\s+(?:(?:with|to|a|an|the|my|our|your|their|some|this|these|those|all|"
    r"any|each|every|from|into|in|over|via)\s+){0,2}([^\W_]+)(?:[\s-]+([^\W_]+))?|"
    r"\b([^\W_]+)[\s-]+(call)s?\b",
    re.IGNORECASE,
)


def ordinary_verbs(need: str) -> frozenset[str]:
    """The words of _AS_VERB the need uses as verbs on a technical thing: a word that is
    no common English word nor a product the vocabulary knows ("call a gRPC service", "chat with a CSV
    file", "store embeddings", "an API call"; not "call my mom", "chat with the team", "chat on
    Discord"). Their noun's sense (a phone call, a team chat, a shop) brings no product (ranking.read)."""
    out: set[str] = set()
    for m in _AS_VERB.finditer(words.for_matching(need)):
        # what it acts on: one word, or two that name one thing ("a database schema", "a REST API")
        verb, things = (m.group(1), (m.group(2), m.group(3))) if m.group(1) else (m.group(5), (m.group(4),))
        if things[0].casefold() in STOPWORDS:  # "chat de equipo": another language's, not a verb's object
            continue
        if any(_technical(t, verb.casefold()) for t in things if t):
            out.add(verb.casefold())
    return frozenset(out)


def _technical(word: str, verb: str) -> bool:
    """Whether a word a verb acts on is a technical thing: no common English word, stop word or
    number, nor a product the vocabulary knows, nor a word the verb's own entry brings."""
    t = ranking.signed_names(word).casefold()
    if len(t) < 2 or t.isdigit() or t in vocabulary.ENGLISH or t in STOPWORDS:
        return False
    return t not in vocabulary.MAKERS and t not in vocabulary.EVERYDAY_PRODUCTS and t not in vocabulary.CONCEPTS[verb]


_COMPATIBLE = re.compile(r"\b([^\W_]+)(?:-|\s+)compatible\b", re.IGNORECASE)
_DOES_WITHOUT = re.compile(r"\b(?:no|without|w/o|zero|never)\s+(?:(?:an?|any)\s+)?([^\W_]+)", re.IGNORECASE)


# Where a need says what it does not want: the words after one of these, to the end of their clause
# (or a "but" that turns back), are not searched, and servers that speak of them are left out
# (excluded, search). English, and the languages the Directory reads (vocabulary.TRANSLATIONS):
# German, Spanish, Portuguese, French, Italian, Dutch. "not" after a verb that it negates ("is not
# loading", "does not work", "not responding") says how a thing fails, not what is unwanted, and is no
# such word. "no"
# (and Spanish's and Italian's "no") is one only where a clause begins ("email, no gmail"): within one
# it is Portuguese's "in the" ("projetos no asana") or a task ("no-code").
_NEGATION = re.compile(
    r"\b(?:(?:don|doesn|didn)['\u2019]?t (?:want|need|like|use|suggest|recommend|include|show)|but not|and not|not|"
    r"(?:and|but) no(?=\s)|"
    r"(?:(?:isn|aren|wasn|weren|doesn|don|didn|can|won|shouldn|couldn|wouldn)['\u2019]t|cannot)(?=\s)|"
    r"without|w/o|except(?: for)?|excluding|(?:some|any)thing (?:other than|except)|other than|instead of|"
    r"rather than|never|avoid|besides|apart from|anything but|nothing (?:from|about|to do with|related to)|"
    r"(?:\w+ )?away from|no more|minus|"
    r"(?:as )?an? alternative to|alternatives? to|"
    r"aber nicht|nicht|ohne|ausser|statt|anstatt|anstelle von|au[sß]er|(?:bitte )?kein(?:e|en|er)?|"
    r"pero no|que no sea|nada de|sin|excepto|salvo|en vez de|en lugar de|"
    r"mas n[aã]o|que n[aã]o seja|em vez de|exceto|menos|sem|"
    r"mais pas|pas de|hors|autre que|sauf|sans|excepte|except[eé]|au lieu de|plut[oô]t que|"
    r"ma non|che non sia|senza|tranne|eccetto|invece di|niente|"
    r"maar niet|(?:liever )?geen|in plaats van|anders dan|zonder|behalve|niet)(?![\w/])",
    re.IGNORECASE,
)
# "no" (and "pas", "não", "non": in French, Portuguese and Italian within a clause they negate a verb or
# an adjective, "vols pas chers") and "skip" (a task: "skip the intro") only where a clause begins.
_CLAUSE_NO = re.compile(r"(?:^|[,;:.!?(]\s*|\s[-\u2013\u2014]\s*)(no|skip|pas|n[aã]o|non)(?=\s)", re.IGNORECASE)
# A thing unwanted inside one word: "non-Google", "Discord-free"; and after the thing: "Zoom excluded",
# "MySQL is not an option".
_NON = re.compile(r"\bnon-([^\W_]+)|\b([^\W_]+)-free\b", re.IGNORECASE)
_AFTER = re.compile(
    r"(?:^|[,;:(]\s*)([^,;:()]{1,40}?)\s+(?:excluded|(?:is|are) (?:not|never) an option|is a no-go|"
    r"(?:is |are )?not allowed)\b",
    re.IGNORECASE,
)
# Cues that are no negation: "not" after the verb it negates says how a thing fails ("is not
# loading"), and these contracted verbs make what follows unwanted only before a verb of wanting or
# with a thing right after ("isn't MySQL"; "can't use MySQL"; not "can't do without Slack").
_AUXILIARY = frozenset(
    """is are was were am be been do does did can could should would will shall may might must has have
    had isn aren wasn weren don doesn didn cannot couldn shouldn wouldn won why""".split()
)
_BE = frozenset("isn aren wasn weren".split())
# Broken English leaves the "do" out: "i not understand my aws bill", "we not want crypto". A subject
# right before "not" is read as "do" there (_AUXILIARY): the verb after it says whether what follows is
# unwanted ("not want", _UNWANTED) or is the need itself ("not understand my aws bill").
_SUBJECTS = frozenset("i we you they he she".split())
_SCOPE_END = re.compile(
    r"[.!?;:()\[\]{}|,]|\s[-\u2013\u2014]+\s|\bbut\b(?!\s+not)|\b(?:pero|aber|mais|sondern|maar|sino)\b|"
    r"\b(?:for|to|that|which|who|so|when|where|while|because|since|if|pour|para|f[uü]r|per|voor|que|qui|che|dat)\b",
    re.IGNORECASE,
)
# A cue followed by these adds rather than takes away: "not only Slack but also Discord", "not just
# Notion pages", "not to mention Discord", "nicht nur", "niet alleen", "no solo", "non solo"; "not
# necessarily Postgres" and "not without Slack" leave it wanted, "no problem with Slack" too.
_ADDING = re.compile(
    r"\s+(?:only|just|merely|simply|to mention|necessarily|without|nur|alleen|solo|s[oó]lo|seulement|s[oó]|"
    r"problems?|issues?|objections?|worries)\b",
    re.IGNORECASE,
)
# What may come between a cue and the thing ("not made by Microsoft", "except for", "sin usar Stripe").
_LEADING = frozenset(
    """a an the any my our your its their using use used made built based run running by on from with via more
    through of one ones something anything thing things tool tools product products service services
    including involving requiring needing usar usando utiliser benutzen nutzen usare gebruiken""".split()
)
# "can't do without Slack", "cannot live without it": a double negation that wants it.
_CANNOT_DO = re.compile(
    r"(?:can['\u2019]?t|cannot|can not|couldn['\u2019]?t|won['\u2019]?t) (?:do|live|work|go)\s*$", re.I
)
_NOT_BEFORE = re.compile(r"\b(?:not|never)\s*$", re.IGNORECASE)
# Cues that take a thing, after which a kind of server named in everyday words is unwanted too
# ("weather forecasts, not aviation", "recipes but nothing about wine", "maps without any traffic"):
# not "never", "avoid" or "skip", which take a verb ("never miss a meeting"). Of other languages, their
# words for "without" and "except" take one too, for a need mixes languages ("news headlines ohne
# sports", "recipes senza wine") and _names_a_kind asks that the kind be common English words the
# vocabulary does not translate (so "chat sin anuncios" still searches anuncios); their words for
# "not" (nicht, niet) negate a verb within a clause, and do not.
_KIND_CUE = re.compile(
    r"(?:(?:but|and) )?not?|without|w/o|except(?: for)?|excluding|(?:some|any)thing (?:other than|except)|"
    r"other than|instead of|rather than|besides|apart from|anything but|minus|nothing (?:about|to do with|"
    r"related to)|(?:don|doesn|didn)['\u2019]?t (?:want|need|like|include|show)|"
    r"ohne|au[sß]er|ausser|senza|tranne|eccetto|sin|excepto|salvo|sem|exceto|sans|sauf|zonder|behalve",
    re.IGNORECASE,
)
# Of those cues, the ones a server says of itself ("no ads", "without an API key", "ohne Anmeldung"):
# after them a word of vocabulary.DOES_WITHOUT is what the server wanted does without, and stays
# searched; after the others ("except ads", "excluding ads", "other than ads") it is a kind unwanted.
_DOING_WITHOUT = re.compile(r"(?:(?:but|and) )?no|without|w/o|ohne|senza|sin|sem|sans|zonder", re.IGNORECASE)
# What may come between such a cue and the kind ("not about aviation", "nothing related to wine").
_ABOUT = frozenset("about regarding concerning related relating involving stuff content topics".split())
# A clause begins before a bare "not" that names a kind ("forecasts, not aviation"); within a clause it
# says how a thing is ("pods not ready", "emails not delivered").
_CLAUSE_BEFORE = re.compile(r"(?:^|[,;:(]|\s[-\u2013\u2014]+)\s*$")
# Negation words of other languages that are English words too, read as English in a need written in
# English: "sin and cos", "SEM and SEO tools".
_ENGLISH_TOO = frozenset("sin sem".split())
# After "do not", "does not", ...: the verbs that make what follows unwanted ("do not want Jira").
_UNWANTED = re.compile(
    r"\s+(?:want|need|like|use|suggest|recommend|include|show|give me|depend on|rely on|require|run on|"
    r"involve)\b",
    re.IGNORECASE,
)


def negated(text: str) -> tuple[str, list[str]]:
    """The text without what it says it does not want, and those parts: "a database but not
    postgres" is ("a database", ["postgres"]). Only a part that begins with a thing (_names_a_thing)
    is unwanted: "weather, no API key" and "without local setup" ask for a kind of server, and the
    servers that say "no API key required" are the ones wanted. Linear: each cue is looked at once."""
    names = written_as_names(text)
    out: list[str] = []
    # A thing unwanted within a word ("non-Google", "Zoom-free") or named before its cue ("Zoom
    # excluded") is read first; the rest of the text is read for cues as before.
    spans: list[tuple[int, int, str]] = []
    for m in _NON.finditer(text):
        word = m.group(1) or m.group(2)
        # Only a name ("non-Google", "Zoom-free") or a product the vocabulary knows ("zoom-free"): in
        # lower case such a word is most often a kind ("non-custodial", "gluten-free").
        folded = word.casefold()
        known = folded in vocabulary.EVERYDAY_PRODUCTS or folded in vocabulary.MAKERS
        if known or (word[:1].isupper() and _is_a_thing(word, names | {folded}, short=True)):
            spans.append((m.start(), m.end(), word))
    for m in _AFTER.finditer(text):
        if _names_a_thing(m.group(1), names):
            spans.append((m.start(1), m.end(), m.group(1)))
    cues = sorted(
        [(m.start(), m.end()) for m in _NEGATION.finditer(text)]
        + [(m.start(1), m.end(1)) for m in _CLAUSE_NO.finditer(text)]
    )
    for start, end in cues:
        if any(a <= start < b for a, b, _ in spans):
            continue
        cue = text[start:end]
        folded = cue.casefold()
        if _ADDING.match(text, end) or cue in ("SANS", "SEM"):  # "not only X but Y"; the SANS Institute
            continue
        if folded == "sans" and re.match(r"[\s-]*serif", text[end:], re.IGNORECASE):  # a font
            continue
        if folded == "sans" and cue[0].isupper() and re.search(r"\b[A-Z]\w*\s+$", text[:start]):
            continue  # a font's name: "Open Sans", "Noto Sans"
        if folded in _ENGLISH_TOO and _written_in_english(text, start, end):
            continue  # "sin and cos for trigonometry", "sem and seo keyword tools"
        if folded == "other than" and text[:start].rstrip().casefold().endswith("none"):
            continue  # "none other than Slack" wants it
        if folded == "without" and (_CANNOT_DO.search(text[:start]) or _NOT_BEFORE.search(text[:start])):
            continue  # "can't do without Slack", "not without Slack" want it
        before = [w.casefold() for w in ranking.WORD.findall(text, max(0, start - 40), start)[-3:]]
        verb = re.sub("['\u2019]t$", "", folded)
        contracted = verb != folded or verb == "cannot"
        if folded == "not" or contracted:
            after = ranking.WORD.search(text, end)
            unwanted = _UNWANTED.match(text, end)
            auxiliary = bool(set(before) & _AUXILIARY) or (folded == "not" and before[-1:] and before[-1] in _SUBJECTS)
            if unwanted and (contracted or auxiliary):
                end = unwanted.end()  # "do not want Jira", "please don't suggest Jira", "can't use it"
            elif contracted or auxiliary:
                # "is my page not loading", "does not work": how a thing fails, not what is unwanted;
                # "that is not MySQL", "isn't Slack": a thing right after
                if (contracted and verb not in _BE) or not _begins_with_a_thing(text, end, names, first=1):
                    continue
            elif after and after.group().casefold().endswith("ing") and after.group().casefold() not in _LEADING:
                continue
        stop = _SCOPE_END.search(text, end)
        until = stop.start() if stop else len(text)
        if not _begins_with_a_thing(text, end, names, until):
            # A kind of server in everyday words: "forecasts, not aviation"; a bare "not" only where a
            # clause begins, or with a verb of wanting ("I do not want sports").
            bare = folded == "not" and end == start + 3 and not _CLAUSE_BEFORE.search(text, 0, start)
            doing_without = bool(_DOING_WITHOUT.fullmatch(folded))
            if bare or not _KIND_CUE.fullmatch(folded) or not _names_a_kind(text, end, until, doing_without):
                continue
        spans.append((start, until, text[end:until]))
    kept: list[str] = []
    at = 0
    for start, until, part in sorted(spans):
        if start < at:
            continue
        kept.append(text[at:start])
        out.append(part)
        at = until
    kept.append(text[at:])
    return " ".join(kept), [x for x in out if x.strip()]


def _begins_with_a_thing(text: str, at: int, names: frozenset[str], until: int | None = None, first: int = 2) -> bool:
    """Whether the words from `at` (to `until`, or the end of the clause) begin with a thing: one of
    their `first` words, less those that may come between a cue and a thing (_LEADING), names one
    ("that is not MySQL": only the first, for "isn't expiring in Redis" says how a thing fails).
    A product whose name is an everyday word ("not slack", "without zoom") counts only when it is
    all or most of the part."""
    if until is None:
        stop = _SCOPE_END.search(text, at)
        until = stop.start() if stop else len(text)
    content = [
        w
        for w in ranking.WORD.findall(text, at, until)
        if w.casefold() not in _LEADING and w.casefold() not in STOPWORDS
    ]
    short = len(content) <= 2
    return any(_is_a_thing(w, names, short) for w in content[:first])


def _names_a_kind(text: str, at: int, until: int, doing_without: bool = True) -> bool:
    """Whether the words from `at` to `until` name a kind of server in everyday words ("aviation",
    "any traffic", "wine"): one or two words, each a common English word that is none of what a server
    may say it does without (vocabulary.DOES_WITHOUT: "an API key", "local setup"; after a cue that is
    not `doing_without`, such as "except ads", it may be), no verb's -ed form
    ("not synced"), no -ing form with words after it (a verb's: "without losing formatting", "no getting
    blocked"; alone it is a kind: "not marketing", "no betting") and no word of another language."""
    content = [
        w.casefold()
        for w in ranking.WORD.findall(text, at, until)
        if w.casefold() not in _LEADING and w.casefold() not in STOPWORDS and w.casefold() not in _ABOUT
    ]
    return 1 <= len(content) <= 2 and all(
        len(w) > 2
        and w.isalpha()
        and w in vocabulary.ENGLISH
        and (w not in vocabulary.DOES_WITHOUT or not doing_without)
        and not w.endswith("ed")
        and not (w.endswith("ing") and i < len(content) - 1)
        and w not in FILLER
        and w not in _AUXILIARY
        and w not in CALENDAR
        and _accents_off(w) not in vocabulary.TRANSLATIONS
        for i, w in enumerate(content)
    )


def _written_in_english(text: str, start: int, end: int) -> bool:
    """Whether a need is written in English, the word from `start` to `end` aside: none of its words is
    another language's (a little word, or one the vocabulary translates that is no English word), and
    more than half of them are common English words ("sin and cos for trigonometry"; not "chat de
    equipo sin Slack", nor "chat sin anuncios")."""
    words_ = [w.casefold() for w in ranking.WORD.findall(text[:start] + " " + text[end:]) if w.isalpha()]
    if not words_:
        return False
    english = 0
    for w in words_:
        key = _accents_off(w)
        if w not in vocabulary.ENGLISH and (
            key in OTHER_STOPWORDS or key in vocabulary.OTHER_LITTLE_WORDS or key in vocabulary.TRANSLATIONS
        ):
            return False
        english += w in vocabulary.ENGLISH or w in STOPWORDS
    return english * 2 > len(words_)


def _names_a_thing(part: str, names: frozenset[str]) -> bool:
    """Whether a part a need says it does not want names a thing (a product, a maker, a name it writes
    with a capital), not a kind of feature in everyday words ("an API key", "local setup", "losing
    data", "code")."""
    words_ = ranking.WORD.findall(part)
    return any(_is_a_thing(w, names, len(words_) <= 2) for w in words_)


def _is_a_thing(word: str, names: frozenset[str], short: bool = False) -> bool:
    """A word written as a name (not one capitalised by grammar: "non-English"), or one that is no
    common English word, no word the Directory reads as never a product, none of what a server may say it
    does without (vocabulary.DOES_WITHOUT) and no little word of another language; or, in a short part, a product whose name is an everyday word (vocabulary.EVERYDAY_PRODUCTS)."""
    folded = word.casefold()
    if folded in vocabulary.NOT_PRODUCTS or folded in STOPWORDS or folded in vocabulary.OTHER_LITTLE_WORDS:
        return False
    if folded in vocabulary.DOES_WITHOUT:  # "no signup", "without local setup", "no KYC": a server's way
        return False
    if folded in CALENDAR or folded in _LEADING or _accents_off(folded) in vocabulary.TRANSLATIONS:
        return False  # "non-English"; "not made by"; a task or thing in another language ("sin usar")
    if short and (folded in vocabulary.EVERYDAY_PRODUCTS or folded in vocabulary.MAKERS):
        return True
    return folded in names or (folded not in vocabulary.ENGLISH and not folded.isdigit() and len(folded) > 1)


@functools.lru_cache(maxsize=512)
def wanted_and_not(need: str) -> tuple[str, tuple[str, ...]]:
    """The need's own words, its frame and a word cut at its end left out, split into what it asks for
    and what it does not want (negated): read once for both the words searched and the groups left out
    of one answer."""
    text, start, end = unframed(_uncut(need))
    wanted, parts = negated(text[start:end])
    return wanted, tuple(parts)


def excluded_of(need: str) -> tuple[tuple[str, ...], ...]:
    """What a need says it does not want, as the groups of words a server must hold all of to be left
    out ("not google maps" is one group of two; "not postgres or mysql" two groups of one), less the
    words the need asks for too ("maps, but not google maps" leaves out Google's maps, not maps)."""
    wanted, parts = wanted_and_not(need)
    asked = set(terms_of(wanted))
    groups: list[tuple[str, ...]] = []
    for part in parts:
        for piece in re.split(r"\b(?:or|nor|and|oder|und|o|ou|y|e|et|ni|nor)\b|/|&", part, flags=re.IGNORECASE):
            words_ = tuple(
                w
                for w in terms_of(piece)
                if w not in FRAME_WORDS and w not in vocabulary.OTHER_LITTLE_WORDS and w not in _LEADING
            )
            if words_ and not set(words_) <= asked and words_ not in groups:
                groups.append(words_)
    return tuple(groups)


# A maker -> its products the vocabulary knows (vocabulary.MAKERS) whose names are no common English
# word: a need that does not want Atlassian does not want Jira's servers either, whoever publishes
# them ("teams", "outlook", "lambda" are left to the maker's own name, or would leave out every
# server that speaks of teams). Nor the assistants many servers say they serve ("for Claude Desktop").
_CLIENTS = frozenset("claude chatgpt copilot".split())
PRODUCTS_OF: dict[str, tuple[str, ...]] = {}
for _product, _makers in vocabulary.MAKERS.items():
    for _maker in _makers:
        if _product != _maker and _product not in vocabulary.ENGLISH and _product not in _CLIENTS:
            PRODUCTS_OF[_maker] = (*PRODUCTS_OF.get(_maker, ()), _product)


def _with_products(excluded: tuple[tuple[str, ...], ...]) -> list[tuple[str, ...]]:
    """The groups a server is left out for: each excluded group, of a maker named alone each of its
    products (PRODUCTS_OF), and of a kind named by one of its names the words servers write for it
    (vocabulary.KIND_NAMES: "not TV" leaves out the servers of television too)."""
    out = [tuple(_singular(w) for w in group) for group in excluded]
    for group in excluded:
        if len(group) == 1:
            out += [(p,) for p in PRODUCTS_OF.get(group[0], ()) if (p,) not in out]
        # A kind named in two words, by one of its names and a word that says what of it ("TV shows",
        # "crypto prices", "sports news"): every server of the kind is unwanted, as of the name alone,
        # not only those that hold both words. The second word names the kind when it can, as English
        # compounds go: "sports betting" is betting, not sports, which "sports scores except sports
        # betting" asks for.
        named = [" ".join(group)]
        if len(group) == 2:
            named += [w for w in group[::-1] if w in vocabulary.KIND_NAMES][:1]
        for name in named:
            for kind in vocabulary.KIND_NAMES.get(name, ()):
                words_ = tuple(kind.split())
                if words_ not in out:
                    out.append(words_)
    return out


def _singular(word: str) -> str:
    """An everyday plural a server may write in the singular ("not hotels": a server of "hotel
    bookings"), as the start of a word; a product's name ("teams", "notes" of no one) stays as written."""
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss") and word[:-1] in vocabulary.ENGLISH:
        if word not in vocabulary.EVERYDAY_PRODUCTS and word not in vocabulary.MAKERS:
            return word[:-1]
    return word


def _uncut(need: str) -> str:
    """A need as long as a need may be (tools.NEED_CAP) that ends within a word was cut there: its last
    word is a fragment ("... send an em"), left out."""
    if len(need) >= NEED_CAP and need[-1:].isalnum():
        head = re.sub(r"[^\W_]+$", "", need)
        return head if head.strip() else need
    return need


def read_need(need: str, census: CensusState | None = None) -> tuple[list[str], Cased]:
    """What a question searches for: its words (words_searched) and how it writes them (casing). The
    answer, the bench and the tests all read a need this one way."""
    terms = words_searched(need, census)
    return terms, casing(need, terms)


# A need stated as a trouble ("my invoices are a mess", "I keep forgetting my meetings", "I'm drowning in
# PDFs") says how it feels in words that name no kind of server: what is left is the thing it is about
# (invoices, meetings, PDFs) and the trouble's verb (forgetting), which the vocabulary reads. These
# phrases are left out of the words searched: "keep" before a verb's -ing form or "track" ("keeps
# crashing", "keep track of": not Google Keep), "keep up", a state after "is" or "are" ("a mess",
# "chaos", "all over the place") and a load one is under ("drowning in", "swamped with"). Linear: one
# pass of one expression.
_TROUBLE = re.compile(
    r"\b(?:keeps?|kept)\s+(?:up\b|(?=track\b|[a-z]+ing\b))|"
    r"(?:\b(?:is|are|was|were|gets?|got|getting|becomes?|became)\b|['\u2019](?:s|re))\s+"
    r"(?:(?:such|a|an|total|complete|absolute|real|so|too|really|totally|completely|always|just|kind of)\s+)*"
    r"(?:mess|messy|chaos|chaotic|nightmare|disaster|headache|overwhelming|out of control|all over the place|"
    r"everywhere)\b|"
    r"\b(?:drowning|buried|swamped|overwhelmed|flooded)\s+(?:in|with|by)\b|"
    # a chore that keeps coming back ("I keep having to ...", "every week I end up having to ...",
    # "I'm tired of having to ... by hand"): how often and how it is done, not what
    r"\bhaving\s+to\b|\bends?\s+up\b|\bended\s+up\b|\b(?:tired|sick)\s+of\b|\bby\s+hand\b|"
    r"\bover\s+and\s+over(?:\s+again)?\b|\bmyself\b|\bevery\s+(?:single\s+)?(?:day|week|month|morning|evening|time)\b",
    re.IGNORECASE,
)


def untroubled(text: str) -> str:
    """The need without the words that say it is a trouble (_TROUBLE), and without the app an asker
    calls its own (_OWN_APP), its outcomes read as their kinds (outcome_read)."""
    return _OWN_APP.sub(r"\1 \2", _TROUBLE.sub(" ", outcome_read(text)))


_OUTCOMES = tuple((re.compile(p, re.IGNORECASE), kind) for p, kind in vocabulary.OUTCOMES)


def outcome_read(text: str) -> str:
    """The need with each outcome it asks for written as the kind of server that brings it about
    (vocabulary.OUTCOMES: "when the build breaks" is build failures). Linear: a pass of each of the
    table's few expressions."""
    for pattern, kind in _OUTCOMES:
        text = pattern.sub(kind, text)
    return text


# "my app", "our mobile app's", "their new application": the asker's own app is where the thing wanted
# goes, not a kind of server, and the word "app" beside another ("store secrets for my app") found the
# servers of app stores. The word is left out, its possessive and the kind of app kept ("my mobile app"
# is mobile); "my app store listing" names the App Store and is kept.
_OWN_APP = re.compile(
    r"\b(my|our|your|their)\s+((?:(?:own|new|mobile|web|ios|android|iphone|desktop)\s+){0,2})"
    r"(?:apps?|applications?)(?:['\u2019]s?)?\b(?!['\u2019]?s?\s+stores?\b)",
    re.IGNORECASE,
)


# A need's constraint on price, licence or the language of the asker's own code ("on a free tier", "we
# have no budget", "MIT-licensed", "open source", "I can call from my Python code", "written in
# TypeScript") says which of the servers of a thing will do, not which thing: searched as words, "budget"
# and "tier" stood beside "pdf" and "web search" as if wanted, "MIT" found a server of MIT's dining halls,
# and "Python" Python servers where a SQLite one was asked for. The census says too little of price and
# licence to rank by them, so these phrases are left out of the words searched unless they are all the
# need says (words_searched). "cheap" is kept: "cheap flights" asks for fare search. "free" before what
# is free time or room ("a free slot on my calendar", "free disk space") is kept. So are left out a
# choice's words of judgement ("which is better, jira or linear", "postgres vs mysql"): "better" found
# BetterDB. Written in lower case only, so that Better Auth and BetterStack, written as names, are still
# searched. "best" is kept, for now: of a need longer than MAX_TERMS ("Hello, I am an AI assistant ...
# Which server fits best?"), leaving it out let a word most lots hold ("ai") into the words searched, and
# AI servers came first. "open source" before what is about open source ("open source intelligence",
# "open source licence compliance") is kept.
# Linear: one pass of each of three expressions over at most 200 characters.
_LANGUAGES = (
    r"(?:python|typescript|javascript|node(?:\.?js)?|golang|go|rust|java|ruby|php|c#|csharp|kotlin|swift|"
    r"elixir|dart|scala|perl|lua)"
)
_OWN_CODE_WORDS = r"(?:code|codebase|app|apps|script|scripts|project|backend|service|program|agent)"
_OWN_CODE = r"(?:\s+" + _OWN_CODE_WORDS + ")?"
_LICENCES = (
    r"(?:mit|apache(?:[\s-]?2(?:\.0)?)?|a?gpl(?:[\s-]?v?[23](?:\.0)?)?|lgpl|bsd|mpl|permissive|open[\s-]?source)"
)
_CONSTRAINT = re.compile(
    # price
    r"\b(?:(?:on|with|in)\s+(?:a|the)\s+)?free\s+(?:tier|plan|version|account)s?\b|"
    r"\b(?:(?:with\s+)?(?:no|without(?:\s+an?)?)\s+paid\s+(?:plan|tier|account|subscription)s?"
    r"(?:\s+(?:needed|required|necessary))?)|"
    r"\b(?:(?:we|i)\s+(?:have|got)\s+|there\s+is\s+|on\s+)?(?:no|zero|a\s+tiny|a\s+small|a\s+tight|a\s+limited|"
    r"little|low|a\s+low)\s+budget\b|"
    r"\b(?:for\s+|totally\s+|completely\s+)?(?<![\w-])free(?![\w-])(?:\s+(?:to\s+use|of\s+charge))?"
    r"(?!\s+(?:slots?|time|times|busy|space|memory|ports?|disk|up|spots?|periods?|windows?|hours?|days?|rooms?|"
    r"seats?|tables?)\b)|"
    # licence
    r"\b(?:licen[cs]ed|released)\s+(?:under|as)\s+(?:the\s+|an?\s+)?" + _LICENCES + r"(?:\s+licen[cs]e)?\b|"
    r"\b(?:under|with)\s+(?:the\s+|an?\s+)?" + _LICENCES + r"\s+licen[cs]e\b|"
    r"\b(?:an?\s+)?" + _LICENCES + r"[\s-]+licen[cs](?:ed|e)\b|"
    r"\bopen[\s-]?sourced?\b(?!\s*(?:intelligence|licen|compliance|projects?\b|repos|repositor|packages?\b|"
    r"contribut|maintainer|communit|funding|software\s+supply))|"
    # the language of the asker's own code
    r"\b(?:(?:that|which)\s+)?(?:i|we|you)\s+can\s+(?:use|call|import|run)\s+from\s+(?:my\s+|our\s+)?(?:own\s+)?"
    + _LANGUAGES
    + _OWN_CODE
    + r"\b|"
    r"\b(?:usable|callable|accessible)\s+from\s+(?:my\s+|our\s+)?(?:own\s+)?" + _LANGUAGES + _OWN_CODE + r"\b|"
    r"\bfrom\s+(?:my|our)\s+(?:own\s+)?" + _LANGUAGES + r"\s+" + _OWN_CODE_WORDS + r"\b|"
    r"\b(?:written|implemented|built)\s+in\s+" + _LANGUAGES + r"(?![\w#])",
    re.IGNORECASE,
)
# "in TypeScript" at the end of a clause is the language a server is used from or written in, except in
# a clause about code or the language itself ("run code in Python", "unit tests in Java", "crates docs in
# Rust", "hello world in Rust", "examples of async in Python").
_IN_LANGUAGE = re.compile(r"\s+in\s+" + _LANGUAGES + r"(?=\s*(?:[.,;:!?)]|$))", re.IGNORECASE)
_CLAUSE_ENDS = re.compile(r"[.,;:!?()]")
_CODE_WORDS = frozenset(
    "code codes script scripts snippet snippets test tests notebook notebooks function functions program programs "
    "bug bugs error errors exception exceptions class classes module modules package packages library libraries "
    "written implemented built doc docs documentation tutorial tutorials example examples sample samples crate "
    "crates gem gems syntax idiom idioms world".split()
)
# Lower case only: "Better Auth" and "VS Code" are products, and so are "better auth" and "vs code".
_JUDGEMENT = re.compile(
    r"(?<![\w-])(?:better(?!\s+(?:auth|stack)\b)|easier|easiest|nicer|simpler|freshest|vs(?!\s+code\b)|versus)"
    r"(?![\w-])\.?"
)


def _about_code(clause: str) -> bool:
    return not _CODE_WORDS.isdisjoint(w.casefold() for w in clause.split())


def _language_kept(text: str, m: re.Match[str]) -> str:
    """The match ("in Rust") kept when its clause is about code or the language, else dropped."""
    clause_start = max((c.end() for c in _CLAUSE_ENDS.finditer(text, 0, m.start())), default=0)
    return m.group(0) if _about_code(text[clause_start : m.start()]) else ""


def unconstrained(text: str) -> str:
    """The need without its constraints on price, licence and the language of the asker's code, and
    without a choice's words of judgement (_CONSTRAINT, _IN_LANGUAGE, _JUDGEMENT)."""
    text = _CONSTRAINT.sub(" ", text)
    text = _IN_LANGUAGE.sub(lambda m: _language_kept(text, m), text)
    return _JUDGEMENT.sub(" ", text)


def words_searched(need: str, census: CensusState | None = None) -> list[str]:
    """The words searched, which the answer shows: the need's words (terms_of) as the census spells
    them (ranking.spelled), and of a long need the MAX_TERMS that fewest lots hold, in the order
    given. An agent's errand names its product anywhere in a sentence ("... in Stripe" at its end),
    and the words most lots hold say least about which server it needs."""
    s = census or seal()
    known = ranking.CENSUS.load(s.root, s.as_of)
    words = known.words
    wanted, _ = wanted_and_not(need)
    names = written_as_names(need)
    # A need that says only its constraint ("something free", "open source") searches for it.
    read = terms_of(untroubled(unconstrained(wanted))) or terms_of(untroubled(wanted))
    terms = ranking.spelled(translated(read, words), words, names, known.named)
    if len(terms) > MAX_TERMS:

        def rank(i: int) -> tuple[int, int, int, int, int]:
            # A product the need names is kept first (a word it writes as a name, or a namespace's
            # owner or a product the vocabulary knows that is not a common English word), unless it
            # is one of the census's common words ("AI"). Of the rest, the census's common words go
            # first, everyday filler next, then the words most lots hold.
            t = terms[i]
            owner = (t in known.by_owner or t in vocabulary.MAKERS) and t not in vocabulary.ENGLISH
            named = (t in names or owner) and t not in known.common
            return (not named, t in known.common, t in FILLER, words.get(t, 0), i)

        terms = [terms[i] for i in sorted(sorted(range(len(terms)), key=rank)[:MAX_TERMS])]
    return terms


# A word of another language that at most this many lots hold (of some 12,000 searchable) is searched
# in English instead: a few servers describe themselves in Spanish ("datos" 7, "banco" 16).
TRANSLATE_UPTO = 20
# A word of another language is searched in English only when it is at least this long, and a word
# no lot holds is read as two (a German compound) only when each part is at least this long.
TRANSLATE_FROM = 2
COMPOUND_PART = 4


def translated(terms: list[str], held: dict[str, int]) -> list[str]:
    """The need's words, those of another language that the vocabulary knows (vocabulary.TRANSLATIONS,
    looked up with their accents off) in English in their place, and its little words out
    (vocabulary.OTHER_LITTLE_WORDS): the census is written in English. Only a word that at most
    TRANSLATE_UPTO lots hold is read so; a word the census uses is searched as written, so a need in
    English is never changed. A word no lot holds may be two the vocabulary knows (a German compound:
    "wettervorhersage" is wetter and vorhersage); a word of Japanese, Chinese or Korean holds several
    (vocabulary.CJK_RUNS: "天気予報を調べて" is weather and forecast). Two neighbouring words may name one thing
    ("base de datos"). Linear: each word looked up a bounded number of times."""
    keys = [_accents_off(t) for t in terms]
    rare = [held.get(t, 0) <= TRANSLATE_UPTO and len(t) >= TRANSLATE_FROM for t in terms]
    out: list[str] = []
    i = 0
    while i < len(terms):
        key = keys[i]
        pair = f"{key} {keys[i + 1]}" if i + 1 < len(terms) else ""
        if pair in vocabulary.TRANSLATIONS and (rare[i] or rare[i + 1]):
            out.extend(vocabulary.TRANSLATIONS[pair])
            i += 1
        elif not rare[i]:
            out.append(terms[i])
        elif key in vocabulary.OTHER_LITTLE_WORDS:
            pass
        elif _CJK.search(terms[i]):  # as written: taking accents off would take kana's marks off too
            out.extend(_cjk_runs(terms[i]) or [terms[i]])
        elif key in vocabulary.OTHER_SENSE and _calls_for(vocabulary.OTHER_SENSE[key][1], keys, i):
            out.extend(vocabulary.OTHER_SENSE[key][0])  # "paiement par carte" is a card, not a map
        elif key in vocabulary.TRANSLATIONS:
            out.extend(vocabulary.TRANSLATIONS[key])
        else:
            parts = None if held.get(terms[i]) else _compound(key)
            out.extend(parts or [terms[i]])
        i += 1
    kept = [w for w in out if w not in STOPWORDS]
    return list(dict.fromkeys(kept or terms))


def _calls_for(words_: frozenset[str], keys: list[str], at: int) -> bool:
    """Whether a word of the need other than the one at `at`, or its English, is one of `words_`."""
    return any(
        k in words_ or any(e in words_ for e in vocabulary.TRANSLATIONS.get(k, ()))
        for j, k in enumerate(keys)
        if j != at
    )


# Japanese kana, the ideographs and Korean's syllables: scripts written without spaces between words.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")


def _cjk_runs(word: str) -> list[str]:
    """The English words for the runs of characters the vocabulary knows within a word of Japanese,
    Chinese or Korean (vocabulary.CJK_RUNS), the longest run first at each place, in the order written."""
    out: list[str] = []
    i = 0
    while i < len(word):
        for length in range(min(vocabulary.CJK_LONGEST, len(word) - i), 1, -1):
            if word[i : i + length] in vocabulary.CJK_RUNS:
                out.extend(vocabulary.CJK_RUNS[word[i : i + length]])
                i += length
                break
        else:
            i += 1
    return out


def _compound(word: str) -> list[str] | None:
    """A word no lot holds read as two the vocabulary knows, each in English (the first may end in the
    s that joins German words: "gesundheitsdaten"), or None."""
    for cut in range(COMPOUND_PART, len(word) - COMPOUND_PART + 1):
        first, second = word[:cut], word[cut:]
        if second in vocabulary.TRANSLATIONS:
            for head in (first, first[:-1] if first.endswith("s") else None):
                if head in vocabulary.TRANSLATIONS:
                    return [*vocabulary.TRANSLATIONS[head], *vocabulary.TRANSLATIONS[second]]
    return None


def _accents_off(word: str) -> str:
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


# A candidate: (lot, relevance, name words, title, description, integrity score, status).
Candidate = tuple[int, float, str, str, str, int, str]


def search_sqlite(terms: list[str], limit: int = CANDIDATES, count: bool = True) -> tuple[int, list[Candidate]]:
    """(how many lots match, the best candidates by FTS5's bm25), in two statements: a count, and the
    ranked candidates joined to their lots' words."""
    query = " OR ".join(f'"{t}"*' if len(t) >= PREFIX_FROM else f'"{t}"' for t in terms)
    with connection.cursor() as c:
        matches = 0
        if count:
            c.execute("SELECT count(*) FROM town_hall_lot_fts WHERE town_hall_lot_fts MATCH %s", [query])
            matches = c.fetchone()[0]
        c.execute(
            "SELECT l.number, -f.r, l.search_name, l.search_title, l.search_description, l.score, l.status "
            "FROM (SELECT rowid, bm25(town_hall_lot_fts, 4.0, 3.0, 1.0) AS r FROM town_hall_lot_fts "
            "WHERE town_hall_lot_fts MATCH %s ORDER BY r LIMIT %s) f "
            "JOIN town_hall_lot l ON l.number = f.rowid ORDER BY f.r",
            [query, limit],
        )
        rows = c.fetchall()
    return matches, rows


def search_postgresql(terms: list[str], limit: int = CANDIDATES, count: bool = True) -> tuple[int, list[Candidate]]:
    """(how many lots match, the best candidates by ts_rank_cd over the GIN index). One scan gives the
    count too, as a window over the matching rows."""
    query = " | ".join(f"{t}:*" if len(t) >= PREFIX_FROM else t for t in terms)
    with connection.cursor() as c:
        c.execute(
            "SELECT l.number, f.r, l.search_name, l.search_title, l.search_description, l.score, l.status, f.n "
            "FROM (SELECT lot, ts_rank_cd('{0.1, 0.3, 0.7, 1.0}', doc, q) AS r, count(*) OVER () AS n "
            "FROM town_hall_lot_search, to_tsquery('english', %s) q WHERE doc @@ q ORDER BY r DESC LIMIT %s) f "
            "JOIN town_hall_lot l ON l.number = f.lot ORDER BY f.r DESC",
            [query, limit],
        )
        rows = c.fetchall()
    return (int(rows[0][7]) if rows else 0), [r[:7] for r in rows]


def _tsquery_safe(terms: list[str]) -> list[str]:
    # terms are runs of letters and digits already; this keeps to_tsquery's operators out for good.
    return [t for t in terms if re.fullmatch(r"[^\W_]+", t)]


def stem(term: str) -> str:
    """A crude stem for counting coverage: enough that "databases" holds "database"."""
    for suffix in ("ies", "es", "s", "ing", "ed"):
        if len(term) > len(suffix) + 3 and term.endswith(suffix):
            return term[: -len(suffix)]
    return term


def common_words() -> dict[str, float]:
    """The common words of the searchable lots, with the share of lots that hold each (kept in the
    census's state at every seal)."""
    df: Counter[str] = Counter()
    rows = Lot.objects.exclude(status="deleted").values_list("search_name", "search_title", "search_description")
    n = 0
    for row in rows.iterator(chunk_size=2000):
        n += 1
        df.update(set(re.findall(r"[^\W_]+", " ".join(row).casefold())))
    return {w: round(c / n, 4) for w, c in df.most_common() if c > COMMON_LOTS and c / n > COMMON_SHARE}


def recall_terms(terms: list[str], common: dict[str, float]) -> list[str]:
    """The terms that recall lots: the distinctive ones. When every term is common, the rarest one."""
    rare = [t for t in terms if t not in common]
    return rare or [min(terms, key=lambda t: common[t])]


# Whether anything in the census fits a need closely: each of the need's words weighs by how few lots
# hold it (the log of the lots over the lots that hold it, one more each), and the best shown server
# holds a share of that weight. At least CLOSE_SHARE fits; below LOOSE_SHARE nothing does; between
# them, it fits unless the need holds a word no lot holds at all (not a name it writes: a city, say),
# which says the census lacks what the need is about ("my pet tortoise"). Set on the other
# evaluations' needs (each has servers that fit) and the sixth's tune half (docs/directory.md).
CLOSE_SHARE = 0.4
LOOSE_SHARE = 0.15


@dataclass(frozen=True)
class Found:
    """A question's answer from the census: how many lots match, the best records (each with its
    `why`), whether any of them fits the need closely (CLOSE_SHARE), and how many servers were left
    out for speaking of what the need excludes."""

    matches: int
    records: list[dict[str, Any]]
    close: bool
    left_out: int = 0


def search(
    terms: list[str],
    limit: int,
    common: dict[str, float] | None = None,
    census: CensusState | None = None,
    cased: Cased = NOT_CASED,
) -> tuple[int, list[dict[str, Any]]]:
    """find(), as (how many lots match, the records)."""
    found = find(terms, limit, common, census, cased)
    return found.matches, found.records


def _holds(words_: Iterable[str], whole_below: int = 0) -> re.Pattern[str]:
    """Which of the words a text holds, each as a word's start, or a whole word when shorter than
    whole_below (the index's PREFIX_FROM)."""
    return re.compile(
        "|".join(rf"\b({_SPOKEN.get(w, re.escape(w))}{'' if len(w) >= whole_below else r'\b'})" for w in words_),
        re.IGNORECASE,
    )


def _weight(term: str, known: "ranking.Census") -> float:
    return math.log((len(known.rows) + 1) / (known.words.get(term, 0) + 1))


def _close(terms: list[str], names: frozenset[str], shown: list[int], known: "ranking.Census") -> bool:
    """Whether any shown lot fits the need closely (CLOSE_SHARE, LOOSE_SHARE), its names no lot holds
    left aside."""
    # Everyday filler ("basically", "bunch") says nothing of what the need is about: a need of ten words
    # or fewer still searches it, and a filler word no lot holds made a long need's good answer a weak one.
    counted = [t for t in terms if t not in FILLER and (t not in names or known.holds_start(stem(t)))]
    if not counted or not shown:
        return bool(shown)
    weights = [_weight(t, known) for t in counted]
    total = sum(weights) or 1.0
    holds = _holds(stem(t) for t in counted)
    best = 0.0
    for number in shown:
        name, title, description, _, _ = known.rows[number]
        held = {m.lastindex for m in holds.finditer(f"{name} {title} {description}") if m.lastindex}
        best = max(best, sum(weights[i - 1] for i in held) / total)
    if best >= CLOSE_SHARE:
        return True
    unheld = any(not known.words.get(t) and not known.holds_start(stem(t)) for t in counted)
    return best >= LOOSE_SHARE and not unheld


def find(
    terms: list[str],
    limit: int,
    common: dict[str, float] | None = None,
    census: CensusState | None = None,
    cased: Cased = NOT_CASED,
    excluded: tuple[tuple[str, ...], ...] = (),
) -> Found:
    """(how many lots match, the records of the best `limit`, each with its `why`), best first.

    Candidates come from three places: the text index asked for the need's distinctive terms
    (words most lots hold, like "ai" or "agents", recall nothing by themselves: asking for them alone
    would rank the whole census), the same index asked for the vocabulary's words for the need, and
    every lot whose namespace belongs to a product the need names or its maker. `ranking.score_all`
    orders them; `matches` counts the lots the need's own distinctive terms recall."""
    terms = _tsquery_safe(terms)
    if not terms:
        return Found(0, [], False)
    s = census or seal()
    known = ranking.CENSUS.load(s.root, s.as_of)
    common = known.common if common is None else common
    text = known.text
    assert text is not None  # load() builds it
    reading = ranking.read(terms, *cased)
    matches, found = text.search(recall_terms(terms, common), CANDIDATES)
    # lot -> its bm25 relevance in the text index, scaled to 0..1 (half for lots only the vocabulary brought)
    pool: dict[int, float] = {}
    top = max((r for _, r in found), default=0.0) or 1.0
    for number, relevance in found:
        pool[number] = relevance / top
    extra = [t for t in _tsquery_safe(reading.extra) if t not in common]
    if extra:
        _, more = text.search(extra, EXTRA_CANDIDATES, count=False)
        top = max((r for _, r in more), default=0.0) or 1.0
        for number, relevance in more:
            pool.setdefault(number, 0.5 * relevance / top)
    sought = ranking.owners_sought(reading, known.by_owner)
    for k in sought:
        for number in known.by_owner[k][:OWNED_MAX]:
            pool.setdefault(number, 0.0)
    scored = ranking.score_all(reading, pool, known, stem, sought)
    left_out = 0
    if excluded:
        # A server that speaks of what the need excludes (every word of one excluded group) is left out.
        groups = [_holds(g, PREFIX_FROM) for g in _with_products(excluded)]
        kept = []
        for b in scored:
            name, title, description, _, _ = known.rows[b.number]
            listing = f"{name} {title} {description}"
            if any(len({m.lastindex for m in g.finditer(listing)}) == g.groups for g in groups):
                left_out += 1
            else:
                kept.append(b)
        scored = kept
    best = scored[:limit]
    # The records come from the census in memory (the same root), not from the database.
    records = known.records
    shown = [b for b in best if b.number in records]
    return Found(
        matches,
        [{**json.loads(records[b.number]), "why": ranking.explain(i + 1, b.why)} for i, b in enumerate(shown)],
        _close(terms, cased[0], [b.number for b in shown], known),
        left_out,
    )


def index_sqlite(lots: Iterable[Lot]) -> None:
    """Put lots in the FTS5 index (rowid = lot number); deleted servers are kept out of search."""
    rows = list(lots)
    with connection.cursor() as c:
        c.executemany("DELETE FROM town_hall_lot_fts WHERE rowid = %s", [(lot.number,) for lot in rows])
        c.executemany(
            "INSERT INTO town_hall_lot_fts (rowid, name, title, description) VALUES (%s, %s, %s, %s)",
            [
                (lot.number, lot.search_name, lot.search_title, lot.search_description)
                for lot in rows
                if lot.status != "deleted"
            ],
        )


def index_postgresql(lots: Iterable[Lot]) -> None:
    """Put lots in the tsvector index, weighted name A, title B, description C."""
    numbers = [lot.number for lot in lots]
    with connection.cursor() as c:
        c.execute("DELETE FROM town_hall_lot_search WHERE lot = ANY(%s)", [numbers])
        c.execute(
            "INSERT INTO town_hall_lot_search (lot, doc) SELECT number, "
            "setweight(to_tsvector('english', search_name), 'A') || "
            "setweight(to_tsvector('english', search_title), 'B') || "
            "setweight(to_tsvector('english', search_description), 'C') "
            "FROM town_hall_lot WHERE number = ANY(%s) AND status <> 'deleted'",
            [numbers],
        )


def index_lots(lots: Iterable[Lot]) -> None:
    if connection.vendor == "postgresql":
        index_postgresql(lots)
    else:
        index_sqlite(lots)


def analyze_index() -> None:
    """Fresh statistics after a census changes, so PostgreSQL's planner uses the GIN index well, and
    nothing left in GIN's pending list (migration 0005 turns it off; this empties one made before)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as c:
            c.execute("SELECT gin_clean_pending_list('town_hall_lot_search_doc')")
            c.execute("ANALYZE town_hall_lot_search")
            c.execute("ANALYZE town_hall_lot")


def clear_index() -> None:
    table = "town_hall_lot_search" if connection.vendor == "postgresql" else "town_hall_lot_fts"
    with connection.cursor() as c:
        c.execute(f"DELETE FROM {table}")  # noqa: S608 (a constant name)


# -- The Directory clerk ---------------------------------------------------------------------------

DIRECTORY_BUSY_SAY = "The Directory clerk is busy. Try again in {n} seconds."
# Fresh questions (not answered from memory) one passport may ask a minute, and searches the
# clerk runs at once in one process. Exceeding either gets the busy clerk, never a refusal.
PER_MINUTE = 30
AT_ONCE = 4
MEMORY_SIZE = 1024
# The key of what ask() tells the tool beside 000's fields, for its say only.
ASIDE = "_aside"


class Clerk:
    """The Directory's memory and its limits, kept in this process: a repeated question is answered
    from memory at no cost, and only fresh questions count."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.memory: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self.asked: dict[str, deque[float]] = {}
        self.running = 0

    def recall(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        with self.lock:
            found = self.memory.get(key)
            if found is not None:
                self.memory.move_to_end(key)
            return found

    def keep(self, key: tuple[Any, ...], answer: dict[str, Any]) -> None:
        with self.lock:
            self.memory[key] = answer
            while len(self.memory) > MEMORY_SIZE:
                self.memory.popitem(last=False)

    def begin(self, passport: str) -> None:
        """Take a fresh question, or raise the busy clerk."""
        now = time.monotonic()
        with self.lock:
            asked = self.asked.setdefault(passport, deque())
            while asked and now - asked[0] >= 60:
                asked.popleft()
            if len(asked) >= PER_MINUTE:
                wait = max(1, int(60 - (now - asked[0])) + 1)
                raise Busy(DIRECTORY_BUSY_SAY.format(n=wait), wait)
            if self.running >= AT_ONCE:
                raise Busy(DIRECTORY_BUSY_SAY.format(n=1), 1)
            asked.append(now)
            self.running += 1
            if len(self.asked) > 10000:
                self.asked = {k: v for k, v in self.asked.items() if v and now - v[-1] < 60}

    def end(self) -> None:
        with self.lock:
            self.running -= 1

    def forget_all(self) -> None:
        with self.lock:
            self.memory.clear()
            self.asked.clear()
            self.running = 0


CLERK = Clerk()


def ask(passport: str, need: str, limit: int) -> tuple[dict[str, Any], bool, int]:
    """The Directory's answer: (fields, whether it came from memory, how many servers the census holds)."""
    s = seal()
    terms, cased = read_need(need, s)
    excluded = excluded_of(need)
    key = (s.root, tuple(terms), tuple(sorted(cased[0])), tuple(sorted(cased[1])), excluded, limit)
    remembered = CLERK.recall(key)
    if remembered is not None:
        return remembered, True, s.servers
    CLERK.begin(passport)
    try:
        found = find(terms, limit, census=s, cased=cased, excluded=excluded)
    finally:
        CLERK.end()
    answer = {
        "terms": terms,
        "matches": found.matches,
        "results": [result_view(r) for r in found.records],
        "source": source_line(s),
        # what the say is made of, taken out before the reply (tools.ask_directory)
        ASIDE: {"close": found.close, "excluded": len(excluded), "leftOut": found.left_out},
    }
    CLERK.keep(key, answer)
    return answer, False, s.servers
