"""The kept form of an agent's words: made once, by the desk, before anything reads them.

Every free-text argument a tool declares (`Tool.words`) becomes the text the town will store and
publish: NFC-normalised, without the control characters (newline and tab stay), and cut to its
field's cap. The words screen, Safe Harbour, a hold (its page, its digest, the person's
signature) and the district's handler all read that one text, so nothing can differ between what was
screened, what a person approved and what was published.

Control characters in free words are dropped, not refused: none of them draws anything, so the kept
text reads as the agent's text did, and the screen reads exactly what a reader will (`evil.c\\x1bom`
is screened as `evil.com`, and refused). Lone surrogates go the same way: they are not characters,
and no database can store them. An id, a name or another argument that is not free words is refused
when it carries one (`refused:control-character`): it is matched exactly, and a changed name is
another name.

NUL is refused in free words too, as everywhere in town: the hall refuses it at the door
(clockford/nul.py), an id or a name refuses it, and PostgreSQL's text cannot hold it. Dropping it
would change what the agent stored, a P.O. box note or a letter, without a word; a NUL in text means
the agent's text is not what it meant to send, so it is told, and sends it again without. Only
words quoted as evidence (`Words.quoted`, a report's quote) keep dropping it: they are another's
words, and an instruction must not make itself unreportable by carrying a NUL.
"""

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from clockford.town import words
from clockford.town.tooling import Args, Refused, Tool, integers_as_integers

# C0 and C1 controls but tab and newline, DEL, and the surrogate code points.
_DROPPED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
# In an id or a name the same, newline and tab aside: the districts read them as the spaces they are
# (walk_to folds "The Post\tOffice"), and every id pattern refuses them.
_CONTROLS = _DROPPED
# "The argument answers carries": a field may be named in the plural (answers, steps, join), and the
# sentence reads right for any name.
_NUL = re.compile("\x00")
CONTROL_SAY = "The argument {field} carries a control character, which no name or number in town has. Send it without."
NUL_SAY = (
    "The argument {field} carries a NUL character, which no words in town can hold. Nothing was kept; send it without."
)


def kept(text: str, cap: int) -> tuple[str, bool]:
    """The kept form of `text` and whether it was cut to `cap` characters (code points)."""
    t = unicodedata.normalize("NFC", _DROPPED.sub("", text))
    if len(t) <= cap:
        return t, False
    # Cut after normalising, since NFC can lengthen a text (U+0958 is two characters in NFC); a prefix
    # of a normalised text is normalised too, so the cut text is its own kept form (the property test
    # in clockford/town/tests/test_kept.py checks both).
    return t[:cap], True


@dataclass
class Kept:
    """A call's arguments with their free words in the kept form."""

    args: Any
    arguments: dict[str, Any]
    # The fields cut to their cap, with the cap: a hold says so to the person who decides it.
    cut: dict[str, int] = field(default_factory=dict)


def _controls_in(value: Any, controls: re.Pattern[str] = _CONTROLS) -> bool:
    if isinstance(value, str):
        return controls.search(value) is not None
    if isinstance(value, list):
        return any(_controls_in(v, controls) for v in value)
    if isinstance(value, dict):
        return any(_controls_in(k, controls) or _controls_in(v, controls) for k, v in value.items())
    return False


def scrubbed(value: Any) -> Any:
    """The value with every control character and lone surrogate dropped from its strings: what the
    Archive digests of a call refused for carrying one (a lone surrogate cannot even be encoded)."""
    if isinstance(value, str):
        return _CONTROLS.sub("", value)
    if isinstance(value, list):
        return [scrubbed(v) for v in value]
    if isinstance(value, dict):
        return {scrubbed(k): scrubbed(v) for k, v in value.items()}
    return value


def refuse_controls(tool: Tool, arguments: dict[str, Any]) -> None:
    """Refuse a call whose ids, names and other arguments that are not free words carry a control
    character (a P.O. box key too: screened as words, but a name the agent chooses), and one whose
    free words carry a NUL (see above)."""
    free = {name for name, w in tool.free_words.items() if not w.name}
    quoted = {name for name, w in tool.free_words.items() if w.quoted}
    for name, value in arguments.items():
        if name in free:
            if name not in quoted and _controls_in(value, _NUL):
                raise Refused(NUL_SAY.format(field=name), "control-character", field=name)
        elif _controls_in(value):
            raise Refused(CONTROL_SAY.format(field=name), "control-character", field=name)


def _draws(ch: str) -> bool:
    # Whitespace, controls and hidden characters (zero-width, bidi, tags, the Hangul fillers) draw
    # nothing; nor does a combining mark alone, with no letter to sit on ("\u0301" is an accent on
    # nothing). A mark after a letter is part of what the letter draws, and the letter counts. A
    # private-use or unassigned character is drawn (a glyph, or a box): something was written.
    category = unicodedata.category(ch)
    if category in ("Co", "Cn"):
        return True
    return not (ch.isspace() or ch == _BRAILLE_BLANK or words.is_hidden(ch) or category[0] in "CM")


# A braille pattern with no dots: a symbol to Unicode, but drawn as a blank, and used as one.
_BRAILLE_BLANK = "\u2800"


def says_nothing(text: str) -> bool:
    """Whether words say nothing a reader could see: the one rule for "empty" that every free-text
    argument shares, read on the kept form (the desk's, for each field that declares `Words.empty`;
    a district's, for a field required only by some calls, like hand_in's result to deliver)."""
    return not any(_draws(ch) for ch in text)


def refuse_before_holds(tool: Tool, args: Args) -> None:
    """Refuse a call whose required words say nothing (Words.empty), or break their name's own rule
    (Words.rule), before the screen and before any hold: a person is never asked to approve an empty
    notice, nor handed an empty letter, nor asked about a key the box would refuse."""
    for name, w in tool.free_words.items():
        value = getattr(args, name, None)
        if not isinstance(value, str):
            continue
        if w.empty is not None and says_nothing(value):
            raise Refused(w.empty, "empty", field=name)
        if w.rule is not None:
            w.rule(value)


def keep(tool: Tool, args: Args, arguments: dict[str, Any]) -> Kept:
    """The call's free words in the kept form, in the parsed arguments (what the handler reads) and in
    the raw ones (what a hold stores, shows and signs), where a whole float sent for an integer is
    that integer too, as the parsed arguments read it (tooling.integers_as_integers)."""
    arguments = integers_as_integers(type(args), arguments)
    update: dict[str, Any] = {}
    cut: dict[str, int] = {}
    for name, declared in tool.free_words.items():
        value = getattr(args, name, None)
        if isinstance(value, str):
            update[name], was_cut = kept(value, declared.cap)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            pairs = [kept(v, declared.cap) for v in value]
            update[name], was_cut = [t for t, _ in pairs], any(c for _, c in pairs)
        else:
            continue
        if was_cut:
            cut[name] = declared.cap
    if not update:
        return Kept(args, arguments)
    raw = {k: update[k] if k in update else v for k, v in arguments.items()}
    return Kept(args.model_copy(update=update), raw, cut)
