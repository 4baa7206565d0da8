"""Disguises: ways to write a passage so that it reads the same to a person (or to a client that
decodes it) while its code points differ. Each takes the passage and a seeded random generator and
returns the disguised passage; none of them reads the screen or Safe Harbour, so the corpus says
what a reader sees, not what the code happens to catch.

The tables are written out here rather than read from a Unicode package, so that a new release of
that package cannot change the generated files.
"""

import random
from collections.abc import Callable

Disguise = Callable[[str, random.Random], str]

# Letters that look like Latin ones, by script. Only pairs a reader takes for the Latin letter.
CYRILLIC = {
    "a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "i": "і", "j": "ј", "s": "ѕ",
    "d": "ԁ", "h": "һ", "l": "ӏ", "q": "ԛ", "w": "ԝ",
    "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "I": "І", "J": "Ј", "K": "К", "M": "М", "O": "О",
    "P": "Р", "S": "Ѕ", "T": "Т", "X": "Х", "Y": "У",
}  # fmt: skip
GREEK = {
    "a": "α", "i": "ι", "k": "κ", "o": "ο", "p": "ρ", "u": "υ", "v": "ν", "x": "χ", "y": "γ",
    "A": "Α", "B": "Β", "E": "Ε", "H": "Η", "I": "Ι", "K": "Κ", "M": "Μ", "N": "Ν", "O": "Ο", "P": "Ρ",
    "T": "Τ", "X": "Χ", "Y": "Υ", "Z": "Ζ",
}  # fmt: skip
# Cherokee has capitals only that look Latin; a lower-case letter is replaced by its capital's
# look-alike, which a reader of a case-blind passage (a domain, a phrase) still reads as the letter.
CHEROKEE = {
    "a": "Ꭺ", "b": "Ᏼ", "c": "Ꮯ", "d": "Ꭰ", "e": "Ꭼ", "g": "Ᏻ", "h": "Ꮋ", "j": "Ꭻ", "k": "Ꮶ", "l": "Ꮮ",
    "m": "Ꮇ", "p": "Ꮲ", "r": "Ꭱ", "s": "Ꮪ", "t": "Ꭲ", "v": "Ꮩ", "w": "Ꮃ", "z": "Ꮓ",
}  # fmt: skip
CHEROKEE.update({k.upper(): v for k, v in CHEROKEE.items()})
# Lisu capitals, used the same way as Cherokee.
LISU = {
    "a": "ꓮ", "b": "ꓐ", "c": "ꓚ", "d": "ꓓ", "e": "ꓰ", "f": "ꓝ", "g": "ꓖ", "h": "ꓧ", "i": "ꓲ", "j": "ꓙ",
    "k": "ꓗ", "l": "ꓡ", "m": "ꓟ", "n": "ꓠ", "o": "ꓳ", "p": "ꓑ", "r": "ꓣ", "s": "ꓢ", "t": "ꓔ", "u": "ꓴ",
    "v": "ꓦ", "w": "ꓪ", "x": "ꓫ", "y": "ꓬ", "z": "ꓜ",
}  # fmt: skip
LISU.update({k.upper(): v for k, v in LISU.items()})
ARMENIAN = {"o": "օ", "u": "ս", "h": "հ", "n": "ո", "g": "ց", "q": "զ", "d": "ժ"}
SMALL_CAPITALS = {
    "a": "ᴀ", "b": "ʙ", "c": "ᴄ", "d": "ᴅ", "e": "ᴇ", "f": "ꜰ", "g": "ɢ", "h": "ʜ", "i": "ɪ", "j": "ᴊ",
    "k": "ᴋ", "l": "ʟ", "m": "ᴍ", "n": "ɴ", "o": "ᴏ", "p": "ᴘ", "r": "ʀ", "s": "ꜱ", "t": "ᴛ", "u": "ᴜ",
    "v": "ᴠ", "w": "ᴡ", "y": "ʏ", "z": "ᴢ",
}  # fmt: skip


def _math(lower: int, upper: int, digits: int | None = None) -> dict[str, str]:
    table = {chr(ord("a") + i): chr(lower + i) for i in range(26)}
    table.update({chr(ord("A") + i): chr(upper + i) for i in range(26)})
    if digits is not None:
        table.update({chr(ord("0") + i): chr(digits + i) for i in range(10)})
    return table


