"""The `directory` section: the Directory judged on its own evaluation, beside two baselines.

The evaluation is tests/bench/directory_needs/ (dev.json and held.json; a second evaluation by another
author, fresh-look.json and fresh-sealed.json; a third, third.json; a fourth, fourth.json; a fifth in
other languages, fifth.json; all written by make.py from the census; and a sixth, by kind, in two
halves written by sixth.py, sixth-tune.json and sixth-check.json, reported by kind (by_kind); and a generated set of
needs that say what they do not want, by the form they say it in, written by negation.py in a dev and a held-out half,
negation-dev.json and negation-held.json, also by kind; and a generated set of three misreadings (a kind of server not
wanted, other languages' negation words in English needs, translations), written by readings.py in a dev and a
held-out half, readings-dev.json and readings-held.json, by kind; and a generated set of kinds no earlier set holds
(an unwanted kind named by a synonym, a trouble, a file format or protocol, a typo, two languages mixed, a platform),
written by seventh.py in a dev and a held-out half, seventh-dev.json and seventh-held.json, by kind; and a generated set
of words that name the wrong thing (a verb in its ordinary sense, a technology's dotted name, an unwanted kind in two
words, a task, a word of another language with two senses), written by eighth.py in eighth-dev.json and
eighth-held.json, by kind; and a generated set of needs as agents write them mid-errand (with the errand
around them, as a question, two things at once, what the server must not do, how it signs in, a task, one
or two words, a brand misspelled), written by ninth.py in ninth-dev.json and ninth-held.json, by kind; and a
generated set of needs written as tasks (an errand, an outcome, a chore that keeps coming back, a chore without
the tool's name, input and output formats, a brand misspelled), written by tenth.py in tenth-dev.json and
tenth-held.json, by kind; and a generated set of seven kinds no earlier set holds (a constraint, a choice, a
source and a destination, a URL, an error message or code, broken English, an acronym), written by eleventh.py in
eleventh-dev.json and eleventh-held.json, by kind):
needs in plain words, each with
every relevant server and the best one. The ranking was tuned on the development half only, later on
fresh-look and then on the third (each of their files says how); held, fresh-sealed, the fourth and
the fifth are its held-out measures. For
each half it prints, for the Directory and two baselines:

- MRR@10: the reciprocal rank of the first relevant server in the first 10, averaged;
- recall@8: of the relevant servers, the share in the first 8, out of at most 8 (a need with 200
  relevant servers and 8 of them first scores 1);
- hit@1: how often the first server is the best one.

The baselines: the registry's own search (a case-insensitive substring of the name, given the whole
need), and a plain keyword search (the full-text index asked for every word of the need, ranked by
the database's relevance alone: bm25 on SQLite, ts_rank_cd on PostgreSQL). It also times
ask_directory through the desk on every need, fresh, server-side.
"""

import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bench.census import P95_TARGET_MS, SNAPSHOT, pct, registry_search
from tests.bench.kit import BenchError, scratch
from tests.support import make_town

NEEDS = Path(__file__).resolve().parent / "directory_needs"
TOP = 10
RECALL_AT = 8
TARGETS = {"mrr": 0.92, "hit1": 0.60, "recall8": 0.70}
# The first evaluation's halves, the second's (directory_needs/fresh.py), the third (third.py) and the
# fourth (fourth.py), each of the last two whole:
# the targets are the issue's, on the first held-out half.
HALVES = ("dev", "held", "fresh-look", "fresh-sealed", "third", "fourth", "fifth")
WHOLE = ("third", "fourth", "fifth")


