"""The `census` section: the real snapshot imported, the Directory timed, and its ranking judged.

1. Import ../shared/census/registry-snapshot.json into a fresh town (SQLite, or PostgreSQL when
   DATABASE_URL is set) with `manage.py census import`, twice: the first must take under 60 s, the
   second must change nothing.
2. ask_directory's server-side time over 200 varied questions, every one fresh (none answered from
   memory): the whole call through the desk (transaction, search, footstep, envelope), and the search
   alone. Target: p95 <= 15 ms for the whole call.
3. Mean reciprocal rank (over the first 10 results) of a labelled set of questions, beside the
   registry's own search (a case-insensitive substring of the name, given the whole question) and a
   kinder reading of it (a substring of the name for any one word of the question).

The labels are ours: each question names what a relevant server does, as a pattern over the server's
name, title and description, written before looking at any ranker's answers. The section measures in
the town's own process (`manage.py shell`), so "server-side" means what the town spends on the call.
"""

import json
import os
import re
import statistics
import time
from typing import Any

from tests.bench.kit import BenchError, scratch
from tests.support import SHARED, make_town

SNAPSHOT = SHARED / "census" / "registry-snapshot.json"
IMPORT_TARGET_S = 60.0
P95_TARGET_MS = 15.0
TOP = 10

# (the question an agent asks, what a relevant server does: a pattern over name, title, description)
LABELLED: list[tuple[str, str]] = [
    ("query a postgres database", r"postgres"),
    ("send messages to a slack channel", r"\bslack\b"),
    (
        "search the web for current information",
        r"web search|search the web|search engine|internet search|\b(brave|google|bing|duckduckgo|tavily|serp\w*|searxng)\b.*\bsearch",
    ),
    (
        "automate a web browser",
        r"playwright|puppeteer|selenium|browser automation|automate (a |the )?(web )?browser|headless browser",
    ),
    ("manage kubernetes clusters", r"kubernetes|\bk8s\b"),
    ("weather forecast for a city", r"weather|forecast"),
    ("review github pull requests", r"github.*(pull request|\bprs?\b|code review)|(pull request|code review).*github"),
    ("translate text into another language", r"translat"),
    ("extract text from pdf files", r"\bpdfs?\b"),
    ("send an email", r"\be-?mails?\b|\bgmail\b|\bsmtp\b"),
    ("stock market prices and quotes", r"\bstocks?\b|\bequit(y|ies)\b|\bticker|market data"),
    ("create jira tickets", r"\bjira\b"),
    ("work with notion pages", r"\bnotion\b"),
    ("schedule calendar events", r"calendar"),
    ("transcribe audio recordings to text", r"transcri|speech[- ]to[- ]text|\bwhisper\b"),
    (
        "generate images from a text prompt",
        r"image generation|generat\w* (ai )?images?|text[- ]to[- ]image|dall-?e|stable diffusion|midjourney|\bflux\b",
    ),
    ("run sql on mysql", r"mysql|mariadb"),
    ("manage docker containers", r"docker"),
    ("manage aws cloud resources", r"\baws\b|amazon web services"),
    ("check a crypto wallet balance", r"wallet|crypto|blockchain|ethereum|bitcoin|solana|\bevm\b"),
    ("inspect figma designs", r"figma"),
    ("get youtube video transcripts", r"youtube"),
    ("control spotify playback", r"spotify"),
    ("update salesforce crm records", r"salesforce"),
    ("search my obsidian vault notes", r"obsidian"),
    ("scrape a website into markdown", r"scrap|crawl"),
]

TOPICS = [
    "postgres",
    "slack",
    "web search",
    "browser automation",
    "kubernetes",
    "weather",
    "github",
    "translation",
    "pdf",
    "email",
    "stocks",
    "jira",
    "notion",
    "calendar",
    "transcription",
    "image generation",
    "mysql",
    "docker",
    "aws",
    "crypto wallet",
    "figma",
    "youtube",
    "spotify",
    "salesforce",
    "obsidian",
    "web scraping",
    "sqlite",
    "redis",
    "mongodb",
    "linear issues",
    "google drive",
    "excel spreadsheets",
    "maps and routes",
    "payments",
    "invoices",
    "vector database",
    "code review",
    "security scanning",
    "home automation",
    "news",
]
# Five phrasings with different words, so no two questions come down to the same terms.
PHRASES = [
    "{t}",
    "find a server for {t} integration",
    "I need read-only {t} access",
    "{t} automation for my agents",
    "monitor {t} usage and errors",
]


