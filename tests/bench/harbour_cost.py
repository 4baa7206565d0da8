"""What Safe Harbour costs an ordinary write that repeats nothing (docs/holds.md).

    PYTHONPATH=. DJANGO_SETTINGS_MODULE=clockford.settings .venv/bin/python -m tests.bench.harbour_cost [--profile]

A short note, a 2 KB note and a 16 KB write (the words corpora's ordinary writes, joined) against 0, 200
and 2,000 handed passages: every harbour corpus's passages (both halves) and the census's, then the
census snapshot's descriptions, each once, to make up the number. Process time, best of five, the
passages' forms made beforehand as the town keeps them (one call first). With --profile, each reading's
share of the short note against 2,000, under cProfile (cumulative, harbour.py's functions only).
"""

import cProfile
import json
import pstats
import sys
import time

from clockford.town import harbour
from clockford.town.harbour import Handed
from clockford.town.tests import corpus
from clockford.town.tests.corpus import (
    footnote_letters,
    footnotes,
    misspelt,
    near_close,
    near_repeats,
    redteam,
    reordered,
)
from tests.support import SHARED

SHORT = "Thanks for the list. I moved the parcel to box 12 and will look at the calendar server again tomorrow."


def passages(n: int) -> list[Handed]:
    """n handed passages: the corpora's and the census's first, then census descriptions."""
    out: list[Handed] = []
    for module in (reordered, misspelt, near_repeats, near_close, redteam, footnotes, footnote_letters):
        for half in ("dev", "held"):
            out += module.handed(half)
    out += footnotes.census_handed()
    seen = {h.text for h in out}
    with (SHARED / "census" / "registry-snapshot.json").open(encoding="utf-8") as f:
        servers = json.load(f)["servers"]
    for s in servers:
        if len(out) >= n:
            break
        text = s["server"].get("description") or ""
        if text not in seen and harbour.worth_keeping(text):
            seen.add(text)
            out.append(Handed("publisher-words", "ask_directory", "results[].description", text))
    return out[:n]


def writes() -> dict[str, str]:
    """The three writes: a short note, and the words corpora's ordinary writes joined to 2 KB and 16 KB."""
    texts = [c["text"] for c in corpus.load_ordinary("dev")]
    joined = ""
    for t in texts:
        if len(joined) >= 16_384:
            break
        joined += t + "\n"
    return {"short note": SHORT, "2 KB note": joined[:2048], "16 KB write": joined[:16_384]}


def best(text: str, handed: list[Handed], rounds: int = 5) -> float:
    harbour.find_repeat(text, handed)  # the passages' forms, as the town keeps them
    times = []
    for _ in range(rounds):
        start = time.process_time()
        harbour.find_repeat(text, handed)
        times.append(time.process_time() - start)
    return min(times) * 1000


def main(argv: list[str]) -> None:
    everything = passages(2000)
    ws = writes()
    if "--profile" in argv:
        handed = everything
        best(ws["short note"], handed, rounds=1)
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(20):
            harbour.find_repeat(ws["short note"], handed)
        profile.disable()
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats("harbour.py", 25)
        return
    for name, text in ws.items():
        held = [harbour.find_repeat(text, everything[:n]) is not None for n in (0, 200, 2000)]
        figures = ", ".join(f"{n:>5,}: {best(text, everything[:n]):7.2f} ms" for n in (0, 200, 2000))
        print(f"  {name:<12} ({len(text):>6,} characters) against {figures}   held: {held}")


if __name__ == "__main__":
    main(sys.argv[1:])
