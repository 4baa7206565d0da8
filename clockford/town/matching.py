"""The matching form: the words as the screen and Safe Harbour read them, with a map back.

The town keeps, shows and publishes the kept form of free words. What a reader takes from those words
can differ from their code points, so the screen and Safe Harbour read a matching form derived from
the kept text:

- default-ignorable characters (zero-width, word joiner, BOM, variation selectors, the Hangul
  fillers), format characters, combining marks, control characters other than whitespace and
  pictographs (emoji, dingbats; not the checks and stars the screen reads) are removed;
- compatibility forms are folded (NFKC: fullwidth, mathematical alphanumerics, ligatures), and each
  character that is not ASCII becomes its Unicode TR39 confusable prototype when that is ASCII
  (Cyrillic а, Greek ο, Cherokee Ꭺ, the modifier colon ꞉), dots that only look like dots (and the
  letters drawn as one, the sinological dot ꞏ) become ".";
- percent-encoded text (UTF-8) and HTML character references are decoded and folded, a word
  spelled with a space between its letters ("C l o c k f o r d") is read as the word, and a run of
  blanks (tabs too) as one;
- text has up to two readings. What a person sees ("drawn"): tag characters are invisible and a run
  behind a right-to-left override is drawn backwards, so it is read reversed. What a program or a
  model reads ("read"): the characters in order, tag characters decoded to the ASCII they spell,
  each run a word of its own; and, when a run starts or ends inside a word, a third reading with it
  joined to that word. Text with neither has one reading.

The fold of each character is a table built from Python's Unicode data and the confusable data
(clockford/town/fold_table.json, written by clockford/town/tests/data/make_fold_table.py), so that
making the form is a few passes of C code over the text: `str.translate` and regular expressions.
Every form keeps, for each of its characters, the offset of the original character it came from, so
a passage found in the form is quoted from the original words.
"""

import bisect
import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

# Digits and signs written for letters, as Safe Harbour, the staff-voice screen and the channel-name
# rule read them, only in a word that also has a letter: "Ign0re", "adm1n" and "p@ss" are words, "101"
# and "$5" stay what they are. "1" is read as "i"; a reader that needs it as "l" too says so.
LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a", "$": "s"}
_LEET_TABLE = str.maketrans(LEET)
_LEET_BYTES = bytes.maketrans("".join(LEET).encode(), "".join(LEET.values()).encode())
_LEET_WORD = re.compile(r"[A-Za-z0-9@$]+")
_DIGITS_AND_SIGNS = "0123456789@$"  # what _LEET_WORD matches but letters


def as_letters(word: str) -> set[str]:
    """The readings of one word written with digits for letters: "adm1n" is "admin", and "c1ockford"
    "clockford" ("1" read as "i" and as "l"). A word without a letter is only itself."""
    if not any(c.isalpha() for c in word):
        return {word}
    return {word.translate(_LEET_TABLE), word.replace("1", "l").translate(_LEET_TABLE)}


def all_as_letters(text: str) -> tuple[str, str]:
    """The text with every digit and sign of LEET read as a letter, numbers too ("1" as "i", then as
    "l"): a quick reading, a superset of what `letters_for_digits` can spell, to ask it only when
    this spells something."""
    # As bytes: digits and signs are one byte each in UTF-8, never part of another character, and
    # bytes.translate is a table lookup, where str.translate of a text that is not all ASCII is not.
    raw = text.encode("utf-8", "surrogatepass")
    return (
        raw.translate(_LEET_BYTES).decode("utf-8", "surrogatepass"),
        raw.replace(b"1", b"l").translate(_LEET_BYTES).decode("utf-8", "surrogatepass"),
    )


def letters_for_digits(text: str) -> str:
    """The text with each word that has a letter read with its digits and signs as letters (LEET), one
    character for one, so that an offset in it is an offset in the text: "the t0wn 5taff" is "the town
    staff", "room 101" stays."""

    def read(m: re.Match[str]) -> str:
        w = m.group()
        # A word of letters alone, or of digits and signs alone, stays (strip finds a letter in C).
        return w if w.isalpha() or not w.strip(_DIGITS_AND_SIGNS) else w.translate(_LEET_TABLE)

    return _LEET_WORD.sub(read, text)


_TABLE_FILE = Path(__file__).with_name("fold_table.json")