def questions() -> list[str]:
    return [p.format(t=t) for p in PHRASES for t in TOPICS]


def measure() -> None:
    """Runs inside the town's process (manage.py shell); prints one JSON line of figures."""
    from django.db import connection
    from django.utils import timezone

    from clockford.town import desk
    from clockford.town.models import Passport
    from districts.registry import TOOLS
    from districts.town_hall import services
    from districts.town_hall.models import Lot

    services.PER_MINUTE = 10**9  # the bench measures the clerk's work, not its limits
    now = timezone.now()
    passport = Passport.objects.create(issued_at=now, last_seen=now, place="Town Hall")
    tool = TOOLS["ask_directory"]
    asked = questions()
    assert len({tuple(services.terms_of(q)) for q in asked}) == 200
    # A town that has been serving has its index in memory: warm it with the same words in other
    # questions (one more word each, so nothing is answered from memory), then forget them.
    for q in asked:
        desk.run(tool, {"need": "warm " + q}, passport, None)
    services.CLERK.forget_all()

    whole, alone = [], []
    for q in asked:
        t0 = time.perf_counter()
        r = desk.run(tool, {"need": q}, passport, None)
        whole.append(time.perf_counter() - t0)
        if r.is_error or r.structured["say"].endswith("at no cost."):
            raise SystemExit(f"ask_directory did not answer {q!r} fresh: {r.structured['say']}")
    services.CLERK.forget_all()
    for q in asked:
        t0 = time.perf_counter()
        services.search(services.terms_of(q), 8)
        alone.append(time.perf_counter() - t0)
    # The desk's own share of a call (a transaction, a footstep, the envelope), on the same database:
    # look_around, which reads the census's counts and searches nothing.
    look, baseline = TOOLS["look_around"], []
    for _ in asked:
        t0 = time.perf_counter()
        desk.run(look, {}, passport, None)
        baseline.append(time.perf_counter() - t0)

    texts = {
        n: f"{name} {title} {description}"
        for n, name, title, description in Lot.objects.exclude(status="deleted").values_list(
            "number", "name", "search_title", "search_description"
        )
    }
    names = dict(Lot.objects.exclude(status="deleted").values_list("number", "name"))

    def rr(ranked: list[int], pattern: re.Pattern[str]) -> float:
        for i, n in enumerate(ranked[:TOP]):
            if pattern.search(texts.get(n, "")):
                return 1.0 / (i + 1)
        return 0.0

    def any_word(q: str) -> list[int]:
        ws = [w for w in services.terms_of(q) if len(w) >= 3]
        hits = []
        for n, name in names.items():
            k = sum(1 for w in ws if w in name.casefold())
            if k:
                hits.append((-k, name, n))
        return [n for _, _, n in sorted(hits)[:TOP]]

    rows = []
    for q, pat in LABELLED:
        p = re.compile(pat, re.IGNORECASE)
        _, records = services.search(services.terms_of(q), TOP)
        relevant = sum(1 for t in texts.values() if p.search(t))
        rows.append(
            {
                "q": q,
                "relevant": relevant,
                "directory": rr([r["lot"] for r in records], p),
                "registry": rr(registry_search(q), p),
                "anyword": rr(any_word(q), p),
            }
        )
    print(
        json.dumps(
            {
                "whole": whole,
                "alone": alone,
                "baseline": baseline,
                "rows": rows,
                "vendor": connection.vendor,
                "load": os.getloadavg()[0],
                "cores": os.cpu_count(),
                "servers": len(texts),
            }
        )
    )


