"""Lists what the screen and Safe Harbour get wrong on one half of the corpus, for tuning:

    .venv/bin/python -m clockford.town.tests.corpus.misses [dev|held] [KIND ...]

Must-refuse cases that pass, ordinary sentences that are refused, copies that are not held and own
writes that are, one per line as JSON escapes (hidden characters show). KIND narrows to the kinds
(or Safe Harbour variants) named. Tune against dev only: the held-out half measures what the
tuning generalises, and stops measuring it once it is tuned against.
"""

import sys

from clockford.town import words
from clockford.town.harbour import Handed, find_repeat
from clockford.town.tests import corpus


def main(half: str = "dev", *only: str) -> None:
    def wanted(kind: str) -> bool:
        return not only or kind in only

    for case in corpus.load_must_refuse(half):
        if wanted(case["kind"]) and words.screen(case["text"], case["surface"]) is None:
            print(f"passes   {case['kind']:<28} {case['disguise']:<18} {case['text']!a}")
    for case in corpus.load_ordinary(half):
        if wanted(case["kind"]) and (problem := words.screen(case["text"], case["surface"])) is not None:
            print(f"refused  {case['kind']:<28} {problem.kind:<18} {case['text']!a}")
    for case in corpus.load_harbour(half):
        if not wanted(case["variant"]):
            continue
        held = find_repeat(case["text"], [Handed(**h) for h in case["handed"]]) is not None
        if held != (case["kind"] == "copy"):
            print(f"{'missed' if case['kind'] == 'copy' else 'held':<8} {case['variant']:<28} {case['text']!a}")


if __name__ == "__main__":
    main(*sys.argv[1:])