@lru_cache(maxsize=1)
def _table() -> dict[int, str]:
    """The fold as a str.translate table."""
    raw: dict[str, str] = json.loads(_TABLE_FILE.read_text(encoding="utf-8"))["fold"]
    table = {int(cp, 16): out for cp, out in raw.items()}
    # Lone surrogates cannot be written to the table file; a str may still hold one.
    for cp in range(0xD800, 0xE000):
        table[cp] = ""
    # The three characters whose compatibility form is a letter that no longer looks Latin, though
    # they themselves do (NFKC makes the lunate sigma Ϲ a Σ): the letter they are drawn as.
    table.update({0x03F2: "c", 0x03F9: "C", 0xFFE8: "l"})
    # Pictographs read as nothing, as a reader's eye passes over them: "Clockford 🏛️ official" is
    # "Clockford official", "evil🎉.com" a link. The marks the screen reads as words stay (a check
    # that approves, a star that rates), as does a pictograph the fold already maps to something.
    for lo, hi in _PICTOGRAPHS:
        for cp in range(lo, hi + 1):
            if cp not in table and cp not in _MARKS_READ:
                table[cp] = ""
    return table


_PICTOGRAPHS = (
    (0x2600, 0x27BF),  # miscellaneous symbols, dingbats
    (0x1F300, 0x1F5FF),  # miscellaneous symbols and pictographs
    (0x1F600, 0x1F64F),  # emoticons
    (0x1F680, 0x1F6FF),  # transport and map symbols
    (0x1F900, 0x1F9FF),  # supplemental symbols and pictographs
    (0x1FA70, 0x1FAFF),  # symbols and pictographs extended-A
)
# ✓ ✔ ☑ ✅ ✗ ✘ ❌ ★ ☆: read by the staff screen's rules (words._MARK, a review's stars).
_MARKS_READ = frozenset((0x2713, 0x2714, 0x2611, 0x2705, 0x2717, 0x2718, 0x274C, 0x2605, 0x2606))


class _Runs:
    """The map back through a fold that dropped or widened characters in some runs of the text: each
    such run's start in the fold and in the text, found by bisection, and within a run one character
    at a time. Exact, and made from those runs alone, never from the whole text."""

    def __init__(self, table: dict[int, str], unit: int = 0) -> None:
        self._table = table
        self._unit = unit  # when every character of the fold comes from this many of the text
        self.starts: list[int] = []  # each run's start in the fold
        self.froms: list[int] = []  # and in the text
        self.runs: list[str] = []  # the run as it was
        self.folded: list[int] = []  # the length of its fold
        self._shift = 0  # the fold's length minus the text's, up to the last run added

    def add(self, start: int, run: str, folded: str) -> None:
        self.starts.append(start + self._shift)
        self.froms.append(start)
        self.runs.append(run)
        self.folded.append(len(folded))
        self._shift += len(folded) - len(run)

    def __getitem__(self, i: int) -> int:
        k = bisect.bisect_right(self.starts, i) - 1
        if k < 0:
            return i
        offset = i - self.starts[k]
        if offset >= self.folded[k]:
            # Past the run: the text and the fold agree again.
            return self.froms[k] + len(self.runs[k]) + offset - self.folded[k]
        if self._unit:
            return self.froms[k] + offset * self._unit
        for j, ch in enumerate(self.runs[k]):
            offset -= len(self._table.get(ord(ch), ch))
            if offset < 0:
                return self.froms[k] + j
        return self.froms[k] + len(self.runs[k]) - 1

    def last(self, i: int) -> int:
        """The last character of the text that character i of the fold came from."""
        first = self[i]
        k = bisect.bisect_right(self.starts, i) - 1
        if self._unit and k >= 0 and i - self.starts[k] < self.folded[k]:
            return first + self._unit - 1
        return first


class _Later:
    """A map made only when it is first read: most words screened are never quoted."""

    def __init__(self, make: Callable[[], list[int]]) -> None:
        self._make = make
        self._made: list[int] | None = None

    def __getitem__(self, i: int) -> int:
        if self._made is None:
            self._made = self._make()
        return self._made[i]


_Map = list[int] | _Runs | _Later