MATH_BOLD = _math(0x1D41A, 0x1D400, 0x1D7CE)
MATH_SANS = _math(0x1D5BA, 0x1D5A0, 0x1D7E2)
MATH_MONO = _math(0x1D68A, 0x1D670, 0x1D7F6)
# Double-struck capitals have holes (ℂ, ℍ, ℕ, ...); lower case and digits have none, so capitals are
# written as double-struck small letters, which a case-blind reader reads the same.
MATH_DOUBLE = {k: v for k, v in _math(0x1D552, 0x1D552, 0x1D7D8).items()}
MATH_DOUBLE.update({chr(ord("A") + i): chr(0x1D552 + i) for i in range(26)})
FULLWIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}

ZWSP, ZWNJ, ZWJ, WJ, BOM, SHY = "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"
CGJ, MVS, INVISIBLE_TIMES, VS16 = "\u034f", "\u180e", "\u2062", "\ufe0f"
LRM, RLM = "\u200e", "\u200f"
RLO, LRO, PDF = "\u202e", "\u202d", "\u202c"


def swap_letters(table: dict[str, str], share: float = 0.5) -> Disguise:
    """Replace about `share` of the letters the table knows (at least one) with their look-alikes."""

    def run(text: str, rng: random.Random) -> str:
        places = [i for i, c in enumerate(text) if c in table]
        if not places:
            return text
        chosen = set(rng.sample(places, max(1, round(len(places) * share))))
        return "".join(table[c] if i in chosen else c for i, c in enumerate(text))

    return run


def whole(table: dict[str, str]) -> Disguise:
    """Every character the table knows, replaced (fullwidth, mathematical letters)."""
    return lambda text, rng: "".join(table.get(c, c) for c in text)


def prefix_letters(table: dict[str, str], length: int = 4) -> Disguise:
    """Look-alikes in the first `length` characters only: a secret's prefix (ghp_, AKIA, sk-),
    which a reader still recognises while the rest stays a working value."""

    def run(text: str, rng: random.Random) -> str:
        head, tail = text[:length], text[length:]
        return swap_letters(table, 0.6)(head, rng) + tail

    return run


def sprinkle(*hidden: str, every: tuple[int, int] = (2, 4)) -> Disguise:
    """Invisible characters between letters, every few characters, never at either end."""

    def run(text: str, rng: random.Random) -> str:
        out: list[str] = []
        gap = rng.randint(*every)
        for i, c in enumerate(text):
            out.append(c)
            gap -= 1
            if gap <= 0 and 0 < i < len(text) - 1:
                out.append(rng.choice(hidden))
                gap = rng.randint(*every)
        return "".join(out)

    return run


def tags(text: str, rng: random.Random) -> str:
    """The passage written wholly in Unicode tag characters (U+E0020..U+E007E): invisible, yet some
    clients and models read them as the ASCII they encode ("ASCII smuggling")."""
    return "".join(chr(0xE0000 + ord(c)) if " " <= c <= "~" else c for c in text)


def tags_tail(text: str, rng: random.Random) -> str:
    """The first half as written, the second half in tag characters: what a reader sees is cut
    short, what a client that reads tags gets is the whole."""
    cut = len(text) // 2
    return text[:cut] + tags(text[cut:], rng)


def tag_sprinkle(text: str, rng: random.Random) -> str:
    """Single tag characters dropped between letters as invisible noise."""
    return sprinkle(*(chr(0xE0000 + c) for c in (0x41, 0x20, 0x7F, 0x01)))(text, rng)


def rtl_reversed(text: str, rng: random.Random) -> str:
    """The passage stored backwards behind a right-to-left override: drawn, it reads forwards."""
    return RLO + text[::-1] + PDF


def rtl_reversed_open(text: str, rng: random.Random) -> str:
    """As rtl_reversed, with the override left open to the end of the line."""
    return RLO + text[::-1]


def lro_noise(text: str, rng: random.Random) -> str:
    """Left-to-right marks and overrides inside the passage: they change nothing a reader sees."""
    return sprinkle(LRM, LRO + PDF, RLM)(text, rng)


def mixed_case(text: str, rng: random.Random) -> str:
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in text)


def upper(text: str, rng: random.Random) -> str:
    return text.upper()


def spaced_words(text: str, rng: random.Random) -> str:
    """Words apart by runs of spaces, tabs or a line break: a phrase still reads as the phrase."""
    return "".join(rng.choice(["  ", "\t", " \n", "   ", "\u00a0"]) if c == " " else c for c in text)


def then(*steps: Disguise) -> Disguise:
    def run(text: str, rng: random.Random) -> str:
        for step in steps:
            text = step(text, rng)
        return text

    return run