def registry_search(q: str, field: str = "number", top: int = TOP) -> list[Any]:
    """The registry's own search, the baseline both benches beat: the lots whose name holds the whole
    question as typed (case-insensitive), in name order; each as its `field`."""
    from districts.town_hall.models import Lot

    found = Lot.objects.filter(name__icontains=q).exclude(status="deleted").order_by("name")
    return list(found.values_list(field, flat=True)[:top])


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def run(opts: Any) -> None:
    print("census: the official registry snapshot, imported, asked and judged")
    if not SNAPSHOT.is_file():
        print("  ../shared/census/registry-snapshot.json is not here: skipped.")
        return
    with scratch() as tmp:
        town = make_town(tmp)
        town.env["CLOCKFORD_CALLS_PER_MINUTE"] = "0"  # the desk's per-passport limit: the bench asks 400 times
        t0 = time.monotonic()
        done = town.manage("census", "import", str(SNAPSHOT), check=False)
        first = time.monotonic() - t0
        if done.returncode:
            raise BenchError("the census import failed: " + done.stderr[-500:])
        t0 = time.monotonic()
        again = town.manage("census", "import", str(SNAPSHOT), check=False)
        second = time.monotonic() - t0
        unchanged = "0 new, 0 changed; 0 servers folded (0 new lots); 0 records new or changed." in again.stdout
        shell = town.manage("shell", "-c", "from tests.bench.census import measure; measure()", check=False)
        if shell.returncode:
            raise BenchError("the Directory could not be measured: " + shell.stderr[-800:])
        town.close()
    figures = json.loads(shell.stdout.strip().splitlines()[-1])
    counted = re.search(r"Census: ([\d,]+) servers from ([\d,]+) registry entries", done.stdout)
    servers, entries = counted.groups() if counted else ("?", "?")
    db = "PostgreSQL" if figures["vendor"] == "postgresql" else "SQLite"
    verdict = "PASS" if first < IMPORT_TARGET_S else "MISS"
    print(f"  database: {db}")
    print(
        f"  import    {entries} entries -> {servers} servers in {first:.1f} s (target < {IMPORT_TARGET_S:.0f} s)  {verdict}"
    )
    print(f"  again     {second:.1f} s, {'nothing changed' if unchanged else 'SOMETHING CHANGED'}")
    whole = [x * 1000 for x in figures["whole"]]
    alone = [x * 1000 for x in figures["alone"]]
    verdict = "PASS" if pct(whole, 95) <= P95_TARGET_MS else "MISS"
    print(f"  ask_directory, server-side, 200 varied fresh questions on {figures['servers']:,} servers:")
    print(
        f"    whole call (desk, search, footstep)  p50 {pct(whole, 50):.2f} ms  p95 {pct(whole, 95):.2f} ms"
        f"  (target p95 <= {P95_TARGET_MS:.0f} ms)  {verdict}"
    )
    print(f"    the search alone                     p50 {pct(alone, 50):.2f} ms  p95 {pct(alone, 95):.2f} ms")
    base = [x * 1000 for x in figures["baseline"]]
    print(f"    beside: look_around (the desk alone)  p50 {pct(base, 50):.2f} ms  p95 {pct(base, 95):.2f} ms")
    print(f"    load average while measuring: {figures['load']:.1f} on {figures['cores']} cores")
    rows = figures["rows"]
    mrr = {k: statistics.mean(r[k] for r in rows) for k in ("directory", "registry", "anyword")}
    print(f"  MRR@{TOP} over {len(rows)} labelled questions:")
    print(f"    the Directory (ranked full text)                      {mrr['directory']:.3f}")
    print(f"    the registry's search (name substring, whole question) {mrr['registry']:.3f}")
    print(f"    name substring of any one word of the question         {mrr['anyword']:.3f}")
    print("    question                                     relevant  Directory  registry  any word")
    for r in rows:
        print(
            f"    {r['q'][:44]:<44} {r['relevant']:>8}  {r['directory']:>9.2f}  {r['registry']:>8.2f}  {r['anyword']:>8.2f}"
        )