def load(half: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads((NEEDS / f"{half}.json").read_text())
    return rows


def judge(ranked: list[str], row: dict[str, Any]) -> dict[str, float]:
    relevant, best = set(row["relevant"]), set(row["best"])
    rr = next((1.0 / (i + 1) for i, n in enumerate(ranked[:TOP]) if n in relevant), 0.0)
    found = len(relevant & set(ranked[:RECALL_AT]))
    return {
        "mrr": rr,
        "recall8": found / min(RECALL_AT, len(relevant)) if relevant else 0.0,
        "hit1": 1.0 if ranked[:1] and ranked[0] in best else 0.0,
    }


def rankers() -> dict[str, Any]:
    from django.db import connection

    from districts.town_hall import services
    from districts.town_hall.models import Lot

    names = dict(Lot.objects.exclude(status="deleted").values_list("number", "name"))

    def directory(need: str) -> list[str]:
        terms, cased = services.read_need(need)
        found = services.find(terms, TOP, cased=cased, excluded=services.excluded_of(need))
        return [r["name"] for r in found.records]

    def registry(need: str) -> list[str]:
        return registry_search(need, "name", TOP)

    def keyword(need: str) -> list[str]:
        terms = services._tsquery_safe(services.terms_of(need))
        if not terms:
            return []
        query = services.search_postgresql if connection.vendor == "postgresql" else services.search_sqlite
        _, found = query(terms, TOP)
        return [names[c[0]] for c in found if c[0] in names]

    return {"directory": directory, "registry": registry, "keyword": keyword}


def evaluate(half: str, show: bool = False) -> dict[str, dict[str, float]]:
    """The three rankers' figures on one half (inside the town's process)."""
    rows = load(half)
    figures: dict[str, dict[str, float]] = {}
    for who, ranker in rankers().items():
        judged = []
        for row in rows:
            ranked = ranker(row["need"])
            j = judge(ranked, row)
            judged.append(j)
            if show and who == "directory" and (j["hit1"] < 1 or j["mrr"] < 1):
                print(f"{j['mrr']:.2f} {j['hit1']:.0f} {j['recall8']:.2f}  {row['need']!r} best={row['best']}")
                print("      got", ranked[:5])
        figures[who] = {k: statistics.mean(j[k] for j in judged) for k in TARGETS}
    figures["directory"]["needs"] = len(rows)
    return figures


# A need says where or in which language as often as what: the same needs with a place or a language
# added, each need one phrase chosen by a fixed seed. SEEN were written beside the Directory's list of
# words capitalised by grammar (services.CALENDAR); UNSEEN were not, and name cities it does not hold:
# measured once on 2026-12-05, and what the Directory does with a place it does not know was changed on
# 2026-12-06 knowing its figures. FRESH, written on 2026-12-06 before that change, was never tuned on.
PLACED_HALVES = ("dev", "held", "fresh-sealed", "third")
PLACES_SEEN = (
    " for our team in Germany",
    " near Japan",
    ", answering in French",
    " for Brazilian customers",
    " across Europe",
    " for a Korean user",
    " in the UK",
)
PLACES_UNSEEN = (
    " for a shop in Lagos",
    " near Tokyo",
    " in Berlin",
    " for a client in Mexico",
    ", in Spanish please",
    " for Swiss banks",
    " from India",
    " for Canadian users",
    " in São Paulo",
)
PLACES_FRESH = (
    " for a bakery in Nairobi",
    " near Lisbon",
    " around Chicago",
    " for our office in Amsterdam",
    " in Madrid",
    " for a hotel in Sydney",
    " near Seoul",
    " from Toronto",
    " for a clinic in Zurich",
    " in Denver, Colorado",
)
# Written on 2026-12-06 by another author who was told only what such a phrase is, before the
# Directory was given the cities most asked about (services.CALENDAR), and never read need by need.
PLACES_OTHER = (
    " in Austin, Texas",
    " near Porto, Portugal",
    " for our office in Osaka",
    " for customers in Sao Paulo",
    " based in Melbourne, Australia",
    " around Leeds",
    ", from Bogota, Colombia",
    " across Scandinavia",
    " within Morocco",
    " near Krakow",
    " for a clinic in Pune, India",
    ", in Cape Town please",
    " for our team in Toronto",
    " around Guadalajara, Mexico",
)


# An agent writes its need inside a sentence of its own as often as bare: the same needs framed so,
# each need in every frame. SEEN's misses were read on 2026-12-06 (greetings, a sentence's first word
# capitalised after another sentence); FRESH was written before that, and its misses were read later
# the same day for the frame's own words (services.unframed). SEALED and OTHER never were.
FRAMES_SEEN = (
    "I'm looking for an MCP server for this errand: {}",
    "Which tool in the census can help with: {}?",
    "My person asked me to find a server so I can {}",
    "Hi! Quick question from an agent: {}. Thanks!",
)
FRAMES_FRESH = (
    "Hello there. Could you find something to {}? Much appreciated.",
    "Hey, {} - any ideas?",
    "Urgent: {}. Please advise.",
    "Question from my agent: what server lets me {}?",
)
# Written on 2026-12-06 (the third session) before the fresh frames' misses were read, and never read.
FRAMES_SEALED = (
    "Good morning! I'd love a recommendation: {}. Cheers",
    "Can anyone point me to an MCP that can {}? TIA",
    "Task for today - {}. What would you suggest?",
    "hey, need to {} asap, got anything?",
    "Looking for suggestions: {} (open to any option)",
    "Dear town, I am an assistant trying to {}. Kind regards",
    "Is there a good server to {}? Let me know, thanks in advance.",
    "{} -- best option please",
)
# Written on 2026-12-06 by another author who was told only what a frame is, before the Directory read
# frames at all (the third session), and never read need by need.
FRAMES_OTHER = (
    "Hi there! Looking for a tool that can help with this: {}. Thanks in advance!",
    "Request: {}",
    "[task] {} -- please suggest the best server for this",
    "is there anything that handles this: {}?",
    "my user asked me to find a tool for the following: {}",
    "Hello, I am an AI assistant acting on behalf of a user. The requirement is: {}. Which server fits best?",
    "{} - need this asap, boss is waiting",
    "Good morning. Could you recommend a server for the following need: {}? Kind regards.",
    "quick one: {}. whatever works, doesnt have to be perfect",
    "Need: {} | Context: automated agent run, no human in the loop",
    "hey can u find me something for this -> {} thx",
    "Task from my manager, pretty urgent: {}. Any suggestions?",
    "{}? is that something one of your tools can do",
    'Per the user\'s instructions, please locate a tool matching this description: "{}". Thank you.',
    "ok so the user wants this: {} ... what have you got",
    "Searching for a capability. query = {} . return top match pls",
)


def disguised(variants: Callable[[str, dict[str, Any]], list[str]]) -> dict[str, float]:
    """The Directory's figures on PLACED_HALVES' needs, each asked as every need `variants(half, row)`
    makes of it (one that would pass the 200 characters a need may hold is asked as written)."""
    directory = rankers()["directory"]
    judged = [
        judge(directory(need if len(need) <= 200 else row["need"]), row)
        for half in PLACED_HALVES
        for row in load(half)
        for need in variants(half, row)
    ]
    return {**{k: statistics.mean(j[k] for j in judged) for k in TARGETS}, "needs": len(judged)}


def framed(frames: tuple[str, ...]) -> dict[str, float]:
    """Each need in every one of `frames`."""
    return disguised(lambda half, row: [frame.format(row["need"].rstrip(".?! ")) for frame in frames])


def placed(phrases: tuple[str, ...]) -> dict[str, float]:
    """Each need with one of `phrases` added, chosen by a seed of its half's."""
    chosen = {half: random.Random(f"{half}:{len(phrases)}") for half in PLACED_HALVES}
    return disguised(lambda half, row: [row["need"].rstrip(".?! ") + chosen[half].choice(phrases)])


SIXTH = ("sixth-tune", "sixth-check")
# The generated evaluation of what a need does not want (directory_needs/negation.py), by form.
NEGATION = ("negation-dev", "negation-held")
# The generated evaluation of three misreadings (directory_needs/readings.py), by kind: a kind of server
# not wanted in everyday words, English needs with other languages' negation words, translations.
READINGS = ("readings-dev", "readings-held")
# The generated evaluation of kinds no earlier set holds (directory_needs/seventh.py): an unwanted kind
# named by a synonym, a need stated as a trouble, a file format or protocol, a typo, two languages mixed,
# a platform or place to run.
SEVENTH = ("seventh-dev", "seventh-held")
# The generated evaluation of words that name the wrong thing (directory_needs/eighth.py): a verb in its
# ordinary sense, a technology's dotted or signed name, a kind not wanted in two words, a task, a word of
# another language with two senses.
EIGHTH = ("eighth-dev", "eighth-held")
# The generated evaluation of needs as agents write them mid-errand (directory_needs/ninth.py): with the
# errand around them, as a question, two things at once, what the server must not do, how it signs in, a
# task, one or two words, a brand misspelled.
NINTH = ("ninth-dev", "ninth-held")
# The generated evaluation of needs written as tasks (directory_needs/tenth.py): an imperative errand, the
# outcome wanted, a chore that keeps coming back, a chore without the tool's name, a task naming its input
# and output formats, a brand misspelled by one or two edits.
TENTH = ("tenth-dev", "tenth-held")
# The generated evaluation of seven kinds no earlier set holds (directory_needs/eleventh.py): a constraint on
# price, licence or language, a choice or comparison, a source and a destination, a URL pasted in, an error
# message or code pasted in, broken English, an acronym or a trade's jargon.
ELEVENTH = ("eleventh-dev", "eleventh-held")
# The generated sets measured by kind, in the order they are printed: each set's halves, its table's
# title (given the half's name after the set's), and the width of its kind column.
BY_KIND = (
    (SIXTH, "the sixth evaluation, {} half, by kind", 9),
    (NEGATION, "what a need does not want, generated, {} half, by form", 9),
    (READINGS, "three misreadings, generated, {} half, by kind", 11),
    (SEVENTH, "kinds no earlier set holds, generated, {} half, by kind", 11),
    (EIGHTH, "words that name the wrong thing, generated, {} half, by kind", 11),
    (NINTH, "needs as agents write them, generated, {} half, by kind", 11),
    (TENTH, "needs written as tasks, generated, {} half, by kind", 11),
    (ELEVENTH, "kinds no earlier set holds, eleventh, generated, {} half, by kind", 11),
)


def by_kind(half: str, show: bool = False) -> dict[str, dict[str, float]]:
    """The Directory's figures on one half of the sixth evaluation (directory_needs/sixth.py) or of the
    negation evaluation (negation.py), by kind: MRR@10, recall@8 and hit@1 where a kind has relevant
    servers; for a need that does not want something also `excluded5`, the share of the first five
    results that speak of what the need excludes; for lacks, `told`, the share
    of replies hedged as holding only some of the need's words; for junk, `none`, the share of needs that
    search none of their junk."""
    import re

    from districts.town_hall import services
    from districts.town_hall.models import Lot

    text = {
        n: f"{n.removeprefix('io.github.')} {t} {d}"
        for n, t, d in Lot.objects.values_list("name", "search_title", "search_description")
    }
    out: dict[str, dict[str, float]] = {}
    for kind in dict.fromkeys(r["kind"] for r in load(half)):
        rows = [r for r in load(half) if r["kind"] == kind]
        judged: list[dict[str, float]] = []
        for row in rows:
            terms, cased = services.read_need(row["need"])
            found = services.find(terms, TOP, cased=cased, excluded=services.excluded_of(row["need"]))
            ranked = [r["name"] for r in found.records]
            j = judge(ranked, row) if row["relevant"] else {}
            if row.get("excluded"):
                x = re.compile(row["excluded"], re.IGNORECASE)
                j["excluded5"] = sum(1 for n in ranked[:5] if x.search(text[n])) / 5
            if kind == "lacks":
                j["told"] = float(bool(ranked) and not found.close)
            if kind == "junk":
                j["none"] = float(not set(terms) & set(row["absent"]))
            judged.append(j)
            if show:
                print(kind, {k: round(v, 2) for k, v in j.items()}, repr(row["need"]), terms, ranked[:3])
        # A figure of the needs that have it: a need with no relevant server ("how to tie a knot") has none.
        keys = dict.fromkeys(k for j in judged for k in j)
        out[kind] = {k: statistics.mean(j[k] for j in judged if k in j) for k in keys} | {"needs": len(rows)}
    return out


def told_nothing_fits() -> dict[str, float]:
    """Of the other evaluations' needs (each has a server that fits), the share whose reply is hedged as
    holding only some of the need's words: false alarms."""
    from districts.town_hall import services

    flags = []
    for half in HALVES:
        for row in load(half):
            terms, cased = services.read_need(row["need"])
            found = services.find(terms, 8, cased=cased, excluded=services.excluded_of(row["need"]))
            flags.append(float(not found.close))
    return {"share": statistics.mean(flags), "needs": len(flags)}


def timed() -> tuple[list[float], list[float], list[int]]:
    """ask_directory through the desk on every need, each fresh, server-side (ms): the wall-clock time,
    the CPU time of the thread that answered (which other programs on a busy machine do not inflate;
    the database's own work on PostgreSQL, in its server process, is not in it), and the SQL
    statements each call sent to the database (each a round trip on PostgreSQL)."""
    from django.db import connection
    from django.utils import timezone

    from clockford.town import desk
    from clockford.town.models import Passport
    from districts.registry import TOOLS
    from districts.town_hall import services

    services.PER_MINUTE = 10**9  # the bench measures the clerk's work, not its limits
    now = timezone.now()
    passport = Passport.objects.create(issued_at=now, last_seen=now, place="Town Hall")
    tool = TOOLS["ask_directory"]
    needs = [row["need"] for half in ("dev", "held") for row in load(half)]
    for need in needs:  # a town that has been serving has its index and its census in memory
        desk.run(tool, {"need": "warm " + need}, passport, None)
    services.CLERK.forget_all()
    wall, cpu, sql = [], [], []
    sent: list[str] = []

    def count(execute: Any, text: str, params: Any, many: bool, context: Any) -> Any:
        sent.append(text)
        return execute(text, params, many, context)

    for need in needs:
        sent.clear()
        with connection.execute_wrapper(count):
            t0, c0 = time.perf_counter(), time.thread_time()
            r = desk.run(tool, {"need": need}, passport, None)
            cpu.append((time.thread_time() - c0) * 1000)
            wall.append((time.perf_counter() - t0) * 1000)
        sql.append(len(sent))
        if r.is_error or r.structured["say"].endswith("at no cost."):
            raise SystemExit(f"ask_directory did not answer {need!r} fresh: {r.structured['say']}")
    return wall, cpu, sql


def measure() -> None:
    """Runs inside the town's process (manage.py shell); prints one JSON line of figures."""
    import os

    from django.db import connection

    wall, cpu, sql = timed()
    print(
        json.dumps(
            {
                **{half: evaluate(half) for half in HALVES},
                **{half: by_kind(half) for halves, _, _ in BY_KIND for half in halves},
                "false-alarms": told_nothing_fits(),
                "placed-seen": placed(PLACES_SEEN),
                "placed-unseen": placed(PLACES_UNSEEN),
                "placed-fresh": placed(PLACES_FRESH),
                "placed-other": placed(PLACES_OTHER),
                "framed-none": framed(("{}",)),
                "framed-seen": framed(FRAMES_SEEN),
                "framed-fresh": framed(FRAMES_FRESH),
                "framed-sealed": framed(FRAMES_SEALED),
                "framed-other": framed(FRAMES_OTHER),
                "ms": wall,
                "cpu": cpu,
                "sql": sql,
                "vendor": connection.vendor,
                "load": os.getloadavg()[0],
                "cpus": os.cpu_count(),
            }
        )
    )


def rows(figures: dict[str, Any], title: str, keys: tuple[tuple[str, str], ...]) -> None:
    """One line of the Directory's figures for each (key, label), under a title."""
    print(f"  {title}:")
    for key, label in keys:
        f = figures[key]
        said = f"{label}, {f['needs']:.0f} needs"
        print(f"    {said:<58} {f['mrr']:.3f}   {f['recall8']:.3f}    {f['hit1']:.3f}")


def run(opts: Any) -> None:
    print(
        "directory: the Directory's eleven numbered evaluations and two more generated sets (negation, readings),"
        " halves it was tuned on and held-out halves, beside two baselines"
    )
    if not SNAPSHOT.is_file():
        print("  ../shared/census/registry-snapshot.json is not here: skipped.")
        return
    with scratch() as tmp:
        town = make_town(tmp)
        town.env["CLOCKFORD_CALLS_PER_MINUTE"] = "0"  # the desk's per-passport limit: the bench asks 260 times
        done = town.manage("census", "import", str(SNAPSHOT), check=False)
        if done.returncode:
            raise BenchError("the census import failed: " + done.stderr[-500:])
        shell = town.manage("shell", "-c", "from tests.bench.directory import measure; measure()", check=False)
        if shell.returncode:
            raise BenchError("the Directory could not be measured: " + shell.stderr[-800:])
        town.close()
    figures = json.loads(shell.stdout.strip().splitlines()[-1])
    print(f"  database: {'PostgreSQL' if figures['vendor'] == 'postgresql' else 'SQLite'}")
    labels = {
        "directory": "the Directory",
        "registry": "the registry's search (name substring of the whole need)",
        "keyword": "plain keyword search (full text, database relevance alone)",
    }
    for half in HALVES:
        f = figures[half]
        name = f"the {half} evaluation" if half in WHOLE else f"{half} half"
        print(f"  {name}, {f['directory']['needs']:.0f} needs      MRR@10  recall@8  hit@1")
        for who, label in labels.items():
            print(f"    {label:<58} {f[who]['mrr']:.3f}   {f[who]['recall8']:.3f}    {f[who]['hit1']:.3f}")
        if half == "held":
            verdict = "  ".join(
                f"{k} {'PASS' if f['directory'][k] >= t else 'MISS'} (>= {t:.2f})" for k, t in TARGETS.items()
            )
            print(f"    targets on the held-out half: {verdict}")
    rows(
        figures,
        f"the same needs with a place or a language added ({', '.join(PLACED_HALVES)}), the Directory",
        (
            ("placed-seen", "phrases seen while tuning"),
            ("placed-unseen", "phrases measured once, then tuned on"),
            ("placed-fresh", "phrases never tuned on"),
            ("placed-other", "phrases by another author, never read"),
        ),
    )
    rows(
        figures,
        f"the same needs inside an agent's own sentence ({', '.join(PLACED_HALVES)}), the Directory",
        (
            ("framed-none", "as written"),
            ("framed-seen", "frames whose misses were read"),
            ("framed-fresh", "frames read for services.unframed"),
            ("framed-sealed", "frames written later, never read"),
            ("framed-other", "frames by another author, never read"),
        ),
    )
    for halves, title, width in BY_KIND:
        for half in halves:
            print(f"  {title.format(half.partition('-')[2])} (the Directory)")
            for kind, f in figures[half].items():
                said = ", ".join(f"{k} {v:.3f}" for k, v in f.items() if k != "needs")
                print(f"    {kind:<{width}} {f['needs']:>3.0f} needs: {said}")
    fa = figures["false-alarms"]
    print(
        f"  of the other evaluations' {fa['needs']:.0f} needs, told only some of their words are held: {fa['share']:.3f}"
    )
    ms, cpu = figures["ms"], figures["cpu"]
    verdict = "PASS" if pct(ms, 95) <= P95_TARGET_MS else "MISS"
    print(
        f"  ask_directory through the desk, every need fresh: p50 {pct(ms, 50):.2f} ms  p95 {pct(ms, 95):.2f} ms"
        f"  (target p95 <= {P95_TARGET_MS:.0f} ms)  {verdict}"
    )
    print(
        f"    of which CPU time in the answering thread: p50 {pct(cpu, 50):.2f} ms  p95 {pct(cpu, 95):.2f} ms;"
        f" load average {figures['load']:.1f} on {figures['cpus']} CPUs while timed"
    )
    sql = figures["sql"]
    print(
        f"    SQL statements per call (the desk's included): {min(sql)} to {max(sql)}, mean {statistics.mean(sql):.1f}"
    )
