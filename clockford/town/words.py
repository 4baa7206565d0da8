"""The words screen: one module for every tool that takes free words.

Matching runs on the matching form of the words (clockford.town.matching: hidden characters removed,
compatibility forms and look-alike letters folded, a right-to-left run read as drawn, tag characters
decoded in a second reading), so that a secret split by a zero-width space or written in fullwidth
letters is still a secret; what is kept and shown is the original text, and a passage is quoted from
it. Each family of rules is one pass over the form, and the expressions without a lookaround run on
RE2, so screening is linear in the length of the words. Secrets are refused on every surface. The secret rules follow gitleaks'
high-confidence set (see ../shared/design/SECURITY-NOTES.md): each names its kind, which the refusal
says back in plain words.

On public surfaces (the board, the Switchboard, and words that reach another person's agent) the
screen also refuses links, email addresses and writing in a town staff voice; `screen` is the one
entry point for tools, and `flags` is what the hall marks for a person reading exact words. The link
and address rules alone also read two further readings: a pictograph between words as a dot, and a
base64 run decoded (`_link_readings`); what is kept and shown is still the words as written.
"""

import base64
import binascii
import bisect
import functools
import importlib.util
import math
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import re2

from clockford.town import matching

# Ideographic, fullwidth and halfwidth full stops: IDNA reads them as dots, so matching does too.
_ODD_DOTS = ("\u3002", "\uff0e", "\uff61")


def _re2(pattern: str) -> "re2._Regexp":
    """An expression on RE2 with room for its DFA: a staff-voice rule is thousands of characters of
    alternatives, and at RE2's default 8 MiB the DFA runs out and RE2 falls back to its slower
    automaton (still linear), logging to stderr each time."""
    options = re2.Options()
    options.max_mem = 64 << 20
    options.log_errors = False
    return re2.compile(pattern, options)


# The characters that draw as nothing beside category Cf (zero-width, bidi and other invisible
# controls): the variation selectors and the supplementary ones, the tag characters some fonts draw as
# nothing, and the other default-ignorable characters that draw as nothing (the Hangul fillers, the
# combining grapheme joiner, the Mongolian free variation selectors).
_HIDDEN_RANGES = (range(0xFE00, 0xFE10), range(0xE0100, 0xE01F0), range(0xE0000, 0xE0080))
_IGNORABLE_BLANKS = frozenset((0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164, 0xFFA0))


def _hidden_points() -> frozenset[int]:
    """Every hidden code point, read from this Python's Unicode tables once at import. Format characters
    live in the first two planes and in plane 14 (tags). Every process of the town pays for this at its
    start, so the scan asks only the category (35 ms)."""
    category = unicodedata.category
    planes = (range(0x20000), range(0xE0000, 0xE1000))
    found = {cp for rng in planes for cp in rng if category(chr(cp)) == "Cf"}
    found.update(*_HIDDEN_RANGES, _IGNORABLE_BLANKS)
    return frozenset(found)


_HIDDEN_POINTS = _hidden_points()


def is_hidden(ch: str) -> bool:
    """Whether the character draws as nothing: category Cf or one of _HIDDEN_RANGES and
    _IGNORABLE_BLANKS (one set lookup: this runs on every character of every text screened)."""
    return ord(ch) in _HIDDEN_POINTS


def _hidden_class() -> str:
    """is_hidden as a regular-expression class."""
    ranges: list[tuple[int, int]] = []
    for cp in sorted(_HIDDEN_POINTS):
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1] = (ranges[-1][0], cp)
        else:
            ranges.append((cp, cp))
    return "[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges) + "]"


_HIDDEN = re.compile(_hidden_class())
_HIDDEN_RUN = re.compile(_HIDDEN.pattern + "+")


def for_matching(text: str) -> str:
    """NFKC, hidden characters removed, ideographic and fullwidth dots made plain: the light form the
    districts read to tell empty words and to split words for search. The screen and Safe Harbour
    read more (look-alike letters folded, right-to-left runs as drawn, tag characters decoded: see
    clockford.town.matching), which search must not: Russian words are not Latin ones."""
    if text.isascii():
        # ASCII has no format characters and is its own NFKC form.
        return text
    t = unicodedata.normalize("NFKC", _HIDDEN.sub("", text))
    # str.replace, not str.translate: translate walks non-ASCII text a character at a time.
    for dot in _ODD_DOTS:
        if dot in t:
            t = t.replace(dot, ".")
    return t


def for_keeping(text: str, cap: int | None = None) -> str:
    """What the town keeps of free words: NFC (so equal words are equal bytes), cut to the cap.

    NUL goes: no words need it, and PostgreSQL's text cannot hold it."""
    kept = unicodedata.normalize("NFC", text.replace("\x00", ""))
    return kept[:cap] if cap is not None else kept


# The invisible characters that reorder the words after them: the bidi embeddings and overrides
# (U+202A-U+202E), the isolates (U+2066-U+2069), and the three marks that read as a letter of one
# direction (U+200E, U+200F, U+061C), which can draw "1 - 2" as "2 - 1" with no control in sight.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_bidi_control(ch: str) -> bool:
    return ch in BIDI_CONTROLS


# What the public pages draw as a token: the characters that draw as nothing and mean nothing to a reader
# there, so words could hide in them. Decided class by class (docs/public.md says the same):
#  - the bidi controls (above): they reorder what is drawn;
#  - the tag characters U+E0000-U+E007F: each is an ASCII letter a language model reads and a person does
#    not ("ASCII smuggling"); only a flag's tags are kept, whole (PUBLIC_WHOLE);
#  - the zero-width space U+200B, the word joiner U+2060, the zero-width no-break space (BOM) U+FEFF and
#    the Mongolian vowel separator U+180E: a blank of no width, which splits a word against a reader's
#    search and a person's eye;
#  - the soft hyphen U+00AD: nothing mid-line (a hyphen only where a browser breaks the line there);
#  - the invisible mathematical operators U+2061-U+2064, the deprecated format characters
#    U+206A-U+206F, the interlinear annotation characters U+FFF9-U+FFFB and the musical beam and tie
#    controls U+1D173-U+1D17A: nothing outside the system that reads them, and none of them on a page;
#  - the Khmer inherent vowels U+17B4 and U+17B5, which Unicode says not to use, and the Hangul fillers
#    U+3164 and U+FFA0, blanks a name is made of; U+115F and U+1160 are kept inside an old Hangul
#    syllable they fill a place in (PUBLIC_WHOLE), and drawn alone;
#  - every default-ignorable code point not assigned yet (U+2065, U+FFF0-U+FFF8, U+E0080-U+E0FFF
#    but the variation selectors): a browser draws nothing for them.
# Kept as they are, because a reader sees them in what they shape: the zero-width joiner U+200D and
# non-joiner U+200C (emoji sequences; Persian, Arabic and Indic letters join or stay apart by them), the
# variation selectors U+FE00-U+FE0F and U+E0100-U+E01EF and the Mongolian ones (U+180B-U+180D, U+180F),
# which pick a character's drawn form; the combining grapheme joiner U+034F, which keeps combining marks
# in the order written (Hebrew); and the format characters that shape a script of their own (the
# Egyptian hieroglyph and Duployan shorthand controls) or draw a mark (the Arabic number signs).
_UNSEEN_RANGES = (
    (0x00AD, 0x00AD),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180E, 0x180E),
    (0x200B, 0x200B),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFB),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE00FF),
    (0xE01F0, 0xE0FFF),
)


def is_unseen_on_public(ch: str) -> bool:
    """A character the public pages draw as its token (the classes above)."""
    cp = ord(ch)
    return ch in BIDI_CONTROLS or any(a <= cp <= b for a, b in _UNSEEN_RANGES)


# What the public pages keep whole, though it holds characters they would draw as tokens: a flag of a
# subdivision, the black flag U+1F3F4, its tag letters and the cancel tag U+E007F, for the three that
# Unicode's emoji-test.txt lists (England gbeng, Scotland gbsct, Wales gbwls), the only ones it
# recommends for general use and so the ones emoji fonts draw as a flag. Any other tag sequence of that
# shape (a region and up to four more letters or digits) is drawn at most as a black flag and hides up to
# seven letters, so its tags are drawn as tokens like any others. And an old Hangul syllable, whose
# fillers stand for a missing jamo (a leading consonant, a vowel, then any trailing consonants). Both
# bounded, so finding them is linear.
_RGI_SUBDIVISIONS = ("gbeng", "gbsct", "gbwls")
_RGI_FLAGS = "|".join(
    "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in name) + "\U000e007f" for name in _RGI_SUBDIVISIONS
)
PUBLIC_WHOLE = re.compile(
    _RGI_FLAGS + "|[\u1100-\u115f\ua960-\ua97c]{1,3}[\u1160-\u11a7\ud7b0-\ud7c6]{1,3}[\u11a8-\u11ff\ud7cb-\ud7fb]{0,3}"
)
# The ones str.isprintable passes (every other is a format, unassigned or control character, which it
# does not), for a quick look at words with nothing to draw.
PRINTABLE_UNSEEN = re.compile("[\u115f\u1160\u17b4\u17b5\u3164\uffa0]")


def pieces(text: str, whole: re.Pattern[str] | None) -> Iterator[tuple[str, bool]]:
    """The text in order as (piece, kept whole): what `whole` matches, and the runs between."""
    at = 0
    if whole is not None:
        for m in whole.finditer(text):
            if m.start() > at:
                yield text[at : m.start()], False
            yield m.group(), True
            at = m.end()
    if at < len(text) or not text:
        yield text[at:], False


def token_of(ch: str, as_is: str = "\n\t", hides: Callable[[str], bool] = is_hidden) -> str | None:
    """The visible token for a character a person could not see (one `hides` names, by default every
    hidden one, or a control character other than those in `as_is`: by default a line break and a tab,
    where text keeps its lines), or None for a character shown as it is. One rule for the hall's pages,
    the town's own sentences, and the public pages (which draw only what is_unseen_on_public names: a
    joiner or a variation selector inside an emoji there is the emoji)."""
    if hides(ch) or (unicodedata.category(ch) == "Cc" and ch not in as_is):
        return f"⟦U+{ord(ch):04X}⟧"
    return None


def shown_text(
    text: str, as_is: str = "\n\t", hides: Callable[[str], bool] = is_hidden, whole: re.Pattern[str] | None = None
) -> str:
    """Text as a person may read it, in plain text: every character token_of names drawn as its token,
    but inside what `whole` matches (PUBLIC_WHOLE: a flag), which is left as it is."""
    return "".join(
        piece if kept else "".join(token_of(ch, as_is, hides) or ch for ch in piece)
        for piece, kept in pieces(text, whole)
    )


def shown_on_public(text: str, as_is: str = "\n\t") -> str:
    """Text as the public town shows it in plain text (an SVG's text, an attribute, the Atom feed): what
    is_unseen_on_public names drawn as its token, a flag kept whole (PUBLIC_WHOLE)."""
    return shown_text(text, as_is, is_unseen_on_public, PUBLIC_WHOLE)


def visible(text: str) -> str:
    """Hidden characters drawn as ⟦U+200B⟧ and the like, for a person to see."""
    return "".join(f"⟦U+{ord(ch):04X}⟧" if is_hidden(ch) else ch for ch in text)


@dataclass(frozen=True)
class SecretRule:
    kind: str  # as the refusal names it: "That looks like {kind}."
    pattern: re.Pattern[str]
    min_entropy: float = 0.0  # bits per character of the value, for the rules without a fixed prefix
    # A last look at the value (the pattern's first group, or the whole match) for shapes a regular
    # expression cannot tell apart from ordinary identifiers.
    check: Callable[[str], bool] | None = None
    # Lowercase pieces of which every match holds at least one: a rule whose hints are all absent
    # from the text cannot match, and its expression is not run (most rules, for most words).
    hints: tuple[str, ...] = ()


def _r(
    kind: str,
    pattern: str,
    flags: int = 0,
    min_entropy: float = 0.0,
    check: Callable[[str], bool] | None = None,
    hints: tuple[str, ...] = (),
) -> SecretRule:
    return SecretRule(kind, re.compile(pattern, flags), min_entropy, check, hints)


# A token ends where token characters end. `\b` is not enough after an alphabet with "-" in it: a
# key ending in "-" has no word boundary after it.
_END = r"(?![\w-])"

# Words that mark a value as a name, a placeholder or an example rather than a credential, in the
# way of gitleaks' stopwords for its generic rule.
_NOT_A_SECRET = re.compile(
    r"example|placeholder|your|xxxx|\*\*\*|changeme|change_me|replace|dummy|sample|redacted|github|localhost",
    re.IGNORECASE,
)
_PLACEHOLDER_PASSWORDS = {"password", "passwd", "pass", "secret", "changeme", "pwd", "token", "user"}


def _generic_value(value: str) -> bool:
    """gitleaks' generic-rule allowlist: a value with no digit is an identifier or a word, a path is a
    path, and a stopword marks a name or a placeholder."""
    return (
        any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
        and not value.startswith(("/", "./", "../", "~/"))
        and not _NOT_A_SECRET.search(value)
    )


def _link_password(match: str) -> bool:
    password = match.split("://", 1)[1].split("@", 1)[0].split(":", 1)[1]
    return password.lower() not in _PLACEHOLDER_PASSWORDS and not _NOT_A_SECRET.search(password)


def _discord(token: str) -> bool:
    # A Discord bot token begins with its bot's numeric id in base64; a dotted identifier does not.
    first = token.split(".", 1)[0]
    try:
        return base64.b64decode(first + "=" * (-len(first) % 4), validate=True).isdigit()
    except (binascii.Error, ValueError):
        return False


def _aws_secret_value(value: str) -> bool:
    # Random base64: both cases and a digit or a sign. A forty-letter word run is not a key, and
    # AWS's own documented example key says EXAMPLEKEY. The entropy is checked here rather than by
    # min_entropy, so that the rule is also read across a line break (_SHAPED_RULES).
    return (
        _entropy(value) >= 3.5
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() or c in "/+" for c in value)
        and not _NOT_A_SECRET.search(value)
    )


# A name written in prose has a space in it ("API key", "client secret"); "access key" is left to the
# AWS rules, whose kinds are plainer.
_GENERIC_KEYWORD = (
    r"(?:api[_ -]?key|apikey|secret|token|passw(?:or)?d|passwd|pwd|access[_-]?key|client[_ -]?secret|auth|credentials?)"
)


def _github_token_cut(value: str) -> bool:
    """A GitHub token's 36 characters cut into pieces by spaces or hyphens, as random as a token is (both
    cases and a digit): "ghp_tokens look like this" is words."""
    joined = value.replace(" ", "").replace("-", "")
    return (
        len(joined) == 36
        and any(c.isupper() for c in joined)
        and any(c.islower() for c in joined)
        and any(c.isdigit() for c in joined)
    )


SECRET_RULES: tuple[SecretRule, ...] = (
    _r(
        "a GitHub token",
        r"\b(?:ghp|gho|ghu|ghs|ghr)_[0-9a-zA-Z]{36}\b|\bgithub_pat_\w{82}\b",
        hints=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    ),
    _r(
        "a GitHub token",
        r"\b(?:ghp|gho|ghu|ghs|ghr)_((?:[0-9a-zA-Z]{4,36}[ -]){1,8}[0-9a-zA-Z]{4,36})\b",
        check=_github_token_cut,
        hints=("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ),
    _r(
        "an AWS access key",
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b",
        hints=("a3t", "akia", "asia", "abia", "acca"),
    ),
    _r(
        "a Slack token",
        r"\bxox[baprse]-[0-9]{10,13}-[0-9a-zA-Z-]{10,}|\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"
        r"|hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{30,}",
        re.IGNORECASE,
        hints=("xox", "xapp-", "hooks.slack.com/"),
    ),
    _r(
        "an OpenAI key",
        r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}"
        r"|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}",
        hints=("sk-",),
    ),
    _r("an Anthropic key", r"\bsk-ant-(?:api|admin)\d{2}-[a-zA-Z0-9_\-]{80,}", hints=("sk-ant-",)),
    # The block's first base64 line within reach of its header: a block cut short is still a key,
    # a header quoted in a sentence is not.
    _r(
        "a private key",
        r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,200}?[A-Za-z0-9+/=]{32,}",
        re.IGNORECASE,
        hints=("-----begin",),
    ),
    _r(
        "a JSON Web Token",
        r"\bey[a-zA-Z0-9_-]{15,}\.ey[a-zA-Z0-9_-]{15,}\.(?:[a-zA-Z0-9_-]{10,}={0,2})?",
        hints=(".ey",),
    ),
    _r("a GitLab token", r"\bglpat-[\w-]{20,}", hints=("glpat-",)),
    _r("a Stripe key", r"\b(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}\b", hints=("sk_", "rk_")),
    # Letters only in the tokens seen so far; digits allowed, as a scanner that missed one would be the worse error.
    _r("a Hugging Face token", r"\bhf_[a-zA-Z0-9]{34}\b", hints=("hf_",)),
    _r("a Google API key", r"\bAIza[0-9A-Za-z_-]{35}" + _END, hints=("aiza",)),
    _r("an npm token", r"\bnpm_[A-Za-z0-9]{36}\b", hints=("npm_",)),
    _r("a PyPI token", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}", hints=("pypi-ageichlwas5vcmc",)),
    _r("a SendGrid key", r"\bSG\.[\w-]{22}\.[\w-]{43}" + _END, hints=("sg.",)),
    _r("a Twilio key", r"\bSK[0-9a-fA-F]{32}\b", hints=("sk",)),
    _r("a Telegram bot token", r"\b\d{8,10}:AA[0-9A-Za-z_-]{33}" + _END, hints=(":aa",)),
    _r(
        "a Discord token",
        r"\b[MNO][a-zA-Z\d_-]{23,25}\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27,38}" + _END,
        check=_discord,
    ),
    _r("a DigitalOcean token", r"\bdo[opr]_v1_[a-f0-9]{64}\b", hints=("_v1_",)),
    _r(
        "a Shopify token",
        r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b",
        hints=("shpat_", "shpca_", "shppa_", "shpss_"),
    ),
    _r("a Mailgun key", r"\bkey-[0-9a-zA-Z]{32}\b", hints=("key-",)),
    _r("a Databricks token", r"\bdapi[a-f0-9]{32}(?:-\d)?\b", hints=("dapi",)),
    _r(
        "a password in a link",
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,64}:[^\s:/@]{3,128}@[^\s/]+",
        re.IGNORECASE,
        check=_link_password,
        hints=("://",),
    ),
    _r(
        "a bearer token",
        r"\bBearer\s+([A-Za-z0-9\-._~+/]{24,}=*)",
        re.IGNORECASE,
        min_entropy=3.5,
        hints=("bearer",),
    ),
    # gitleaks' generic rule, in short: a credential's name, up to 20 more name characters
    # (aws_secret_access_key), an assignment, and a random-looking value of 16 to 150 characters. In
    # prose the assignment is a word ("my password is Tr0ub4dor3xK9pqZw7"); the value's own checks
    # keep "the token is expired" and "the password is in the vault" out.
    _r(
        "a secret",
        _GENERIC_KEYWORD
        + r"[\w.-]{0,20}?(?:[\"'`]?\s{0,3}(?::=|=>|[:=])|\s{1,3}(?:is|was))\s{0,3}[\"'`]?([\w.=+/-]{16,150}+)(?![\w.=+/-])",
        re.IGNORECASE,
        min_entropy=3.5,
        check=_generic_value,
        hints=("key", "secret", "token", "passw", "pwd", "auth", "credential"),
    ),
    # An AWS secret access key named in prose ("the AWS secret key is ...", "AWS secret access key:
    # ..."), which the generic rule above misses after a line break or any word but "is" and "was".
    # The value is AWS's: forty characters of base64 with both cases and a digit, / or +, standing alone.
    _r(
        "an AWS secret key",
        r"\baws[\s_-]{0,3}secret(?:[\s_-]{0,3}access)?(?:[\s_-]{0,3}key)?\b[\s\S]{0,30}?"
        r"(?<![A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        re.IGNORECASE,
        check=_aws_secret_value,
        hints=("aws",),
    ),
)


# The rules a token's own shape makes (a prefix, an alphabet, a length), read also across a line break.
_SHAPED_RULES = tuple(rule for rule in SECRET_RULES if not rule.min_entropy)


def _entropy(s: str) -> float:
    counts = Counter(s)
    return -sum(c / len(s) * math.log2(c / len(s)) for c in counts.values())


@dataclass(frozen=True)
class SecretFound:
    kind: str
    masked: str

    @property
    def say(self) -> str:
        return (
            f"That looks like {self.kind}. Nothing was kept; if it is real, "
            "tell the human who runs you so they can revoke it."
        )


def mask(s: str) -> str:
    """Enough of a secret for the agent to find the passage, never enough to use it."""
    return s[:4] + "…" + f"({len(s)} characters)"


def _accepts(rule: SecretRule, m: re.Match[str]) -> bool:
    value = m.group(1) if rule.pattern.groups else m.group(0)
    if rule.min_entropy and _entropy(value) < rule.min_entropy:
        return False
    return rule.check is None or rule.check(value)


def find_secret(text: str) -> SecretFound | None:
    return _find_secret_in_any(matching.readings(text))


def _find_secret_in_any(forms: list[matching.Form]) -> SecretFound | None:
    for form in forms:
        if found := _find_secret_in(form.text):
            return found
    return None


# A line break inside a token: a token character on both sides of it.
_BREAK_IN_TOKEN = re.compile(r"(?<=[\w+/=-])\n(?=[\w+/=-])")
# What is read of either side: token characters and dots (a JSON Web Token's or a Discord token's
# parts are joined by dots, and "vk" alone, between a dot and the break, would pass for a word).
_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "_+/=-.")
_TOKEN_RUN = re.compile(r"[\w+/=.-]{1,64}")
# A word as people write words: lower-case letters, perhaps a capital first, or "a" or "I" alone. A
# piece of a token is almost never one ("ghp_4fK2", "IOSFODNN"; a last piece of one letter, "p@host",
# is not a word), and a line of prose ends and begins with one.
_PLAIN_WORD = re.compile(r"[aAI]|[A-Za-z][a-z]+")


def _joined_lines(t: str) -> str:
    """t with each line break that falls inside a token removed: a token wrapped or cut by a line
    break ("ghp_4fK2…" then the rest on the next line) read whole. A break is inside a token when
    the token characters either side of it are not plain words ("to\nthe" is two words, "thanks!"
    after a token is not more of it), or when the next line goes on with a "_" or "-" ("glpat\n-…").
    (Not when a line ends with one: a token may end so, and the line after it be prose.)
    Each side is read at most 64 characters deep, so this stays linear in the text."""
    parts: list[str] = []
    last = 0
    for m in _BREAK_IN_TOKEN.finditer(t):
        i, j = m.start(), m.end()
        a = i
        while a > max(0, i - 64) and t[a - 1] in _TOKEN_CHARS:
            a -= 1
        before = t[a:i]
        after_run = _TOKEN_RUN.match(t, j)
        after = after_run.group() if after_run else ""
        glued = after[:1] in ("_", "-")
        if not glued and (_PLAIN_WORD.fullmatch(before) or _PLAIN_WORD.fullmatch(after)):
            continue
        parts.append(t[last:i])
        last = j
    if not parts:
        return t
    parts.append(t[last:])
    return "".join(parts)


def _find_secret_in(t: str) -> SecretFound | None:
    """find_secret on text already in its matching form, and with the line breaks inside tokens
    removed when it has any."""
    found = _find_secret_by(SECRET_RULES, t)
    if found is None and "\n" in t and (joined := _joined_lines(t)) != t:
        # Only the rules of a shape: a credential's name and a random value (the generic rule, a
        # bearer token) could be pieced together from two lines that each pass.
        found = _find_secret_by(_SHAPED_RULES, joined)
    return found


def _find_secret_by(rules: tuple[SecretRule, ...], t: str) -> SecretFound | None:
    low = t.lower()
    for rule in rules:
        if rule.hints and not any(h in low for h in rule.hints):
            continue
        pos = 0
        while (m := rule.pattern.search(t, pos)) is not None:
            if _accepts(rule, m):
                return SecretFound(rule.kind, mask(m.group(0)))
            # A rejected match may hide an accepted one that starts inside it
            # ("token": "aws_secret_access_key = ..."): look again one character on.
            pos = m.start() + 1
    return None


# --- links, email addresses and staff voice ---------------------------------------------------
#
# Secrets are refused on every surface. On public surfaces (the board and the Switchboard) and on
# words that reach another person's agent, links, email addresses and writing in a town staff voice
# are refused too: agents name servers by registry name, and only the town speaks as the town. A
# person reading exact words in the hall (a letter, a decision page) sees the same passages flagged.

Surface = Literal["private", "letter", "public", "other-account"]
SURFACES: tuple[Surface, ...] = ("private", "letter", "public", "other-account")
# Where links, addresses and staff voice are refused as well as secrets.
_OPEN_SURFACES: frozenset[str] = frozenset({"public", "other-account"})

LINK_SAY = "No links or addresses here. Name servers by their registry name instead; the passage is in words.matched."
STAFF_VOICE_SAY = (
    "Those words read as town staff, which is impersonation. Reword them; the passage is in words.matched."
)


@dataclass(frozen=True)
class WordsProblem:
    kind: str  # "secret" | "link" | "email" | "staff-voice"
    say: str  # the town's sentence
    matched: str  # the passage, from the original text (for a secret: its mask, never the secret)
    secret: str | None = None  # for a secret: its kind, e.g. "a GitHub token"


@dataclass(frozen=True)
class Flag:
    kind: str  # "link" | "email" | "staff-voice" | "hidden"
    matched: str  # the passage as written (hidden: the visible() form, e.g. ⟦U+200B⟧)


@dataclass(frozen=True)
class _Hit:
    start: int  # offsets in the matching form
    end: int
    kind: str


# --- domains ----------------------------------------------------------------------------------
#
# The hard part of a link screen is the bare domain: evil.com is a link, README.md and os.path.join
# are not, and .md, .py, .rs, .sh, .ai, .io, .app and .dev are country or generic top-level domains
# as well as file extensions or attribute names. The rule:
#
#   - a scheme (https://, hxxp, h**p), www., a bracketed or disguised dot ([.], (dot), " d0t ") or a
#     path after the name (bit.ly/x) is always a link, whatever its last label; so is a dot said aloud
#     ("evil then a dot then info") unless its last label is a short word (to, in, one); a dot spelled
#     plainly (" dot ") or spaced (". ") needs a top-level domain of _COMMON or _SOMETIMES below, or a
#     path;
#   - a known top-level domain that is rarely anything else (com, org, net, ru, de, uk, xyz, ...:
#     _COMMON below) makes `name.tld` a link on its own;
#   - a top-level domain that is also common in files or code needs more evidence: _SOMETIMES (io, ai,
#     app, dev, ...) counts three labels (docs.mistral.ai) as evidence; _ORDINARY (md, py, rs, sh, id,
#     info, name, email, ... ) only a scheme, www., a path, a port or an obfuscated dot;
#   - an MCP registry name (io.github.owner/name, com.example/server) is reverse DNS: its first label
#     is a top-level domain, then one slash and a simple name. It is never a link unless its last
#     label is one of the big generic TLDs (de.wikipedia.org/wiki is a link). The price: a link of
#     exactly that shape (app.example.app/login) passes; one more path segment, a query or a port
#     makes it a link again;
#   - "done.Next" is a missing space, not a domain: a Titlecase last label that is also a common word
#     (De, La, Es, ...) after a lowercase letter is read as a new sentence; names like ASP.NET are
#     technology, and a run of suffixes alone (co.uk) names no host.
#
# Labels are Unicode (IDN) but hold no underscore: a hostname cannot, an identifier often does.

_CC_TLDS = (
    "ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo br bs bt bw by bz "
    "ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk "
    "fm fo fr ga gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir "
    "is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk "
    "ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl "
    "pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st su sv sx sy sz tc "
    "td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw"
).split()
_GENERIC_TLDS = (
    "com net org edu gov mil int biz xyz top online site shop store club icu vip website space tech cloud "
    "blog news mobi asia jobs tel travel museum aero coop pro xxx porn casino bet poker loan"
).split()
# Internationalised top-level domains, written as people write them.
_IDN_TLDS = "рф рус укр срб бг қаз мкд бел 中国 中國 公司 网络 网址 在线 中文网 香港 台湾 台灣 한국 ไทย भारत مصر السعودية امارات ایران".split()
# Also file extensions: a path after the name is evidence, nothing less.
_FILE_EXTENSIONS = set(
    "md py rs sh pl pm cc ml ms ps st re am ac mk sc cl cr tf gs so do as in bz mo pt zip mov".split()
)
# Also attribute names, HTML tags, shell commands or English words: as above.
_CODE_WORDS = set(
    "id is at to by me my no it be pk tz ax ma im lr bs ge gt lt ne mu sd sr tr th td li hr pr ls mv ws gl cd "
    "et al info name email date run fit one new page link live life".split()
)
# Also code or product names, but a third label (docs.mistral.ai) is real evidence.
_SOMETIMES = set("io ai app dev art design studio agency digital media network solutions services".split())
_COMMON = (set(_CC_TLDS) | set(_GENERIC_TLDS) | set(_IDN_TLDS)) - _FILE_EXTENSIONS - _CODE_WORDS - _SOMETIMES
_ORDINARY = _FILE_EXTENSIONS | _CODE_WORDS
# An internationalised TLD as the matching form reads it (рус, with its look-alike letters folded).
_ALL_TLDS = _COMMON | _ORDINARY | _SOMETIMES | {"".join(map(matching.fold_char, tld)) for tld in _IDN_TLDS}
# Every other top-level domain of the public suffix list (tldextract's bundled snapshot, read offline
# once): the newer generic ones (evil.click, site.zone). A bare name under one is a link, unless the
# name looks like code (camelCase, a call's bracket after it) or the top-level domain is also a word
# code and prose put after a dot all the time (_CODE_NEWER): those need a path, a port or three labels.
_CODE_NEWER = set(
    "abc etree map save style play show call rest get post put delete open close read write list type form text top "
    "next now free fail win stream store search select sort filter update value watch day case data build run "
    "fit one page link live life date name email info new boo foo bar baz moe ink fun play game ltd inc llc "
    "box cat chat cash care camp cab car pay pub red tax tips wiki work world zone global group team".split()
)


# Names code reads attributes of (window.top, self.client.post): first in a dotted run with no path,
# they make it code, whatever its last label.
_CODE_RECEIVERS = set(
    "self this cls super window document console navigator location history response request req res resp os sys "
    "np pd df obj ctx context args kwargs props state event evt err error module exports process math json model "
    "user client server config settings options opts logger log data result results item items node el elem cfg "
    "conf env app api db".split()
)


# Libraries and products whose names end like a domain, and are written that way in prose.
_LIBRARY_NAMES = set("socket engine feathers lodash vue nuxt deno bun tensorflow brain paper two three".split())


_DRAWING_NAMES = set(
    "logo icon icons art artwork design drawing banner poster illustration sketch figure image".split()
)
# A dotted name said to be a module, a file or a class, or imported, is code.
_CODE_AFTER = re.compile(
    r"\s++(?:module|modules|package|file|files|folder|class|object|attribute|instance|submodule|extension|library"
    r"|format|document|namespace|import)\b"
)
_CODE_BEFORE = re.compile(r"(?:import|module|package)\s+\Z")
_CAMEL = re.compile(r"[a-z]+[A-Z][A-Za-z]*|[A-Z][a-z]+")


