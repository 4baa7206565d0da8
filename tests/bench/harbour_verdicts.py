"""Every verdict Safe Harbour gives the harbour corpora, recorded so a change meant to cost less can be
shown to answer the same (docs/holds.md).

    PYTHONPATH=. DJANGO_SETTINGS_MODULE=clockford.settings .venv/bin/python -m tests.bench.harbour_verdicts OUT [FILES]

runs the harbour tests (every clockford/town/tests/test_harbour*.py file, or the FILES given after OUT:
both halves of every corpus, its own writes and the words corpora's ordinary writes read against its
passages), hypothesis seeded so that its drawn texts are the same on every run, with `find_repeat`
recording each call: a digest of the text and of the passages handed, and the verdict, None or the
repeat's label, where, field and passage. OUT is written sorted, one call a line, so two runs compare
byte for byte (`cmp`); name the same FILES before and after, since a test added since makes calls of its
own. The recorder is put in place before any test imports `find_repeat`, so each holds it by name.
"""

import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from clockford.town import harbour

TESTS = Path(__file__).resolve().parents[2] / "clockford" / "town" / "tests"


def _digest(text: str, handed: list[harbour.Handed]) -> str:
    h = hashlib.sha256(text.encode("utf-8", "surrogatepass"))
    for p in handed:
        h.update(b"\x1e" + "\x1f".join((p.label, p.where, p.field, p.text)).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def main(out: str, files: list[str]) -> int:
    import pytest  # noqa: PLC0415 (only the recorder runs tests)

    verdicts: dict[str, str] = {}
    real = harbour.find_repeat

    def recording(text: str, handed: Iterable[harbour.Handed]) -> harbour.Repeat | None:
        handed = list(handed)
        found = real(text, handed)
        said = None if found is None else [found.label, found.where, found.field, found.passage]
        verdicts[_digest(text, handed)] = json.dumps(said, ensure_ascii=True)
        return found

    harbour.find_repeat = recording  # type: ignore[assignment]
    files = files or sorted(str(p) for p in TESTS.glob("test_harbour*.py"))
    code = pytest.main(["-p", "no:randomly", "-q", "--hypothesis-seed=0", *files])
    Path(out).write_text("".join(f"{k} {v}\n" for k, v in sorted(verdicts.items())), encoding="utf-8")
    held = sum(v != "null" for v in verdicts.values())
    print(f"{len(verdicts)} distinct calls recorded, {held} held; tests exit {int(code)}")
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