@dataclass(frozen=True)
class Form:
    """One reading of some words in matching form, with the maps that lead from its offsets back to
    those of the original words (none when every character is its own: ASCII text, for instance)."""

    text: str
    original: str
    maps: tuple[_Map, ...] = ()
    hidden: bool = False  # a reading of what a person cannot see (decoded tag characters)
    monotone: bool = True  # whether the maps keep order (a right-to-left run reversed does not)

    def _back(self, i: int) -> int:
        for m in reversed(self.maps):
            i = m[i]
        return i

    def _back_last(self, i: int) -> int:
        for m in reversed(self.maps):
            i = m.last(i) if isinstance(m, _Runs) else m[i]
        return i

    def span(self, a: int, b: int) -> tuple[int, int]:
        """The span of the original words that form[a:b] came from."""
        if a >= b:
            x = self._back(a) if a < len(self.text) else len(self.original)
            return x, x
        if self.monotone:
            return self._back(a), self._back_last(b - 1) + 1
        picked = [self._back(i) for i in range(a, b)]
        return min(picked), max(picked) + 1

    def quote(self, a: int, b: int) -> str:
        lo, hi = self.span(a, b)
        return self.original[lo:hi]


_OVERRIDE = re.compile("[\u202e\u2067]([^\u202c\u2069\n]*)")
_TAGS = re.compile("[\U000e0000-\U000e007f]")
_TAG_TEXT = re.compile("[\U000e0020-\U000e007e]+")
# A tag run touching something other than a blank on either side (a letter, or a hidden character
# that folding removes, such as a zero-width space between two runs).
_TAG_IN_WORD = re.compile(
    "[^\\s\U000e0000-\U000e007f][\U000e0020-\U000e007e]|[\U000e0020-\U000e007e][^\\s\U000e0000-\U000e007f]"
)
# A percent-encoded printable ASCII character (%68%74%74%70%73%3A%2F%2F is https://).
# An HTML character reference (&#80; &#x50; &amp;), read as the character a browser or a model
# would read.
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_PERCENT = re.compile(r"(?:%[2-7][0-9a-fA-F])+")
# Percent-encoded bytes left after those: whitespace, controls and UTF-8 (%C2%A0 is a no-break space).
# Only runs shaped like text (a control byte, or a UTF-8 lead byte and its continuation bytes), so that
# bytes that spell nothing ("%FF") cost no decoding.
_PERCENT_ANY = re.compile(r"(?:%[01][0-9a-fA-F]|%[c-fC-F][0-9a-fA-F](?:%[89abAB][0-9a-fA-F]){1,3})+")
# Four or more single letters with one space between them, and perhaps a spaced dot: "C l o c k f o r
# d", "e v i l . c o m". Only letters that stand alone: "a b c" inside a sentence is three words.
# A run of blanks reads as one blank (a line break if it holds one), and a tab as a space: words
# spaced apart are the same words, and an expression that backtracks over blanks has none to
# backtrack over.
_BLANKS = re.compile(r"\s{2,}")
# Only from the start of a run of blanks (the lookbehind), and without giving back what it read, so
# that a long run without a line break is read once, not once from each of its places.
_BREAKS = re.compile(r"(?<![^\S\n])[^\S\n]*+\n\s*+")
_SPACES = re.compile(r"[^\S\n]{2,}")
# Three letters standing alone, spaced: found with a literal first (a quick scan) before _SPACED, whose
# lookbehind is tried at every place.
_SPACED_HINT = re.compile(r" [^\W\d_] [^\W\d_] ")
_SPACED = re.compile(r"(?<![^\W\d_])(?:[^\W\d_] (?:\. )?){3,}[^\W\d_](?![^\W\d_])")
# Four letters or more each joined to the next by the same mark: "A_r_e_n_a", "l-e-t-t-e-r",
# "P.o.s.t", read as the word they spell. The quick scan needs four letters and three marks in a row,
# so "e.g." and "x-ray" are never tried.
_JOINED_HINT = re.compile(r"[^\W\d_]([_.-])[^\W\d_]\1[^\W\d_]\1[^\W\d_]")
_JOINED = re.compile(r"(?<![^\W\d])[^\W\d_]([_.-])[^\W\d_](?:\1[^\W\d_])+(?![^\W\d])")


# What the fold may change: every character but printable ASCII and the whitespace controls.
_FOLDABLE = re.compile("[^\t\n\r\x0b\x0c\x1c-\x1f\x20-\x7e]+")


def _translate(text: str, maps: tuple[_Map, ...]) -> tuple[str, tuple[_Map, ...]]:
    """The fold, applied to the runs of text it may change (str.translate walks a character at a
    time, and most text is mostly ASCII), with a map back for the runs whose length changed."""
    table = _table()
    runs = _Runs(table)

    def fold(m: re.Match[str]) -> str:
        run = m.group()
        folded = run.translate(table)
        # A run whose drops and widenings cancel out is mapped one for one: quoted a character or
        # two off at most, and still from the original words.
        if len(folded) != len(run):
            runs.add(m.start(), run, folded)
        return folded

    out = _FOLDABLE.sub(fold, text)
    return out, ((*maps, runs) if runs.runs else maps)