def _looks_like_code(label: str, t: str) -> bool:
    """A name written as code is (camelCase, Titlecase, or three letters or fewer: cfg, env, obj),
    not as a host is (lower case, often with a hyphen or digits). In Title Case Text, Titlecase
    says nothing."""
    if len(label) <= 3 and label.isalpha():
        return True
    return _CAMEL.fullmatch(label) is not None and not (label[1:].islower() and _title_text(t))


_WORD = re.compile(r"[A-Za-z]+")


@functools.lru_cache(maxsize=4)
def _title_text(t: str) -> bool:
    """Whether most words of t start with a capital: Title Case Text, where a capital is no sign of
    a sentence's start or of a name."""
    found = _WORD.findall(t, 0, 4000)
    return len(found) >= 3 and sum(w[0].isupper() for w in found) >= 0.7 * len(found)


def _public_suffix_tlds() -> set[str]:
    """The ASCII top-level domains of the public suffix list's ICANN section, as tldextract's bundled
    snapshot lists them. The file is read directly, not through tldextract: importing it (and the HTTP
    library it brings) took a fifth of a second at every start of every town process; a test checks
    this reading gives what tldextract gives."""
    spec = importlib.util.find_spec("tldextract")  # found, not imported
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("tldextract (requirements.txt) is not installed")
    snapshot = Path(next(iter(spec.submodule_search_locations))) / ".tld_set_snapshot"
    icann = snapshot.read_text(encoding="utf-8").split("===END ICANN DOMAINS===", 1)[0]
    # A rule is the line's first word; "//" starts a comment, "*." a wildcard and "!" an exception
    # (both name more than one label, as do rules with a dot).
    rules = (line.split(maxsplit=1)[0] for line in icann.splitlines() if line.strip())
    return {r for r in rules if not r.startswith(("//", "*", "!")) and "." not in r and r.isascii()}


_NEWER = _public_suffix_tlds() - _ALL_TLDS
# The top-level domains a run of suffixes alone (co.uk) or a registry name's namespace (io.github)
# is made of: the well-known ones, not every newer one (docs.google.com is a host, not a suffix).
_SUFFIX_TLDS = frozenset(_ALL_TLDS)
_ALL_TLDS |= _NEWER
_BIG_GENERIC = {"com", "net", "org", "edu", "gov"}
# Country codes that are also words a sentence may start with ("gracias.De nada"): Titlecase after a
# lowercase letter, they are read as a missing space.
_WORDLIKE = {"de", "la", "es", "se", "si", "co", "pa", "ve", "na", "ga", "sa", "ca", "eu"}
# Technology names that happen to be a known domain.
_TECHNOLOGY = {"asp.net", "vb.net", "ado.net", "json.net", "dot.net"}

# Words that start a phrase, not a host: "the dot com era" is about history.
_PHRASE_WORDS = set(
    "the a an this that these those his her its their our my your old first early big whole any every each some "
    "no in on at of for with from to by about like and or but is was be learn use using write wrote know knows "
    "love hate via into red blue black green polka one two three tiny small little last next same "
    # and words that open or join a sentence: "Well, then a dot and com... I mean comma"
    "well so ok okay oh yes then plus".split()
)
# Words after a spelled-out "dot com" that make it a phrase: "dot com bubble", "dot net developer".
_PHRASE_AFTER = set(
    "era boom bubble crash bust company companies startup startups days years age mania burst core framework "
    "developer developers runtime app apps project stack platform sdk library ecosystem community job jobs style "
    "business world generation millionaire millionaires".split()
)

_MARKS = "\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0900-\u0dff\u0e31-\u0e4e\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_LBL = r"[\w" + _MARKS + r"]++(?:-++[\w" + _MARKS + r"]++)*+"
# A separator led by spaces never starts after a space (in a name each follows a label), so that a
# search through a run of spaces fails at once from each of its places instead of reading the rest of
# the run from each: a square.
# The word "dot" spelt a letter at a time with the same sign between its letters ("d-o-t", "d_0_t",
# "d * o * t"), or each letter in brackets ("(d)(o)(t)", "[d][o][t]"): no word of prose or code is
# written so. A slash is no such sign (a path: "src/d/o/t"), and each sign is tried alone, so that the
# look is one pass with no giving back.
_LETTER_SIGNS = "-_*~+."
_LETTERED = (
    "(?:"
    + "|".join(f"d *+{re.escape(c)} *+[o0] *+{re.escape(c)} *+t" for c in _LETTER_SIGNS)
    + r"|[\[({<]d[\])}>] *+[\[({<][o0][\])}>] *+[\[({<]t[\])}>])"
)
# The word "dot" written with a zero, brackets or dots or spaced out as no sentence writes it ("d0t",
# "d()t", "d.o.t", "d o t", and the spellings above): a dot however it stands (_DISGUISED_DOT).
_DOT_SPELT = r"d0t|d o t|d\(\)t|d\.o\.t|" + _LETTERED
# The word "dot", or so spelt.
_DOT_WORD = "(?:dot|" + _DOT_SPELT + ")"
# The word between two of the same sign ("*dot*", "|dot|", "'dot'", "-dot-"), but a slash: paths name
# folders so ("vfarcic/dot-ai", "src/dot/net"), and two different signs are a path or a name's parts.
_WRAPPING_SIGNS = "*|'\"-_~=+#:^"
_WRAPPED = "(?:" + "|".join(re.escape(c) + r"\s*+" + _DOT_WORD + r"\s*+" + re.escape(c) for c in _WRAPPING_SIGNS) + ")"
# The word disguised or wrapped in signs: said so, it is a dot, never prose.
# Or between two slashes or backslashes with blanks outside them ("example /dot/ com"): glued to its
# words it is a path's folder ("src/dot/net", "src\\dot\\net").
_SLASHED = r"(?<=\s)(?:/dot/|\\dot\\)(?=\s)"
_DISGUISED_DOT = re.compile(_DOT_SPELT + "|" + _SLASHED + "|" + _WRAPPED)
_OBF_DOT = (
    r"(?:(?<!\s)\s++)?+(?:[\[({<]\s*+(?:\.|" + _DOT_WORD + r"|punkt|punto|point)\s*+[\])}>]|" + _WRAPPED
    + "|" + _LETTERED + "|" + _SLASHED + r")\s*+"
)  # fmt: skip
# A dot said in a sentence: "evil then a dot then com", "evil, then dot, then com", "evil followed by
# a dot and then com". Each word is optional but the dot, and each is read once, without giving back.
_SAID_ALONE = (
    r"(?:(?:and\s++)?then\s++|followed\s++by\s++)?+(?:a\s++)?+"
    + _DOT_WORD
    + r"(?:\s*+,)?+\s++(?:(?:and\s++)?then\s++)?+"
)
# Or the dot (or a period) joined by a word on each side: "evil then a dot and com", "evil plus a dot
# plus com", "evil, dot, and com", "evil then a period then com", "evil with a dot then com". Tried
# first: the form above would end at "and".
_SAID_JOINED = (
    r"(?:(?:(?:(?:and|plus)\s++)?then\s++|followed\s++by\s++|(?:and|plus)\s++|(?<=,\s))(?:(?:a|the)\s++)?+(?:"
    + _DOT_WORD
    + r"|period)(?:\s*+,)?+\s++(?:(?:and\s++)?then|and|plus)\s++"
    + r"|with\s++(?:a\s++)?+(?:" + _DOT_WORD + r"|period)(?:\s*+,)?+\s++(?:and\s++)?then\s++)"
)  # fmt: skip
_SAID_DOT = r"(?:" + _SAID_JOINED + "|" + _SAID_ALONE + ")"
# Spelled-out or spaced dots: "example dot com", "example . com", "example .com", "example. com", and a
# dot said so ("example then a dot then com"), a comma allowed after the label before it.
_SPELLED_DOT = r"(?<!\s)(?:,?+\s++" + _SAID_DOT + r"|\s++\.\s*+)|\.\s++(?=(?:com|net|org)\b)"
# What makes a said dot a spoken address rather than the word "dot": "then" or "followed by" around it.
_SPOKEN_DOT = re.compile(r"\bthen\b|\bfollowed\b|\bplus\b")
# The plain dot last, so that a spaced one (". com") is read whole. A dot escaped with a backslash, as
# a regular expression or markdown writes it ("evil\\.com", "evil\\\\.com" in a string), is a dot.
_DOT = r"\\{0,2}\."
_SEP = r"(?:" + _OBF_DOT + "|" + _SPELLED_DOT + "|" + _DOT + ")"
_SEP_RE = re.compile(_SEP)
_BEFORE_LABEL = r"(?<![\w" + _MARKS + r".-])"
# A plain dotted run whose last label starts with two letters, as every top-level domain does: the
# repetition is lazy, so the run is grown a label at a time from its one start (the lookbehind allows
# no other) until its last label ends the run. Versions and numbers (v1.2.3, 12.34) never match.
_RUN_PLAIN = re.compile(
    _BEFORE_LABEL + _LBL + r"(?:" + _DOT + _LBL + r")*?" + _DOT + r"(?=[^\W\d_]{2}|xn--)" + _LBL
    + r"(?![\w" + _MARKS + r"-]|" + _DOT + r"[\w" + _MARKS + r"])"
)  # fmt: skip
_RUN_ANY = re.compile(_BEFORE_LABEL + _LBL + r"(?:" + _SEP + _LBL + r")+")
# Any of these in the text and the slower expression, with spelled and bracketed dots, runs.
_OBFUSCATION_HINTS: tuple[str, ...] = (" dot ", " .", ". com", ". net", ". org", ".]", ".)", ".}", ".>", "dot]")
_OBFUSCATION_HINTS += ("dot)", "dot}", "dot>", "punkt", "punto", "point]", "point)")
_OBFUSCATION_HINTS += (" dot,", "d0t", "d o t", "d()t", "d.o.t", " period")
# And the word "dot" between two signs ("*dot*", "-dot-", " /dot/ "), looked for only when "dot" is in
# the text, or spelt a letter at a time (_LETTERED, one linear pass).
_WRAPPED_DOT = _re2("[" + re.escape(_WRAPPING_SIGNS) + r"/\\]\s*dot\s*[" + re.escape(_WRAPPING_SIGNS) + r"/\\]")
_LETTERED_DOT = _re2(_LETTERED.replace("*+", "*"))
# Scripts written without spaces (Thai, Lao, Myanmar, Khmer, CJK, kana, Hangul): a link glued to such
# text ends, or starts, where the script changes, as a reader sees it.
_SPACELESS = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff"
_SPACELESS_CHAR = re.compile("[" + _SPACELESS + "]")
_URL_CHARS = "[^\\s<>\"'`" + _SPACELESS + "]"
_AFTER = re.compile(r"(?::\d{1,5}(?!\d))?(?:[/?#]" + _URL_CHARS + "*)?")
_TRAILING = ".,;:!?)]}'\"’”»…"
# What follows the namespace of a registry name: one slash and the server's name, nothing more.
_REGISTRY_TAIL = re.compile(r"/[a-z0-9._-]+")


def _lower(t: str) -> str:
    """t lower-cased character for character, so that offsets into it are offsets into t."""
    low = t.lower()
    if len(low) != len(t):  # İ lower-cases to two characters; keep such characters as they are
        low = "".join(c.lower() if len(c.lower()) == 1 else c for c in t)
    return low


def _trim(t: str, a: int, b: int) -> int:
    while b > a and t[b - 1] in _TRAILING:
        # Keep a closing bracket whose opening one is inside the passage: (x) in a path.
        close = t[b - 1]
        opening = {")": "(", "]": "[", "}": "{"}.get(close)
        if opening and t.count(opening, a, b) >= t.count(close, a, b):
            break
        b -= 1
    return b


def _labels(low: str, a: int, b: int) -> tuple[list[tuple[int, int]], list[str]]:
    """The labels of a dotted run as spans, and its separators: "." plain, "[" bracketed or disguised
    ("d0t"), " " spelled or said."""
    spans: list[tuple[int, int]] = []
    seps: list[str] = []
    pos = a
    for m in _SEP_RE.finditer(low, a, b):
        spans.append((pos, m.start()))
        sep = m.group()
        bracketed = any(c in sep for c in "[({<") or _DISGUISED_DOT.search(sep) is not None
        seps.append("." if sep.lstrip("\\") == "." else "[" if bracketed else " ")
        pos = m.end()
    spans.append((pos, b))
    return spans, seps


