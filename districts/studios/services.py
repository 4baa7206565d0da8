"""The Studios' services: which census servers are creative, of which kind, and the day's gallery.

A server is creative when its census record (its name split into words, its title and its
description: the census's search fields) says it makes or edits creative work. The rules, in order
(docs/studios.md says the same, and tests/test_classify.py holds each one):

1. The text is cut into lowercase words (letters and digits); hyphens and slashes split words, so
   "text-to-image" is the words "text to image".
2. For each kind (image, audio, video, writing, design), count its **media words** present (a word,
   or a phrase of words). A kind counts only when the text also has a **making word** (generate,
   create, edit, compose, draw, ...) or one of the kind's **own phrases**, which say making by
   themselves ("text to image", "text to speech", "figma"). "Search a movie database" is not a
   studio; "edit video clips" is.
3. Phrases that name something else are removed before counting: "docker image", "container image",
   "disk image" and "image registry" are not pictures; "sound check" and "design doc" are not art.
4. The kind with the most matches wins; a tie goes to the kind first in the order video, audio,
   image, design, writing (a video editor with a soundtrack is a video studio).
5. A server the registry lists as deleted is never creative.

The gallery shows only creative servers whose deed holder said yes in the hall, as they stood at the
end of the last finished UTC day, so everyone gets the same answer all day, and the public map's is
this same function's.
"""

import datetime as dt
import re
from typing import Any

from clockford.town import clock
from districts.realty import services as realty
from districts.town_hall import services as town_hall
from districts.town_hall.models import Lot

KINDS = ("video", "audio", "image", "design", "writing")
ROUNDING = 5
RESULTS_MAX = 100

MAKING = frozenset(
    """generate generates generating generation generator create creates creating creation creative make makes
    making edit edits editing editor render renders rendering compose composes composing composition draw
    draws drawing paint paints painting synthesize synthesizes synthesis produce produces production remix
    remixes upscale upscaling animate animates illustrate illustrates write writes writing draft drafts
    drafting design designs designing sketch sketches""".split()
)
# Each kind's media words (single words and phrases) and its own phrases, which need no making word.
MEDIA: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "image": (
        frozenset("image images picture pictures photo photos photograph illustration illustrations artwork".split())
        | frozenset("drawing drawings painting paintings sticker stickers art".split()),
        ("text to image", "image generation", "stable diffusion", "dall e", "dalle", "midjourney", "ai art"),
    ),
    "audio": (
        frozenset("audio music song songs sound sounds voice voices speech podcast podcasts melody soundtrack".split()),
        ("text to speech", "tts", "music generation", "voice cloning", "elevenlabs", "suno"),
    ),
    "video": (
        frozenset("video videos film films animation animations footage movie movies clip clips".split()),
        ("text to video", "video generation", "runway", "video editing"),
    ),
    "writing": (
        frozenset("story stories novel novels poem poems poetry fiction screenplay lyrics essay essays".split())
        | frozenset("copywriting manuscript blog".split()),
        ("creative writing", "story writing", "ghostwriting", "copywriting"),
    ),
    "design": (
        frozenset("logo logos mockup mockups wireframe wireframes font fonts palette svg 3d".split())
        | frozenset("graphics graphic poster posters banner banners".split()),
        (
            "figma",
            "canva",
            "blender",
            "ui design",
            "graphic design",
            "color palette",
            "design system",
            "penpot",
            "vector graphics",
        ),
    ),
}
NOT_ART = ("docker image", "container image", "disk image", "image registry", "sound check", "design doc", "os image")


def words_of(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _has(padded: str, phrase: str) -> bool:
    return f" {phrase} " in padded


def kind_of(name_words: str, title: str, description: str, status: str = "active") -> str | None:
    """The creative kind of a census record, or None (the rules are in this module's docstring)."""
    if status == "deleted":
        return None
    padded = " " + " ".join(words_of(f"{name_words} {title} {description}")) + " "
    for phrase in NOT_ART:
        padded = padded.replace(f" {phrase} ", " ")
    words = set(padded.split())
    making = bool(words & MAKING)
    best: tuple[int, int] | None = None
    found: str | None = None
    for order, kind in enumerate(KINDS):
        media, own = MEDIA[kind]
        owned = sum(1 for p in own if _has(padded, p))
        hits = len(words & media) + owned
        if hits == 0 or not (making or owned):
            continue
        score = (hits, -order)
        if best is None or score > best:
            best, found = score, kind
    return found


def kind_of_lot(lot: Lot) -> str | None:
    return kind_of(lot.search_name, lot.search_title, lot.search_description, lot.status)


_census: tuple[str, dict[str, Any]] | None = None


def creative() -> dict[str, Any]:
    """How many creative servers the census holds, in fives, and by kind: counted once per sealed census."""
    global _census
    root = town_hall.state().root
    if _census is not None and _census[0] == root:
        return _census[1]
    by_kind = dict.fromkeys(KINDS, 0)
    rows = Lot.objects.values_list("search_name", "search_title", "search_description", "status")
    for name_words, title, description, status in rows.iterator(chunk_size=2000):
        kind = kind_of(name_words, title, description, status)
        if kind is not None:
            by_kind[kind] += 1
    total = sum(by_kind.values())
    counted = {
        "count": total - total % ROUNDING,
        "byKind": {k: n - n % ROUNDING for k, n in by_kind.items()},
        "counted": f"down to {ROUNDING}s",
    }
    _census = (root, counted)
    return counted


def last_day(now: dt.datetime | None = None) -> dt.date:
    """The last finished UTC day: the one the Studios show all of today."""
    return (now or clock.now()).astimezone(dt.UTC).date() - dt.timedelta(days=1)


def gallery(day: dt.date | None = None) -> dict[str, Any]:
    """The Studios as everyone sees them on `day` (the last finished day by default): the creative
    servers their deed holders showed at its end, by lot."""
    day = day or last_day()
    lots = Lot.objects.filter(number__in=realty.shown_on(day)).order_by("number")
    results: list[dict[str, Any]] = []
    for lot in lots:
        kind = kind_of_lot(lot)
        if kind is None:
            continue
        record = lot.record
        results.append(
            {
                "lot": lot.number,
                "name": record["name"],
                "title": record["title"],
                "kind": kind,
                "house": record["house"],
            }
        )
    shown = len(results)
    return {
        "day": day.isoformat(),
        "results": results[:RESULTS_MAX],
        "showings": {
            "count": shown - shown % ROUNDING,
            "counted": f"down to {ROUNDING}s",
            "capped": shown > RESULTS_MAX,
        },
        "creative": creative(),
    }