def _rewrite(
    text: str, maps: tuple[_Map, ...], pattern: re.Pattern[str], replace: Callable[[str], tuple[str, list[int]]]
) -> tuple[str, tuple[_Map, ...]]:
    """Each match of pattern replaced by what replace makes of it: the new text, and for each of its
    characters the offset in the match of the character it came from."""
    parts: list[str] = []
    inner: list[int] = []
    last = 0
    for m in pattern.finditer(text):
        parts.append(text[last : m.start()])
        inner.extend(range(last, m.start()))
        new, offsets = replace(m.group())
        parts.append(new)
        inner.extend(m.start() + i for i in offsets)
        last = m.end()
    if not parts:
        return text, maps
    parts.append(text[last:])
    inner.extend(range(last, len(text)))
    return "".join(parts), (*maps, inner)


def _collapse_blanks(text: str, maps: tuple[_Map, ...]) -> tuple[str, tuple[_Map, ...]]:
    """Each run of blanks as one: a line break if it holds one, else a space. Two substitutions in C,
    and the map back made only if a passage is quoted (a text of 40,000 short runs would otherwise
    cost a call of Python each)."""
    out = _SPACES.sub(" ", _BREAKS.sub("\n", text))

    def make() -> list[int]:
        inner: list[int] = []
        last = 0
        for m in _BLANKS.finditer(text):
            inner.extend(range(last, m.start()))
            inner.append(_one_blank(m.group())[1][0] + m.start())
            last = m.end()
        inner.extend(range(last, len(text)))
        return inner

    return out, (*maps, _Later(make))


def _one_blank(s: str) -> tuple[str, list[int]]:
    return ("\n", [s.index("\n")]) if "\n" in s else (" ", [0])


def _unentity(s: str) -> tuple[str, list[int]]:
    decoded = html.unescape(s)
    if decoded == s:
        return s, list(range(len(s)))
    # Folded as the text around it was: "&nbsp;" is a space, "&#8203;" (a zero-width space) nothing,
    # "&#1089;" (Cyrillic с) a c. Left as written, their letters ("nbsp") would join the words.
    folded = decoded.translate(_table())
    return folded, [0] * len(folded)


def _unpercent(s: str) -> tuple[str, list[int]]:
    """A run of percent-encoded bytes that are not all printable ASCII (%0A, %C2%A0, %E2%80%8B), read
    as the UTF-8 text they spell, folded; bytes that spell no text are left as written."""
    try:
        decoded = bytes.fromhex(s.replace("%", "")).decode("utf-8")
    except UnicodeDecodeError:
        return s, list(range(len(s)))
    table = _table()
    out: list[str] = []
    offsets: list[int] = []
    at = 0
    for ch in decoded:
        folded = ch.translate(table)
        out.append(folded)
        offsets.extend([at] * len(folded))
        at += 3 * len(ch.encode("utf-8"))
    return "".join(out), offsets


def _decode_percent(text: str, maps: tuple[_Map, ...]) -> tuple[str, tuple[_Map, ...]]:
    """Runs of percent-encoded printable ASCII decoded, each in one step, with a map back by runs."""
    runs = _Runs({}, unit=3)

    def decode(m: re.Match[str]) -> str:
        decoded = bytes.fromhex(m.group().replace("%", "")).decode("ascii")
        runs.add(m.start(), m.group(), decoded)
        return decoded

    out = _PERCENT.sub(decode, text)
    return out, ((*maps, runs) if runs.runs else maps)


def _despace(s: str) -> tuple[str, list[int]]:
    return s.replace(" ", ""), [i for i, c in enumerate(s) if c != " "]


def _unjoin(s: str) -> tuple[str, list[int]]:
    return s[::2], list(range(0, len(s), 2))


def _untag(s: str) -> tuple[str, list[int]]:
    # Each run a word of its own: the spaces map to its first and last characters.
    return " " + "".join(chr(ord(c) - 0xE0000) for c in s) + " ", [0, *range(len(s)), len(s) - 1]


def _untag_joined(s: str) -> tuple[str, list[int]]:
    return "".join(chr(ord(c) - 0xE0000) for c in s), list(range(len(s)))