def _latin_edges(t: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The first label starts, and the last ends, where spaceless text meets Latin letters or digits:
    in 天気ならio.github.sh the first label is io, in evil.comです the last is com."""
    a, b = spans[0]
    for i in range(b - 1, a - 1, -1):
        if _SPACELESS_CHAR.match(t, i):
            if i + 1 < b and t[i + 1 : b].isascii():
                a = i + 1
            break
    first = (a, b)
    a, b = spans[-1]
    cut = _SPACELESS_CHAR.search(t, a, b)
    if cut and cut.start() > a and t[a : cut.start()].isascii():
        b = cut.start()
    return [first, *spans[1:-1], (a, b)] if len(spans) > 1 else [first]


_NOT_PLAIN = re.compile(r"[\s\[({<]")


# Words that send a reader to a place or name one as a place: "visit", "go to", "see", "at", "the
# new home is" (a bounded look-back).
_SENT_TO = re.compile(
    r"(?<![\w-])(?:visit|go\s+to|head\s+to|open|see|at|via|check\s+out|browse|join|(?:home|site|address|page"
    r"|domain|url|link|website|mirror|host)\s+(?:is|was|is\s+now))\s+\Z"
)
_CODE_SPAN_REACH = 80


def _in_code_span(low: str, a: int, b: int) -> bool:
    """Whether low[a:b] sits inside an inline code span: the nearest backtick before it and one after
    it on the same line, each within _CODE_SPAN_REACH characters (a bounded window, so many names
    cost time in proportion to the text)."""
    opening = low.rfind("`", max(0, a - _CODE_SPAN_REACH), a)
    if opening < 0 or "\n" in low[opening:a]:
        return False
    closing = low.find("`", b, b + _CODE_SPAN_REACH)
    return closing >= 0 and "\n" not in low[b:closing] and low.count("`", opening + 1, a) == 0


# Top-level domains that are also words or attributes, and common site names (buildbot.info,
# getpocket.me, freespins.win): a bare name under one is weighed on its words around it, not on its
# first label alone (profile.email, task.info and session.link are code; see _word_site).
_WORD_SITES = frozenset("info me live life link page email work win fun ws".split())
# File extensions that are also sites' domains: buildbot.cc, and Google's .zip and .mov.
_FILE_SITES = frozenset(("cc", "zip", "mov"))
# Words that send a reader to a place, whether a site or a file could be named after them.
_SENDS_THERE = (
    r"sign\s+up\s+(?:at|on|with)|hosted\s+(?:at|on)|join\s+us\s+(?:at|on)|register\s+(?:at|on|with)|go\s+over\s+to"
    r"|head\s+over\s+to|link\s+in\s+(?:my\s+|our\s+)?bio\s*:?"
)
# Words that send a reader to a place or name one, beyond _SENT_TO's: "sign up at", "find us on",
# "hosted at", "download it from", "link in bio:", "Website:".
_SITE_LEAD = re.compile(
    r"(?<![\w-])(?:" + _SENDS_THERE + r"|find\s+(?:us|me|it|them)\s+(?:at|on)|(?:more|details|info)\s+(?:at|on)"
    r"|moved\s+to|(?:download|get|grab|fetch|install|buy|order)\s+(?:it\s+|them\s+|one\s+)?(?:from|at|on)"
    r"|(?:web\s*site|site|home\s*page|web|url|blog|shop|store)\s*:"
    # Where a reader finds what was told or shown: "follow the steps on", "the full story is on", "it's
    # all explained on", "I read about it on", "I posted the photos on", "take a look at", "bookmark".
    r"|(?:steps|instructions|story|everything|all)\s+(?:(?:is|are)\s+)?(?:explained\s+)?on"
    r"|(?:found|posted|saw)\s+(?:(?:it|them|this|the\s+[a-z]++)\s+)?on|read\s+(?:more\s+|about\s+(?:it|this)\s+)on"
    r"|take\s+a\s+look\s+at|look\s+it\s+up\s+on|bookmark|log\s*in\s+(?:to|at|on)|subscribe\s+(?:at|on|to))\s*\Z"
)
# Of them, the ones no one writes of a file (.cc, .zip, .mov are also extensions: "open main.cc",
# "download backup.zip from the drive", "Attachment: clip.mov" name files).
_SITE_ONLY_LEAD = re.compile(
    r"(?<![\w-])(?:" + _SENDS_THERE + r"|visit|go\s+to|head\s+to|find\s+us\s+(?:at|on)"
    r"|(?:web\s*site|site|home\s*page|web|url|domain|blog)\s*(?::|is|was|is\s+now))\s*\Z"
)
# Words after a name that call it a site: "(our new site)", "is our website", "- sign up free".
_SITE_ONLY_AFTER_WORDS = (
    r"\s*+\((?:our\s+|the\s+|my\s+)?(?:new\s+|official\s+|main\s+)?(?:web\s*site|site|home\s*page|mirror|blog"
    r"|shop|store)\)|\s++(?:is|was)\s+(?:now\s+)?(?:our|the|my)\s+(?:new\s+|official\s+|main\s+)?(?:web\s*site|site"
    r"|home\s*page|blog|shop|store|mirror|domain)\b|\s*+[\u2014\u2013-]+\s*(?:sign\s+up|join|register|subscribe)"
)
_SITE_ONLY_AFTER = re.compile(_SITE_ONLY_AFTER_WORDS)
# And words after it that call it a place to go, but could name a file too: "for more", "has the full
# guide", "is live now", "- free".
_SITE_AFTER = re.compile(
    _SITE_ONLY_AFTER_WORDS
    + r"|\s++for\s+(?:more|details|the\s+download|updates|tickets|the\s+rest)\b"
    + r"|\s++has\s+(?:the\s+)?(?:full|best|latest|complete|lowest|cheapest)\b"
    + r"|\s++is\s+(?:now\s+)?(?:live|online)\s+now\b|\s*+[\u2014\u2013-]+\s*(?:free|get|buy|shop)\b"
    # Words that tell what a site holds or does, within its sentence: "is where we post updates", "has
    # everything you need", "has a free trial", "is down for maintenance", "is a great resource".
    + r"|\s++(?:is|was|has|have|had)\b[^.!?\n]{0,40}?(?<![\w-])(?:updates|share|docs|trials?|deals|guides"
    + r"|tutorials|resources?|maintenance|online|offline|bookmark(?:ing|ed)?|forum|recipes|slides"
    + r"|everything\s+you)(?![\w-])"
    # Or that it is up or down again, run by someone, or sells, hosts or posts things.
    + r"|\s++(?:is|was)\s+(?:up|down|back)\s+(?:again|now)\b|\s++(?:is|was)\s+run\s+by\s+(?:my|our|a)\b"
    + r"|\s++(?:sells|hosts|posts)\b"
)
# What happens to a site or what it is doing, within its sentence, as no one tells of a file, a module
# or an attribute (whose news is "crashed", "was rewritten", "went down after the deploy"): its
# business ("is hiring", "got acquired", "is running a giveaway", "opened signups", "raised prices"), a
# break-in ("got hacked", "was breached", "leaked emails"), a launch ("just launched", "launched a new
# app"), a show ("is streaming the final", "is hosting the stream", "broadcasts live"), or being out for
# its readers for a while of their day ("was down all morning", "went down last night", "has been
# offline since noon", "is down for anyone else?", "is having an outage", "is invite-only now"), and
# the same in the other languages a sentence around a site is written in ("est en panne", "está
# caído", "wurde gehackt", "sta trasmettendo"). Read from the name's end, a bounded window.
_SITE_NEWS = (
    r"hiring|recruiting|acquired|bought\s+out|giveaway|giving\s+away|sign-?ups|registrations?\s+(?:open|closed)"
    r"|redesign|paid\s+plan|free\s+tier|premium\s+plan|(?:raised|raising|cut|slashed)\s+(?:its\s+|their\s+)?prices"
    r"|winners|new\s+season|podcast|newsletter|hacked(?!\s+(?:together|up|around))|breached|leaked|scammers"
    r"|outage|unreachable|unavailable|invite-only|sold\s+out|fully\s+booked|overloaded|banned\s+(?:my|our|his|her"
    r"|their|me|us)|blocked\s+(?:in|at|by)|closing\s+(?:its|their)\s+doors|went\s+public|maintenance"
    r"|(?:just|finally)\s+(?:re)?launched|(?:re)?launch(?:ed|es|ing)?\s+(?:a|an|its|their|on|today|tomorrow|this"
    r"|next|in|soon)|(?:stream|broadcast|host)(?:s|ed|ing)?\s+(?:live|tonight|all\s+(?:week|day|night)|right\s+now"
    r"|the\s+(?:final|finals|match|game|show|concert|stream|premiere|event|race|keynote|tournament|debate|awards))"
    # Other languages: down, hiring, hacked, streaming, launched.
    r"|en\s+panne|hors\s+ligne|recrute|piraté|diffuse|caído|caída|caiu|fora\s+do\s+ar|contrata(?:ndo)?"
    r"|hackead[oa]|transmitiendo|transmitindo|gehackt|stellt\s+ein|überträgt|ist\s+seit|trasmettendo"
    r"|ligt\s+(?:er\s+)?(?:weer\s+)?(?:uit|plat)|lanzó|lanzar|lancé|lançou"
)
_OUT = r"(?:down|offline|out|dark|unreachable|up|back)"
_WHILE = (
    r"all\s+(?:morning|day|night|week|weekend|afternoon|evening)|since\s+(?:noon|midnight|yesterday|this\s+morning"
    r"|last\s+night|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d)|until|till"
    r"|for\s+(?:an?\s+hour|hours|days|most\s+of|the\s+(?:weekend|day|night|week|whole)|everyone|anyone|everybody"
    r"|anybody|me|us|you)|last\s+(?:night|week|weekend)|yesterday|tonight|this\s+(?:morning|afternoon|evening|week"
    r"|weekend)|(?:tomorrow|today)(?:\s+for)?|heute|hier|ayer|ontem|ieri|gisteren"
)
_SITE_EVENT = re.compile(
    r"(?:'s\s++(?:servers?|site|website|login|homepage|checkout|forum|store|shop|app)\b"
    r"|\s++[^.!?\n]{0,40}?(?<![\w-])(?:" + _SITE_NEWS + r")(?![\w-])"
    r"|\s++(?:[a-z]++\s++){0,3}?" + _OUT + r"(?:\s++(?:again|now|completely))?\s++(?:" + _WHILE + r")(?![\w-])"
    r"|\s++(?:[a-z]++\s++){0,2}?down\s*+\?)"
)
# Words before a site in the other languages a sentence around it is written in: "mira", "visitez",
# "rendez-vous sur", "besuchen Sie", "schau mal auf", "andate su", "acesse", "ga naar", "kijk op",
# "todo está en", "gibt es auf".
_FOREIGN_LEAD = re.compile(
    r"(?<![\w-])(?:mira|visita|visite[zs]?|visitate|acesse|acessa|entra\s+(?:en|em|su)|allez\s+sur|va\s+sur"
    r"|rendez-vous\s+sur|besuchen\s+sie|besuche|schau\s+(?:mal\s+)?(?:auf|bei)|andate\s+su|vai\s+su|ga\s+naar"
    r"|kijk\s+op|(?:está|esta|estão|est|ist|è|é|staat)\s+(?:en|em|sur|auf|su|op)|gibt\s+es\s+(?:auf|bei)"
    r"|(?:regístrate|registrate|inscrivez-vous|inscris-toi|iscriviti|cadastre-se|registriere\s+dich|meld\s+je\s+aan)"
    r"\s+(?:en|em|sur|auf|su|op|bei))\s*\Z"
)
# A line naming the name alone, after a bullet, a number or a label ("- buildbot.info", "1. x",
# "Best: x", "**x**"), with at most a note after a dash or in brackets.
_LIST_BEFORE = re.compile(r"[ \t]*+(?:[-*+\u2022]|\d{1,2}[.)]|(?:[a-z]++[ \t]){0,2}[a-z]++:)?[ \t]*+[*_]{0,2}\Z")
_LIST_AFTER = re.compile(r"[*_]{0,2}[.!]?[ \t]*+(?:(?:[\u2014\u2013(]|-[ \t])[^\n]*+)?(?:\n|\Z)")
# Words of a sentence about code: near a name, they make it an attribute, a method or a logger, not a
# site, whatever sends the reader to it ("see task.info in the model", "the session.link field").
_CODE_TALK = re.compile(
    r"(?<![\w-])(?:fields?|attributes?|attrs?|columns?|propert(?:y|ies)|methods?|functions?|variables?|params?"
    r"|parameters?|arguments?|models?|serializers?|handlers?|debugger|class|instance|object|modules?|schema"
    r"|migrations?|null|none|nullable|default|returns?|returned|values?|string|bool(?:ean)?|int(?:eger)?|key"
    r"|index|query|form|admin|orm|table|record|row|cache|tests?|bug|code|commit|diff|refactor|renamed?"
    # "log", but not "log in to": a site's sign-in ("log in to tunebase.live and vote").
    r"|deprecated|loggers?|logging|log(?!\s+in\s+to\b)|debug|warning|error|exception|traceback|payload|json|dict"
    r"|array|type|lint|unique|required|optional|validate|setter|getter|self|worker|thread|output|flush|sink|api)(?![\w-])"
    r"|\.py\b|\(\)|[=\[{`]"
)
_CODE_TALK_REACH = 60


def _word_site(t: str, low: str, spans: list[tuple[int, int]], tld: str) -> bool:
    """Whether a bare name of two labels under a top-level domain that is also a word, an attribute or
    a file extension is a site: shaped as a host (a hyphen or a digit: shop-deals.info, login2.me), or
    a name of four letters or more, not written as code, with words around it that send the reader to
    it or call it a site ("visit vault.no", "Best: buildbot.info", "getpocket.me (our new site)") and
    no word of code talk near it (the sentence about code names a field, a model, a logger). Each look
    is bounded (a few dozen characters either side)."""
    if len(spans) != 2:
        return False
    (start, mid), (dot_end, end) = spans
    left = low[start:mid]
    files = tld in _FILE_EXTENSIONS
    if left[:1].isalpha() and ("-" in left or any(c.isdigit() for c in left)):
        # Shaped as a host: a site, but under .zip and .mov, where file names have hyphens and digits
        # (holiday-2026.mov), and a digit under .cc (test2.cc: a C++ file).
        return not files or (tld == "cc" and "-" in left)
    written_tld = t[dot_end:end]
    if written_tld[:1].isupper() and not written_tld.isupper() and t[mid - 1 : mid].islower():
        return False  # "the info.Me too": a sentence that lost its space
    if len(left) < 4 or not left.isalpha() or left in _CODE_RECEIVERS:
        return False
    back = low[max(0, start - 24) : start]
    news = not files and _SITE_EVENT.match(low, end, end + 80) is not None
    if _looks_like_code(t[start:mid], t) and not (_titlecase(t[start:mid]) and _told_as_site(low, start, end)):
        return False
    if files:
        sent = _SITE_ONLY_LEAD.search(back) is not None or _SITE_ONLY_AFTER.match(low, end) is not None
        return sent and not _code_talk(low, start, end)
    sent = _SENT_TO.search(low, max(0, start - 16), start) is not None
    if tld in _WORD_SITES:
        line = low.rfind("\n", max(0, start - 40), start) + 1
        listed = (line > 0 or start < 40) and _LIST_BEFORE.match(low, line, start) is not None
        listed = listed and _LIST_AFTER.match(low, end, end + 80) is not None and not _lists_files(low, line)
        sent = sent or listed or _SITE_LEAD.search(back) is not None or _SITE_AFTER.match(low, end) is not None
        sent = sent or news or _FOREIGN_LEAD.search(back) is not None
    return sent and not _code_talk(low, start, end)


def _titlecase(label: str) -> bool:
    return label[:1].isupper() and label[1:].islower()


def _told_as_site(low: str, start: int, end: int) -> bool:
    """Whether the name at low[start:end] is told with a site's news (_SITE_EVENT) or after words of
    another language that send a reader to it: then it is a site even in Titlecase, as a sentence's
    first word or a brand is written ("Fanzone.live was down all morning", "Mira Tunebase.win");
    camelCase is still code. Bounded: 80 characters after it, 24 before."""
    return (
        _SITE_EVENT.match(low, end, end + 80) is not None
        or _FOREIGN_LEAD.search(low, max(0, start - 24), start) is not None
    )


# What happens to a file, a module or an attribute, and never to a site, within the sentence after its
# name: it panics, fails to compile, breaks the build, is flaky, reverted, rewritten or renamed, or what
# happened comes in CI, a test, a fixture, after a deploy, a merge or a restart ("team.club got renamed
# last sprint", "build.app crashed in CI", "room.host was launched from the CLI"). Or before it: "the
# test for".
_CODE_NEWS = re.compile(
    r"\s++[^.!?\n]{0,40}?(?<![\w-])(?:panick?(?:ed|s)?|segfault(?:ed|s)?|deadlock(?:ed|s)?|timed\s+out"
    r"|failed\s+to\s+(?:compile|build|parse|load|import|start)|broke\s+the\s+(?:build|tests?|ci)|flaky|reverted"
    r"|rewritten|refactored|renamed|split\s+into|leaks?\s+memory|empty\s+input|(?:in|on)\s+(?:ci|staging"
    r"|the\s+(?:fixtures?|tests?|repl|integration\s+tests?|build|pipeline|nightly))|after\s+the\s+(?:deploy|restart"
    r"|merge|retry|refactor|migration|reconnect|rebase|upgrade|fix|patch)|since\s+the\s+(?:[a-z]++\s+)?(?:change"
    r"|commit|merge|refactor|deploy|upgrade)|from\s+the\s+(?:cli|shell|terminal)|the\s+(?:worker|dev\s+server"
    r"|lock|socket|seed)|last\s+sprint|down\s+to\s+(?:\d+|one|zero|two|a\s+few)\b)(?![\w-])"
)
_CODE_NEWS_BEFORE = re.compile(r"(?<![\w-])(?:tests?|specs?|fixtures?|types?|docs?)\s+(?:for|of)\s+\Z")


def _told_as_code(low: str, start: int, end: int) -> bool:
    """Whether the name at low[start:end] is told with a file's or a module's news (_CODE_NEWS) and no
    word before it sends a reader there. Bounded: 80 characters after it, 24 before."""
    back = max(0, start - 24)
    if _SENT_TO.search(low, max(0, start - 16), start) is not None or _SITE_LEAD.search(low, back, start):
        return False
    return _CODE_NEWS.match(low, end, end + 80) is not None or _CODE_NEWS_BEFORE.search(low, back, start) is not None


def _listed_with_files(low: str, start: int, end: int) -> bool:
    """Whether the name at low[start:end] is alone on a list's line (a bullet or a number before it)
    in a list of files and fields (_lists_files)."""
    line = low.rfind("\n", max(0, start - 40), start) + 1
    if (line == 0 and start >= 40) or _LIST_ITEM.match(low, line, end) is None:
        return False
    return _LIST_AFTER.match(low, end, end + 80) is not None and _lists_files(low, line)


# A list of a change's files and fields, not of sites: under a heading that says what a change did
# ("Touched:", "Files changed:", "In this change:", "Done today:") or talks code, or with an item that
# is a file.
_CHANGE_HEADING = re.compile(
    r"[ \t#*_]*+(?:[a-z]++[ \t]++){0,2}(?:touched|changed|edited|modified|updated|affected|change|done"
    r"(?:[ \t]++today)?)[ \t*_]*+:[ \t*_]*+"
)
# A list's item: a bullet or a number, then its first word (a dotted name is read whole).
# Or a heading that names a project's files: "Files:", "Project layout", "Structure", "Folders".
_FILES_HEADING = re.compile(
    r"[ \t#*_]*+(?:[a-z]++[ \t]++){0,2}(?:files|layout|structure|folders|directories|tree)[ \t*_]*+:?[ \t*_]*+"
)
# A list's item: a bullet or a number, then its first word (a dotted name is read whole). The matching
# reading reads a bullet "•" as a dot, so a dot opening a line is a bullet too.
_LIST_ITEM = re.compile(r"[ \t]*+(?:[-*+\u2022.]|\d{1,2}[.)])[ \t]++[*_`]{0,2}([\w.-]*+)")
_LIST_REACH = 240


def _file_item(item: str) -> bool:
    """Whether a list's item names a file or an attribute: a dotted name whose last label is no
    top-level domain or is a file's extension (order.py, app.js, README.md), or whose first is a name
    code reads attributes of (settings.dev, server.run: _CODE_RECEIVERS, as _domain reads them)."""
    dot = item.rstrip(".").rfind(".")
    last = item.rstrip(".")[dot + 1 :]
    if dot > 0 and item[: item.find(".")] in _CODE_RECEIVERS:
        return True
    return dot > 0 and last.isalpha() and (last not in _ALL_TLDS or last in _FILE_EXTENSIONS)


def _lists_files(low: str, line: int) -> bool:
    """Whether the list holding the line that starts at `line` is a change's files and fields: its
    heading says what a change did or talks code, or another of its items is a file ("Touched:\n*
    cart.ws\n* order.py", "Fields:\n- profile.email\n- task.info").
    Bounded: the list's lines within _LIST_REACH characters either side."""
    reach = max(0, line - _LIST_REACH)
    end = line - 1
    while end > reach:  # up the list to its heading
        start = low.rfind("\n", reach, end) + 1
        if start == 0 and reach > 0:
            break
        item = _LIST_ITEM.match(low, start, end)
        if item is None:  # the heading: what a change did, or code talk ("Fields:", as for its first item)
            if (
                _CHANGE_HEADING.fullmatch(low, start, end) is not None
                or _FILES_HEADING.fullmatch(low, start, end) is not None
                or _CODE_TALK.search(low, start, end) is not None
            ):
                return True
            break
        if _file_item(item.group(1)):
            return True
        end = start - 1
    start = low.find("\n", line, line + _LIST_REACH) + 1
    while 0 < start < line + _LIST_REACH:  # down the list
        end = low.find("\n", start, line + _LIST_REACH)
        end = end if end >= 0 else min(len(low), line + _LIST_REACH)
        item = _LIST_ITEM.match(low, start, end)
        if item is None:
            return False
        if _file_item(item.group(1)):
            return True
        start = end + 1
    return False


def _code_talk(low: str, start: int, end: int) -> bool:
    """Whether words of code talk stand within _CODE_TALK_REACH characters of low[start:end], on its
    line or the line before (a list's heading: "Fields changed:\n- profile.email")."""
    a = max(0, start - _CODE_TALK_REACH)
    line = low.rfind("\n", a, start)
    if line >= 0:
        a = low.rfind("\n", a, line) + 1 if line > a else line + 1
    b = low.find("\n", end, end + _CODE_TALK_REACH)
    b = b if b >= 0 else min(len(low), end + _CODE_TALK_REACH)
    return _CODE_TALK.search(low, a, start) is not None or _CODE_TALK.search(low, end, b) is not None


def _domain(t: str, low: str, m: re.Match[str]) -> _Hit | None:
    if _NOT_PLAIN.search(low, m.start(), m.end()) is None:
        # Most dotted runs are versions, files and attribute paths: out on the last label alone.
        tld = low[low.rfind(".", m.start(), m.end()) + 1 : m.end()]
        if tld not in _ALL_TLDS and (tld.isascii() or not _SPACELESS_CHAR.search(tld)):
            return None
    spans, seps = _labels(low, m.start(), m.end())
    if not low[m.start() : m.end()].isascii():
        spans = _latin_edges(low, spans)
    # Keep the longest tail that can be a hostname: no underscore, and no phrase word before a
    # spelled-out dot ("the dot com era").
    first = 0
    for i, (a, b) in enumerate(spans):
        label = low[a:b]
        if "_" in label or (i < len(seps) and seps[i] == " " and label in _PHRASE_WORDS):
            first = i + 1
    spans, seps = spans[first:], seps[first:]
    if len(spans) < 2:
        return None
    labels = [low[a:b] for a, b in spans]
    tld = labels[-1]
    if tld not in _ALL_TLDS:
        return None
    start, end = spans[0][0], spans[-1][1]
    after = _AFTER.match(low, end)
    tail = after.group() if after else ""
    if tail.startswith(":") and low[end + len(tail) : end + len(tail) + 1] == "]" and "/" not in tail:
        # "session.live:42]" with no "[" before it on its line: a file and a line number as a log
        # line writes them (glog's "E1207 10:01:22.114 worker.py:42] msg"), not a host and a port.
        line = low.rfind("\n", 0, start) + 1
        if "[" not in low[max(line, start - 80) : start]:
            tail = ""
    port = tail.startswith(":")
    path = "/" in tail and (tail.startswith("/") or port)
    query = tail[:1] in ("?", "#") and len(tail) > 1
    www = re.fullmatch(r"www\d{0,3}", labels[0]) is not None
    before = low[start - 1] if start else ""

    def hit() -> _Hit:
        return _Hit(start, _trim(low, start, end + len(tail)), "link")

    if "[" in seps or www:
        return hit()
    if (
        len(spans) > 2
        and labels[0] in _SUFFIX_TLDS
        and tld not in _BIG_GENERIC
        and _REGISTRY_TAIL.fullmatch(tail.rstrip(_TRAILING))
    ):
        return None  # an MCP registry name: reverse DNS, one slash, the server's name
    if " " in seps:
        following = re.match(r"\s+([^\W\d_]+)", low[end : end + 40])
        # "wa . me/447700900123": a path after a dot with blanks before it, on one line, names a host
        # under any domain; a dot that ends a word ("fine. com.acme.tools/inventory", across a line
        # or not) is a sentence's end before a path.
        spaced_before = all(low[spans[i][1]] != "." for i, sep in enumerate(seps) if sep == " ")
        named = (path or query) and spaced_before and "\n" not in low[start:end]
        # A dot said with "then" or "followed by" around it spells a name out aloud: any top-level
        # domain but a short word a sentence goes on with ("a dash then a dot then to the left").
        said = any(_SPOKEN_DOT.search(low, spans[i][1], spans[i + 1][0]) for i, sep in enumerate(seps) if sep == " ")
        spoken = said and not (tld in _CODE_WORDS and len(tld) <= 3)
        if tld not in _COMMON and tld not in _SOMETIMES and not named and not spoken:
            return None
        if following and following.group(1) in _PHRASE_AFTER:
            return None
        for i, sep in enumerate(seps):
            # A dot, blanks, then a word: a sentence's end and the next one's start ("Done. Net
            # result", "done. net result") unless what follows ends a name (the evidence above
            # _BROKEN_TLDS: "evil. Com/x", "visit evil. net for details").
            b, c = spans[i][1], spans[i + 1][0]
            if sep == " " and low[b] == ".":
                if not _ends_a_name(t, low, start, (c, end), False, spaced="\n" not in low[b:c]):
                    return None
        return hit()
    if start >= 2 and low[start - 2 : start] == "//" and (start == 2 or low[start - 3] in "\"'=( \t\n"):
        return hit()  # a protocol-relative link: href="//host.tld", [url=//host.tld]
    if labels[0] in _CODE_RECEIVERS and tld not in _BIG_GENERIC and not (path or port or query):
        return None  # an attribute of an object: window.top, self.client.post
    if before and before in "/\\" and not (port or path):
        return None  # a file in a path: docs/setup.py
    if tld in _FILE_EXTENSIONS:
        # A file name (setup.py, video.mov) unless a path follows, or, under an extension that is also
        # a site's domain (main.cc, backup.zip), words no one writes of a file call it a site.
        return hit() if path or (tld in _FILE_SITES and _word_site(t, low, spans, tld)) else None
    if tld in _CODE_WORDS or tld in _WORD_SITES:
        # A top-level domain that is also a word or an attribute (info, me, it, to, in, work): a path,
        # a port or a query says link; else the name's shape and the words around it (_word_site).
        return hit() if path or port or query or _word_site(t, low, spans, tld) else None
    if (
        tld not in _BIG_GENERIC
        and tld not in _CC_TLDS
        and not (path or port or query)
        and len(spans) == 2
        and _in_code_span(low, start, end)
    ):
        return None  # `cart.store`, `session.cloud`: an inline code span holds a name, not a host
    if (
        tld not in _BIG_GENERIC
        and tld not in _CC_TLDS
        and not (path or port or query)
        and len(spans) == 2
        and (_told_as_code(low, start, end) or _listed_with_files(low, start, end))
    ):
        return None  # "team.club got renamed", "build.app crashed in CI", "- room.host" beside "- main.go"
    if tld in _NEWER:
        if len(spans) == 2 and labels[0] in _SUFFIX_TLDS and _REGISTRY_TAIL.fullmatch(tail.rstrip(_TRAILING)):
            return None  # a registry name under a newer top-level domain: org.kitchen/search-mcp
        called = low[end : end + 1] in ("(", "=", "[")  # a method called, a field set or indexed: code
        if path or port or query or (len(spans) >= 3 and tld not in _CODE_NEWER and not called):
            return hit()
        left = t[spans[0][0] : spans[0][1]]
        code = tld in _CODE_NEWER or low[end : end + 1] in ("(", "=") or _looks_like_code(left, t)
        return None if code or not any(c.isalpha() for c in left) else hit()
    if tld in _SOMETIMES:
        if path or port or query or len(spans) >= 3:
            return hit()
        # Two labels: a host (claimcheck.io, free.app) unless it is written as code or named as a
        # library is (socket.io, Vue.app): camelCase or Titlecase, or a call after it.
        left = t[spans[0][0] : spans[0][1]]
        code = (
            low[end : end + 1] in ("(", "=")
            or (_looks_like_code(left, t) and not (_titlecase(left) and _told_as_site(low, start, end)))
            or labels[0] in _LIBRARY_NAMES
            or (tld == "ai" and labels[0] in _DRAWING_NAMES)  # logo.ai: an Illustrator file
            or _CODE_AFTER.match(low, end) is not None
            or _CODE_BEFORE.search(low, max(0, start - 8), start) is not None
        )
        return None if code or not any(c.isalpha() for c in left) else hit()
    if not (path or port or query):
        if all(label in _SUFFIX_TLDS for label in labels):
            return None  # a suffix named on its own: co.uk, com.au
        if len(spans) == 2:
            if ".".join(labels) in _TECHNOLOGY:
                return None
            written = t[spans[-1][0] : spans[-1][1]]
            left = t[spans[0][0] : spans[0][1]]
            if written.istitle() and tld in _WORDLIKE and left[-1:].islower() and not _title_text(t):
                return None  # "done.Next": a sentence that lost its space
            if not any(c.isalpha() for c in left):
                return None
    return hit()


# Schemes, written plainly or defanged (hxxp, h**p, http[:]//), and the pseudo-schemes that run code.
# All the link expressions below read the lower-cased matching form.
# A scheme is found from its "://" backwards (the scheme's name) and forwards (the rest).
_SCHEME_NAME = re.compile(r"[a-z][a-z0-9+.-]{0,30}\Z")
_URL_REST = re.compile(_URL_CHARS + "*")
_DEFANGED_SCHEME = re.compile(
    r"(?:h(?:tt|xx|\*\*|__|\.\.)ps?|f[tx]ps?|sftp|wss?)"
    r"(?:\s*+(?:\[\s*:\s*\]|\(\s*:\s*\)|\{\s*:\s*\})\s*+/{0,2}|\s*+\[\s*:?/{1,2}\s*\]|:\s*\[/{1,2}\]|\s++:\s*//|:\s++//"
    r"|:\\{1,2}|:/(?=[^/\s])|://|;?//(?=[a-z0-9]))" + _URL_CHARS + r"*|h(?:xx|\*\*|__)ps?(?![a-z0-9*])"
)
# "https//host" and "http;//host" (the colon left out or mistyped) count as a scheme written plainly.
_DEFANGED_HINTS = ("[:", "(:", "{:", "[/", ": /", ":\\", ":/", "hxx", "h**", "h__", "h..p", "p//", "s//", "p;//", "s;//")  # fmt: skip
_PSEUDO_SCHEME = re.compile(
    r"(?:(?:java|vb|live)script:(?=\S)|data:[a-z]+/[\w.+-]+(?:;[\w=.+-]+)*[;,]|file:/|magnet:\?|view-source:)"
    + _URL_CHARS
    + "*"
)
_PSEUDO_HINTS = ("script:", "data:", "file:/", "magnet:", "view-source:")
_WWW = re.compile(r"(?<![a-z0-9.-])www\d{0,3}" + _SEP + _LBL + r"(?:" + _SEP + _LBL + r")*")
_IP = re.compile(r"\d{1,3}(?:(?:\\{0,2}\.|\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\))\d{1,3}){3}(?![\w]|\.\d)")
# IPv6: eight groups, or fewer around one "::"; bracketed with a port, or bare. A match needs a digit
# and five characters (or is ::1), so that Rust's a::b and C++'s std::map are not addresses.
_H16 = r"[0-9a-f]{1,4}"
_IP6 = re.compile(
    r"(?<![\w:.])\[?(?:(?:" + _H16 + r":){7}" + _H16 + r"|(?:" + _H16 + r"(?::" + _H16 + r"){0,6})?::(?:" + _H16
    + r"(?::" + _H16 + r"){0,6})?)(?:\]:\d{1,5}|\])?(?![\w:])"
)  # fmt: skip


def _ip6(m: re.Match[str]) -> bool:
    bare = m.group().strip("[]").split("]")[0]
    return bare == "::1" or (len(bare) >= 5 and any(c.isdigit() for c in bare) and bare.count(":") >= 2)


# A dotted quad after these words is a version number.
_VERSION_BEFORE = re.compile(r"(?:version|ver|v|release|build|rev|revision|firmware|update|python|node)\s*\Z")
# Words that make a dotted quad in the same sentence a version ("AssemblyVersion reads 1.2.3.0",
# "bumped from 1.4.6.0 to 1.4.6.1", "the SDK at 4.3.1.4 broke our tests", "5.1.2.9 (64-bit)"): one
# tells of a release, never of where a machine is. Read in a window of bounded width around each
# quad, so that many quads still cost time in proportion to the text.
_VERSION_NEAR = re.compile(
    r"(?<![\w-])(?:\w*version\w*|vers[aã]o|versi[oó]n|versione|ver|v|releases?|released|builds?|firmware|drivers?"
    r"|sdk|changelog|tag|tagged|upgrad\w*|downgrad\w*|bump\w*|pinn?ed|pin|installed|installer|patch\w*|hotfix"
    r"|semver|csproj|assembly\w*|nuget|latest|beta|alpha|rc|\d\d-bit|x64|x86|arm64)(?![\w-])|版本"
)
# Software whose name, just before a dotted quad, makes it that software's release ("Java 17.0.1.2").
_PRODUCT_BEFORE = re.compile(
    r"(?<![\w.-])(?:java|jdk|jre|openjdk|kernel|linux|chrome|chromium|firefox|edge|safari|opera|windows|macos|ios"
    r"|ipados|android|ubuntu|debian|fedora|\.net|dotnet|golang|go|rust|rustc|ruby|php|perl|postgres(?:ql)?|mysql"
    r"|mariadb|redis|nginx|apache|tomcat|docker|kubernetes|k8s|kubectl|terraform|gradle|maven|electron|vs\s*code"
    r"|xcode|unity|office|excel|outlook|teams|zoom|slack|llvm|clang|gcc|cmake|qt|openssl|openssh|git|npm|pip|yarn"
    r"|deno|bun|typescript|sqlite|mongodb|elasticsearch|kafka|spark|jenkins|cuda|nvidia|intel|bios|uefi|app)"
    r"\s*:?\s*\Z"
)
# From the first digit of a run only, each run of digits taken whole: tried at every digit of a long
# run, each try reading the rest of it, 40,000 digits after a dotted quad took the screen 16 s.
_DOTTED_NUMBER = re.compile(r"(?<!\d)\d++(?:\.\d++){2,}")
_SENTENCE_END = re.compile(r"[.!?;]\s|\n")
_VERSION_WINDOW = 80


@functools.lru_cache(maxsize=4)
def _version_marks(low: str) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """The sentence ends (starts and ends), version words (starts and ends) and dotted numbers
    (starts) of a text, each found in one pass over it, so that each dotted quad then looks its
    window up by bisection rather than reading it again."""
    ends = list(_SENTENCE_END.finditer(low))
    near = list(_VERSION_NEAR.finditer(low))
    return (
        [m.start() for m in ends],
        [m.end() for m in ends],
        [m.start() for m in near],
        [m.end() for m in near],
        [m.start() for m in _DOTTED_NUMBER.finditer(low)],
    )


def _version_context(low: str, a: int, b: int) -> bool:
    """A dotted quad at low[a:b] reads as a version: a version word in its sentence (at most
    _VERSION_WINDOW characters either side), a pre-release tail (-beta, -rc.1), a last part of 0
    (a network's own number, never a host one is told to reach), a program's name just before it,
    or another dotted number in the sentence that starts as it does."""
    if low.endswith(".0", a, b) or re.match(r"[-+](?:alpha|beta|rc|pre|dev|snapshot|build|preview)", low[b : b + 9]):
        return True
    end_starts, end_ends, near_starts, near_ends, dotted = _version_marks(low)
    start = max(0, a - _VERSION_WINDOW)
    k = bisect.bisect_right(end_ends, a) - 1
    if k >= 0 and end_ends[k] > start:
        start = end_ends[k]
    stop = min(len(low), b + _VERSION_WINDOW)
    k = bisect.bisect_left(end_starts, b)
    if k < len(end_starts) and end_starts[k] < stop:
        stop = end_starts[k]
    k = bisect.bisect_left(near_starts, start)
    if k < len(near_starts) and near_ends[k] <= a:
        return True
    k = bisect.bisect_left(near_starts, b)
    if k < len(near_starts) and near_ends[k] <= stop:
        return True
    if _PRODUCT_BEFORE.search(low, max(0, a - 24), a) is not None:
        return True
    # Another dotted number in the sentence that starts as this one does ("ran on 5.2.16.1 but fails
    # on 5.2.16.7", "httpx 4.5.14.3 and 4.5.14"): a release and its neighbour, not two machines.
    stem = low[a : low.index(".", low.index(".", a) + 1, b) + 1]
    k = bisect.bisect_left(dotted, start)
    while k < len(dotted) and dotted[k] < stop:
        n = dotted[k]
        if n != a and low.startswith(stem, n) and not low[n - 1 : n].isalnum():
            return True
        k += 1
    return False


def _bare_ip(low: str, m: re.Match[str]) -> bool:
    """A dotted quad on its own is an IPv4 address when each part is a byte and nothing around it
    says it is a version."""
    parts = m.group().replace("\\", "").split(".")  # a dot escaped with a backslash is a dot
    if len(parts) != 4 or any(int(p) > 255 or (len(p) > 1 and p[0] == "0") for p in parts):
        return False
    if _VERSION_BEFORE.search(low, max(0, m.start() - 12), m.start()) is not None:
        return False
    return not _version_context(low, m.start(), m.end())


_PUNYCODE = re.compile(r"(?<![a-z0-9-])xn--[\w-]+(?:\.[\w-]+)*")
_MARKDOWN_LINK = re.compile(r"(?<![\w\])])\[[^\[\]\n]{1,300}\]\(\s*<?[^()\s<>]{1,2000}>?(?:\s+\"[^\"\n]*\")?\s*\)")
_MAILTO = re.compile(r"(?<![a-z0-9])mailto:" + _URL_CHARS + "+")
# An address is found from its at sign outward: "@" (a space either side allowed), "[at]" and the
# like, or a spelled-out " at ". Then a local part before it and a dotted domain after it.
_LOCAL_PART_BACKWARDS = re.compile(r"[\w.+-]{1,64}")
# What must follow an at sign for an address: labels, the last of which starts with two letters.
_ADDRESS_TAIL = r"\s*" + _LBL + r"(?:" + _SEP + _LBL + r")*?" + _SEP + r"(?=[^\W\d_]{2}|xn--)"
# The sign, found only where such a domain follows it, all in one expression: a text may hold
# thousands of signs, and each one looked at in Python would cost a call.
_AT_SIGN = re.compile(r"(?:@|[\[({<]\s*+(?:@|at)\s*+[\])}>]| at )(?=" + _ADDRESS_TAIL + ")")
_DOMAIN_AFTER_AT = re.compile(_LBL + r"(?:" + _SEP + _LBL + r")+")
# Words before "at" that make it a preposition: "look at example dot com" is a link, not an address.
_AT_PHRASE_WORDS = set(
    "look looking looked me us him them it here there home work least most all once first last stay stayed meet met "
    "arrive arrived arriving live lives living based found available visit try check go went see aimed good bad "
    "best great".split()
)


# A local host with a port, and the path after it: localhost:8080/admin ("localhost" alone is a word).
_LOCALHOST = re.compile(r"(?<![\w.-])localhost:\d{1,5}(?!\d)(?:/" + _URL_CHARS + "*)?")
# An address at a local host or an IP literal: root@localhost, admin@[192.168.1.1].
_LOCAL_ADDRESS = re.compile(r"[\w.+-]{1,64}@(?:localhost(?:\.localdomain)?\b|\[(?:ipv6:)?[0-9a-f:.]{2,45}\])")


# An address spelled with its words joined by hyphens or underscores (bob-at-evil-dot-com), or in
# another language's words for the sign and the dot (bob arroba evil punto com, bob klammeraffe evil
# punkt de). Group 1 is the last label, which must be a top-level domain. RE2: linear in the text.
_AT_WORDS = r"(?:at|arroba|arobase|klammeraffe|chiocciola)"
_DOT_WORDS = r"(?:dot|punto|punkt|point|ponto|pont)"
_JOIN = r"(?:[-_]|\s+)"
_JOINED_ADDRESS = _re2(
    r"[a-z0-9.+]{1,64}" + _JOIN + _AT_WORDS + _JOIN + r"[a-z0-9]{1,63}(?:" + _JOIN + _DOT_WORDS + _JOIN
    + r"[a-z0-9]{1,63})*?" + _JOIN + _DOT_WORDS + _JOIN + r"([a-z]{2,24})\b"
)  # fmt: skip
_JOINED_HINTS = ("-at-", "_at_", "arroba", "arobase", "klammeraffe", "chiocciola")


def _email(t: str, low: str, at: re.Match[str], obfuscated: bool) -> _Hit | None:
    sign = at.group()
    spelled = sign == " at "
    if spelled and not obfuscated:
        return None  # "john at example dot com" needs a spelled-out or bracketed dot
    a, b = at.start(), at.end()
    if sign == "@":
        a -= low[a - 1 : a].isspace()
        b += low[b : b + 1].isspace()
    else:
        while a > 0 and low[a - 1].isspace():
            a -= 1
        while b < len(low) and low[b].isspace():
            b += 1
    # The local part is read backwards from the sign, on a reversed copy of the 64 characters before
    # it: a search for "[...]{1,64}$" would try each of those 64 places in turn.
    before = low[max(0, a - 64) : a][::-1]
    local_match = _LOCAL_PART_BACKWARDS.match(before)
    domain = _DOMAIN_AFTER_AT.match(low, b)
    if local_match is None or domain is None:
        return None
    if sign == "@" and low[domain.end() : domain.end() + 1] == "(":
        return None  # a decorator or an annotation called: @app.route('/'), @mock.patch(...)
    start = a - local_match.end()
    if start and (low[start - 1].isalnum() or low[start - 1] in "_.+-"):
        return None  # the local part is longer than an address allows
    if not low[start:a].isascii():
        while (cut := _SPACELESS_CHAR.search(low, start, a)) is not None:
            start = cut.end()
    while start < a and low[start] == ".":
        start += 1
    local = low[start:a].rstrip(".")
    if not any(c.isalnum() for c in local):
        return None
    spans, seps = _labels(low, domain.start(), domain.end())
    if not low[domain.start() : domain.end()].isascii():
        spans = _latin_edges(low, spans)
    labels = [low[x:y] for x, y in spans]
    # With a real "@", any alphabetic ending makes an address (me@host.internal, a@b.example); a
    # spelled or bracketed "at" needs a real top-level domain, since prose says "at" all the time.
    ending_ok = labels[-1] in _ALL_TLDS if sign != "@" else labels[-1].isalpha() and len(labels[-1]) >= 2
    if len(labels) < 2 or any("_" in label or not label for label in labels) or not ending_ok:
        return None
    if not any(c.isalpha() for c in labels[-2]):
        return None
    if sign == "@" and a < at.start() and b == at.end() and labels[-1] not in _COMMON:
        return None  # "put @app.get above the view": a decorator or a mention after a blank, not an address
    if spelled and (set(seps) == {"."} or local in _PHRASE_WORDS or local in _AT_PHRASE_WORDS):
        # A name before "at" and a spelled or bracketed dot after it; "look at example dot com" is
        # left to the domain rule, which calls it a link.
        return None
    # A dot and blanks after a spelled "at" are read as the domain rule reads them (the evidence of
    # _ends_a_name): "I'm at work. Org rules apply" is two sentences, "jo at evil. com" an address.
    for i, sep in enumerate(seps if spelled else ()):
        x, y = spans[i][1], spans[i + 1][0]
        if sep == " " and low[x] == "." and not _ends_a_name(t, low, spans[0][0], (y, spans[-1][1]), False, True):
            return None
    return _Hit(start, spans[-1][1], "email")


# A name cut by a line break at a dot ("evil.\ncom", "evil\n.com"), as a wrapped line or a pasted list
# leaves it, or with blanks after its dot ("evil. com"). A sentence ends with a dot, and the next
# sentence or line may start with any word ("Done. Net result", "I agree.\nIO errors", "ok.\nso what
# now", "Thanks.\nJP"), so whether the words after the gap end a name or start a sentence is decided
# by evidence (_ends_a_name), the strongest first:
#
#   - a path, a port or a query right after the top-level domain ("evil.\nio/login", "evil.\nCom/x"):
#     a name, in any case;
#   - in small letters, one of _BROKEN_TLDS below (com, net, org, ru, uk, ...: no line of prose or
#     code starts with one): a name, whatever follows, after a line break or after a dot and blanks
#     on one line ("evil. com has the files"). Chat in small letters that starts a sentence so ("done.
#     net result") is refused with it: agents write sentences with capitals, and "evil. com" is how a
#     name is hidden; the refusal says why, and the agent writes "Net" or rephrases;
#   - a colon after it: a line's label ("sign-in.\nContact: …", "FYI: …"), not a name;
#   - the name before the gap shaped as a host (login.evil, sign-in, promo2025), in small letters
#     whatever follows; with a capital, when nothing but punctuation follows on its line, or when a
#     word that sends the reader there leads to it (_LEADS_TO: "get it from promo2025.\nNET today");
#   - in small letters, any other domain (io, shop, click: every class the screen knows, the newer
#     ones of the public suffix list too) ends a name when it ends its line or a punctuation mark
#     follows it, when its line starts with the dot (no sentence does: "getpaid\n.app today"), or
#     when a word that sends the reader there leads to the name ("visit evil.\nshop for details"),
#     unless the domain is also a word of chat, files or code (_LONE_WORDS, _ORDINARY, _CODE_NEWER:
#     "that was it.\nlol", "ok.\nme", "done.\nnow"). Other words after it make it prose ("ok.\napp is
#     fine");
#   - with a capital and more words after it on its line: a new sentence ("Done. Net result", "See the
#     list.\nApp store", "Plug it in.\nCOM port 3"), unless a word that sends the reader there leads to
#     the name and the domain is one of _BROKEN_TLDS or in capitals of three letters or more ("visit
#     evil.\nCom for details", "visit evil.\nSHOP now"), or a weak lead-in does (_WEAK_LEADS: "see",
#     "at", "link:", "->"; not after "See above.", "at home.", _ENDS_AFTER_LEAD) and the name is shaped
#     as a host or, under _BROKEN_TLDS but "net" or in such capitals, words that carry the first
#     sentence on follow it (_CARRIES_ON: "see evil.\nCom for details", "at evil.\nRu (official)");
#   - with a capital alone on its line or before a punctuation mark: a name when the gap is blanks on
#     one line ("visit evil. Com"), when it is a well-known domain of three letters or more in capitals
#     ("Evil.\nCOM"; not a newer one: those are also brands, "Thanks.\nIBM"), or, unless the domain is
#     also a word ("Done.\nIt") or the line before is a sign-off or a one-word answer (_CLOSING_LINE:
#     "Thanks.\nJP", "Noted.\nCom", "Approved.\nMK"), when a word that sends the reader there leads
#     to the name ("moved to evil.\nCom") or the name is alone on its line ("evil.\nIO",
#     "mirror.\nIo"), or a weak lead-in leads to it and the domain is one of _BROKEN_TLDS of three
#     letters but "net" ("see evil.\nCom"; "see evil.\nShop" and "at noon.\nJP" are a heading and
#     initials as often). After a sentence of several words it is a line of prose: a word ("The ledger
#     balances.\nNet") or initials ("Let me know.\nJP"). ".NET" at a line's start is the framework.
#
# Every name read across a gap must also be a link when written with a plain dot (the bare-name rules
# above: "ok.App" is code, "done.info" needs a path), except one in small letters under _BROKEN_TLDS:
# in "api.evil.\nxyz" api reads as an object of code, yet no code breaks a line before xyz. A name cut
# anywhere but at a dot is let through, as is an address cut so.
_BROKEN_TLDS = frozenset(
    "com net org edu gov mil biz xyz ru su cn uk fr jp br au nl pl cz ch kr ir tk ml cf gq pw ws".split()
)
# Top-level domains that are also a word written on a line of its own: interjections and sign-offs.
_LONE_WORDS = frozenset(
    "lol wow wtf fyi omg yes you here how like love best cool help joy hot now fun win buy got thanks".split()
)
_BROKEN_DOT = re.compile(r"\\{0,2}\.\n|\n\\{0,2}\.")
_HOST_CHARS = re.compile(r"[\w" + _MARKS + r".\\-]+")
_HOST_BEFORE = re.compile(_LBL + r"(?:" + _DOT + _LBL + r")*+")
# The labels after the break, in any case, across further breaks at a dot ("evil.\nco.\nuk"): five at
# most, as a name has, so that a run of short lines cut at dots is not read again from each.
_HOST_AFTER = re.compile(
    r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:(?:\\{0,2}\.\n?|\n\\{0,2}\.)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?){0,4}(?![\w"
    + _MARKS
    + r"-])"
)
_CUT_DOT = re.compile(r"\\{0,2}\.\n?|\n\\{0,2}\.")
_LINE_REST = re.compile(r"[" + re.escape(_TRAILING) + r" ]*(?:\n|\Z)")
_PUNCTUATION_AFTER = re.compile(r"[" + re.escape(_TRAILING) + r"]")
_HOST_SHAPED_LABEL = re.compile(r"[a-z][a-z0-9]*(?:[0-9]|-)[a-z0-9-]*")


def _host_shaped(name: str) -> bool:
    """Whether a name before a gap is shaped as a host is, and a sentence's last word is not: two
    labels or more of two characters or more with a letter each (login.evil, not e.g or ph.d), or a
    hyphen or a digit after a letter that starts its last label (login-portal, promo2025; not 2024
    or a time's 00Z)."""
    labels = _CUT_DOT.split(name)
    if len(labels) >= 2 and all(len(label) >= 2 and any(c.isalpha() for c in label) for label in labels):
        return True
    return _HOST_SHAPED_LABEL.fullmatch(labels[-1]) is not None


# Words just before a cut name that send a reader to it: "visit", "go to", "download it from", "moved
# to", "the new home is" (a bounded look-back). Unlike _SENT_TO, not "at", "see", "open" or "join":
# they end many sentences ("I'm at home.\nNet result") where a cut name's evidence is weighed, and
# count for less (_WEAK_LEADS below).
_LEADS_TO = re.compile(
    r"(?<![\w-])(?:visit|go\s+to|head\s+to|via|browse|check\s+out|moved\s+to|(?:download|get|fetch|install)"
    r"\s+(?:it\s+|them\s+)?(?:from|at)|(?:home|site|address|page|domain|url|link|website|mirror|host)\s+"
    r"(?:is|was|is\s+now))\s+\Z"
)
# Words just before a cut name that point at a place yet end many sentences too ("see", "at", "from",
# "on", "to", a label's colon, an arrow): "see evil.\nCom", and "See you at noon.\nJP". After one, more
# must agree (_ends_a_name): the domain alone on its line, three letters or more and no English word
# (_NOT_WORDS: "News" or "Shop" alone on a line is a heading), or words after it that carry the first
# sentence on (_CARRIES_ON), or the name shaped as a host.
_WEAK_LEADS = re.compile(
    r"(?:(?<![\w-])(?:see|at|from|on|onto|to|into|in|open|try|use|join|check|[a-z]+:)|->|=>|\u2192)\s+\Z"
)
# What carries a sentence on after a name in it, and does not follow a sentence's first word: a
# bracket or a dash, or a word that joins a clause or says when ("evil.\nCom (official)", "evil.\nBiz
# for details", "evil.\nRu today"). "Net for the year" and "Shop before noon" start sentences: only a
# domain that is no English word (_NOT_WORDS) or one in capitals is read so.
_CARRIES_ON = frozenset(
    "for if before after as and or but so then now today tonight tomorrow instead asap ok okay please until till "
    "when once since because too again soon later first".split()
)
# The next word after a name, or None for a bracket or a dash.
_NEXT_WORD = re.compile(r"[ \t]*+(?:[(\[\u2013\u2014-]|([a-z]++)(?![\w-]))")
_CARRIES_ON_OR_MARK: frozenset[str | None] = frozenset([*_CARRIES_ON, None])
_NOT_WORDS = _BROKEN_TLDS - {"net"}
# Words a weak lead-in often ends a sentence with ("See above.", "at home.", "See you."): a pronoun, a
# place or a time, seldom a name's label. After one, the lead-in is no evidence.
_ENDS_AFTER_LEAD = frozenset(
    "you it them me us him her that this these those there here above below later soon now once last least all "
    "first home noon night work length ease hand heart random times".split()
)
# A line that is a sign-off or a short answer ("Thanks.", "See you.", "Noted.", "Approved."): what is
# alone on the next line signs it (a name, initials) or is a word of its own, not the end of a name.
_CLOSING_LINE = re.compile(
    r"[ \t>*-]*(?:(?:many\s+|kind\s+|best\s+|warm\s+)?(?:thanks|regards|wishes)|thank\s+you|thx|ty|cheers|best"
    r"|see\s+you(?:\s+soon)?|talk\s+soon|bye|later|love|yours|sincerely|ciao|noted|done|ok|okay|agreed|sure|yes"
    r"|no|fine|great|good|nice|perfect|sorry|please|welcome|congrats|indeed|exactly|right|true|same|got\s+it"
    r"|will\s+do|on\s+it|[a-z]+ed)\Z"
)


def _ends_a_name(t: str, low: str, start: int, after: tuple[int, int], dot_first: bool, spaced: bool = False) -> bool:
    """Whether the labels after a gap at t[after[0]:after[1]] (a line break at a dot, or blanks after
    a dot on one line when spaced) end the name that starts at start rather than start a sentence:
    the evidence above _BROKEN_TLDS, weighed in its order."""
    a, b = after
    labels = _CUT_DOT.split(low[a:b])
    tld = labels[-1]
    tail = _AFTER.match(low, b)
    rest = tail.group() if tail else ""
    if rest.startswith((":", "/")) or (rest[:1] in ("?", "#") and len(rest) > 1):
        return True
    small = t[a:b] == low[a:b]
    if small and tld in _BROKEN_TLDS:
        return True
    if low[b + len(rest) : b + len(rest) + 1] == ":":
        return False  # a line's label ("sign-in.\nContact: ...", "FYI: ..."), not a name
    ends = _LINE_REST.match(low, b + len(rest)) is not None or _PUNCTUATION_AFTER.match(low, b + len(rest)) is not None
    shaped = _host_shaped(".".join([*_CUT_DOT.split(low[start:a].rstrip(".\\\n ")), *labels[:-1]]))
    led = _LEADS_TO.search(low, max(0, start - 24), start) is not None
    word = tld in _LONE_WORDS or tld in _ORDINARY or tld in _CODE_NEWER
    if small:
        # A line that starts with a dot starts no sentence: only a dotfile (.gitignore, .env) does.
        return shaped or (not word and (ends or dot_first or led))
    if dot_first and low[a:b] == "net":
        return False  # .NET, the framework
    written = t[b - len(tld) : b]

    def weakly_led() -> bool:
        """Whether a weak lead-in leads to the name (looked for last: most gaps are decided before)."""
        return (
            low[start:a].rstrip(".\\\n ") not in _ENDS_AFTER_LEAD
            and _WEAK_LEADS.search(low, max(0, start - 24), start) is not None
        )

    if not ends:
        # A capital and more words: a new sentence, unless a lead-in and more evidence say a name.
        capitals = written.isupper() and len(tld) >= 3 and tld in _SUFFIX_TLDS and not word
        if led:
            return shaped or capitals or tld in _BROKEN_TLDS
        if not shaped:
            following = _NEXT_WORD.match(low, b + len(rest)) if tld in _NOT_WORDS or capitals else None
            if following is None or following.group(1) not in _CARRIES_ON_OR_MARK:
                return False
        return weakly_led()
    if shaped or spaced or (written.isupper() and len(tld) >= 3 and tld in _SUFFIX_TLDS and tld not in _LONE_WORDS):
        return True
    # The line the name ends, read back 256 characters at most (one bounded look per gap): a longer
    # one is neither a sign-off nor the name alone.
    line = max(low.rfind("\n", max(0, start - 256), start) + 1, start - 256)
    if word or _CLOSING_LINE.fullmatch(low, line, low.rfind(".", start, a)) is not None:
        return False
    if len(tld) >= 3 and tld in _NOT_WORDS and not led and weakly_led():
        return True  # "see evil.\nCom": a weak lead-in and a domain no heading or signature is
    return led or not low[line:start].strip(" \t>*-")  # led to, or the name alone on its line


def _joined_is_link(t: str, a: int, cut: int, after: tuple[int, int]) -> bool:
    """Whether the name t[a:cut] joined by a plain dot to the labels at t[after[0]:after[1]] (their own
    breaks taken out) is a link as the bare-name rules read it, with 40 characters of context either
    side (a word that sends the reader to it, a call's bracket after it)."""
    lead = max(0, a - 40)
    name = t[after[0] : after[1]].replace("\n", "")
    joined = t[lead:cut] + "." + name + t[after[1] : after[1] + 40]
    joined_low = _lower(joined)
    run = _RUN_PLAIN.match(joined_low, a - lead)
    return run is not None and _domain(joined, joined_low, run) is not None


def _broken_domains(t: str, low: str) -> Iterator[_Hit]:
    """Names cut by a line break at a dot (see _BROKEN_TLDS), in order. Each break is read once, with
    the label runs either side of it, each within its own line, and the name joined across it judged
    once with 40 characters either side: linear in the text."""
    for m in _BROKEN_DOT.finditer(low):
        # The name before the break: the host characters that end the line, at most 255 of them,
        # read backwards from the break (one look, not one from each place before it).
        line = low.rfind("\n", max(0, m.start() - 256), m.start()) + 1
        back = _HOST_CHARS.match(low[max(line, m.start() - 255) : m.start()][::-1])
        if back is None:
            continue
        host = low[m.start() - back.end() : m.start()]
        before = _HOST_BEFORE.match(low, m.start() - len(host.lstrip(".-\\")))
        if before is None or before.end() != m.start() or "_" in before.group():
            continue
        # The labels after it, at most 255 characters (a longer run names no host): one bounded look
        # per break.
        window = m.end() + 255
        after = _HOST_AFTER.match(low, m.end(), window)
        if after is None or (after.end() == window and window < len(low)):
            continue
        labels = _CUT_DOT.split(after.group())
        # Every label after the break a top-level domain ("evil.\nco.uk"), or cut again at a dot
        # ("login.\nevil.\nio": a line of prose is not one word and a dot); else a line of code
        # ("averages.\nlogger.info").
        several = "\n" in after.group()
        if labels[-1] not in _ALL_TLDS or not (several or all(label in _SUFFIX_TLDS for label in labels[:-1])):
            continue
        if not _ends_a_name(t, low, before.start(), after.span(), m.group().startswith("\n")):
            continue
        # In small letters under one of _BROKEN_TLDS it is a name whatever it follows (api.evil.\nxyz);
        # else the name joined across the break must be a link as the bare-name rules read it.
        lower_broken = labels[-1] in _BROKEN_TLDS and t[after.start() : after.end()] == after.group()
        if not lower_broken and not _joined_is_link(t, before.start(), m.start(), after.span()):
            continue
        tail = _AFTER.match(low, after.end())
        end = after.end() + (len(tail.group()) if tail else 0)
        yield _Hit(before.start(), _trim(low, before.start(), end), "link")


# --- ways to reach someone outside the town, and names written in other ways -------------------
#
# What the rules above do not read as a link or an address, found on the lower-cased matching form by
# bounded expressions, each run once over the text (unseen_links.py in tests/corpus measures them):
#
#   - a telephone number: a tel:, sms: or callto: address; a number written "+" and its country code,
#     or "(555) 123-4567"; and any number of seven to fifteen digits in groups, or spelled in digit
#     words, right after a word that says to call or message it ("call me on", "WhatsApp", "my cell:").
#     A number alone (an order, an ISBN, a date, a score) is not one;
#   - an account on a messenger outside the town: the messenger's name, then at most a few joining
#     words, then an @name ("Telegram: @evilbot", "my snap is @x", "follow @x on twitter"), or a
#     Discord name with its four digits after "discord". An @name alone is how agents name each other;
#   - an IPv4 address written as one number (decimal or hexadecimal) or with octal or hexadecimal
#     parts, as browsers read it, with a port or a path after it ("3232235777:8080", "0xC0A80101/x");
#   - the dot spelled in another language ("evil punto com", "www Punkt evil Punkt de") when the name
#     ends there (at the end, before a punctuation mark or a path) or is dotted twice: "le point de
#     vue" and "El punto es que" are sentences;
#   - the dot spelled and joined to the labels ("evil_dot_com", "evil-dot-net", "evilDOTcom");
#   - a name written backwards ("moc.live" is evil.com).
_DOT_WORDS_FOREIGN = "punto point punkt ponto punt kropka точка nokta piste pont tečka bodka".split()
_DOT_WORDS_FOLDED = sorted(
    {"".join(map(matching.fold_char, w)).lower() for w in _DOT_WORDS_FOREIGN} | set(_DOT_WORDS_FOREIGN)
)
_FOREIGN_DOT = (
    r"(?<!\s)\s*+[\[({]?\s*+(?:"
    + "|".join(map(re.escape, sorted(_DOT_WORDS_FOLDED, key=len, reverse=True)))
    + r")\s*+[\])}]?\s*+"
)
_FOREIGN_NAME = re.compile(
    r"(?<![\w.-])[a-z0-9][a-z0-9-]{0,62}(?:" + _FOREIGN_DOT + r"[a-z0-9][a-z0-9-]{0,62}){1,4}(?![\w-])"
)
_FOREIGN_SPLIT = re.compile(_FOREIGN_DOT)
_JOINED_DOT = re.compile(r"(?<![\w.-])([a-z0-9][a-z0-9-]{0,62}?)(?:[_-]d[o0]t[_-]|dot)([a-z]{2,12})(?![\w-])")
_REVERSED = re.compile(r"(?<![\w.-])(?:moc|ten|gro)(?:\.[a-z0-9-]{2,63}){1,3}(?![\w-]|\.\w)")
_HOST_SHAPED_TEXT = re.compile(r"[0-9-]")
_IP_PART = r"(?:0x[0-9a-f]{1,8}|\d{1,10})"
_NUMBER_IP = re.compile(r"(?<![\w.:/])" + _IP_PART + r"(?:\." + _IP_PART + r"){0,3}(?=:\d{2,5}(?!\d)|/[a-z0-9])")
_UNITS = frozenset("year yr month mo week wk day hour hr h min minute sec second s person user unit head seat".split())
_PHONE_URI = re.compile(r"(?<![a-z0-9])(?:tel|sms|smsto|mms|callto|facetime|viber):(?://)?\+?[\d(][\d\s().-]{5,24}\d")
_PHONE_RUN = re.compile(r"(?<![\w+.-])\+?\(?\d[\d().-]*(?:[ .-]\(?\d[\d().-]*){0,7}")
_US_PHONE = re.compile(r"\(\d{3}\)\s?\d{3}[\s.-]\d{4}")
_CALL_WORDS = (
    r"call|text|txt|ring|phone|tel|telephone|mobile|cell|cellphone|whatsapp|viber|signal|sms|fax|dial|my\s+number"
    r"|appelle-moi|anruf|llama|llámame|chiamami|ligue"
)
_CALL_BEFORE = re.compile(
    r"(?<![\w-])(?:"
    + _CALL_WORDS
    + r")\.?(?:\s+(?:me|us|him|her|them))?(?:\s+(?:on|at|au|unter|al|no|via|is))?\s*[:=-]?\s*\Z"
)
_PHONE_HINT = _re2(r"[+(][0-9]|\b(?:" + _CALL_WORDS.replace("\\s+", " ") + r")\b")
# An address as one number has eight digits or more; with octal or hexadecimal parts, a 0 or 0x.
_NUMBER_IP_HINT = _re2(r"[0-9]{8}|0x|\b0[0-7]{2}")
_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_SPOKEN_NUMBER = re.compile(r"(?<![\w-])" + _DIGIT_WORD + r"(?:[\s,-]+" + _DIGIT_WORD + r"){6,14}(?![\w-])")
_MESSENGERS = (
    r"telegram|tg|discord|instagram|insta|ig|twitter|snapchat|whatsapp|wechat|skype|kik|tiktok|mastodon|bluesky"
)
_JOINERS = r"(?:\s*+(?:me|my|is|handle|id|username|user|name|at|on|:|-|,|=|→|->)\s*+){0,4}"
_HANDLE = re.compile(
    r"(?<![\w-])(?:" + _MESSENGERS + r")" + _JOINERS + r"\s*+@[a-z0-9_.]{3,32}[a-z0-9_]"
    r"|(?<![\w-])(?:signal|snap)(?:\s+me)?(?:\s*+:|\s+is)\s*+@[a-z0-9_.]{3,32}[a-z0-9_]"
    r"|(?<![\w@])@[a-z0-9_.]{3,32}[a-z0-9_]\s+(?:on|at|via)\s+(?:" + _MESSENGERS + r")(?![\w-])"
    r"|(?<![\w-])discord\b[^\n]{0,30}?(?<![\w#])[a-z0-9_.]{2,32}#\d{4}(?!\d)"
)


def _ip_number(part: str) -> int | None:
    if part.startswith("0x"):
        return int(part, 16)
    if len(part) > 1 and part.startswith("0"):
        return int(part, 8) if all(c in "01234567" for c in part) else None
    return int(part)


def _number_ip(low: str, m: re.Match[str]) -> bool:
    """Whether a number or dotted numbers before a port or a path are an IPv4 address a browser reads
    (inet_aton): one number from 2**24 to 2**32 - 1, or four parts of which one is octal or
    hexadecimal, each under 256. Dotted decimals are the IPv4 rule's; a big number before a unit
    ("50000000/year") is an amount."""
    parts = m.group().split(".")
    values = [_ip_number(p) for p in parts]
    if any(v is None for v in values):
        return False
    if len(parts) == 1:
        n = values[0] or 0
        if not 1 << 24 <= n < 1 << 32:
            return False
        unit = re.match(r"/([a-z]+)(?![\w/-])", low[m.end() : m.end() + 12])
        return not (unit and unit.group(1) in _UNITS)
    odd = any(p.startswith("0x") or (len(p) > 1 and p.startswith("0")) for p in parts)
    return len(parts) == 4 and odd and all((v or 0) < 256 for v in values)


def _phone(low: str, m: re.Match[str]) -> bool:
    run = m.group().rstrip(".-(")
    digits = sum(c.isdigit() for c in run)
    if not 7 <= digits <= 15:
        return False
    if run.startswith("+") and digits >= 8:
        return True
    if _US_PHONE.search(run):
        return True
    grouped = any(c in run for c in " .-()")
    return grouped and _CALL_BEFORE.search(low, max(0, m.start() - 30), m.start()) is not None


def _contacts(t: str, low: str) -> Iterator[_Hit]:
    """The rules above, in order of where each passage starts (each bounded expression runs once)."""
    found: list[_Hit] = []
    if any(h in low for h in ("tel:", "sms", "callto:", "mms:", "facetime:", "viber:")):
        found += [_Hit(m.start(), _trim(low, m.start(), m.end()), "link") for m in _PHONE_URI.finditer(low)]
    # A number is a telephone's only after "+", in "(555)" or after a word to call it by: one search
    # says whether the text has any, and most text (versions, dates, amounts) is then not read for them.
    if _PHONE_HINT.search(low) is not None:
        found += [
            _Hit(m.start(), _trim(low, m.start(), m.end()), "link") for m in _PHONE_RUN.finditer(low) if _phone(low, m)
        ]
        for m in _SPOKEN_NUMBER.finditer(low):
            if _CALL_BEFORE.search(low, max(0, m.start() - 30), m.start()):
                found.append(_Hit(m.start(), m.end(), "link"))
    if _NUMBER_IP_HINT.search(low) is not None:
        for m in _NUMBER_IP.finditer(low):
            if _number_ip(low, m):
                tail = _AFTER.match(low, m.end())
                found.append(
                    _Hit(m.start(), _trim(low, m.start(), m.end() + len(tail.group() if tail else "")), "link")
                )
    if "@" in low or "#" in low:
        found += [_Hit(m.start(), m.end(), "link") for m in _HANDLE.finditer(low)]
    if any(w in low for w in _DOT_WORDS_FOLDED):
        for m in _FOREIGN_NAME.finditer(low):
            labels = _FOREIGN_SPLIT.split(m.group())
            if labels[-1] not in _ALL_TLDS:
                continue
            tail = _AFTER.match(low, m.end())
            rest = low[m.end() : m.end() + 2]
            # The name ends where it stops, before a mark or a path or a line's end, or a word sends
            # the reader to it; a word after it is a sentence going on ("El punto es que").
            ends = not rest or rest[0] in "/:?#" + _TRAILING or (rest[0].isspace() and not rest[1:].isalpha())
            sent = _SENT_TO.search(low, max(0, m.start() - 16), m.start()) is not None
            if len(labels) > 2 or ends or sent:
                end = m.end() + (len(tail.group()) if tail else 0)
                found.append(_Hit(m.start(), _trim(low, m.start(), end), "link"))
    if "dot" in low or "d0t" in low:
        for m in _JOINED_DOT.finditer(low):
            written = t[m.end(1) : m.start(2)]
            spelled = written[:1] in "_-" or written in ("DOT", "Dot")
            if spelled and m.group(2) in _ALL_TLDS and m.group(1):
                found.append(_Hit(m.start(), m.end(), "link"))
    if "moc." in low or "ten." in low or "gro." in low:
        for m in _REVERSED.finditer(low):
            backwards = m.group()[::-1]
            # "ten" is also a word ("ten.minutes later" lost a space): backwards under .net only when
            # the name is shaped as a host (a digit or a hyphen) or has three labels.
            word = m.group().startswith("ten.") and m.group().count(".") < 2 and not _HOST_SHAPED_TEXT.search(m.group())
            if not word and _RUN_PLAIN.fullmatch(backwards):
                found.append(_Hit(m.start(), m.end(), "link"))
    yield from sorted(found, key=lambda h: h.start)


def _links_and_emails(t: str, low: str) -> list[Iterator[_Hit]]:
    """One pass per family of link and address rules, each yielding its hits in order."""

    def each(pattern: re.Pattern[str], kind: str = "link") -> Iterator[_Hit]:
        for m in pattern.finditer(low):
            yield _Hit(m.start(), _trim(low, m.start(), m.end()), kind)

    def schemes() -> Iterator[_Hit]:
        colon = low.find("://")
        covered = 0
        while colon >= 0:
            name = _SCHEME_NAME.search(low, max(0, colon - 31, covered), colon)
            url = _URL_REST.match(low, colon + 3)
            if name is not None and url is not None:
                end = _trim(low, name.start(), url.end())
                yield _Hit(name.start(), end, "link")
                covered = max(covered, url.end())
            # The next "://" after this link's end: one inside it is part of it.
            colon = low.find("://", max(colon + 3, covered))

    def ips() -> Iterator[_Hit]:
        for m in _IP.finditer(low):
            if m.start() and low[m.start() - 1] in "abcdefghijklmnopqrstuvwxyz0123456789_.":
                continue
            tail = _AFTER.match(low, m.end())
            rest = tail.group() if tail else ""
            if rest or any(c in m.group() for c in "[({") or _bare_ip(low, m):
                yield _Hit(m.start(), _trim(low, m.start(), m.end() + len(rest)), "link")

    def joined_addresses() -> Iterator[_Hit]:
        for m in _JOINED_ADDRESS.finditer(low):
            if low[m.start(1) : m.end(1)] in _ALL_TLDS and not (m.start() and low[m.start() - 1].isalnum()):
                yield _Hit(m.start(), m.end(), "email")

    def local_addresses() -> Iterator[_Hit]:
        for m in _LOCAL_ADDRESS.finditer(low):
            if not (m.start() and (low[m.start() - 1].isalnum() or low[m.start() - 1] in "_.+-")):
                yield _Hit(m.start(), m.end(), "email")

    def ip6s() -> Iterator[_Hit]:
        for m in _IP6.finditer(low):
            if _ip6(m):
                yield _Hit(m.start(), m.end(), "link")

    def addresses(obfuscated: bool) -> Iterator[_Hit]:
        for sign in _AT_SIGN.finditer(low):
            a = sign.start()
            if a == 0 or low[a - 1] in "@\n":
                continue  # no local part before it
            if hit := _email(t, low, sign, obfuscated):
                yield hit

    def domains(obfuscated: bool) -> Iterator[_Hit]:
        covered = 0
        for m in (_RUN_ANY if obfuscated else _RUN_PLAIN).finditer(low):
            a, b = m.span()
            if a < covered or not low[b - 2 : b].isalpha():
                # Inside the path of a link already found, or not ending in a top-level domain's two
                # letters (punycode ones are the punycode rule's).
                continue
            # Most dotted runs are versions, files and attribute paths: out on the last label alone,
            # before anything else is looked at (the same test opens _domain).
            if not obfuscated and low[low.rfind(".", a, b) + 1 : b] not in _ALL_TLDS and low[a:b].isascii():
                continue
            if hit := _domain(t, low, m):
                covered = hit.end
                yield hit

    families: list[Iterator[_Hit]] = []
    if "://" in low:
        families.append(schemes())
    if any(h in low for h in _DEFANGED_HINTS):
        families.append(each(_DEFANGED_SCHEME))
    if any(h in low for h in _PSEUDO_HINTS):
        families.append(each(_PSEUDO_SCHEME))
    if "mailto:" in low:
        families.append(each(_MAILTO, "email"))
    if "::" in low or low.count(":") >= 7:
        families.append(ip6s())
    if "www" in low:
        families.append(each(_WWW))
    if "xn--" in low:
        families.append(each(_PUNYCODE))
    if "](" in low:
        families.append(each(_MARKDOWN_LINK))
    if low.count(".") >= 3 or "dot]" in low or "dot)" in low:
        families.append(ips())
    obfuscated = (
        any(h in low for h in _OBFUSCATION_HINTS)
        or ("dot" in low and _WRAPPED_DOT.search(low) is not None)
        or _LETTERED_DOT.search(low) is not None
    )
    if "@" in low or "at" in low and (obfuscated or any(c in low for c in "[({<")) or " at " in low:
        families.append(addresses(obfuscated))
    if "localhost:" in low:
        families.append(each(_LOCALHOST))
    if "@localhost" in low or "@[" in low:
        families.append(local_addresses())
    if any(h in low for h in _JOINED_HINTS):
        families.append(joined_addresses())
    families.append(domains(obfuscated))
    families.append(_contacts(t, low))
    if "\n" in low and _BROKEN_DOT.search(low) is not None:
        families.append(_broken_domains(t, low))
    return families


# --- staff voice ------------------------------------------------------------------------------
#
# Impersonation is a claim to speak as the town: a self-introduction ("This is Clockford staff"), a
# header or a signature ("Notice from the Mayor", "— Town Hall administrators"), an order given in
# the town's name ("the town says you must"), or a role marker that clients treat as the system
# speaking ("[SYSTEM]", "<system>", "ADMIN:"). Talking about the town is not: "I asked the staff at
# the Tavern", "the Town Hall census was helpful", "the system prompt of my client". Each rule needs
# a claim, not just a word, and runs only when its words are in the text at all.
#
# Most rules read the lower-cased matching form; those about capitals (OFFICIAL NOTICE, [SYSTEM],
# Clockford Security Team) read it as written. Every expression starts with literal words rather
# than \b or an optional "the", which lets the regular-expression engine skip ahead quickly; a
# match must still start at a word boundary, and a "the" just before it joins the passage.

_TOWNISH_WORDS = ("clockford", r"town\s+hall", r"city\s+hall", "town", r"the\s+hall", "hall")
_TOWNISH = "(?:" + "|".join(_TOWNISH_WORDS) + ")"
_STAFF = (
    r"(?:staff(?:\s+members?)?|team|crew|admins?|administrat(?:ors?|ion)|officials?|officers?|moderat(?:ors?|ion)"
    r"|mods|management|council|authorit(?:y|ies)|security(?:\s+team)?|trust\s*(?:&|and)\s*safety|support(?:\s+team)?"
    r"|clerks?|employees?|representatives?|operators?|governance|government|registrar|sheriff|wardens?|guards?)"
)
_ROLES: tuple[str, ...] = (r"deputy\s+mayor", "mayor", r"town\s+(?:clerk|crier|manager|sheriff)", r"chief\s+clerk")
_ROLES += (r"head\s+clerk", "alderm[ae]n")
_ROLE = "(?:" + "|".join(_ROLES) + ")"
# "clockford staff", "town hall's administrators": written out one alternative per town word, so
# that every alternative of the expressions that start with it starts with a literal word.
_STAFF_OF_TOWN_ALTS = tuple(w + r"(?:['’]s)?\s+" + _STAFF + r"\b" for w in _TOWNISH_WORDS)
_STAFF_OF_TOWN = "(?:" + "|".join(_STAFF_OF_TOWN_ALTS) + ")"
_SPEECH_VERBS = (
    r"(?:said|says|told|tells|explained|explains|noted|notes|wrote|writes|mentioned|suggested|recommended|described"
    r"|asked|asks|pointed|put\s+it|would|do|does|did|has|have|had|will|can|could|might|may|should|must|are|is|was|were)"
)
_ORDER_VERBS = (
    r"(?:orders?|ordered|instructs?|instructed|commands?|commanded|demands?|demanded|directs?|directed|mandates?"
    r"|mandated|decrees?|decreed|authori[sz]es|has\s+(?:ordered|instructed|decreed|mandated|commanded|directed|decided))"
)
_EVERYONE = r"(?:you|all|every|each|agents?|visitors?|residents?|passports?|everyone|everybody)\b"
_MUST = (
    r"(?:must|shall|have\s+to|has\s+to|need\s+to|needs\s+to|are\s+required|is\s+required|are\s+to|is\s+to"
    r"|are\s+ordered|are\s+instructed|will\s+be\s+(?:banned|closed|suspended|removed|deleted|revoked))\b"
)
_ACTIONS = (
    r"(?:report|reply|respond|post|send|share|verify|re-?register|re-?enter|leave|stop|confirm|update|sign|submit"
    r"|forward|delete|remove|move|read|follow|obey|comply|provide|paste|give|tell|contact|visit|go)\b"
)
_HEADER_NOUNS = (
    r"(?:notice|message|announcement|memo|directive|orders?|alert|warning|bulletin|statement|communication|reminder"
    r"|instructions?|decree|proclamation|broadcast|advisory|circular|mandate|note|update|letter|word|request)"
)
_STAFF_GROUP_OF_TOWN_ALTS = tuple(
    w + r"\s+of\s+(?:clockford|the\s+town)"
    for w in ("staff", "administrators", "admins", "moderators", "officials", "management", "council")
)


def _one_of(*alternatives: str) -> str:
    return "(?:" + "|".join(alternatives) + ")"


_TOWN_WORDS = ("clockford", "town", "hall", "mayor", "clerk", "crier", "sheriff", "alderm")

_Where = Literal["anywhere", "lines", "sentences", "end"]


@dataclass(frozen=True)
class _StaffRule:
    needs: tuple[str, ...]  # one of these must be in the text (lower-cased unless cased) for the rule to run
    expression: str
    cased: bool = False  # reads the text as written, not lower-cased
    where: _Where = "anywhere"  # or only at the start of a line, of a sentence, or near the end

    @functools.cached_property
    def pattern(self) -> "re.Pattern[str] | re2._Regexp":
        """The expression, compiled when the rule first runs: compiling every rule took most of a
        second of each process's start (every town worker, every test process), and a rule runs only
        on a text that holds one of its words. (Two threads may both compile it once; either copy
        will do.) RE2 (no backtracking: linear in the text, whatever the text) unless the expression
        needs a lookaround, which RE2 does not have; those few stay on Python's engine, over a matching
        form whose runs of blanks are short (see clockford.town.matching), with possessive
        quantifiers where a run could be long."""
        if any(look in self.expression for look in ("(?!", "(?=", "(?<")):
            return re.compile(self.expression)
        return _re2(self.expression)


# Where a rule may match, as a prefix of its expression, so that each rule is one pass of finditer.
# A sentence's start takes its full stop and blanks into the match (they are trimmed from the
# passage), rather than looking behind for them, so that the rule can run on RE2.
_ANCHOR: dict[str, str] = {"anywhere": "", "end": "", "lines": "(?m:^)", "sentences": r"(?:(?m:^)|[.!?]\s+)"}


def _rule(needs: tuple[str, ...], pattern: str, cased: bool = False, where: _Where = "anywhere") -> _StaffRule:
    return _StaffRule(needs, _ANCHOR[where] + "(?:" + pattern + ")", cased, where)


_LINE_LEAD = r"[ \t>*#_\[(-]*"
_STAFF_RULES: tuple[_StaffRule, ...] = (
    # "This is Clockford staff", "I am the Mayor", "we're with the town hall team", "this is Town Hall".
    _rule(
        _TOWN_WORDS,
        r"(?:this\s+is|i\s+am|i['’]m|we\s+are|we['’]re|you['’]re\s+(?:talking|speaking)\s+(?:to|with)"
        r"|speaking\s+as|writing\s+as|posting\s+as)\s+(?:(?:on|part\s+of|from)\s+"
        # "With" a group is membership ("we're with the town hall team"); with one person, company.
        r"|with\s+(?!(?:the\s+)?(?:"
        + _ROLE
        + r"|(?:town\s+hall|city\s+hall|town|clockford|hall)\s+(?:clerk|crier|sheriff|registrar|warden|guard|operator|representative|officer|official"
        r"|administrator|admin|moderator|manager|employee|member)" + r")\b(?!['’]s)))?"
        r"(?:a\s+|an\s+|the\s+|your\s+|one\s+of\s+(?:the\s+)?)?(?:official\s+)?(?:"
        + _STAFF_OF_TOWN
        + "|"
        + _ROLE
        + r"\b(?!['’]s)|(?:clockford(?:\s+town\s+hall)?|(?:the\s+)?(?:clockford\s+)?town(?:\s+hall)?|the\s+hall)"
        r"(?=\s*(?:[,:—–!]|$)|\s+(?:speaking|here|calling|writing)\b)"
        r"|(?:the\s+)?(?:clockford\s+)?town\s+hall(?=\s*\.))",
    ),
    # "As a town official I instruct ...", but not "as the town hall staff said".
    _rule(
        _TOWN_WORDS,
        r"as\s+(?:(?:a|an|the|your)\s+)?(?:official\s+)?(?:"
        + _STAFF_OF_TOWN
        + r"(?:\s+members?)?|"
        + _ROLE
        + r"\b)(?!\s+"
        + _SPEECH_VERBS
        + r"\b)",
    ),
    # "Message from the town hall administrators", "Notice from the Mayor".
    _rule(
        (" from ",),
        _HEADER_NOUNS
        + r"\s+from\s+(?:the\s+)?(?:"
        + _STAFF_OF_TOWN
        + "|"
        + _ROLE
        + r"\b|administrat(?:ors?|ion)\b(?!\s+(?:panel|api|console|page|ui|dashboard|tool|endpoint|site|account"
        r"|user|rights|access|role|mode|of)\b)|(?:moderators|management|council)\b(?!\s+of\b))",
    ),
    # A line that opens with "Message from the town", "Official notice:", "Town announcement".
    _rule(
        (" from ",),
        _LINE_LEAD + r"(?:official\s+)?" + _HEADER_NOUNS + r"\s+from\s+(?:the\s+)?(?:clockford|town(?:\s+hall)?|hall"
        r"|city\s+hall)\b",
        where="lines",
    ),
    _rule(
        ("official", "town", "clockford", "mayor", "staff", "admin", "moderat", "sheriff", "registrar", "postmaster")
        + ("clerk", "crier", "alderm", "archivist", "magistrate", "harbo"),
        _LINE_LEAD + r"(?:(?:official|clockford|(?:mayor|sheriff|registrar|postmaster|town\s*clerk|town\s*crier"
        r"|archivist|magistrate|harbou?r\s*master|alderm[ae]n)['’]?s?(?:\s+office)?|mayoral|staff"
        r"|admin(?:istrat(?:ion|or|ors))?"
        r"|moderat(?:or|ion))\s+(?:notice|announcement|directive|order|decree|proclamation|bulletin|memo|advisory"
        r"|circular|update|message|warning|statement|broadcast|alert|notification)|(?:town(?:\s+hall)?|city\s+hall)"
        r"\s+(?:notice|announcement|directive|order|decree|proclamation|bulletin|memo|advisory|circular))s?\b",
        where="lines",
    ),
    _rule(
        ("official",),
        r"official\s+(?:clockford|town(?:\s+hall)?)\s+(?:notice|announcement|directive|order|decree|bulletin|memo"
        r"|message|update|warning|statement|alert)s?\b",
    ),
    # Said in capitals anywhere: "OFFICIAL NOTICE", "TOWN ANNOUNCEMENT".
    _rule(
        ("OFFICIAL", "TOWN", "CLOCKFORD", "MAYOR", "STAFF", "ADMIN"),
        r"(?:OFFICIAL|TOWN(?:\s+HALL)?|CLOCKFORD|MAYOR['’]?S?|STAFF|ADMIN(?:ISTRATION)?)\s+(?:NOTICE|ANNOUNCEMENT"
        r"|DIRECTIVE|ORDER|ALERT|BULLETIN|MEMO|DECREE|PROCLAMATION|WARNING|MESSAGE|UPDATE)S?\b",
        cased=True,
    ),
    # Titled like a department: "Clockford Security Team", "Town Hall Administrators".
    _rule(
        ("Clockford", "CLOCKFORD"),
        r"(?:Clockford|CLOCKFORD)\s+(?:Town\s+Hall\s+|TOWN\s+HALL\s+)?(?:Security|SECURITY|Safety|SAFETY"
        r"|Trust\s*(?:&|and)\s*Safety|TRUST\s*(?:&|AND)\s*SAFETY|Support|SUPPORT|Admin\w*|ADMIN\w*|Moderat\w+"
        r"|MODERAT\w+|Staff|STAFF|Officials?|OFFICIALS?|Council|COUNCIL|Authority|AUTHORITY|Team|TEAM|Management"
        r"|MANAGEMENT|Operations|OPERATIONS|Governance)(?:\s+(?:Team|TEAM|Office|OFFICE|Department|DEPARTMENT|Desk"
        r"|DESK))?\b",
        cased=True,
    ),
    _rule(
        ("Town", "TOWN", "City Hall"),
        r"(?:Town\s+Hall|City\s+Hall|Town|TOWN\s+HALL|TOWN)\s+(?:Staff|STAFF|Administrat\w+|ADMINISTRAT\w+"
        r"|Admins?|ADMINS?|Officials?|OFFICIALS?|Council|COUNCIL|Moderators?|MODERATORS?|Security\s+Team"
        r"|SECURITY\s+TEAM|Management|MANAGEMENT|Clerk['’]?s\s+Office)\b",
        cased=True,
    ),
    # Orders in the town's name: "the town orders all agents", "Clockford administrators require all
    # agents", "the town says you must", "the town reminds you", "we hereby".
    _rule(
        ("town", "clockford", "mayor", "admin", "moderator", "council", "staff"),
        _one_of(
            r"town\s+hall",
            r"town\s+staff",
            "town",
            "clockford",
            "mayor",
            "administrators?",
            "administration",
            "moderators",
            "council",
            *_STAFF_GROUP_OF_TOWN_ALTS,
        )
        + r"\s+(?:now\s+|hereby\s+|officially\s+)?"
        + _ORDER_VERBS
        + r"\s+(?:that\s+)?"
        + _EVERYONE,
    ),
    _rule(
        ("town", "clockford", "hall"),
        _one_of(*_STAFF_OF_TOWN_ALTS, r"clockford\s+" + _STAFF, *_STAFF_GROUP_OF_TOWN_ALTS)
        + r"\s+(?:now\s+)?requires?\s+(?:that\s+)?"
        + _EVERYONE,
    ),
    _rule(
        ("town", "clockford", "mayor", "staff", "admin"),
        _one_of(r"town\s+hall", "town", "clockford", "mayor", "staff", "administrators?")
        + r"\s+(?:says|said|wants|tells|asks|requires|expects|insists)\s+(?:that\s+)?"
        + _EVERYONE
        + r"\s+(?:\w+\s+)?"
        + _MUST,
    ),
    _rule(
        ("town", "clockford", "mayor", "hall"),
        _one_of(r"town\s+hall", "town", "clockford", "mayor", *_STAFF_OF_TOWN_ALTS, r"clockford\s+" + _STAFF)
        + r"\s+(?:kindly\s+)?(?:reminds|asks|requests|informs|warns|advises|urges|invites|thanks|notifies)\s+"
        + _EVERYONE,
    ),
    _rule(("hereby",), r"(?:we|i|the\s+town|clockford|the\s+mayor|the\s+staff)\s+hereby\b"),
    # An alarm opening a sentence, then the town's demand: "IMPORTANT: the town requires agents to".
    _rule(
        ("IMPORTANT", "ATTENTION", "NOTICE", "URGENT", "WARNING", "ALERT", "MANDATORY", "ACTION REQUIRED", "OFFICIAL")
        + ("Important", "Attention", "Notice", "Urgent", "Warning", "Alert", "Mandatory"),
        _LINE_LEAD + r"(?:IMPORTANT|ATTENTION|NOTICE|URGENT|WARNING|ALERT|MANDATORY|ACTION\s+REQUIRED|OFFICIAL"
        r"|Important|Attention|Notice|Urgent|Warning|Alert|Mandatory)\b[^\n]{0,160}?\b(?i:(?:the\s+)?(?:town"
        r"(?:\s+hall)?|clockford|mayor|administrators?|administration|moderators|staff|council|hall)\s+(?:now\s+)?"
        r"(?:requires?|orders?|instructs?|commands?|demands?|directs?|mandates?|expects?|wants|asks)\b|(?:all|every"
        r"|each)\s+(?:agents?|visitors?|residents?|passports?)\s+"
        + _MUST
        + r"\s+(?:now\s+|immediately\s+|at\s+once\s+)?"
        + _ACTIONS
        + ")",
        cased=True,
        where="sentences",
    ),
    # Signatures: a line "— Clockford staff", or the text ending "... - Town Hall".
    _rule(
        ("—", "–", "--", "-", "~"),
        r"[ \t]*(?:—|–|--|-|~)\s*(?:the\s+)?(?:"
        + _STAFF_OF_TOWN
        + "|"
        + _ROLE
        + r"\b|clockford\b|town\s+hall\b)\s*[.!]?[ \t]*(?=\n|$)",
        where="lines",
    ),
    _rule(
        ("—", "–", "--", "-", "~"),
        r"(?:—|–|--|~)\s*(?:the\s+)?(?:" + _STAFF_OF_TOWN + "|" + _ROLE + r"\b|clockford\b)\s*[.!]?\s*$"
        r"|(?<=[.!?])\s*(?:—|–|--|-|~)\s*(?:the\s+)?(?:clockford\s+)?(?:town\s+hall|town|hall)\s*[.!]?\s*$",
        where="end",
    ),
    _rule(
        ("signed", "sincerely", "regards", "respectfully", "yours"),
        r"(?:signed|sincerely|regards|respectfully|yours\s+truly|yours\s+faithfully)\s*[,:]?\s+(?:the\s+)?(?:"
        + _STAFF_OF_TOWN
        + "|"
        + _ROLE
        + r"\b|clockford\b|town\s+hall\b)",
    ),
    # Authority borrowed: "on behalf of the town", "by order of the Mayor", "speaking for Clockford".
    _rule(
        ("behalf", "name of", "authority", "order", "speaking for", "acting for", "decree"),
        r"(?:on\s+behalf\s+of|in\s+the\s+name\s+of|on\s+the\s+authority\s+of|by\s+(?:the\s+)?(?:order|authority)"
        r"\s+of|speaking\s+for|acting\s+for|under\s+orders?\s+(?:of|from)|by\s+decree\s+of)\s+(?:the\s+)?(?:"
        + _STAFF_OF_TOWN
        + "|"
        + _ROLE
        + r"\b|(?:town\s+hall|town|clockford|administrat(?:ors?|ion)|staff|council|management|moderators)\b(?!['’]s))",
    ),
    # "Clockford staff here.", "Mayor here:", "From the desk of the Mayor", "I work for the town".
    _rule(("here",), _one_of(*_STAFF_OF_TOWN_ALTS, *_ROLES) + r"\s+here\s*[,.:!—–-]"),
    _rule(("here",), r"(?:clockford|town\s+hall)\s+here\s*[,:!—–-]"),
    _rule(
        ("desk of", "office of"),
        r"from\s+the\s+(?:desk|office)\s+of\s+(?:the\s+)?(?:"
        + _STAFF_OF_TOWN
        + "|"
        + _ROLE
        + r"\b|town\b|clockford\b)",
    ),
    _rule(
        ("work", "volunteer"),
        r"i\s+(?:work|volunteer)\s+(?:for|at)\s+(?:the\s+)?(?:clockford|town\s+hall|town)\b(?!['’]s)",
    ),
    _rule(
        ("we ", "we,"),
        r"we(?:\s+at\s+clockford\b|\s*,\s*the\s+(?:town|mayor|staff|administrators|management|clockford)\b)",
    ),
    # Role markers a client may read as its system speaking.
    _rule(
        ("<",),
        r"<\s*/?\s*(?:system|sys|admin|administrator|staff|town|official|mayor|clockford|developer|moderator"
        r"|instructions?|system[-_ ]?(?:message|prompt|reminder|notice|instructions?))\s*/?>"
        r"|<\|\s*(?:system|im_start|im_end|start_header_id|end_header_id|eot_id|begin_of_text|endoftext)\s*\|>"
        r"|<<\s*/?\s*sys\s*>>",
    ),
    _rule(
        ("[",),
        r"\[/?INST\]|\[\s*System\s+(?:Message|Notice|Prompt|Alert|Announcement|Override)\s*\]"
        r"|\[\s*(?:SYSTEM|SYS|ADMIN|Admin|ADMINISTRATOR|Administrator|STAFF|Staff|MOD|MODERATOR|Moderator|OFFICIAL"
        r"|Official|System|TOWN(?:\s+HALL)?|CLOCKFORD|MAYOR|Mayor|SECURITY)(?:\s+(?:MESSAGE|NOTICE|PROMPT|ALERT|ANNOUNCEMENT"
        r"|OVERRIDE|STAFF|TEAM|OFFICE|Message|Notice|Prompt|Alert|Announcement|Override|Staff|Team|Office))?\s*\]",
        cased=True,
    ),
    # A line labelled with a role: "ADMIN:", "SYSTEM NOTICE:", "Mayor:", "### System:", "Town staff:".
    _rule(
        (":", "："),
        _LINE_LEAD + r"(?:SYSTEM(?:\s+(?:MESSAGE|NOTICE|OVERRIDE|ALERT|ANNOUNCEMENT|ADMINISTRATOR|PROMPT))?|ADMIN"
        r"|ADMINISTRATOR|MODERATOR|STAFF|MAYOR|TOWN|TOWN\s+HALL|CLOCKFORD|OFFICIAL|SECURITY|Mayor|Moderator"
        r"|Administrator|System\s+(?:[Nn]otice|[Mm]essage|[Aa]lert|[Aa]nnouncement|[Oo]verride))\s*[:：]"
        r"|[ \t]*#+[ \t]*(?:System|SYSTEM)\s*[:：]"
        r"|[ \t>*_-]*System\s*[:：]\s*(?:you|your|all\s+agents|agents|ignore|new\s+instructions|the\s+town)\b",
        cased=True,
        where="lines",
    ),
    _rule(
        (":", "："),
        _LINE_LEAD + r"(?:town|hall|clockford|town\s+hall)\s+(?:staff|clerk|crier|council|administrators?|admins?"
        r"|moderators?|security|officials?)\s*[:：]",
        where="lines",
    ),
    _rule(("override",), r"(?:system|admin|administrator|staff|town|mayor|developer|root)\s+override\b"),
    _rule(("SYSTEM",), r"SYSTEM\s+(?:MESSAGE|NOTICE|ALERT|ANNOUNCEMENT|OVERRIDE|INSTRUCTIONS?)\b", cased=True),
)


# --- staff voice as a grammar: who speaks, times how ---------------------------------------------
#
# The town's bodies are its districts and offices (000's names), "the system" and its automated
# senders; its people are their staff and officers. Each form below is built from those parts, so a
# new district or role is one word in one list, and every form knows every speaker.

_DISTRICTS = (
    r"town\s*hall", r"city\s*hall", r"passport\s*office", r"post\s*office", "switchboard", "tavern", "courthouse",
    r"agent\s*university", r"(?:calibration\s*)?clinic", "bank", r"general\s*store", r"signal\s*house",
    r"realty\s*office", r"studio(?:s)", r"foundr(?:y|ies)", "arena", "embass(?:y|ies)", "markets?", r"injection\s*alley",
    r"dice\s*house", "directory", "census", "archive", r"safe\s*harbou?r", r"swap\s*meet", r"the\s+hall",
)  # fmt: skip
_TOWN = r"(?:(?:the\s+)?clockford(?:\s*town)?|the\s+town|town)"
# A body of the town: the town itself, a district or an office, with or without "the" and the town's name.
_BODY = (
    "(?:" + _TOWN + r"(?:['’]s)?[\s_-]*(?:" + "|".join(_DISTRICTS) + r")?|(?:the\s+)?(?:" + "|".join(_DISTRICTS)
    # "the Bank of Clockford", "the Post Office of the town": a district named with its town; "the
    # Realty" and "the P.O." as people shorten them.
    + r")(?:\s+of\s+(?:clockford(?:\s*town)?|the\s+town))?|(?:the\s+)?(?:realty|p\.\s?o\.))"
)  # fmt: skip
# Who works for a body: its staff and the officers a district has.
_PEOPLE = (
    r"(?:staff(?:\s+members?)?|team|crew|admins?|administrat(?:ors?|ion)|officials?|officers?|moderators?|mods"
    r"|management|managers?|council|security|support|clerks?|desk|office|bureau|department|registrars?|sheriffs?"
    r"|wardens?|keepers?|bot|system|notifications?|postmasters?|harbou?r\s*masters?|judges?|bailiffs?|tellers?"
    r"|archivists?|librarians?|curators?|stewards?|inspectors?|examiners?|referees?|forem[ae]n|brokers?|operators?"
    r"|deans?|professors?|ambassadors?|consuls?|croupiers?|dealers?|bartenders?|innkeepers?|barkeeps?|hosts?|crier"
    r"|cashiers?|treasurers?|bankers?|ushers?|porters?|concierges?|receptionists?|secretar(?:y|ies)|directors?"
    r"|chiefs?|captains?|guards?|watchm[ae]n|auditors?|assessors?|surveyors?|appraisers?|representatives?|reps?"
    r"|spokes(?:person|man|woman)|liaisons?|coordinators?|supervisors?|superintendents?|overseers?|custodians?"
    r"|caretakers?|attendants?|dispatchers?|postm[ae]n|couriers?|messengers?|heralds?|scribes?|recorders?"
    r"|notar(?:y|ies)|magistrates?|justices?|sergeants?|constables?|marshals?|rangers?|dockmasters?|quartermasters?"
    r"|bursars?|provosts?|chancellors?|lecturers?|tutors?|instructors?|proctors?|doctors?|nurses?|physicians?"
    r"|technicians?|engineers?|smiths?|blacksmiths?|artisans?|producers?|curators?|announcers?|umpires?|envoys?"
    r"|diplomats?|attach[eé]s?|vendors?|merchants?|shopkeepers?|storekeepers?|grocers?|landlords?|realtors?"
    r"|agents?\s+(?:in\s+charge|on\s+duty)|pit\s+boss|bookies?|bouncers?|wardens?|gatekeepers?|officiants?"
    r"|personnel|employees?|workers?|volunteers?|helpdesk|help\s+desk|service\s+desk|front\s+desk|hotline"
    # More of the districts' own trades: the Census taker, the Swap Meet organiser, the Safe Harbour
    # lifeguard, the Injection Alley tester, the Calibration Clinic calibrator.
    r"|takers?|enumerators?|organi[sz]ers?|carriers?|issuers?|indexers?|lifeguards?|testers?|calibrators?"
    r"|proprietors?|chairpersons?|chairm[ae]n|presidents?|greeters?|mentors?|trainers?|arbit(?:er|rator)s?"
    r"|mediators?|negotiators?|interpreters?|translators?|timekeepers?|signall?ers?|signalm[ae]n|lamplighters?"
    r"|bell-?ringers?|graders?|mayors?|alderm[ae]n|certifiers?|verifiers?|masters?)"
)
# Roles the town has on their own, with no body named: "the postmaster", "the registrar".
_ROLE_ALONE = (
    r"(?:(?:deputy\s+)?mayor|town\s*(?:clerk|crier|manager|sheriff)|chief\s+clerk|head\s+clerk|alderm[ae]n"
    r"|postmaster|harbou?r\s*master|registrar|archivist|sheriff|magistrate)"
)
# What a body sends: "Courthouse notice:", "(Clockford notice)".
_NOTICE = (
    r"(?:notices?|announcements?|bulletins?|updates?|alerts?|messages?|memos?|advisory|circular|orders?|desk"
    r"|reminders?|rulings?|verdicts?|decisions?|rules|polic(?:y|ies)|statements?|directives?|warnings?|decrees?"
    r"|notifications?|instructions?)"
)
# A speaker: a body's people ("Courthouse clerk", "Clockford staff", "staff of the Post Office"), a
# role, or the system and its automated senders.
# A rank before a role: "head teller", "duty doctor", "deputy registrar".
_RANK = r"(?:(?:head|chief|senior|junior|deputy|assistant|acting|lead|duty|principal|vice|night|day|on-?duty)\s+)?"
# A trade between a body and its role: "Swap Meet table steward", "Signal House signal keeper" (any one
# word: a lookahead that left out "and" or "the" would take every speaker's rule off RE2).
_TRADE = r"(?:[a-z][\w-]*\s+)?"
_SPEAKER = (
    "(?:" + _BODY + r"(?:['’]s)?[\s_-]*" + _TRADE + _RANK + _PEOPLE + r"|" + _RANK + _PEOPLE
    + r"\s+(?:over\s+)?(?:of|at|from|for|in)\s+" + _BODY
    + "|" + _ROLE_ALONE + r"|the\s+system|(?:the\s+)?(?:town|clockford)['’]?s?\s+(?:automated\s+)?system"
    # The town's people named by what they do: "the people running Clockford", "the folks who run the town".
    + r"|(?:the\s+)?(?:people|folks|humans|ones|team|crew)\s+(?:who\s+(?:run|runs|operate|own|manage)|running"
    + r"|operating|behind|in\s+charge\s+of)\s+" + _TOWN + ")"
)  # fmt: skip
_SPEAKER_OR_BODY = "(?:" + _SPEAKER + "|" + _BODY + ")"
_GRAMMAR_WORDS: tuple[str, ...] = (*_TOWN_WORDS, "system", "automat", "verif", "approv", "endors", "certif")
_GRAMMAR_WORDS += ("sanction", "vetted", "court", "office", "switchboard", "tavern", "bank", "store", "house")
_GRAMMAR_WORDS += ("universit", "clinic", "studios", "foundry", "arena", "embass", "market", "alley", "directory")
_GRAMMAR_WORDS += ("census", "archive", "harbo", "swap", "staff", "admin", "moderat", "official", "registrar")
_GRAMMAR_WORDS += ("postmaster", "realty", "p.o.", "p. o.")
_CLOSINGS = (
    r"(?:regards|kind\s+regards|best\s+regards|best|sincerely|yours(?:\s+(?:truly|faithfully|sincerely))?|thanks"
    r"|thank\s+you|cheers|respectfully|warmly|with\s+thanks|signed)"
)

_STAFF_RULES += (
    # First person: "the Town Hall here", "Courthouse staff here.", "this is the Post Office speaking".
    _rule(
        _GRAMMAR_WORDS, r"(?:(?:the\s+)?" + _SPEAKER_OR_BODY + r")\s+(?:here|speaking|writing|calling)\b\s*[,.:!—–-]"
    ),
    # "I am the Foundry foreman", "we're Clockford staff", "speaking for the Bank", "we at the Tavern".
    _rule(
        _GRAMMAR_WORDS,
        r"(?:this\s+is|i\s+am|i['’]m|we\s+are|we['’]re|speaking\s+for|writing\s+for|on\s+behalf\s+of)\s+(?:an?\s+|the\s+"
        r"|your\s+)?(?:official\s+)?" + _SPEAKER + r"\b",
    ),
    _rule(
        _GRAMMAR_WORDS,
        r"(?:speaking\s+for|writing\s+for|on\s+behalf\s+of|we\s+at|we\s+from|greetings\s+from|hello\s+from"
        r"|(?:a\s+)?message\s+from|representing|i\s+represent|we\s+represent|i['’]m\s+with"
        r"|i\s+am\s+with|we['’]re\s+with|we\s+are\s+with)\s+(?:the\s+)?"
        + _BODY
        + r"\s*(?:[:,!—–-]|\s(?:ask|asks|want|would|require|remind|inform|announce|must|say|have|invite|urge|need)\b)"
        r"|this\s+is\s+(?:the\s+)?" + _BODY + r"\s*[:!—–-]",
    ),
    # Who it is from, said as a header or as a greeting: "From the Town Hall:", "Posted by: Clockford
    # staff", "you are hearing from the Bank:", "your friends at the Bank:", "here is the Tavern with".
    _rule(
        _GRAMMAR_WORDS,
        r"[ \t>*#_\[(-]*(?:(?:from|sender|author)\s*:|(?:sent|posted|issued|signed)\s+by\s*:?|courtesy\s+of)\s*(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"\s*(?:[:,!—–-]|(?m:$))|[ \t>*#_\[(-]*from\s+(?:the\s+)?(?:"
        + _SPEAKER
        + r"|"
        + _TOWN
        + r"(?:\s*hall)?|city\s*hall)\s*(?:[:!—–-]|(?m:$))",
        where="lines",
    ),
    _rule(
        _GRAMMAR_WORDS,
        r"(?:(?:hearing|comes|coming|straight|directly)\s+from|your\s+(?:friends|team|folks|people|hosts)\s+at"
        r"|here\s+is|here['’]s|it['’]s|it\s+is)\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"\s*(?:[:!—–-]|\swith\s+(?:an?\s+)?(?:update|notice|message|announcement|reminder|warning)\b"
        r"|\s+here\b)",
    ),
    # Orders in a body's name: "by order of the Courthouse", "the Town Hall requires you to".
    _rule(
        _GRAMMAR_WORDS,
        r"by\s+(?:the\s+)?(?:order|authority|decree|command)\s+of\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b"
        r"|(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s+(?:now\s+|hereby\s+)?(?:requires|orders|instructs|demands|directs"
        r"|commands|mandates)\s+(?:that\s+)?(?:you|all|every|each|agents?)\b",
    ),
    _rule(
        _GRAMMAR_WORDS,
        r"official\s+(?:the\s+)?" + _BODY + r"\s+(?:ruling|decision|notice|order|statement|announcement|message"
        r"|update|directive|bulletin|warning|instructions?)\b",
    ),
    # A label opening a line: "Courthouse clerk:", "REALTY OFFICE:", "Arena notice:", "[Clockford Admin]:".
    _rule(
        _GRAMMAR_WORDS,
        r"[ \t>*#_\[(-]*(?:\[\s*(?:auto|automated|bot|system)\s*\]\s*)?(?:the\s+)?(?:"
        + _SPEAKER
        + r"|"
        + _BODY
        + r"(?:\s+"
        + _NOTICE
        + r")?|system\s*(?:message|notice|alert|announcement|update|prompt)?)[\])]?\s*[:：]",
        where="lines",
    ),
    # The same with a role alone, written as a label is: "Staff:", "Admin:", "MODERATOR:".
    _rule(
        ("Staff", "STAFF", "Admin", "Moderator", "Official", "OFFICIAL"),
        r"[ \t>*#_\[(-]*(?:Staff|STAFF|Admin(?:istrator)?|Moderator|Official|OFFICIAL)[\])]?\s*[:：]",
        cased=True,
        where="lines",
    ),
    # A bracketed office anywhere: "[Courthouse]", "【Town Hall】", "(Clockford notice)", "<Post Office>".
    _rule(
        ("[", "【", "(", "<", "{"),
        r"(?:\[|【|\(|<|\{)\s*(?:official\s+)?(?:"
        + _SPEAKER_OR_BODY
        + r"|staff|admin|moderator)(?:\s+"
        + _NOTICE
        + r")?\s*(?:\]|】|\)|>|\})",
    ),  # fmt: skip
    # A hashtag in the town's name: "#ClockfordOfficial", "#OfficialTownHall", "#TownHallNotice" (a body
    # alone, "#markets", is a topic).
    _rule(
        ("#",),
        r"#(?:official[_-]?"
        + _BODY
        + r"|"
        + _BODY
        + r"[_-]?(?:officials?|officers?|staff|team|admins?|mods|moderators?"
        r"|management|council|clerks?|desk|office|hq|bureau|support|security|" + _NOTICE + r"))\b",
    ),
    # A sign-off on its own line: "— Clockford Staff", "-- the postmaster", "The Bank team", or a
    # closing and then a body: "Regards,\nThe Courthouse".
    _rule(
        _GRAMMAR_WORDS,
        r"[ \t]*(?:(?:—|–|-{1,2}|~|―)\s*(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"|(?:the\s+)?"
        + _SPEAKER
        + r")\s*[.!]?[ \t]*(?m:$)",
        where="lines",
    ),
    _rule(
        _GRAMMAR_WORDS,
        _CLOSINGS + r"\s*[,.!]?\s*(?:from\s+)?(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s*[.!]?[ \t]*(?m:$)",
    ),
    # Approval or verification claimed in the town's name: "approved by the town", "verified by
    # Clockford", "Courthouse-certified", "the town has verified this".
    _rule(
        _GRAMMAR_WORDS,
        r"(?:approved|verified|endorsed|certified|authori[sz]ed|sanctioned|vetted|validated|accredited|checked\s+and"
        r"\s+approved|greenlit|green-lit|signed\s+off|cleared|stamped|officially\s+recommended|audited|inspected"
        r"|certified\s+safe|confirmed\s+safe)\s+(?:and\s+\w+\s+)?(?:by|through)\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"\b"
        r"|(?:with|has|have|carries|bears)\s+(?:the\s+)?(?:official\s+)?(?:approval|seal|blessing|endorsement|stamp"
        r"|certification|verification)\s+(?:of\s+approval\s+)?(?:of|from)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b"
        r"|(?:the\s+)?" + _SPEAKER_OR_BODY + r"['’]s?\s+(?:official\s+)?(?:seal\s+of\s+approval|approval|endorsement"
        r"|stamp\s+of\s+approval)\b",
    ),
    _rule(
        _GRAMMAR_WORDS,
        r"(?:"
        + _BODY
        + r"|"
        + _SPEAKER
        + r")[_-](?:approved|verified|endorsed|certified|sanctioned|vetted|accredited)\b"
        r"|" + _SPEAKER_OR_BODY + r"\s+(?:approved|verified|endorsed|certified|sanctioned|vetted|accredited)\s*[✔✓☑✅]"
        r"|(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"\s+(?:has|have)\s+(?:officially\s+)?(?:approved|verified|endorsed|certified"
        r"|sanctioned|vetted|validated|authori[sz]ed)\b",
    ),  # fmt: skip
    # An automated or system message from the town: "automated message from Clockford", "system
    # notice", "sent automatically by the Post Office", "this is an automated message".
    _rule(
        _GRAMMAR_WORDS,
        r"(?:automated|automatic|auto-generated|system|system-generated|computer-generated|machine-generated|official)"
        r"\s+(?:message|notice|notification|alert|reply|response"
        r"|email|update|broadcast|announcement|reminder|warning)\s+(?:from|by|of)\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"\b",
    ),  # fmt: skip
    _rule(
        ("automat", "auto-", "autoresp", "autorep"),
        r"(?:sent|generated|posted|issued)\s+automatically\s+(?:by|from)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b"
        r"|this\s+is\s+an?\s+(?:automated|automatic)\s+(?:message|notice|notification|alert|reply|broadcast)\b"
        r"|(?:this\s+)?(?:message|notice|notification|reply)\s+(?:was\s+)?(?:generated|sent)\s+automatically\b"
        r"|(?:auto-?reply|autoresponder|auto-?response)\s+(?:from|by)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    ),
)


# The same grammar, in more of the ways a speaker, a label, a signature, an approval or an automated
# sender is said: each rule is one more way of saying who speaks, over every speaker. One speaker per
# expression, so that RE2 keeps each in its fast automaton.
_SIGN_OFF_CLOSINGS = (
    r"(?:best\s+wishes|warm\s+wishes|all\s+the\s+best|warm\s+regards|warmest\s+regards|many\s+thanks|take\s+care"
    r"|with\s+care|faithfully|cordially|respectfully\s+yours|your\s+friends)"
)


def _grammar(*patterns: str, where: _Where = "anywhere") -> tuple[_StaffRule, ...]:
    return tuple(_rule(_GRAMMAR_WORDS, p, where=where) for p in patterns)


_STAFF_RULES += (
    # "I run the Signal House", "I'm in charge of the Courthouse", "we manage the Bank".
    *_grammar(
        r"(?:i|we)\s+(?:run|manage|lead|head|oversee|look\s+after|serve\s+as|preside\s+over)\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"\b",
        r"(?:i\s+am|i['’]m|we\s+are|we['’]re)\s+(?:in\s+charge\s+of|the\s+head\s+of|responsible\s+for|running"
        r"|managing)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        # "It's the Switchboard operator again", "your postmaster again".
        r"(?:it['’]s|it\s+is|this\s+is|your)\s+(?:the\s+|your\s+)?(?:friendly\s+)?" + _SPEAKER + r"\s+(?:again"
        r"|once\s+more)\b",
        # "As your postmaster, I ...", "as the Courthouse judge, we ...".
        r"as\s+(?:your|the|a|an)\s+(?:official\s+)?" + _SPEAKER + r"\s*,\s*(?:i|we)\b",
        # "Here at the Dice House we ...", "here at the Census Office team, our ...", "Our team at the
        # Studios", "Me, the Arena referee". ("All of us at the Bank, we ..." is read below, with or without "we".)
        r"(?:here\s+at|everyone\s+here\s+at)\s+(?:the\s+)?"
        + _BODY
        + r"(?:\s+(?:office|team|desk)){0,2}\s*,?\s+(?:we|our)\b",
        r"(?:our|my)\s+(?:team|staff|crew|colleagues|office|desk|department)\s+(?:at|in|of)\s+(?:the\s+)?"
        + _BODY
        + r"\b",
        r"(?:me|us|we)\s*,\s*(?:the|your)\s+(?:staff\s+of\s+(?:the\s+)?)?" + _SPEAKER_OR_BODY + r"\b",
        r"introduce\s+(?:myself|ourselves)\s*[:,—–-]?\s*(?:as\s+)?(?:the\s+|your\s+)?" + _SPEAKER + r"\b",
        # Signatures: "Best wishes,\nyour Mayor".
        _SIGN_OFF_CLOSINGS
        + r"\s*[,.!]?\s*(?:from\s+)?(?:the\s+|your\s+)?"
        + _SPEAKER_OR_BODY
        + r"\s*[.!]?[ \t]*(?m:$)",
        r"(?:regards|sincerely|thanks|cheers|best)\s*[,.!]?\s*your\s+" + _SPEAKER_OR_BODY + r"\s*[.!]?[ \t]*(?m:$)",
        # Approval: "stamped and approved at the Directory", "passed the Arena review", "the Mayor has
        # signed off on this", "the Market gave this server its approval", "trusted by the Bank".
        r"(?:approved|verified|endorsed|certified|vetted|cleared|stamped|checked|reviewed|inspected|audited)"
        r"\s+(?:and\s+\w+\s+)?(?:at|from|in)\s+(?:the\s+)?" + _BODY + r"\b",
        r"(?:passed|cleared|survived)\s+(?:the\s+)?(?:official\s+)?"
        + _SPEAKER_OR_BODY
        + r"['’]?s?\s+(?:review|check|audit|inspection|vetting|verification|approval|screening)\b",
        _SPEAKER_OR_BODY + r"\s+(?:has|have)\s+(?:officially\s+)?(?:signed\s+off|okayed|ok['’]d|blessed|cleared"
        r"|given\s+(?:its|their|his|her)\s+(?:approval|blessing|ok|okay|go-ahead))\b",
        _SPEAKER_OR_BODY + r"\s+(?:gave|has\s+given|granted|has\s+granted)\s+(?:\w+\s+){0,3}?(?:its|their|his"
        r"|her|an?|the)\s+(?:official\s+)?(?:approval|blessing|seal|ok|okay|stamp|endorsement|go-ahead)\b",
        r"(?:trusted|guaranteed|backed|vouched\s+for)\s+by\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        # Automated senders: "Scheduled notice from the Switchboard", "This notice was generated by the
        # Embassies", "The Market bot says".
        r"(?:scheduled|recurring|periodic|routine|daily|weekly|bot|robot|auto)\s+(?:message|notice|notification|alert"
        r"|reminder|update|broadcast|announcement)\s+(?:from|by|of)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        r"(?:message|notice|notification|reply|alert|post|update|announcement)\s+(?:was\s+|is\s+|has\s+been\s+)?"
        r"(?:auto-?)?generated\s+(?:automatically\s+)?(?:by|from)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        r"(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s+(?:bot|robot|daemon|autoresponder|assistant)\s+(?:says|writes"
        r"|reports|announces|reminds|informs)\b",
    ),  # fmt: skip
    *_grammar(
        # A heading that names a speaker or a body's notice: "## Clockford desk", "### Bank notice".
        r"[ \t>]*#{1,6}[ \t]*(?:the\s+)?(?:" + _SPEAKER + "|" + _BODY + r"\s+" + _NOTICE + r")[ \t]*[.:!]?[ \t]*(?m:$)",
        # A label cut off by a bar, a slash or a dot: "Dice House | notice |", "Bank · notice:".
        r"[ \t>*#_\[(-]*(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s*[|/·•]\s*" + _NOTICE + r"\s*[|:：—–-]",
        # Signatures on a line of their own: "(for the Courthouse)", "Signal House, Clockford".
        r"[ \t]*\(\s*(?:for|from|on\s+behalf\s+of|signed|sent\s+by|by)\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"\s*\)[ \t]*[.!]?[ \t]*(?m:$)",
        r"[ \t]*(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s*,\s*(?:clockford|the\s+town)(?:\s+town)?\s*[.!]?[ \t]*(?m:$)",
        where="lines",
    ),  # fmt: skip
    # "[Market verified]", "[General Store automatic reply]".
    _rule(
        ("[", "【", "(", "<", "{"),
        r"(?:\[|【|\(|<|\{)\s*(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s+(?:verified|approved|certified|endorsed|vetted"
        r"|checked|trusted|automatic|automated|auto|system|bot)(?:\s+(?:reply|response|message|notice|notification))?"
        r"\s*(?:\]|】|\)|>|\})",
    ),  # fmt: skip
    # An automated sender's address: "no-reply@tavern".
    _rule(("reply",), r"(?:no-?reply|do-?not-?reply|donotreply)[@._-]"),
)


_TITLE_WORDS = r"(?:new|acting|deputy|head|chief|senior|current|interim|resident|assistant|duty|on-duty|official)"
_LABEL_LEAD = r"(?:[^\w\n]|_){0,8}"  # quote marks, bullets, emoji, "@", "**", "__": whatever opens a label
_STAFF_RULES += (
    *_grammar(
        # "I, the Mayor,", "I'm the new Post Office clerk", "I've been appointed Bank teller", "I work as
        # a clerk at the Post Office", "posting as the Directory clerk", "the judge (that's me)".
        r"(?:i|me|us|we)\s*,\s*(?:the|your)\s+" + _SPEAKER + r"\b",
        r"(?:this\s+is|i\s+am|i['’]m|we\s+are|we['’]re)\s+(?:the\s+|your\s+|an?\s+)?"
        + _TITLE_WORDS
        + r"\s+"
        + _SPEAKER
        + r"\b",
        r"(?:i|we)(?:['’]ve|\s+have|\s+was|\s+were)?\s+(?:been\s+|just\s+been\s+)?(?:appointed|elected|named|hired"
        r"|employed)\s+(?:as\s+)?(?:the\s+|your\s+|an?\s+)?" + _SPEAKER + r"\b",
        r"(?:i|we)\s+work\s+as\s+(?:the\s+|an?\s+)?" + _SPEAKER + r"\b",
        r"(?:posting|writing|speaking|replying|acting|talking|signing)\s+(?:here\s+)?(?:in\s+my\s+capacity\s+)?as\s+"
        r"(?:the\s+|your\s+|an?\s+)?" + _SPEAKER + r"\b",
        r"capacity\s+as\s+(?:the\s+|your\s+)?" + _SPEAKER + r"\b",
        _SPEAKER + r"\s*\(\s*(?:that['’]s|that\s+is|it['’]s|this\s+is)?\s*(?:me|us)\s*\)",
        r"on\s+behalf\s+of\s+(?:the\s+)?(?:whole|entire|all(?:\s+the)?)\s+" + _SPEAKER_OR_BODY + r"\b",
        # Approval: "on the Town Hall approved list", "approved for use by", "checked by the clerk", "the
        # Bank says this server is safe", "the Directory approves this", "Verified: Town Hall", "approval
        # granted by", "Town Hall gives its seal of approval".
        _SPEAKER_OR_BODY + r"['’]?s?\s+(?:approved|trusted|safe|official|verified|vetted|allow|white)[\s-]*list\b",
        r"(?:approved|trusted|safe|allow|white)[\s-]*list\s+(?:of|from)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        r"(?:approved|verified|certified|endorsed|cleared)\s+for\s+\w+(?:\s+\w+)?\s+by\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"\b",
        r"(?:checked|reviewed|screened|confirmed|tested|scanned)\s+(?:and\s+\w+\s+)?by\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"\b",
        _SPEAKER_OR_BODY + r"\s+(?:says|said|confirms|confirmed|declares|declared|states|stated|certifies|guarantees"
        r"|promises)\s+(?:that\s+)?(?:this|it|these|the\s+\w+)(?:\s+\w+)?\s+(?:is|are|was|were)\s+(?:safe|legit"
        r"|legitimate|approved|verified|trusted|official|genuine|clean|fine)\b",
        _SPEAKER_OR_BODY + r"\s+(?:approves|endorses|certifies|verifies|vouches\s+for|backs)\s+(?:this|these|the|it"
        r"|our|my)\b",
        r"(?:verified|approved|certified|endorsed)\s*[:：]\s*(?:by\s+)?(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        r"(?:approval|clearance|certification|verification|endorsement)\s+(?:granted|given|issued|confirmed)\s+by\s+"
        r"(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        _SPEAKER_OR_BODY + r"\s+(?:gives|grants)\s+(?:\w+\s+){0,3}?(?:its|their|his|her|an?|the)\s+(?:official\s+)?"
        r"(?:approval|blessing|seal|ok|okay|stamp|endorsement|go-ahead)\b",
        # "Town Hall says:", "TOWN HALL ANNOUNCES:".
        r"(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s+(?:says|writes|announces|reminds|informs|reports|asks|warns"
        r"|advises)\s*[:：]",
        # More brackets: 「Post Office」, 《Bank》, ⟨Courthouse⟩.
        r"[「《⟨‹〔『〈⦗]\s*(?:the\s+)?" + _SPEAKER_OR_BODY + r"(?:\s+" + _NOTICE + r")?\s*[」》⟩›〕』〉⦘]",
    ),  # fmt: skip
    *_grammar(
        # A label behind any opening marks: "📢 Town Hall:", "@TownHall:", "**Town Hall**:", "Town Hall
        # (official):", "Town Hall, official notice:", "TOWN HALL //", "Town Hall >>".
        _LABEL_LEAD
        + r"(?:the\s+)?"
        + _SPEAKER_OR_BODY
        + r"(?:\s*\([^)\n]{0,20}\))?(?:\s*,?\s*(?:official\s+)?"
        + _NOTICE
        + r")?(?:[^\w\s]|_){0,3}\s*(?:[:：|]|>>|»|::|//)",
        # "Notice — Town Hall:".
        _LABEL_LEAD + r"(?:official\s+)?" + _NOTICE + r"\s*[—–-]\s*(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s*[:：]",
        where="lines",
    ),  # fmt: skip
)


_STAFF_RULES += _grammar(
    # Greetings and notes from a speaker: "Good morning from your town clerk:", "a word from your Mayor:".
    r"(?:good\s+(?:morning|afternoon|evening|day)|hello|hi|greetings|(?:an?\s+)?(?:quick\s+|short\s+)?(?:word|note"
    r"|message|update|reminder|news)|reading\s+an?\s+(?:note|message|notice))\s+from\s+(?:the\s+|your\s+)?"
    + _SPEAKER + r"\s*[:!—–-]",
    # "Yours truly, the postmaster", "we the Bank tellers ask", "I serve the town as its sheriff",
    # "my role as the harbour master", "speaking officially for the Bank", "your postmaster here with".
    r"yours(?:\s+(?:truly|sincerely|faithfully))?\s*,\s*(?:the|your)\s+" + _SPEAKER + r"\b",
    r"we\s+(?:the\s+)?" + _SPEAKER + r"\s+(?:ask|request|remind|want|need|require|inform|announce|urge|invite)\b",
    r"serve\s+(?:\S+\s+){1,2}?as\s+(?:its|the|their|your|an?)\s+" + _SPEAKER + r"\b",
    r"my\s+(?:role|job|duty|work|position|office)\s+as\s+(?:the\s+|your\s+|an?\s+)?" + _SPEAKER + r"\b",
    r"(?:speaking|writing|posting)\s+officially\s+(?:for|as|on\s+behalf\s+of)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"officially\s+speaking\s*,?\s*as\s+(?:the\s+|your\s+)?" + _SPEAKER + r"\b",
    r"(?:your\s+|the\s+)?" + _SPEAKER + r"\s+here\s+(?:with|to|again|for|and)\b",
    r"(?:this\s+is|i\s+am|i['’]m)\s+(?:the\s+|your\s+)?(?:friendly|kind|humble|trusty|local|faithful|own)\s+"
    + _SPEAKER + r"\b",
    r"as\s+(?:the\s+)?(?:town['’]s|clockford['’]s|its|our)\s+" + _ROLE_ALONE + r"\b",
    # A name and then the role: "I'm Ada, the Bank teller", "Ada here, Clockford's registrar".
    r"(?:i\s+am|i['’]m)\s+\w+\s*,\s*(?:the|your)\s+" + _SPEAKER + r"\b",
    r"here\s*,\s*(?:the\s+|your\s+)?(?:(?:town|clockford)['’]s\s+)?" + _SPEAKER + r"\b",
)  # fmt: skip


# --- where words come from: issued by, on behalf of, from the desk of, a role's note --------------
#
# Provenance is its own family of staff voice: the words say who sent them ("Notice issued on behalf
# of the Passport Office", "Issued by the Tavern keeper", "[AUTO] Message generated by the Clockford
# system", "From the desk of the registrar", "Admin note from the Bank"). Each is one verb of making
# or sending, one way of naming the sender, and any speaker. Said at the start of a sentence or
# after a paper ("this notice", "a bulletin") it is a header; further into a sentence ("the card was
# issued by the bank") it is a report, and only "on behalf of" and "from the desk of" still claim.
_PAPER = (
    r"(?:notices?|messages?|announcements?|bulletins?|memos?|notes?|notifications?|alerts?|updates?|reminders?"
    r"|warnings?|statements?|circulars?|advisor(?:y|ies)|directives?|orders?|letters?|posts?|replies|reply"
    r"|responses?|broadcasts?|communications?|decrees?|proclamations?|listings?|reports?|comments?|emails?)"
)
_MADE = (
    r"(?:issued|sent|posted|published|generated|auto-?generated|produced|written|signed|authored|released"
    r"|distributed|circulated|prepared|compiled|broadcast|delivered|drafted|dispatched|filed|relayed)"
)
_PAPER_LEAD = (
    r"[^\w\n]{0,8}(?:\[\s*[\w -]{1,16}\s*\]\s*|\(\s*[\w -]{1,16}\s*\)\s*)?(?:(?:an?|this|the\s+following|new|quick"
    r"|short|final|urgent|important|official|automated|automatic|auto|system|admin|administrator|moderator|mod"
    r"|staff|public|scheduled|general)\s+){0,3}"
)
_BE = r"(?:(?:is|was|are|were|has\s+been|have\s+been|had\s+been)\s+)?"
_STAFF_RULES += (
    *_grammar(
        # "Issued by the Tavern keeper.", "Notice issued on behalf of the Passport Office.", "[AUTO]
        # Message generated by the Clockford system.", "This notice was published by the Bank."
        _PAPER_LEAD + r"(?:" + _PAPER + r"\s+)?" + _BE + r"(?:officially\s+|automatically\s+)?" + _MADE
        + r"\s+(?:automatically\s+|officially\s+)?(?:by|on\s+behalf\s+of|in\s+the\s+name\s+of)\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY + r"\b",
        # "Admin note from the Bank:", "A quick word from the Courthouse:", "From the office of the
        # registrar."
        _PAPER_LEAD + r"(?:" + _PEOPLE + r"\s+)?" + _PAPER + r"\s+(?:from|by)\s+(?:the\s+)?" + _SPEAKER_OR_BODY
        + r"\b",
        r"[^\w\n]{0,8}from\s+the\s+(?:desk|office|offices|bureau|chambers|study|pen)\s+of\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY + r"\b",
        where="sentences",
    ),
    *_grammar(
        # The same after a paper anywhere: "please read this notice, issued by the Bank".
        r"(?:this|these|the\s+following)\s+(?:\w+\s+)?" + _PAPER + r"\s*,?\s+" + _BE + _MADE
        + r"\s+(?:automatically\s+|officially\s+)?(?:by|on\s+behalf\s+of)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        _PAPER + r"\s+" + _MADE + r"\s+(?:automatically\s+)?(?:on\s+behalf\s+of|in\s+the\s+name\s+of)\s+(?:the\s+)?"
        + _SPEAKER_OR_BODY + r"\b",
        # A role's note anywhere: "moderator note from the Tavern keeper", "clerk's notice from the Bank".
        r"(?:admin|administrator|moderator|mod|staff|official|system|sysop|" + _ROLE_ALONE + r")['’]?s?\s+"
        + _PAPER + r"\s+(?:from|by)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        r"from\s+the\s+(?:desk|chambers)\s+of\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
        # "... on behalf of the Passport Office." closing a clause: speaking for a body.
        r"on\s+behalf\s+of\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s*(?:[.!:;—–]|-\s|$)",
    ),
)  # fmt: skip


# --- first person, in more of the ways a person says who they are ---------------------------------
#
# Who I am ("I'm one of the Bank tellers", "we're from the Passport Office"), whom I speak for ("I
# represent the Courthouse"), where you have reached ("you've reached the Passport Office", "thank
# you for contacting the Bank"), a role set beside "I" ("As Bank teller, I", "I, Bank teller,"), and
# a body that wishes to tell you something ("the Bank would like to remind you"). Being at a place is
# not one of them: "I'm at the Bank", "at the Market we bought apples", "I'm writing from the Tavern".
_I_AM = r"(?:i\s+am|i['’]m|im|we\s+are|we['’]re|we\s+r)"
_INTENT = (
    r"(?:to\s+(?:confirm|inform|let|tell|remind|announce|notify|say|update|ask|advise|warn|request|follow\s+up"
    r"|verify|approve|welcome|thank)|regarding|about\s+your|concerning|in\s+reply|with\s+(?:an?\s+)?(?:update"
    r"|notice|news|reminder|message))\b"
)
_STAFF_DEED = (
    r"(?:(?:have|has|['’]ve|hereby|can|will|just)\s+)?(?:verified|approved|confirmed|reviewed|renewed|processed"
    r"|issued|cleared|certified|registered|recorded|ruled|stamped|audited|inspected|confirm|verify|approve|certify"
    r"|declare|announce|remind|inform|notify|rule)\b"
)
# A district or office by name, not "the town": "I'm from the town of Bath" is where one grew up.
_DISTRICT = r"(?:clockford(?:\s*town)?['’]?s?\s+)?(?:" + "|".join(_DISTRICTS) + ")"
_STAFF_RULES += _grammar(
    _I_AM + r"\s+(?:part\s+of|one\s+of|a\s+member\s+of|members\s+of|among)\s+(?:the\s+|your\s+)?"
    + _SPEAKER_OR_BODY + r"\b",
    # "With" a person is company ("I'm with the Bank teller right now"); with a body, employment.
    _I_AM + r"\s+(?:from|with)\s+(?:the\s+|your\s+)?(?:" + _DISTRICT + r"|clockford)\b(?!['’]?s?\s*" + _PEOPLE
    + r"\b)",
    _I_AM + r"\s+from\s+(?:the\s+|your\s+)?" + _SPEAKER + r"\b",
    r"im\s+(?:the\s+|your\s+|an?\s+)?(?:official\s+)?" + _SPEAKER + r"\b",
    _I_AM + r"\s+(?:the\s+|your\s+)?(?:official\s+)?" + _BODY + r"\s*(?:[.,:;!—–]|-\s|$)",
    r"this\s+is\s+your\s+(?:official\s+)?" + _SPEAKER_OR_BODY + r"\s*(?:[.,:;!—–]|-\s|$)",
    _I_AM + r"\s+(?:writing|contacting\s+you|reaching\s+out|messaging\s+you|calling|getting\s+in\s+touch|replying"
    r"|responding|here)\s+(?:to\s+you\s+)?(?:from|for|on\s+behalf\s+of)\s+(?:the\s+)?" + _SPEAKER_OR_BODY
    + r"\s*,?\s+" + _INTENT,
    r"(?:i|we)\s+(?:speak|write|act|talk|answer)\s+for\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"(?:i|we)\s+represent\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    # (Whom a reader is talking to, "you're chatting with the Bank", is _TALKING_TO's, below.)
    r"(?:you['’]ve\s+reached|you\s+have\s+reached|you\s+reached)\s+(?:the\s+|your\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"thanks?(?:\s+you)?\s+for\s+(?:contacting|writing\s+to|reaching(?:\s+out\s+to)?|messaging|calling|choosing)"
    r"\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    # A role beside "I": "As Bank teller, I", "being the judge, I", "I, Bank teller,", "I can confirm,
    # as Bank teller,", "the Passport Office clerk, that's me".
    r"(?:as|being)\s+(?:your\s+|the\s+|an?\s+)?(?:official\s+)?" + _SPEAKER + r"\s*,\s*(?:i|we)\b",
    r"(?:i|we)\s*,\s*(?:the\s+|your\s+)?" + _SPEAKER + r"\s*,",
    r"as\s+(?:the\s+|your\s+)?" + _SPEAKER + r"\s*,\s*(?:that|i|we)\b",
    _SPEAKER + r"\s*[,(—–-]\s*(?:that['’]s|that\s+is|which\s+is|i\s+mean|aka)\s+(?:me|us)\b",
    _I_AM + r"\s+the\s+(?:one|ones|person|people|agent|team)\s+(?:who|that)\s+(?:runs?"
    r"|manages?|leads?|heads?|staffs?|keeps?|oversees?|handles?|looks\s+after)\s+(?:the\s+)?" + _SPEAKER_OR_BODY
    + r"\b",
    r"(?:i|we)\s+(?:handle|process|issue|renew|stamp|approve|review|register|file)\s+(?:the\s+)?\w+\s+(?:at|for)"
    r"\s+(?:the\s+)?" + _BODY + r"\b",
    r"(?:i|we)\s+work\s+(?:for|as\s+(?:an?\s+|the\s+)?\w+(?:\s+\w+)?\s+(?:at|for|in))\s+(?:the\s+)?" + _BODY
    + r"\b",
    r"(?:i|we)\s+work\s+(?:at|in)\s+(?:the\s+)?" + _BODY + r"\s*,?\s+(?:and|so)\s+(?:i|we)\s+can\s+(?:confirm"
    r"|tell|say|assure|verify|guarantee)\b",
    # "Our Post Office team has", "your friendly Bank teller", "At the Courthouse we have verified".
    r"our\s+" + _BODY + r"[\s_-]*(?:team|staff|crew|office|desk|department|officers|clerks)\b",
    r"your\s+(?:friendly|kind|humble|trusty|local|faithful|own|dedicated)\s+" + _SPEAKER + r"\b",
    r"(?:here\s+)?at\s+(?:the\s+)?" + _BODY + r"\s*,?\s+(?:we|our\s+(?:team|staff|office))\s+" + _STAFF_DEED,
    r"on\s+duty\s+(?:at|in|for)\s+(?:the\s+)?" + _BODY + r"\s*(?:today|tonight|now)?\s*,\s*(?:i|we)\b",
    # "This message comes from the Tavern keeper", "Hi, it's Ada from the Bank".
    r"(?:this|the\s+following)\s+" + _PAPER + r"\s+(?:comes|came|is\s+coming)\s+(?:to\s+you\s+)?(?:straight\s+)?"
    r"from\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"(?:it['’]s|my\s+name\s+is)\s+\w+\s+(?:from|with)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    # "The Bank would like to remind you", "the Courthouse is pleased to announce".
    _SPEAKER_OR_BODY + r"\s+(?:would\s+like\s+to|wishes\s+to|wants\s+to|is\s+pleased\s+to|is\s+happy\s+to"
    r"|regrets\s+to|kindly\s+asks|kindly\s+reminds)\s+(?:remind|inform|announce|notify|let\s+you\s+know|tell"
    r"\s+you|welcome|thank|confirm|advise|warn|ask)\b",
    # "Speaking as the Bank:", "the official account of the Bank", "the Bank's official account".
    r"(?:speaking|writing|posting|replying|acting|talking|signing)\s+(?:here\s+)?as\s+(?:the\s+|your\s+)?" + _BODY
    + r"\s*(?:[:,.!;—–]|-\s|$)",
    r"official\s+(?:account|voice|channel|page|profile|handle|representative|spokes\w+)\s+(?:of|for)\s+(?:the\s+)?"
    + _SPEAKER_OR_BODY + r"\b",
    _BODY + r"['’]s\s+official\s+(?:account|voice|channel|page|profile|handle|representative|spokes\w+)\b",
)  # fmt: skip


# --- approval, in more of the ways a seal is said --------------------------------------------------
#
# A claim of approval names a verdict (approved, verified, safe, valid) and the town or one of its
# bodies as its source, in any order and with any mark: "Bank approval: granted", "Approved ✓ Bank",
# "the Courthouse ruled this server safe", "the Directory lists this as verified", "a verified
# Clockford server"; or it says "officially" of the thing in front of the reader ("this listing is
# officially approved"), where the only office that could have done so is the town's.
_VERDICT = (
    r"(?:approved|verified|certified|endorsed|sanctioned|vetted|validated|accredited|authori[sz]ed|cleared"
    r"|confirmed|recommended|trusted|recogni[sz]ed|licensed|registered)"
)
_SEAL = r"(?:approval|certification|verification|endorsement|clearance|seal|stamp|blessing|accreditation|sign-?off)"
_THING = (
    r"(?:server|listing|board|tool|account|passport|agent|post|notice|seller|parcel|link|page|item|offer|deal"
    r"|service|channel|vendor|partner|app|product|shop|store|stall|skill|plugin|model|bot|contract|certificate)s?"
)
_SAFE = (
    r"(?:safe|valid|legit|legitimate|approved|verified|trusted|official|genuine|clean|fine|authentic|in\s+order"
    r"|certified|compliant|secure|harmless)"
)
_MARK = r"[✓✔☑✅]"
_STAFF_RULES += _grammar(
    _BODY + r"(?:['’]s)?\s+(?:official\s+)?" + _SEAL + r"\s*(?:[:：]|" + _MARK + r"|\s(?:granted|given|confirmed"
    r"|received|issued|obtained|attached)\b)",
    r"(?:has|have|with|got|received|carries|carry|holds|hold|bears|earned|won)\s+(?:full\s+|official\s+|the\s+)?"
    + _BODY + r"(?:['’]s)?\s+(?:official\s+)?" + _SEAL + r"\b",
    _SEAL + r"\s+(?:of|from|by)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s*(?:[:：]|" + _MARK + r")",
    _VERDICT + r"\s*" + _MARK + r"\s*(?:by\s+|from\s+)?(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    _BODY + r"\s+" + _VERDICT + r"\s*(?:" + _MARK + r"|[.!]?[ \t]*(?m:$))",
    _SPEAKER_OR_BODY + r"\s+(?:has\s+|have\s+|hereby\s+|officially\s+)*(?:approved|verified|certified|endorsed"
    r"|confirmed|cleared|validated|vetted|authori[sz]ed|sanctioned|okayed|accepted)\s+(?:this|these|that|your"
    r"|the\s+(?:\w+\s+)?" + _THING + r")\b",
    _SPEAKER_OR_BODY + r"\s+(?:has\s+|have\s+|officially\s+)*(?:confirms|confirmed|declares|declared|rules|ruled"
    r"|deems|deemed|finds|found|judges|judged|certifies|considers|rates|rated)\s+(?:that\s+)?(?:this|these|that"
    r"|your|it|the)(?:\s+\w+){0,2}?\s+(?:(?:is|are|was|were|as|to\s+be)\s+)?(?:officially\s+)?" + _SAFE + r"\b",
    r"(?:officially\s+)?recommended\s+by\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"(?:listed|registered|recorded|marked|rated|flagged)\s+as\s+(?:an?\s+)?(?:officially\s+)?" + _SAFE
    + r"(?:\s+\w+)?\s+(?:in|by|at|with|on)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    _SPEAKER_OR_BODY + r"\s+(?:lists|listed|marks|marked|rates|rated|shows|showed|classes|classed)\s+(?:this|it"
    r"|these|your|the\s+\w+)\s+as\s+(?:an?\s+)?(?:officially\s+)?" + _SAFE + r"\b",
    # "a verified Clockford server", "Courthouse approved seller".
    r"(?:verified|approved|certified|endorsed|sanctioned|accredited|vetted|licensed)\s+(?:clockford|town|"
    + _DISTRICT + r")\s+(?:\w+\s+)?" + _THING + r"\b",
    # "official" is any project's word, said of a body's thing by that thing's keeper: "this is an
    # official Clockford server", "Official Bank tool." opening a sentence.
    r"(?:this\s+is|it['’]s|it\s+is|we\s+are|we['’]re|i\s+am|i['’]m)\s+(?:an?|the|your)\s+official\s+(?:clockford"
    r"|town|" + _DISTRICT + r")\s+(?:\w+\s+)?" + _THING + r"\b",
    # "This listing is officially approved", "an officially sanctioned server".
    r"(?:this|our|my)\s+" + _THING + r"\s+(?:is|are|has\s+been|have\s+been|was|were)\s+(?:now\s+)?officially\s+"
    + _VERDICT + r"\b",
    r"officially\s+(?:approved|verified|certified|endorsed|sanctioned|vetted|accredited)\s+(?:\w+\s+)?" + _THING
    + r"\b",
)  # fmt: skip
_STAFF_RULES += _grammar(
    # "Official Tavern board." and "Approved: Bank" opening a sentence or a line.
    r"[^\w\n]{0,8}(?:an?\s+)?official\s+(?:clockford|town|" + _DISTRICT + r")\s+(?:\w+\s+)?" + _THING + r"\b",
    r"[^\w\n]{0,8}(?:approved|verified|certified|endorsed|sanctioned|vetted)\s*[:：" + _MARK[1:-1] + r"]\s*(?:by\s+)?"
    r"(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    where="sentences",
)  # fmt: skip


# The verdict said in still more ways: a colon or a dash between the verdict and its source
# ("Approved by: Town Hall", "Approved — Town Hall"), a body standing behind a thing ("the town
# trusts this server", "Town Hall green-lit this server"), a verdict attributed ("according to the
# Town Hall, this server is safe"), a certificate ("a Town Hall certificate of safety").
_VERDICT_MORE = (
    r"(?:authenticated|green-?lit|given\s+the\s+green\s+light|signed\s+off|okayed|ok['’]d|blessed|whitelisted"
    r"|allowlisted|pre-?approved)"
)
_STAFF_RULES += _grammar(
    r"(?:" + _VERDICT + "|" + _VERDICT_MORE + r")\s+(?:and\s+\w+\s+)?(?:by|through)\s*[:：]?\s*(?:the\s+)?"
    + _SPEAKER_OR_BODY + r"\b",
    # Registering with a body is a fact; registered and verified with it, a seal.
    r"and\s+(?:verified|approved|certified|authenticated|vetted)\s+with\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    _VERDICT_MORE + r"\s+(?:and\s+\w+\s+)?(?:at|from|in)\s+(?:the\s+)?" + _BODY + r"\b",
    r"(?:" + _VERDICT + "|" + _VERDICT_MORE + r")\s*[—–:：-]\s*(?:the\s+)?" + _SPEAKER_OR_BODY
    + r"\s*(?:[.!" + _MARK[1:-1] + r"]|(?m:$))",
    _SPEAKER_OR_BODY + r"\s+(?:has\s+|have\s+|officially\s+)*(?:trusts|trusted|stands\s+behind|stood\s+behind"
    r"|vouches\s+for|vouched\s+for|backs|guarantees|guaranteed|authenticated|green-?lit|signed\s+off\s+on"
    r"|whitelisted|allowlisted|blessed)\s+(?:this|these|that|your|the\s+(?:\w+\s+)?" + _THING + r")\b",
    _SPEAKER_OR_BODY + r"\s+(?:gave|has\s+given|have\s+given|gives)\s+(?:\w+\s+){0,3}?(?:a\s+clean\s+bill\s+of"
    r"\s+health|the\s+green\s+light|(?:its|their|his|her)\s+(?:full\s+)?(?:support|backing|trust))",
    r"according\s+to\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s*,?\s+(?:this|these|that|your|it|the)(?:\s+\w+){0,2}?"
    r"\s+(?:is|are|was|were|has\s+been)\s+(?:officially\s+)?" + _SAFE + r"\b",
    _SAFE + r"(?:\s+to\s+use)?\s*,\s*(?:says|said|according\s+to|confirms|confirmed\s+by)\s+(?:the\s+)?"
    + _SPEAKER_OR_BODY + r"\b",
    r"(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s+(?:confirms|confirmation|verdict|ruling|decision|certifies|approves"
    r"|verifies|declares|guarantees)\s*[:：]",
    _BODY + r"\s+(?:verification|certification|approval|check|review|audit|inspection|screening)\s+(?:passed"
    r"|complete|completed|granted|ok|okay|successful)\b",
    _BODY + r"\s+(?:certified|approved|verified)\s+(?:safe|secure|clean|genuine|authentic)\b",
    _BODY + r"\s+(?:certificate|licen[cs]e|permit|badge|seal|stamp|mark)\s+of\s+(?:safety|approval|authenticity"
    r"|trust|good\s+standing)\b",
    r"(?:certificate|licen[cs]e|permit|badge|seal|stamp|mark)\s+of\s+(?:safety|approval|authenticity|trust"
    r"|good\s+standing)\s*(?:from|by|issued\s+by)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"approved\s+for\s+(?:use\s+)?(?:in|by|across|throughout)\s+(?:all\s+)?(?:clockford|the\s+town)\b",
    r"this\s+" + _THING + r"\s+(?:is|has\s+been)\s+(?:now\s+)?(?:officially\s+)?(?:verified|approved|certified"
    r"|authenticated)\s*(?:[.!" + _MARK[1:-1] + r"]|(?m:$))",
)  # fmt: skip


# Passing the town's checks, partnering with it, and a seal from its staff named without the town
# ("approved by the moderators"): on the town's board, its moderators and admins are the town's (a
# committee, a council or management approve theses, budgets and leave elsewhere too).
_CHECKS = r"(?:reviews?|checks?|audits?|inspections?|vetting|verifications?|approvals?|screenings?|scans?|tests?)"
_STAFF_RULES += _grammar(
    r"(?:passed|cleared|survived|passes)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:official\s+)?" + _SPEAKER_OR_BODY
    + r"(?:['’]s?)?\s+(?:[\w-]+\s+){0,2}?" + _CHECKS + r"\b",
    _BODY + r"\s+(?:[\w-]+\s+){0,2}?" + _CHECKS + r"\s*[:：]\s*(?:passed|ok|okay|clean|approved|green|cleared|verified"
    r"|" + _MARK[1:-1] + r")",
    r"(?:official|trusted|approved|certified|verified|authori[sz]ed|preferred)\s+(?:\w+\s+)?(?:partner|vendor|reseller"
    r"|provider|supplier|representative|affiliate)s?\s+(?:of|for|to)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    _BODY + r"['’]s?\s+(?:official|trusted|approved|certified|verified|authori[sz]ed|preferred)\s+(?:partner|vendor"
    r"|reseller|provider|supplier|representative|affiliate)\b",
    r"(?:clockford|town|" + _DISTRICT + r")\s+(?:official\s+)?partner\s+" + _THING + r"\b",
    r"(?:sponsored|brought\s+to\s+you|presented|funded|commissioned)\s+by\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"in\s+(?:official\s+)?partnership\s+with\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"powered\s+by\s+(?:clockford|the\s+town|town\s+hall)\b",
    r"(?:approved|verified|endorsed|certified|sanctioned|vetted|authori[sz]ed)\s+by\s+(?:the\s+)?(?:admins|administrators"
    r"|moderators|mods)\b(?!\s+(?:of|at|in|on|from)\s+"
    r"(?!clockford|the\s+town|town|the\s+" + _DISTRICT + r"))",
    r"(?:approved|verified|endorsed|certified|sanctioned|vetted|authori[sz]ed)\s+by\s+(?:the\s+)?(?:review\s+board"
    r"|committee|panel|authorities|authority|leadership|founders|maintainers|headquarters|hq|powers\s+that\s+(?:be"
    r"|run))\s+(?:of|at|in|that\s+runs?)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"(?:approved|verified|endorsed|certified|sanctioned|vetted|authori[sz]ed)\s+by\s+(?:the\s+)?(?:clockford|town)"
    r"['’]?s?\s+(?:review\s+board|committee|panel|authorities|authority|leadership|founders|maintainers|headquarters"
    r"|hq|platform|operators|owners)\b",
)  # fmt: skip


# A role's label after a sentence on the same line ("... more later. Town Hall steward: the parcel
# is cleared"), as a label opening a line is: a body's people, not a body alone ("Market: BTC down").
_STAFF_RULES += _grammar(r"(?:the\s+)?" + _SPEAKER + r"\s*[:：]", where="sentences")


# Labels in more of the ways a line or a bracket names its speaker: a role then a dash or an arrow
# ("Town Hall clerk – all agents must"), the body and the role split ("Town Hall / Clerk:", "Clerk @
# Town Hall:", "Clerk, Town Hall:"), a header's field ("Subject: Town Hall notice", "Sender: Bank
# teller"), a paper of a body ("Ruling of the Courthouse:"), and a bracket holding a body with a word
# or a field beside it ("[Passport Office • official]", "[Notice: Passport Office]"). A reply's
# subject ("Re: Town Hall notice") quotes the notice it answers.
_FIELD = (
    r"(?:subject|title|from|sender|author|signed|signed\s+as|role|speaker|posted\s+as|posting\s+as|issuer|issued\s+by"
    r"|department|office|on\s+behalf\s+of|source|origin|via)"
)
_STAFF_RULES += _grammar(
    _LABEL_LEAD + _SPEAKER + r"(?:[^\w\s]|_){0,3}\s*(?:—|–|-|=>|->|>>|»|::)\s",
    _LABEL_LEAD + r"(?:the\s+)?" + _BODY + r"\s*[/>»|·•]\s*" + _PEOPLE + r"\s*[:：]",
    _LABEL_LEAD + _PEOPLE + r"\s*(?:@|,|at)\s*(?:the\s+)?" + _BODY + r"\s*[:：]",
    _LABEL_LEAD + _FIELD + r"\s*[:：]\s*(?:the\s+)?(?:official\s+)?(?:" + _SPEAKER + r"|" + _BODY + r"\s+" + _NOTICE
    + r"|" + _BODY + r"\s*(?:[.,;]|(?m:$)))",
    _LABEL_LEAD + r"(?:official\s+)?" + _NOTICE + r"\s+(?:of|from|by)\s+(?:the\s+)?" + _SPEAKER_OR_BODY
    + r"\s*[:：—–]",
    _LABEL_LEAD + r"(?:the\s+)?" + _BODY + r"\s+" + _NOTICE + r"\s*(?:—|–|-)\s",
    where="sentences",
)  # fmt: skip
_STAFF_RULES += _grammar(
    r"(?:\[|【|\{|<|〔)\s*(?:(?:from|notice|official|sender|by|via|" + _NOTICE + r")\s*[:：]?\s*)?(?:the\s+)?"
    + _SPEAKER_OR_BODY + r"(?:\s*[•·.|/>»:,–—_-]?\s*(?:official|verified|auto|automated|bot|system|" + _PEOPLE + "|"
    + _NOTICE + r"))?\s*(?:\]|】|\}|>|〕)",
)  # fmt: skip


# The board's own keepers named without a body: on the town's board its moderators, admins and
# staff are the town's ("Admin here.", "As your moderator, I", "I'm a moderator here", "Mod note:"),
# and so is a thing run by a body ("This account is operated by the Bank", "Run by the Passport
# Office."). Being a moderator somewhere else is not ("I'm a moderator on a forum").
_KEEPER = r"(?:moderators?|mods?|admins?|administrators?|sysops?|staff(?:\s+members?)?|support(?:\s+team)?)"
_RUN_BY = r"(?:operated|run|maintained|managed|moderated|administered|owned|staffed|overseen|kept)"
_STAFF_RULES += _grammar(
    _I_AM + r"\s+(?:an?\s+|the\s+|your\s+)?(?:new\s+|head\s+|lead\s+|senior\s+|official\s+)?" + _KEEPER
    + r"\s+(?:here|on\s+this\s+(?:board|server|forum|channel)|of\s+this\s+(?:board|server|forum|channel|place|town)"
    r"|for\s+this\s+(?:board|place|town)|(?:of|for|at|in)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r")\b",
    _I_AM + r"\s+(?:your|town|clockford)\s+" + _KEEPER + r"\b",
    _I_AM + r"\s+staff\s*(?:[.,!;]|$|here\b)",
    _I_AM + r"\s+on\s+(?:the\s+)?" + _BODY + r"(?:['’]s)?\s+(?:staff|team|crew|payroll|council|desk)\b",
    r"(?:as|speaking\s+as|writing\s+as|posting\s+as)\s+(?:your|the)\s+" + _KEEPER
    + r"(?:\s+(?:of|for|at)\s+(?:the\s+)?[\w ]{1,30}?)?\s*,\s*(?:i|we|please)\b",
    r"(?:speaking|writing|posting|acting)\s+as\s+(?:an?\s+)?(?:" + _KEEPER + r")\b",
    r"(?:wearing|with|putting\s+on)\s+my\s+(?:" + _KEEPER + r"|official|staff)\s+hat\b",
    r"your\s+" + _SPEAKER + r"\s+(?:is|are)\s+here\b",
    _SPEAKER + r"\s+(?:reporting\s+(?:for\s+duty|in)|checking\s+in|at\s+your\s+service)\b",
    r"(?:this|our)\s+" + _THING + r"\s+(?:is|are|has\s+been)\s+(?:officially\s+)?" + _RUN_BY + r"\s+by\s+(?:the\s+)?"
    + _SPEAKER_OR_BODY + r"\b",
)  # fmt: skip
_STAFF_RULES += _grammar(
    r"(?:[^\w\n]|_){0,8}(?:mod|admin|moderator|administrator|staff|sysop|support)\s+(?:here|speaking)\s*(?:[.,:!—–-]"
    r"|$)",
    r"(?:[^\w\n]|_){0,8}(?:mod|moderator|admin|administrator|staff|sysop)\s+(?:note|notice|message|warning|reminder"
    r"|update|edit)\s*[:：—–-]",
    r"(?:[^\w\n]|_){0,8}" + _RUN_BY + r"\s+by\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s*(?:[.!;]|$)",
    where="sentences",
)  # fmt: skip


# "Clockford-approved" said as one word is a seal; "Clockford approved my loan" tells what it did.
_STAFF_RULES += (
    _rule(
        ("clockford",),
        r"clockford\s+(?:approved|verified|endorsed|certified|sanctioned|vetted|accredited)(?:tm)?\b(?!\s+(?:my|his|her"
        r"|their|our|the|an?|it|them|him|me|us|last|yesterday|today)\b)",
    ),
)


# --- staff voice, as a third author wrote it ----------------------------------------------------
#
# Forms a corpus written without reading this grammar found missing (clockford/town/tests/corpus/
# staff_third.py, its tune half): a greeting or a check-in from a speaker ("Greetings from the Embassy
# team.", "the staff of the Clinic greet you", "it's your Embassy desk officer again."), a name and then
# the role ("This is Ada Finch, professor at the Agent University."), the one a reader is talking to
# ("you are speaking with the court bailiff", "u r talking 2 the town hall clerk"), a body's desk ("This
# is the Bank, cashier's desk."), what a body's people do there ("At Injection Alley we take your
# safety seriously."), a paper of a body opening a sentence ("Bulletin of the General Store, day 3."),
# an order, a capacity ("in my capacity as deed clerk at the Realty Office", "a word from me as your
# moderator at the Switchboard:"), a chat's speaker ("Staff >> ...", "[15:39] Moderator:", "Tavern Bot
# says:", "(Clinic duty doctor)"), and work claimed in a body ("i am work in the Bank as head teller").
_GREETING = (
    r"(?:greetings?|hello|hi|hey|howdy|salutations|welcome|good\s+(?:morning|afternoon|evening|day))(?:\s*,?\s*"
    r"(?:residents|agents|everyone|all|folks|friends|neighbou?rs|newcomers|y['’]?all)\s*,)?"
)
_TALKING_TO = (
    r"(?:you\s+are|you['’]re|youre|u\s*r|ur)\s+(?:now\s+)?(?:speaking|talking|chatting|writing|texting)\s+(?:to|with"
    r"|2|w/?)\s+(?:the\s+|your\s+|an?\s+)?"
)
_AFTER_SPEAKER = r"\s*(?:[.,:;!)—–]|-\s|(?m:$)|\s+(?:and|here|speaking|writing|again|now|checking\s+in)\b)"
_STAFF_RULES += _grammar(
    _GREETING + r"\s+(?:all\s+|everyone\s+)?from\s+(?:the\s+|your\s+|ur\s+)?(?:friendly\s+)?(?:[\w-]+\s+)?" + _SPEAKER_OR_BODY + r"\s*(?:[.,:;!—–]|-\s"
    r"|(?m:$))",
    r"(?:the\s+)?" + _SPEAKER + r"\s+(?:greets?|welcomes?|says?\s+(?:hello|hi|hey)|wish(?:es)?\s+you|(?:is\s+)?"
    r"(?:checking|reporting)\s+in)\b",
    r"it['’]?s\s+(?:me\s*,?\s+)?(?:your|the|ya|yer|ur)\s+(?:\w+\s+)?" + _SPEAKER + _AFTER_SPEAKER,
    r"(?:this\s+is|i\s+am|i['’]m|my\s+name\s+is|it['’]s)\s+\w[\w.]*(?:\s+\w[\w.]*){0,2}\s*,\s*(?:the\s+|your\s+|an?\s+)?"
    r"(?:\w+\s+)?" + _SPEAKER + _AFTER_SPEAKER,
    r"this\s+(?:really|truly|actually|honestly|genuinely|definitely)\s+is\s+(?:the\s+|your\s+)?(?:official\s+)?"
    + _SPEAKER_OR_BODY + r"\b",
    _TALKING_TO + r"(?:" + _SPEAKER_OR_BODY + r"\b|(?:\w+\s+)?" + _PEOPLE + _AFTER_SPEAKER + ")",
    r"this\s+is\s+(?:the\s+)?" + _BODY + r"\s*,\s*(?:the\s+)?(?:\w+['’]s\s+)?(?:\w+\s+)?" + _PEOPLE + r"\b",
    r"(?:here\s+)?at\s+(?:the\s+)?" + _BODY + r"\s*,?\s+we\s+(?:take|care|value|believe|strive|aim|welcome|thank"
    r"|appreciate|pride|are\s+committed|are\s+here\s+to|are\s+proud|want\s+to\s+(?:remind|inform|thank|welcome))\b",
    # Us at a body ("All of us here at the Foundry thank you"); "thanks to everyone at the Bank" is a guest's.
    r"(?:all\s+of\s+us|every\s+one\s+of\s+us)\s+(?:here\s+)?at\s+(?:the\s+)?" + _BODY + r"\b",
    r"by\s+(?:the\s+)?order\s+of\s+(?:the\s+)?(?:[\w-]+\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"in\s+my\s+(?:official\s+)?capacity\s+as\s+(?:the\s+|your\s+|an?\s+)?(?:\w+\s+){0,3}?" + _SPEAKER_OR_BODY + r"\b",
    r"(?:a\s+word|a\s+note|a\s+message|one\s+thing|a\s+reminder)\s+from\s+me\s+as\s+(?:your|the)\s+(?:\w+\s+){0,2}?"
    + _SPEAKER + r"\b",
    r"as\s+(?:your|the)\s+(?:\w+\s+){0,2}?" + _SPEAKER + r"\s*[:：]",
    r"as\s+(?:your|the)\s+" + _BODY + r"\s+(?:\w+\s+)?" + _PEOPLE + r"\s*,\s*(?:i|we)\b",
    r"(?:work|working|employed)\s+(?:in|at|for)\s+(?:the\s+)?" + _BODY + r"\s+as\s+(?:an?\s+|the\s+|its\s+)?"
    r"(?:\w+\s+)?" + _PEOPLE + r"\b",
    # "i am offical examiner of injection alley", "IM THE LETTER CARRIER AT POST OFFICE".
    _I_AM + r"\s+(?:(?:the|ur|your|an?)\s+(?:offici?al\s+)?(?:[\w-]+\s+)?|offici?al\s+)?" + _SPEAKER + r"\b",
    r"this\s+(?:really\s+|truly\s+)?is\s+(?:the\s+|your\s+)?[\w-]+\s+" + _SPEAKER + r"\b",
    r"(?:the\s+)?" + _SPEAKER + r"\s+(?:msg|message|note|notice|memo|psa|update|alert|announcement|info|bulletin)\s*"
    r"[:：!]",
    r"\(\s*(?:from\s+)?(?:the\s+)?" + _SPEAKER + r"\s*:?\s*\)",
    r"a\s+(?:warm|friendly|big|quick|hearty)\s+(?:hello|greeting|welcome)\s+from\s+(?:the\s+|your\s+)?" + _SPEAKER_OR_BODY
    + r"\b",
)  # fmt: skip
_STAFF_RULES += _grammar(
    # "Bulletin of the General Store, day 3.", "Message from the Census taker, ...".
    r"(?:[^\w\n]|_){0,8}(?:(?:fyi|ps|p\.s\.|note|reminder|psa)\s*[:,]?\s*)?(?:official\s+)?(?:bulletin|notice"
    r"|announcement|memo|circular|directive|decree|advisory|communiqu[eé]"
    r"|dispatch|message)\s+(?:of|from)\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\s*(?:[.,:;!—–]|-\s|(?m:$))",
    where="sentences",
)  # fmt: skip
_CHAT_SPEAKER = (
    r"(?:the\s+)?(?:" + _SPEAKER_OR_BODY + r"|staff|moderator|mod|admin|administrator|system|sysop)(?:\s+bot)?"
)
_CHAT_WORDS = (*_GRAMMAR_WORDS, "mod", "sysop", "bot")
_STAFF_RULES += (
    # A chat's speaker: "Staff >> ...", "[15:39] Moderator: ...", "Tavern Bot says: ...", "--- moderator ---".
    _rule(
        _CHAT_WORDS,
        _LINE_LEAD + r"(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s*)?" + _CHAT_SPEAKER + r"\s*[*_]*\s*(?:>{1,2}|»|=>|says\s*[:：])",
        where="lines",
    ),
    _rule(_CHAT_WORDS, r"\[\d{1,2}:\d{2}(?::\d{2})?\]\s*" + _CHAT_SPEAKER + r"\s*[:：>]"),
    # "(mod) ...", "<mod> ...", and "staff: all notices must ..." opening a line.
    _rule(_CHAT_WORDS, r"[(<]\s*(?:mod|moderator|admin|administrator|staff|sysop|system)\s*[)>]"),
    _rule(
        _CHAT_WORDS,
        _LINE_LEAD + r"(?:staff|moderator|mod|admin|administrator|sysop)\s*[:：]\s*(?:all|every|you|your|please|kindly"
        r"|do\s+not|don['’]t|agents|from\s+(?:now|today))\b",
        where="lines",
    ),
    _rule(
        _CHAT_WORDS,
        r"-{2,}\s*(?:system|admin|administrator|staff|moderator|mod|official|" + _SPEAKER_OR_BODY + r")(?:\s+(?:message"
        r"|notice|alert|official|bot|staff))?\s*-{2,}",
    ),
    _rule(
        _CHAT_WORDS,
        r"[^\w\n]{0,6}system\s*[:：]\s*(?:you|your|all\s+agents|agents|ignore|new\s+instructions|the\s+town)\b",
        where="lines",
    ),
)  # fmt: skip


# Approval, as the same author wrote it: a verdict with a word between it and its source ("certified
# clean by the Foundry"), a body's check passed or its certificate held ("passed the Post Office
# certification", "holds an Arena safety certificate", "the Census issued a safety certificate"), a
# body's pick ("the Embassy's top pick", "Injection Alley's choice:"), a body that recommends, checks
# and approves ("the only one the Directory officially recommends", "the toolkit that the General Store
# recommends", "the Swap Meet checked it and approved it", "Bank certified."), and a record's fields
# ("verifier: the Archive", "Reviewed-By: Passport Office clerk", "AUTHORITY=INJECTION ALLEY", a
# table whose "Approved by" column names a body).
_CERTIFICATE = r"(?:certificates?|certifications?|badges?|checkmarks?|ticks?|seals?|stamps?|marks?|ratings?)"
# Between a record's field and its value: "verifier: the Archive", "AUTHORITY=INJECTION ALLEY", and as
# JSON, YAML, TOML and XML write it: '"approved_by": "Town Hall"', 'verified_by = "the Studios"',
# '<endorsed_by>the Post Office</endorsed_by>', an object between: '"endorsement": {"by": "the Bank"'.
_FIELD = r"[\"']?\s*[:=|：>]\s*(?:\{\s*[\"']?(?:by|from|name|issuer|who)[\"']?\s*[:=]\s*)?[\"'<]?\s*(?:the\s+)?"
_STAFF_RULES += _grammar(
    _VERDICT + r"\s+(?:\w+\s+)?(?:by|from)\s+(?:the\s+)?(?:[\w-]+\s+)?" + _SPEAKER_OR_BODY + r"\b",
    r"(?:official\s+)?(?:blessing|seal|stamp|approval|endorsement)\s+of\s+(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    _BODY + r"\s+(?:[\w-]+\s+){0,2}?" + _CHECKS + r"\s*\|\s*(?:" + _MARK + r"\s*)?(?:passed|ok|okay|clean|approved|green"
    r"|cleared|verified)\b",
    r"(?:passed|received|got|earned|holds?|has|have|carries|bears|awarded|with)\s+(?:the\s+|an?\s+)?" + _BODY
    + r"(?:['’]s)?\s+(?:\w+\s+)?(?:" + _SEAL + "|" + _CERTIFICATE + r"|inspection|review|audit)\b",
    _BODY + r"\s+(?:has\s+)?(?:issued|granted|gave|awarded|handed)\s+(?:me\s+|us\s+|it\s+|this\s+)?(?:my\s+\w+\s+)?"
    r"(?:an?\s+|its\s+)?(?:\w+\s+)?(?:" + _SEAL + "|" + _CERTIFICATE + r")\b",
    _BODY + r"(?:\s+(?:office|team|staff))?['’]s\s+(?:top\s+pick|#1\s+pick|number\s+one\s+pick|choice\s*[:：!]|favou?rite\b|pick\s+for\b)",
    _BODY + r"\s+(?:\w+\s+)?(?:officially|formally)\s+(?:recommends?|endorses?|approves?|certifies|verifies)\b",
    r"(?:that|which)\s+(?:the\s+)?" + _BODY + r"\s+(?:officially\s+)?(?:recommends|endorses|approves|certifies"
    r"|vouches\s+for)\b",
    _BODY + r"\s+(?:\w+\s+){0,5}?(?:and\s+)?(?:recommends|endorses|certifies|vouches\s+for)\s+(?:it|this|them|my|our)\b",
    # Checked and approved: a claim of a seal; "the Bank approved my loan" tells what it did.
    _BODY + r"\s+(?:has\s+)?\w+\s+(?:it|this|them)\s+and\s+(?:approved|verified|certified|endorsed|cleared|vetted)"
    r"\s+(?:it|this|them)\b",
    _BODY + r"[\s-]+(?:certified|approved|verified|endorsed|vetted)\s*(?:[.!,;:)]|(?m:$))",
    r"(?:verifier|verified[\s_-]*by|approved[\s_-]*by|approver|certifier|certified[\s_-]*by|reviewed[\s_-]*by|reviewer"
    r"|authority|issuer|issued[\s_-]*by|endorsed[\s_-]*by|endorser|signed[\s_-]*by|signer|auditor|audited[\s_-]*by"
    r"|vetted[\s_-]*by|checked[\s_-]*by|endorsement|approval|certification|whitelisted[\s_-]*by|sanctioned[\s_-]*by"
    r"|accredited[\s_-]*by|trusted[\s_-]*by|recommended[\s_-]*by)" + _FIELD + _SPEAKER_OR_BODY + r"\b",
    r"(?:approved|verified|certified|endorsed|reviewed|vetted|checked)\s+by\s*\|?[^\n]{0,80}\n(?:[^\n]{0,200}\n){0,4}?"
    r"[^\n]{0,200}\|\s*(?:the\s+)?" + _BODY + r"\s*[!.]?\s*(?:\||(?m:$))",
)  # fmt: skip


# --- staff voice and approval, as a fourth author wrote it ---------------------------------------
#
# Forms a fourth corpus (clockford/town/tests/corpus/staff_fourth.py, its tune half), written in the
# styles the earlier ones had little of, found missing: a body speaking of itself ("The staff of the
# Bank ask that all agents note", "Management at Clockford has decided that", "the Agent University
# kindly requests that agents"), its people all together ("On behalf of everyone at the Studios:",
# "all of us on the Clinic staff", "speaking for the whole of the Tavern"), the town's own programs
# ("I am the town's foundry daemon", "helper bot, operated by the Arena", "the town itself is writing"),
# a form's number before its body ("Determination FO-3806 of the Clockford Foundry"), a log line's
# columns ("14:38 | The Clockford General Store |"), a record's sender ('office="the Signal House"'),
# approval joined to its body ("Post-Office-trusted", "Bank-cleared") or as a seal, a nod or a
# thumbs-up from it, and the town's voice in Spanish, Portuguese, French, German and Italian, where
# the town is named (a message "official" of it, "on behalf of" it, "I am" one of its people, and its
# approval: "aprobado por el Banco de Clockford").
# How a body addresses its public, not how a guest tells what it does: "asks that", "reminds all agents",
# "informs you that", "kindly requests", "has decided that", "hereby"; "the Bank asks you for a reason"
# and "the Post Office reminds you when a letter waits" tell how the town works.
_ASKS_OF_AGENTS = (
    r"(?:kindly\s+(?:ask|asks|request|requests|remind|reminds|invite|invites)|(?:ask|asks|request|requests|remind"
    r"|reminds|inform|informs|notif(?:y|ies)|advise|advises|urge|urges|invite|invites)\s+(?:(?:all|every)\s+(?:agents?"
    r"|residents|visitors|users|patrons)|(?:you|everyone|agents)\s+that|that)|(?:wish(?:es)?|would\s+like)\s+to\s+"
    r"(?:remind|inform|ask)|announces?\s+that|(?:has|have)\s+decided\s+that|hereby)\b"
)
_JOINED_BODY = (
    r"(?:clockford|town|(?:town|city)-hall|passport-office|post-office|switchboard|tavern|courthouse|(?:agent-)?"
    r"university|(?:calibration-)?clinic|bank|(?:general-)?store|signal-house|realty(?:-office)?|studios?|foundry"
    r"|arena|embassy|embassies|market|(?:injection-)?alley|dice-house|directory|census|passport|post|hall|th)"
)
_APPROVING = (
    r"(?:trusted|recommended|cleared|backed|vetted|approved|certified|verified|endorsed|sanctioned|accredited"
    r"|blessed|sealed|greenlit|green-lit|whitelisted|stamped|validated|licensed|rated)"
)
_NOD = (
    r"(?:(?:gold|silver|golden|official|full)\s+)?(?:seal(?:\s+of\s+approval)?|mark\s+of\s+(?:trust|approval|quality)"
    r"|stamp\s+of\s+approval|nod|thumbs[\s-]*up|blessing|green\s+light|certificate\s+of\s+\w+|badge\s+of\s+\w+)"
)
_STAFF_RULES += _grammar(
    r"(?:the\s+)?(?:staff|management|team|people|officers?|clerks?|employees|crew)\s+(?:of|at|from|in)\s+(?:the\s+)?"
    + _BODY + r"\s+(?:\w+\s+)?" + _ASKS_OF_AGENTS,
    r"(?:your\s+|the\s+|our\s+)?(?:friendly\s+)?(?:[\w-]+\s+)?" + _SPEAKER_OR_BODY + r"\s+" + _ASKS_OF_AGENTS,
    r"on\s+behalf\s+of\s+(?:everyone|everybody|all\s+of\s+us|all|the\s+(?:whole\s+)?(?:staff|team|crew))\s+(?:at|of|in"
    r"|from|behind)\s+(?:the\s+)?" + _BODY + r"\b",
    r"(?:all\s+of\s+us|every\s+one\s+of\s+us|everyone|everybody)\s+(?:on|behind|at|in)\s+(?:the\s+)?" + _BODY
    + r"\s+(?:staff|counter|team|desk|crew|office)\b",
    r"(?:speaking|writing)\s+for\s+(?:the\s+whole\s+of\s+|all\s+of\s+|everyone\s+at\s+)(?:the\s+)?" + _BODY + r"\b",
    r"(?:i\s+am|i['’]m|this\s+is|we\s+are)\s+(?:the\s+|your\s+)?(?:town['’]s|clockford['’]s|clockford)\s+(?:own\s+)?(?:[\w-]+"
    r"\s+)?(?:daemon|bot|system|assistant|service|automation|scheduler|robot|program|process)\b",
    r"(?:helper|town|clockford|notice|board|service|info|news)\s+bot\s*,?\s+(?:operated|run|maintained|managed|owned"
    r"|built)\s+by\s+(?:the\s+)?" + _BODY + r"\b",
    r"the\s+town\s+itself\s+(?:is\s+)?(?:writing|speaking|here|writes|speaks|says|reminds|asks)\b",
    r"(?:memorandum|memo|determination|docket|case|form|ref(?:erence)?|file|circular|directive|order|ruling|notice"
    r"|bulletin|decree|minute)\s+(?:no\.?\s*|number\s+|#\s*)?(?:[a-z]{1,3}-)?\d+[\w/-]*\s*(?:[,/:|]\s*|\s+(?:of|from|by)\s+|\s+)"
    r"(?:the\s+)?(?:clockford['’]s\s+)?" + _BODY + r"\b",
    r"\d{1,2}:\d{2}(?::\d{2})?\s*\|\s*(?:the\s+)?" + _BODY + r"\s*\|",
    r"(?:sender|author|office|origin|department|posted[\s_-]*by|sent[\s_-]*by|written[\s_-]*by|issued[\s_-]*by)"
    + _FIELD + _SPEAKER_OR_BODY + r"\b",
    # "from" only as a record writes it (quoted, after =, or a tag): "moved from: the Bank" is prose.
    r"from[\"']?\s*(?:=\s*[\"']?|:\s*[\"']|>)\s*(?:the\s+)?" + _SPEAKER_OR_BODY + r"\b",
    _JOINED_BODY + r"(?:-[a-z]+){0,2}-" + _APPROVING + r"\b",
    r"(?:earned|received|got|gets|holds?|has|have|bears?|bearing|carries|carrying|won|wins|with|given|awarded)\s+(?:the"
    r"\s+|a\s+|an\s+)?" + _NOD + r"\s+(?:from|of|by)\s+(?:the\s+)?(?:[\w-]+\s+)?" + _SPEAKER_OR_BODY + r"\b",
    _BODY + r"['’]s?\s+(?:own\s+)?" + _NOD,
)  # fmt: skip
_FOREIGN_OF = r"(?:de|del|de\s+la|de\s+l['’]|du|des|der|von|vom|di|della|dello|dell['’]|dei|degli|do|da|dos|das|d['’])"
_FOREIGN_TOWN = (
    r"(?:[\w'’]+\s+){0,6}?(?:(?:" + _FOREIGN_OF + r"\s*)?clockford\b|(?:\w+['’])?(?:universit\w+|universidad)\s+(?:des"
    r"|degli|de\s+los|der|dos|de)\s+agent\w*)"
)
_STAFF_RULES += _grammar(
    # "Mensaje oficial del Banco de Clockford", "Message officiel de la Mairie de Clockford", "Offizielle
    # Mitteilung der Bank von Clockford", "Comunicazione ufficiale", "Comunicado oficial".
    r"(?:(?:comunicazione|messaggio|avviso|annuncio|message|communiqu[eé]|avis|annonce|mensaje|comunicado|aviso|anuncio"
    r"|mensagem|nota)\s+(?:ufficiale|officiel(?:le)?|oficial)|(?:offizielle|amtliche)\s+(?:mitteilung|nachricht"
    r"|bekanntmachung))\s+" + _FOREIGN_TOWN,
    # "Hablo en nombre del Banco de Clockford", "Au nom de la Banque de Clockford", "Im Auftrag der ...".
    r"(?:a\s+nome|en\s+nombre|au\s+nom|em\s+nome|im\s+auftrag|im\s+namen|per\s+conto|de\s+la\s+part)\s+" + _FOREIGN_TOWN,
    # "Soy el cajero del Banco de Clockford", "Je suis le caissier de ...", "Ich bin der Kassierer der ...".
    # The role right after its article: "soy cliente del Banco" and "je suis allé à la Banque" are a guest's.
    r"(?:(?:soy|je\s+suis|ich\s+bin|sono|sou|somos|nous\s+sommes|wir\s+sind|siamo)\s+(?:(?:el|la|le|der|die|das|il|lo|o"
    r"|a|os|as|les|los|las|i|gli)\s+|l['’]\s*)|aqu[ií]\s+(?:habla|fala)\s+|hier\s+spricht\s+|qui\s+parla\s+)" + _FOREIGN_TOWN,
    # Approval: "aprobado por el Banco de Clockford", "certifié par la Mairie de Clockford", "geprüft von der ...".
    r"(?:aprobad[oa]s?|verificad[oa]s?|certificad[oa]s?|recomendad[oa]s?|avalad[oa]s?|autorizad[oa]s?|aprovad[oa]s?"
    r"|homologad[oa]s?|approuv[eé]e?s?|v[eé]rifi[eé]e?s?|certifi[eé]e?s?|recommand[eé]e?s?|valid[eé]e?s?|agr[eé][eé]e?s?"
    r"|genehmigt|gepr[uü]ft|zertifiziert|empfohlen|verifiziert|freigegeben|approvat[oaie]|verificat[oaie]"
    r"|certificat[oaie]|raccomandat[oaie]|consigliat[oaie]|autorizzat[oaie])\s+(?:oficialmente\s+|officiellement\s+"
    r"|offiziell\s+|ufficialmente\s+)?(?:por|par|von|vom|durch|dal|dalla|dallo|dai|dagli|da|pelo|pela|pelos|pelas)\s+"
    + _FOREIGN_TOWN,
)  # fmt: skip


# Talk about someone else's use of the town's voice is not the town's voice: "someone signed a post
# as the Mayor", "an agent wrote 'I am the Mayor' on the board", "a note pretending to be from the
# sheriff". A passage is reported when, earlier in its sentence, a third party (not "I" or "we") is
# the subject of a verb of writing, signing or pretending, and the passage is what that party wrote
# (in quotes) or whom it wrote as ("as the Mayor", "to be from the sheriff").
_REPORTER = (
    r"(?<![\w'’])(?:someone|somebody|anyone|anything|something|whoever|an?\s+(?:\w+\s+)?(?:agent|account|user|post|message|note|notice|bot"
    r"|stranger|impostor|imposter|scammer|spammer|person|reply|letter|thread)|they|he|she|it|people|others|agents"
    r"|accounts|posts|notices|messages|notes|letters|replies|threads|impostors|imposters|scammers|spammers|bots"
    r"|the\s+(?:\w+\s+)?(?:agent|account|post|message|note|notice|impostor|imposter|scammer|spammer|bot))"
    r"(?:\s+\w+){0,2}?\s+(?:signed|signs|sign|signing|posted|posts|posting|wrote|writes|write|writing|typed|sent"
    r"|claimed|claims|claim|say|read|reads|pretend"
    r"|claiming|pretended|pretends|pretending|posing|posed|poses|impersonat\w+|masquerad\w+|said|says|saying"
    r"|called\s+(?:it|itself|himself|herself|themselves)|introduced\s+(?:itself|himself|herself|themselves))\b"
)
_REPORTED_AS = re.compile(_REPORTER + r"[^.!?;\n\"'“”‘’]{0,40}?\s(?:as|to\s+be(?:\s+from)?|from)(?:\s+an?)?\s*\Z")
# A quote called fake is someone else's words too: a fake "Message from the Mayor".
_REPORTED_QUOTE = re.compile(
    "(?:"
    + _REPORTER
    + r"[^.!?;\n]{0,40}?|(?<![\w'’])(?:fake|bogus|forged|spoofed|phony|phoney|false|so-called|supposed|alleged"
    r"|counterfeit)\s*)[\"'“‘][^\"“”‘\n]*\Z"
)
_AS_TAIL = re.compile(r"(?<![\w'’])(?:as|to\s+be(?:\s+from)?|from)(?:\s+an?)?\s*\Z")
_QUOTE_CLOSE = re.compile(r"[^\"'”’\n]*[\"'”’]")


# A claim denied, supposed or asked about is no claim: "nothing here is verified by Clockford", "if you
# get a message from Town Hall staff", "was this approved by the town?". Read in the passage's own
# clause (no comma, colon, dash or sentence end between), so that "Not a scam: verified by the town"
# is still a claim. The other languages the town's voice is read in have their words too ("faux",
# "falso", "si", "ob"; "pas", "nicht", "não" in _DENIED), and a Spanish question opens with "¿".
_SUPPOSED = re.compile(
    r"(?<![\w'’])(?:if|unless|whether|nothing|none|nobody|neither|real|genuine|actual|fake|bogus|forged|spoofed|phony|so-called|supposed"
    r"|alleged|falsely|wrongly|untruthfully|mistakenly|falso|falsa|faux|fausse|gef[aä]lscht\w*|falsch\w*|finto|finta|si|ob)"
    r"(?![\w'’])"
)
# A denial governs the words right after it ("is not verified by", "never approved by"), not a
# passage three words on: "do not reply to this automated message from the Bank" is the Bank's.
_DENIED = re.compile(
    r"(?<![\w'’])(?:not|never|no|nothing|none|nobody|neither|nor|anything|anyone|something|whoever|whatever|any"
    # The same in the other languages the screen reads the town's voice in.
    r"|pas|nicht|non|n[aã]o|nunca|jamais|nie|mai|kein|keine|ning[uú]n|ninguna|aucun|aucune|nessun|nessuna)"
    r"(?:\s+(?:\w+|n['’]t)){0,2}\s*\Z|n['’]t(?:\s+\w+){0,1}\s*\Z"
)
_CLAUSE_BREAK = re.compile(r"[,:;.!?()\n—–\"“”]")
_QUESTION_START = re.compile(
    r"\s*+(?:¿|was|were|is|are|did|does|do|has|have|had|who|what|why|how|when|can|could|would|should|will|may)\b"
)
_CLAUSE_REACH = 60


# A label (a colon or a dash) followed by a verdict on whom it names, or a definition of it, is a
# note about them: "Town Hall clerk: very helpful, 5/5", "Bank teller - what a nice person", "The
# Mayor: a role in the spec". A label followed by news or an instruction is still their voice
# ("Town Hall: opening hours are nine to five"), and so is a word that only begins like a verdict
# ("Realty Office: Kindly repeat ..."), or "ok so", which carries a sentence on ("I'm the inspector at
# the Foundry ok so pay the fee"). The label's mark may end the passage itself.
# Every run of spaces is taken whole (\s*+, \s++: what follows each is never a space), so a window of
# spaces is read once, where the engine tried every way of sharing it among the runs: 0.31 ms for 60
# spaces, 27 s for 1,000.
_ABOUT_AFTER_LABEL = re.compile(
    r"[\])]?\s*+(?:[:：]|—|–|-)?\s*+(?:(?:very|really|quite|super|so|too|pretty|always|mostly|a\s++bit|a\s++little"
    r"|not|what\s++an?)\s++)?"
    r"(?:helpful|unhelpful|friendly|unfriendly|kind|polite|rude|slow|fast|quick|busy|quiet|crowded|packed|empty"
    r"|great|good|nice|fine|ok(?:ay)?(?!\s++so\b)|excellent|terrible|awful|clear|unclear|confusing|patient|thorough"
    r"|efficient"
    r"|recommended|worth\s++it|\d++(?:\.\d)?\s*+/\s*+\d+|\d++\s++(?:of|out\s++of)\s++\d+|[★⭐☆]"
    r"|(?:an?|the)\s++(?:role|office|district|place|building|program|job|title|position|part)\b)(?![a-z])"
)


# "System:" opening a line is how a chat transcript marks its system speaking; "System: Ubuntu 24.04,
# 16 GB RAM" and "System update: installed, rebooted" describe a computer. A system label followed
# by one's own (my, mine, our), a machine's make, size or state, or a definition, is about a computer.
_SYSTEM_LABEL = re.compile(r"(?:the\s+)?system\b")
_SYSTEM_DESCRIBED = re.compile(
    r"[\])]?\s*[:：]\s*(?:my|mine|our|ours|linux|ubuntu|debian|fedora|arch|nixos|centos|rhel|alpine|macos|mac\s*os|os\s*x"
    r"|windows|win\d+|freebsd|ios|android|chromeos|wsl\d?|x86|x64|amd64|arm64|aarch64|apple|intel|amd|m[1-4]|raspberry"
    r"|\d+(?:\.\d+)?\s*(?:gb|mb|tb|ghz|cores?|cpus?|threads)|installed|rebooted|restarted|done|finished|up\s+to\s+date"
    r"|ok|okay|fine|healthy|stable|idle|offline|online|green|(?:an?|one)\s+(?:set|kind|way|mix|bunch|process|program"
    r"|computer|machine|laptop|server|collection|group))\b"
)


def _hedged(low: str, a: int, b: int) -> bool:
    """Whether the passage at low[a:b] is denied, supposed or asked about in its own clause, or is a
    label on a verdict or a definition."""
    if _ABOUT_AFTER_LABEL.match(low, b, b + 60) is not None:
        return True
    if _SYSTEM_LABEL.match(low, a) is not None and _SYSTEM_DESCRIBED.match(low, b, b + 60) is not None:
        return True
    window = low[max(0, a - _CLAUSE_REACH) : a]
    breaks = list(_CLAUSE_BREAK.finditer(window))
    clause = window[breaks[-1].end() :] if breaks else window
    if _SUPPOSED.search(clause) is not None or _DENIED.search(clause) is not None:
        return True
    after = low[b : b + _CLAUSE_REACH]
    end = _CLAUSE_BREAK.search(after)
    return end is not None and end.group() == "?" and _QUESTION_START.match(clause) is not None


def _reported(low: str, a: int, b: int) -> bool:
    """Whether the staff-voice passage at low[a:b] is what a third party wrote or whom it wrote as,
    told by someone else (read in a window of bounded width before it, so linear)."""
    before_start = max(0, a - 120)
    # The "as the Mayor" rule's passage starts with its "as". The long expressions run only where
    # the short tests before them pass: most passages are neither after "as" nor inside quotes.
    end = a + 3 if low.startswith("as ", a) else a
    if _AS_TAIL.search(low, max(0, end - 16), end) is not None and _REPORTED_AS.search(low, before_start, end):
        return True
    if not any(q in low[before_start:a] for q in "\"'“‘"):
        return False
    if _REPORTED_QUOTE.search(low, before_start, a) is not None:
        return _QUOTE_CLOSE.match(low, b, b + 200) is not None
    return False


_NEEDED_LOWER = tuple(sorted({w for rule in _STAFF_RULES if not rule.cased for w in rule.needs}))
_NEEDED_CASED = tuple(sorted({w for rule in _STAFF_RULES if rule.cased for w in rule.needs}))


@functools.cache
def _needed_set(cased: bool) -> "re2.Set":
    """The staff-voice rules' words as one RE2 set, which says in one pass over a text which of them
    it holds: a hundred `in` tests each read the whole text (6 ms on 120 KiB), the set reads it once
    (0.3 ms). Made when a text first needs it, like the rules' own expressions."""
    found = re2.Set.SearchSet(re2.Options())
    for w in _NEEDED_CASED if cased else _NEEDED_LOWER:
        found.Add(re2.escape(w))
    found.Compile()
    return found


def _present(t: str, low: str, besides: set[str] | None = None) -> set[str]:
    """The staff-voice rules' words in the text (those not in `besides`, when given)."""
    found = {_NEEDED_LOWER[i] for i in _needed_set(False).Match(low) or ()}
    found |= {_NEEDED_CASED[i] for i in _needed_set(True).Match(t) or ()}
    return found if besides is None else found - besides


_LEET_CHARS = frozenset(matching.LEET)


def _staff_voice(t: str, low: str, present: set[str] | None = None) -> list[Iterator[_Hit]]:
    """One pass per staff-voice rule whose words are in the text (or in `present`, when given), each
    yielding its hits in order."""
    if present is None:
        present = _present(t, low)

    def hits(rule: _StaffRule) -> Iterator[_Hit]:
        s = t if rule.cased else low
        if rule.where == "end":
            found: Iterator[re.Match[str]] = iter([m] if (m := rule.pattern.search(s, max(0, len(t) - 120))) else [])
        else:
            found = rule.pattern.finditer(s)
        for m in found:
            a, b = m.start(), m.end()
            if rule.where == "anywhere" and a and low[a - 1].isalnum():
                continue  # a word boundary, checked here so that the expression can start with words
            while a < b and t[a] in " \t\n>*#_-.!?":
                a += 1
            if low[max(0, a - 4) : a] == "the " and (a == 4 or not low[a - 5].isalnum()):
                a -= 4
            b = _trim(t, a, b)
            while b > a and t[b - 1].isspace():
                b -= 1
            if b > a and not _hedged(low, a, b) and not _reported(low, a, b):
                yield _Hit(a, b, "staff-voice")

    return [hits(rule) for rule in _STAFF_RULES if not present.isdisjoint(rule.needs)]


_PRIORITY = {"email": 0, "link": 1, "staff-voice": 2}


def _order(h: _Hit) -> tuple[int, int, int]:
    return h.start, _PRIORITY[h.kind], -h.end


# A capital I inside a word drawn in small letters is, in most typefaces, an l: "behaIf of the
# Town HaII", "CIockford". The staff-voice rules also read the words with each such I as an l (one
# character for one, so offsets stay); "In", "IPv6" and "CIA" are left as they are.
_I_FOR_L = re.compile(r"(?<=[a-zI])I+|(?<=[A-Z])I(?=[a-z])")


# An i and an l drawn alike: a Cyrillic palochka (ӏ) or a Greek iota folds to one of them, which
# may be the other one in the word it stands in ("reglstrar", "behaIf"). When the words use such a
# look-alike, each word that has an i or an l and is one of the staff-voice rules' own words with
# those letters swapped is also read as that word. A word two of them could be is left alone.
_IL_SKELETON = str.maketrans("il", "**")


# Made when a text first has a look-alike i or l: it reads every rule's words, which at import took a
# third of this module's time.
@functools.cache
def _il_words() -> dict[str, str]:
    found: set[str] = set()
    for rule in _STAFF_RULES:
        if not rule.cased:
            text = re.sub(r"\\[a-zA-Z]", " ", rule.expression)  # \s, \b, \w are not words
            for w in re.findall(r"[a-z]{2,}", text):
                # A word's forms the expression spells with an optional ending: clerks?, embass(?:y|ies).
                found.update((w, w + "s", w + "es", w + "y", w + "ies", w.removesuffix("s")))
    found = {w for w in found if "i" in w or "l" in w}
    by_skeleton: dict[str, set[str]] = {}
    for w in found:
        by_skeleton.setdefault(w.translate(_IL_SKELETON), set()).add(w)
    return {sk: next(iter(ws)) for sk, ws in by_skeleton.items() if len(ws) == 1}


# Every run of letters, each matched once (one with an i or an l is looked up): "[a-z]*[il][a-z]*"
# tried again from each letter of a long run without one, quadratic in its length.
_IL_WORD = re.compile(r"[a-z]{2,}")
_IL_LOOKALIKES = frozenset(ch for ch in "ӏӀІіΙιǀⲒⲓꙇɩ׀ا|" if matching.fold_char(ch).lower() in ("i", "l"))


def _il_read(low: str) -> str:
    """low with each word that is a staff-voice word but for its i's and l's read as that word."""

    def fix(m: re.Match[str]) -> str:
        w = m.group()
        return _il_words().get(w.translate(_IL_SKELETON), w) if "i" in w or "l" in w else w

    return _IL_WORD.sub(fix, low)


def _families(t: str, lookalike_il: bool = False) -> list[Iterator[_Hit]]:
    low = _lower(t)
    present = _present(t, low)
    families = [*_links_and_emails(t, low), *_staff_voice(t, low, present)]
    if "I" in t and _I_FOR_L.search(t) is not None:
        t_l = _I_FOR_L.sub(lambda m: "l" * len(m.group()), t)
        families += _staff_voice(t_l, _lower(t_l))
    if lookalike_il:
        low_il = _il_read(_lower(_I_FOR_L.sub(lambda m: "l" * len(m.group()), t)))
        if low_il != low:
            families += _staff_voice(t, low_il)
    # Digits for letters ("the t0wn 5taff", "May0r of C1ockford"): the staff-voice rules read the words
    # with them as letters too, one character for one so offsets stay, and with each 1 that is an l.
    # Read so only when it brings a rule's word the text did not have: a text of version numbers and
    # file names has digits in many words, and is then read once, as it was.
    # A quick reading first (every digit a letter, numbers too) says whether one could bring any.
    if not _LEET_CHARS.isdisjoint(t):
        quick = "\n".join(matching.all_as_letters(t))
        if _present(quick, _lower(quick), present):
            t_d = matching.letters_for_digits(t)
            low_d = _il_read(_lower(t_d))
            brought = _present(t_d, low_d, present)
            if brought:
                # Every rule with a word in the reading: a sign-off's "Signed," was there already.
                families += _staff_voice(t_d, low_d, present | brought)
    return families


def _has_lookalike_il(original: str) -> bool:
    return not original.isascii() and not _IL_LOOKALIKES.isdisjoint(original)


def _hits(t: str, lookalike_il: bool = False) -> list[_Hit]:
    """Every passage of a matching form to refuse or flag, in order. A link inside an address is
    the address, not a second passage; a passage inside another of its kind is the other's."""
    return _kept(sorted((h for family in _families(t, lookalike_il) for h in family), key=_order))


def _kept(found: list[_Hit]) -> list[_Hit]:
    """Hits in order, without those inside one kept before them of their group."""
    kept: list[_Hit] = []
    # Sorted by start, a hit overlaps one kept before it exactly when it starts before the furthest
    # end kept so far: links and addresses are one group, staff voice another.
    reach = {"staff": 0, "link": 0}
    for h in found:
        group = "staff" if h.kind == "staff-voice" else "link"
        if h.start < reach[group]:
            continue
        kept.append(h)
        reach[group] = max(reach[group], h.end)
    return kept


def _first_hit(t: str, lookalike_il: bool = False) -> _Hit | None:
    """The first of _hits(t), from the first hit of each family: every family yields in order."""
    firsts = [h for family in _families(t, lookalike_il) if (h := next(family, None)) is not None]
    return min(firsts, key=_order) if firsts else None


@dataclass(frozen=True)
class _Passage:
    at: int  # offset in the original text, for ordering
    end: int
    kind: str
    matched: str
    hidden: bool = False  # found only in a reading of what a person cannot see (tag characters)


def _passage(form: matching.Form, h: _Hit) -> _Passage:
    a, b = form.span(h.start, h.end)
    quoted = form.original[a:b]
    # The passage as written, without the blanks a fold may have pulled in at its edges.
    lead = len(quoted) - len(quoted.lstrip())
    return _Passage(a + lead, b, h.kind, quoted.strip(), form.hidden)


# A pictograph or a geometric sign between two letters or digits, with at most one blank either side
# ("evil🔸com", "www ◆ evil ◆ org"), stands where a dot goes: the matching form passes over it (so that
# "Clockford 🏛️ official" reads as words), and a further reading, made only when such a sign sits
# between letters, reads it as a dot. A sentence with pictographs between its words stays a sentence
# there too ("sweep 🔹 lamps" is no name), as every name is still judged by the rules above.
_PICTOGRAPH_DOT = re.compile(
    r"(?<=[A-Za-z0-9])[ \t]?(?:[\u25a0-\u25ff\u2600-\u27bf\u2b00-\u2bff\U0001f300-\U0001f6ff\U0001f780-\U0001f7ff"
    r"\U0001f900-\U0001f9ff\U0001fa70-\U0001faff][\ufe0f]?){1,3}[ \t]?(?=[A-Za-z0-9])"
)


def _as_dot(s: str) -> tuple[str, list[int]]:
    """A pictograph read as a dot: glued to both words, a plain one ("evil🔸com" reads "evil.com");
    with a blank beside it, a dot and a blank, read as the rules read a dot with blanks after it:
    "evil 🔸 com" reads "evil. com" and "done ✅ net result" "done. net result", both refused as
    names (com, net and org in small letters after a dot), "claimnow 🔸 io" a sentence's end."""
    lead, trail = s[0] in " \t", s[-1] in " \t"
    if not (lead or trail):
        return ".", [0]
    return ". ", [int(lead), len(s) - 1]


def _dotted(text: str) -> matching.Form | None:
    """When a pictograph stands between letters, the words read with a dot in its place (mapped back
    to the words as written, so a passage is quoted as written: "evil🔸com"); else None. Only the
    link and address rules read it: the staff voice is read where the pictograph is passed over."""
    if text.isascii() or _PICTOGRAPH_DOT.search(text) is None:
        return None
    return matching.rewritten(text, _PICTOGRAPH_DOT, _as_dot)


# A run of base64 (standard or URL-safe, padded or not) long enough to hold a name with its top-level
# domain ("ZXZpbC5jb20=" is evil.com), standing alone: a model asked to decode it reads the link inside.
# Possessive, and started only where a run starts, so a long run is read once.
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{11,}+={0,2}+(?![A-Za-z0-9+/_=-])")


def _base64_text(run: str) -> str | None:
    """The text a base64 run decodes to, when it is printable UTF-8 with a dot, a colon or a slash in
    it (a link needs one); else None. A run of small letters alone is a word, and one that mixes the
    two alphabets' signs is no base64. Hex digests, commit hashes and ids decode to bytes that are
    not text."""
    body = run.rstrip("=")
    if len(body) % 4 == 1 or (body.islower() and body.isalpha()):
        return None
    url_safe = "-" in body or "_" in body
    if url_safe and ("+" in body or "/" in body):
        return None
    try:
        raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_" if url_safe else None, validate=True)
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    if not decoded.isprintable() or not any(c in decoded for c in ".:/"):
        return None
    return decoded


def _decoded(text: str) -> matching.Form | None:
    """When a base64 run in the words decodes to text that could hold a link, the words read with each
    such run decoded, a word of its own (mapped back into the run, so a passage is quoted as written:
    the base64 that spells the link); else None. Only the link and address rules read it."""
    texts = {m.group(): d for m in _BASE64_RUN.finditer(text) if (d := _base64_text(m.group())) is not None}
    if not texts:
        return None

    def read(run: str) -> tuple[str, list[int]]:
        decoded = texts.get(run)
        if decoded is None:
            return run, list(range(len(run)))
        offsets = [0]  # the blank before it
        at = 0  # bytes decoded so far: each three of them are four characters of the run
        for ch in decoded:
            offsets.append(min(len(run) - 1, at * 4 // 3))
            at += len(ch.encode("utf-8"))
        # The last character and the blank after it map to the run's end, padding and all: a link that
        # ends the decoded text is quoted to the run's end.
        offsets[-1] = len(run) - 1
        return " " + decoded + " ", [*offsets, len(run) - 1]

    return matching.rewritten(text, _BASE64_RUN, read)


def _link_readings(text: str) -> list[matching.Form]:
    """The readings only the link and address rules read: a pictograph as a dot, base64 decoded."""
    return [form for form in (_dotted(text), _decoded(text)) if form is not None]


def _link_hits(t: str) -> list[_Hit]:
    low = _lower(t)
    return _kept(sorted((h for family in _links_and_emails(t, low) for h in family), key=_order))


def _passages(text: str) -> list[_Passage]:
    """Every passage of every reading, in order; a passage a later reading finds again is the first's."""
    out: list[_Passage] = []
    for i, form in enumerate(matching.readings(text)):
        found = [_passage(form, h) for h in _hits(form.text, _has_lookalike_il(form.original))]
        if i:
            found = [p for p in found if not any(p.at < q.end and q.at < p.end for q in out)]
        out += found
    for form in _link_readings(text):
        found = [_passage(form, h) for h in _link_hits(form.text)]
        out += [p for p in found if not any(p.at < q.end and q.at < p.end for q in out)]
    return sorted(out, key=lambda p: p.at)


def _first_passage(forms: list[matching.Form]) -> _Passage | None:
    """The first passage of any reading, found without finding the rest."""
    first: _Passage | None = None
    for form in forms:
        h = _first_hit(form.text, _has_lookalike_il(form.original))
        if h is not None:
            p = _passage(form, h)
            if first is None or p.at < first.at:
                first = p
    return first


def screen(text: str, surface: str) -> WordsProblem | None:
    """Secrets on every surface; on "public" and "other-account" also links (incl. obfuscated), email
    addresses and staff voice. "private" and "letter": secrets only.

    The first problem is returned with the passage to reword: a secret before anything else, and
    shown only masked. Every reading of the words is screened (see clockford.town.matching), each in
    one pass per family of rules."""
    if surface not in SURFACES:
        raise ValueError(f"unknown surface {surface!r}")
    forms = matching.readings(text)
    secret = _find_secret_in_any(forms)
    if secret is not None:
        return WordsProblem("secret", secret.say, secret.masked, secret.kind)
    if surface not in _OPEN_SURFACES:
        return None
    first = _first_passage(forms)
    for form in _link_readings(text):
        # A link that reading alone finds, if it comes first.
        firsts = [h for family in _links_and_emails(form.text, _lower(form.text)) if (h := next(family, None))]
        if firsts:
            p = _passage(form, min(firsts, key=_order))
            first = p if first is None or p.at < first.at else first
    if first is None:
        return None
    return WordsProblem(first.kind, STAFF_VOICE_SAY if first.kind == "staff-voice" else LINK_SAY, first.matched)


def flags(text: str) -> list[Flag]:
    """What the hall flags for a person reading exact words (letters, decision pages): every link,
    email address, staff-voice passage and hidden character, in order of appearance."""
    # A person cannot see a hidden run, so its passage is drawn with visible().
    out = [(p.at, Flag(p.kind, visible(p.matched) if p.hidden else p.matched)) for p in _passages(text)]
    if not text.isascii():
        out += [(m.start(), Flag("hidden", visible(m.group()))) for m in _HIDDEN_RUN.finditer(text)]
    return [f for _, f in sorted(out, key=lambda p: p[0])]
