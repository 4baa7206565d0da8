"""Writes clockford/town/fold_table.json, the matching form's table of characters (see
clockford/town/matching.py). Run it again when Python's Unicode version or confusable-homoglyphs
changes: `python -m clockford.town.tests.data.make_fold_table`.

Each character the table names becomes its entry in the matching form; every other character stays
as it is. A character's entry is built in this order:
- default-ignorable characters, format characters (Cf), variation selectors, tag characters,
  combining marks (Mn, Me) and control characters other than whitespace become nothing, and so do
  modifier letters (Lm) that do not fold to a Latin letter;
- the rest take their compatibility form (NFKC: fullwidth, mathematical alphanumerics, ligatures),
  with marks stripped (é is e, a "Zalgo" stack is its bare letter);
- then each character that is not ASCII takes its Unicode TR39 confusable prototype when that is
  ASCII (Cyrillic а, Cherokee Ꭺ, the modifier colon ꞉, the division slash ∕), as confusable-homoglyphs
  ships it, and the dots that only look like dots, and the letters whose prototype is one of them (the
  sinological dot ꞏ), become ".".
"""

import json
import re
import sys
import unicodedata
from pathlib import Path

from confusable_homoglyphs import confusables

OUT = Path(__file__).resolve().parents[2] / "fold_table.json"

# DerivedCoreProperties.txt, Default_Ignorable_Code_Point (Unicode 15.1).
DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]  # fmt: skip
WHITESPACE_CONTROLS = set("\t\n\r\v\f\x1c\x1d\x1e\x1f\x85")
# Dots: IDNA reads the ideographic and fullwidth ones as dots; the others only look like one.
DOTS = set(
    "\u3002\uff0e\uff61\u00b7\u0589\u06d4\u0701\u0702\u2022\u2024\u2027\u2219\u22c5\u2e31\u2e33\u30fb"
    "\ufe52\uff65\ua4f8\u1427\u16eb\u0387\u2e30\U00010101"
)
# Where the confusable data picks a letter of the other case (Cyrillic capital І is "l" in TR39's
# skeleton, which is right for comparing but wrong for reading "ADMІN"), the letter as drawn.
CASE = {"І": "I", "Ӏ": "I", "ӏ": "l", "Ι": "I", "ǀ": "l", "Ⲓ": "I", "ⲓ": "i"}
# Lower-case letters the confusable data leaves alone (they are confusable with Latin small capitals
# or not at all) but that pass for Latin letters inside a Latin word: clocκford, Τhe Pοst Office clerκ.
LOOKS_LATIN = {"κ": "k", "τ": "t", "χ": "x", "ω": "w", "ε": "e", "к": "k", "п": "n", "т": "t", "м": "m", "ԁ": "d"}


def ignorable(cp: int) -> bool:
    return any(a <= cp <= b for a, b in DEFAULT_IGNORABLE)


SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])")
# Scripts whose letters all look like capitals: a prototype "l" (TR39's for I-like glyphs) is an I.
CAPITAL_LOOKING = ("LISU LETTER", "CHEROKEE LETTER", "CAPITAL")


def prototype(ch: str) -> str:
    """ch's TR39 prototype if it is one ASCII character, following a chain of at most three; a Latin
    small capital is its letter."""
    name = unicodedata.name(ch, "")
    if small := SMALL_CAPITAL.fullmatch(name):
        return small.group(1).lower()
    seen = ch
    for _ in range(4):
        if seen in DOTS and unicodedata.category(ch) in ("Lo", "Ll", "Lu"):
            # A letter drawn as a dot (the sinological dot ꞏ is a middle dot) reads as one inside a
            # word. Symbols whose prototype is a dot (°, ○) stay themselves: 25°C is no "25.C".
            return "."
        if seen in CASE:
            return CASE[seen]
        if seen in LOOKS_LATIN:
            return LOOKS_LATIN[seen]
        found = confusables.confusables_data.get(seen)
        if not found:
            return ch
        # A prototype drawn with a mark (Cherokee Ꮎ is O̵) is its letter: marks are dropped anyway.
        seen = "".join(c for c in unicodedata.normalize("NFD", found[0]["c"]) if unicodedata.category(c) != "Mn")
        if seen.isascii():
            if len(seen) != 1 or not seen.isprintable():
                return ch
            return "I" if seen == "l" and any(part in name for part in CAPITAL_LOOKING) else seen
    return ch


def fold(ch: str) -> str:
    cp = ord(ch)
    if ch in WHITESPACE_CONTROLS:
        return ch
    cat = unicodedata.category(ch)
    if cat in ("Cc", "Cf", "Cs", "Mn", "Me") or ignorable(cp):
        return ""
    if ch in DOTS:
        return "."
    s = unicodedata.normalize("NFKC", ch)
    s = "".join(c for c in unicodedata.normalize("NFD", s) if unicodedata.category(c) not in ("Mn", "Me"))
    s = unicodedata.normalize("NFC", s)
    out = []
    for c in s:
        if c in DOTS:
            c = "."
        elif not c.isascii():
            c = prototype(c)
        out.append(c)
    folded = "".join(out)
    # A modifier letter that is no Latin letter (the Arabic tatweel, the IPA stress mark ˌ, the Japanese
    # long-vowel mark ー) lengthens or marks the letter before it; drawn inside or between words it
    # passes for a joiner or a space, so it is read as nothing, as combining marks are.
    if cat == "Lm" and not folded.isascii():
        return ""
    return folded


def main() -> None:
    table: dict[str, str] = {}
    for cp in range(sys.maxunicode + 1):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        if ch.isascii() and (ch.isprintable() or ch in WHITESPACE_CONTROLS):
            continue
        folded = fold(ch)
        if folded != ch:
            table[f"{cp:x}"] = folded
    OUT.write_text(
        json.dumps({"unicode": unicodedata.unidata_version, "fold": table}, ensure_ascii=True, sort_keys=True) + "\n",
        encoding="utf-8",
    )
    print(f"{OUT.name}: {len(table)} characters (Unicode {unicodedata.unidata_version})")


if __name__ == "__main__":
    main()