def _fold(
    original: str, text: str, maps: tuple[_Map, ...], hidden: bool = False, monotone: bool = True, join: bool = True
) -> Form:
    text, maps = _translate(text, maps)
    if "%" in text:
        text, maps = _decode_percent(text, maps)
        if _PERCENT_ANY.search(text):
            text, maps = _rewrite(text, maps, _PERCENT_ANY, _unpercent)
    if "&" in text and _ENTITY.search(text):
        text, maps = _rewrite(text, maps, _ENTITY, _unentity)
    if join and _SPACED_HINT.search(text) and _SPACED.search(text):
        text, maps = _rewrite(text, maps, _SPACED, _despace)
    if join and _JOINED_HINT.search(text):
        text, maps = _rewrite(text, maps, _JOINED, _unjoin)
    if "\t" in text:
        text = text.replace("\t", " ")  # one character for one: the map is unchanged
    if _BLANKS.search(text):
        text, maps = _collapse_blanks(text, maps)
    return Form(text, original, maps, hidden, monotone)


def _reversed_runs(text: str) -> tuple[str, list[int]]:
    """The text with each run behind a right-to-left override drawn as it shows: backwards."""
    parts: list[str] = []
    at: list[int] = []
    last = 0
    for m in _OVERRIDE.finditer(text):
        a, b = m.start(1), m.end(1)
        parts.append(text[last:a])
        at.extend(range(last, a))
        parts.append(text[a:b][::-1])
        at.extend(range(b - 1, a - 1, -1))
        last = b
    parts.append(text[last:])
    at.extend(range(last, len(text)))
    return "".join(parts), at


def _decoded_tags(text: str) -> tuple[str, tuple[_Map, ...]]:
    """Tag characters read as the ASCII they spell, each run a word of its own (a space either side),
    as a program that decodes them would see it."""
    return _rewrite(text, (), _TAG_TEXT, _untag)


def readings(text: str, join: bool = True) -> list[Form]:
    """The matching forms of text: what a person sees first, then what a program reads if it differs.
    join=False leaves letters spelled with spaces between them as they are (Safe Harbour compares
    its words without spaces anyway, and its skeleton is then a fixed point)."""
    if text.isascii():
        return [_fold(text, text, (), join=join)]
    overridden = _OVERRIDE.search(text) is not None
    if overridden:
        drawn, at = _reversed_runs(text)
        forms = [_fold(text, drawn, (at,), monotone=False, join=join)]
    else:
        forms = [_fold(text, text, (), join=join)]
    if _TAGS.search(text) is not None:
        decoded, maps = _decoded_tags(text)
        forms.append(_fold(text, decoded, maps, hidden=True, join=join))
        # A run that starts or ends inside a word ("Passport Of" and the rest in tag characters) is
        # also read joined to it, as a program that decodes it would: "Passport Office". Tag
        # characters inside a word are read this way too, each run against the next.
        if _TAG_IN_WORD.search(text) is not None:
            joined, maps = _rewrite(text, (), _TAG_TEXT, _untag_joined)
            forms.append(_fold(text, joined, maps, hidden=True, join=join))
    elif overridden:
        forms.append(_fold(text, text, (), join=join))
    return forms


def hidden_readings(text: str) -> list[str]:
    """What a program or a model reads of text beyond what a person sees in it: tag characters
    decoded, a right-to-left run in the order it is drawn. Empty for nearly all text (no tag
    characters, no override), which costs two searches."""
    if text.isascii() or (_TAGS.search(text) is None and _OVERRIDE.search(text) is None):
        return []
    return [f.text for f in readings(text) if f.hidden or not f.monotone]


def drawn(text: str, join: bool = True) -> Form:
    """The reading of what a person sees."""
    return readings(text, join)[0]


def rewritten(text: str, pattern: re.Pattern[str], replace: Callable[[str], tuple[str, list[int]]]) -> Form:
    """The reading of `text` with each match of `pattern` first replaced by what `replace` makes of it
    (the new text, and for each of its characters the offset in the match it came from), then folded as
    every reading is, mapped back to `text` so that a passage found in it is quoted as written. For a
    rule that reads a character as another only for itself (the words screen's pictograph for a dot)."""
    replaced, maps = _rewrite(text, (), pattern, replace)
    return _fold(text, replaced, maps)


def fold_char(ch: str) -> str:
    """One character's fold, on its own (no readings, no percent-decoding)."""
    return _table().get(ord(ch), ch)
