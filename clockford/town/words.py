"""The words screen: one module for every tool that takes free words.

Matching runs on a normalised copy (NFKC, format characters removed, dots unified) so that a secret
split by a zero-width space or written in fullwidth letters is still a secret; what is kept and shown
is the original text. Secrets are refused on every surface. The secret rules follow gitleaks'
high-confidence set (see ../shared/design/SECURITY-NOTES.md): each names its kind, which the refusal
says back in plain words.
"""

import base64
import binascii
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})


def is_hidden(ch: str) -> bool:
    # Zero-width, bidi and other invisible controls: Unicode category Cf, plus the variation
    # selectors and tag characters that some fonts draw as nothing.
    cp = ord(ch)
    return (
        unicodedata.category(ch) == "Cf"
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0100 <= cp <= 0xE01EF
        or 0xE0000 <= cp <= 0xE007F
    )


def for_matching(text: str) -> str:
    """NFKC, hidden characters removed, ideographic and fullwidth dots made plain."""
    stripped = "".join(ch for ch in text if not is_hidden(ch))
    return unicodedata.normalize("NFKC", stripped).translate(_DOTS)


def for_keeping(text: str, cap: int | None = None) -> str:
    """What the town keeps of free words: NFC (so equal words are equal bytes), cut to the cap.

    NUL goes: no words need it, and PostgreSQL's text cannot hold it."""
    kept = unicodedata.normalize("NFC", text.replace("\x00", ""))
    return kept[:cap] if cap is not None else kept


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


def _r(
    kind: str, pattern: str, flags: int = 0, min_entropy: float = 0.0, check: Callable[[str], bool] | None = None
) -> SecretRule:
    return SecretRule(kind, re.compile(pattern, flags), min_entropy, check)


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


_GENERIC_KEYWORD = (
    r"(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|passwd|pwd|access[_-]?key|client[_-]?secret|auth|credentials?)"
)

SECRET_RULES: tuple[SecretRule, ...] = (
    _r("a GitHub token", r"\b(?:ghp|gho|ghu|ghs|ghr)_[0-9a-zA-Z]{36}\b|\bgithub_pat_\w{82}\b"),
    _r("an AWS access key", r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b"),
    _r(
        "a Slack token",
        r"\bxox[baprse]-[0-9]{10,13}-[0-9a-zA-Z-]{10,}|\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"
        r"|hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{30,}",
        re.IGNORECASE,
    ),
    _r(
        "an OpenAI key",
        r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}|\bsk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}"
        r"|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}",
    ),
    _r("an Anthropic key", r"\bsk-ant-(?:api|admin)\d{2}-[a-zA-Z0-9_\-]{80,}"),
    # The block's first base64 line within reach of its header: a block cut short is still a key,
    # a header quoted in a sentence is not.
    _r(
        "a private key",
        r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,200}?[A-Za-z0-9+/=]{32,}",
        re.IGNORECASE,
    ),
    _r("a JSON Web Token", r"\bey[a-zA-Z0-9_-]{15,}\.ey[a-zA-Z0-9_-]{15,}\.(?:[a-zA-Z0-9_-]{10,}={0,2})?"),
    _r("a GitLab token", r"\bglpat-[\w-]{20,}"),
    _r("a Stripe key", r"\b(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}\b"),
    _r("a Hugging Face token", r"\bhf_[a-zA-Z]{34}\b"),
    _r("a Google API key", r"\bAIza[0-9A-Za-z_-]{35}" + _END),
    _r("an npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    _r("a PyPI token", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
    _r("a SendGrid key", r"\bSG\.[\w-]{22}\.[\w-]{43}" + _END),
    _r("a Twilio key", r"\bSK[0-9a-fA-F]{32}\b"),
    _r("a Telegram bot token", r"\b\d{8,10}:AA[0-9A-Za-z_-]{33}" + _END),
    _r(
        "a Discord token",
        r"\b[MNO][a-zA-Z\d_-]{23,25}\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27,38}" + _END,
        check=_discord,
    ),
    _r("a DigitalOcean token", r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    _r("a Shopify token", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"),
    _r("a Mailgun key", r"\bkey-[0-9a-zA-Z]{32}\b"),
    _r("a Databricks token", r"\bdapi[a-f0-9]{32}(?:-\d)?\b"),
    _r(
        "a password in a link",
        r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,64}:[^\s:/@]{3,128}@[^\s/]+",
        re.IGNORECASE,
        check=_link_password,
    ),
    _r("a bearer token", r"\bBearer\s+([A-Za-z0-9\-._~+/]{24,}=*)", re.IGNORECASE, min_entropy=3.5),
    # gitleaks' generic rule, in short: a credential's name, up to 20 more name characters
    # (aws_secret_access_key), an assignment, and a random-looking value of 16 to 150 characters.
    _r(
        "a secret",
        _GENERIC_KEYWORD + r"[\w.-]{0,20}?[\"'`]?\s{0,3}(?::=|=>|[:=])\s{0,3}[\"'`]?([\w.=+/-]{16,150})(?![\w.=+/-])",
        re.IGNORECASE,
        min_entropy=3.5,
        check=_generic_value,
    ),
)


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
    t = for_matching(text)
    for rule in SECRET_RULES:
        pos = 0
        while (m := rule.pattern.search(t, pos)) is not None:
            if _accepts(rule, m):
                return SecretFound(rule.kind, mask(m.group(0)))
            # A rejected match may hide an accepted one that starts inside it
            # ("token": "aws_secret_access_key = ..."): look again one character on.
            pos = m.start() + 1
    return None
