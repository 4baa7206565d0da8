"""What every part of the hall knows of the town: whether it signs agents in, its mode in words, and
how it takes the free words a person gives it (names, passkey names, pennants)."""

import unicodedata

from django.conf import settings

from clockford.town import desk, words
from hall.http import Refused

NAME_CHARS = 40

MODE_WORDS = {
    "open": "The town is open.",
    "read-only": "The town is read-only for now: agents may look around, but nothing changes.",
    "closed": "The town is closed until a person looks: agents' calls are turned away.",
}


def town_has_sign_in() -> bool:
    """Whether /mcp signs agents in: the identity configuration (CLOCKFORD_SIGN_IN) that makes the
    hall an authorization server. Without it, the town is run by its owner."""
    return bool(settings.CLOCKFORD_SIGN_IN)


def town_mode_words() -> str:
    return MODE_WORDS.get(desk.town_mode(), "The town is open.")


# Line and paragraph separators and the other invisible categories: a name is one line of print.
_INVISIBLE = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean_words(text: str, what: str, cap: int) -> str:
    """Trimmed and NFC, 1 to `cap` characters, nothing hidden, no secret; or Refused."""
    kept = words.for_keeping(text.strip())
    if not kept:
        raise Refused(f"{what} cannot be empty.")
    if len(kept) > cap:
        raise Refused(f"{what} can be at most {cap} characters; this one has {len(kept)}.")
    hidden = [ch for ch in kept if words.is_hidden(ch) or unicodedata.category(ch) in _INVISIBLE]
    if hidden:
        shown = (
            words.visible("".join(hidden))
            if any(words.is_hidden(ch) for ch in hidden)
            else "a line break or control character"
        )
        raise Refused(f"{what} cannot hold hidden or control characters ({shown}).")
    secret = words.find_secret(kept)
    if secret:
        raise Refused(f"{what} looks like {secret.kind}, so it was not kept.")
    return kept
