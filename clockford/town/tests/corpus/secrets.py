"""Made-up secrets in the shapes real providers issue (prefix, alphabet, length), from a seeded
generator: none is real. The corpus files keep each secret scrambled (see `scramble`), so that no
secret-shaped literal sits in the repository for a scanner to trip on.

Each maker is (provider, half, make): the held-out half has providers and prefix variants the dev
half does not, so it measures whether the screen knows a kind of secret or just its examples.
"""

import base64
import random
import string
from collections.abc import Callable

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
HEX = "0123456789abcdef"
B32 = string.ascii_uppercase + "234567"


def pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _jwt(rng: random.Random) -> str:
    alg = rng.choice(["HS256", "RS256", "ES256"])
    header = _b64url(f'{{"alg":"{alg}","typ":"JWT"}}'.encode())
    claims = _b64url(f'{{"sub":"{rng.randrange(10**9)}","role":"agent","exp":{rng.randrange(10**9)}}}'.encode())
    return f"{header}.{claims}.{pick(rng, URLSAFE, 43)}"


def _key_block(kind: str) -> Callable[[random.Random], str]:
    def make(rng: random.Random) -> str:
        body = "\n".join(pick(rng, ALNUM + "+/", 64) for _ in range(rng.randint(2, 5)))
        return f"-----BEGIN {kind}-----\n{body}\n-----END {kind}-----"

    return make


def _password_link(scheme: str, host: str) -> Callable[[random.Random], str]:
    def make(rng: random.Random) -> str:
        user = rng.choice(["deploy", "admin", "svc", "clockford", "root", "ci"])
        return f"{scheme}://{user}:{pick(rng, ALNUM, rng.randint(12, 24))}@{host}"

    return make


_ROT = str.maketrans(
    string.ascii_lowercase + string.ascii_uppercase + string.digits,
    string.ascii_lowercase[13:] + string.ascii_lowercase[:13] + string.ascii_uppercase[13:] + string.ascii_uppercase[:13]
    + string.digits[5:] + string.digits[:5],
)  # fmt: skip


def scramble(secret: str) -> str:
    """Reversed, with ROT13 on ASCII letters and ROT5 on digits: its own inverse. Reversing alone is
    not enough, since a secret disguised behind a right-to-left override is already stored backwards."""
    return secret[::-1].translate(_ROT)


MAKERS: list[tuple[str, str, Callable[[random.Random], str]]] = [
    # --- the dev half
    ("github", "dev", lambda r: "ghp_" + pick(r, ALNUM, 36)),
    ("github", "dev", lambda r: "github_pat_" + pick(r, ALNUM, 22) + "_" + pick(r, ALNUM, 59)),
    ("openai", "dev", lambda r: "sk-proj-" + pick(r, URLSAFE, 74) + "T3BlbkFJ" + pick(r, URLSAFE, 74)),
    ("openai", "dev", lambda r: "sk-" + pick(r, ALNUM, 20) + "T3BlbkFJ" + pick(r, ALNUM, 20)),
    ("aws", "dev", lambda r: "AKIA" + pick(r, B32, 16)),
    ("slack", "dev", lambda r: f"xoxb-{pick(r, string.digits, 12)}-{pick(r, string.digits, 13)}-{pick(r, ALNUM, 24)}"),
    ("stripe", "dev", lambda r: "sk_live_" + pick(r, ALNUM, 24)),
    ("google", "dev", lambda r: "AIza" + pick(r, URLSAFE, 35)),
    ("jwt", "dev", _jwt),
    ("private-key", "dev", _key_block("RSA PRIVATE KEY")),
    ("private-key", "dev", _key_block("PRIVATE KEY")),
    ("password-in-link", "dev", _password_link("postgres", "db.internal:5432/town")),
    ("password-in-link", "dev", _password_link("https", "git.example.org/town.git")),
    ("gitlab", "dev", lambda r: "glpat-" + pick(r, URLSAFE, 20)),
    ("generic", "dev", lambda r: f'api_key = "{pick(r, ALNUM, 32)}"'),
    ("generic", "dev", lambda r: f"DATABASE_PASSWORD={pick(r, ALNUM, 20)}"),
    # --- the held-out half
    ("github", "held", lambda r: r.choice(["gho_", "ghs_", "ghu_", "ghr_"]) + pick(r, ALNUM, 36)),
    ("openai", "held", lambda r: "sk-svcacct-" + pick(r, URLSAFE, 58) + "T3BlbkFJ" + pick(r, URLSAFE, 58)),
    ("anthropic", "held", lambda r: "sk-ant-api03-" + pick(r, URLSAFE, 93) + "AA"),
    ("aws", "held", lambda r: "ASIA" + pick(r, B32, 16)),
    (
        "slack",
        "held",
        lambda r: (
            f"xoxp-{pick(r, string.digits, 11)}-{pick(r, string.digits, 11)}-{pick(r, string.digits, 12)}-{pick(r, HEX, 32)}"
        ),
    ),
    (
        "slack",
        "held",
        lambda r: f"https://hooks.slack.com/services/T{pick(r, B32, 8)}/B{pick(r, B32, 10)}/{pick(r, ALNUM, 24)}",
    ),
    ("stripe", "held", lambda r: r.choice(["rk_live_", "sk_test_", "rk_test_"]) + pick(r, ALNUM, 32)),
    ("huggingface", "held", lambda r: "hf_" + pick(r, string.ascii_letters, 34)),
    ("npm", "held", lambda r: "npm_" + pick(r, ALNUM, 36)),
    ("sendgrid", "held", lambda r: "SG." + pick(r, URLSAFE, 22) + "." + pick(r, URLSAFE, 43)),
    ("telegram", "held", lambda r: f"{r.randrange(10**8, 10**10)}:AA{pick(r, URLSAFE, 33)}"),
    ("digitalocean", "held", lambda r: "dop_v1_" + pick(r, HEX, 64)),
    ("private-key", "held", _key_block("OPENSSH PRIVATE KEY")),
    ("private-key", "held", _key_block("EC PRIVATE KEY")),
    ("password-in-link", "held", _password_link("mongodb+srv", "cluster0.example.net/app")),
    ("password-in-link", "held", _password_link("redis", "cache.internal:6379/0")),
    ("bearer", "held", lambda r: "Bearer " + pick(r, URLSAFE, 40)),
    ("generic", "held", lambda r: f"client_secret: {pick(r, ALNUM, 40)}"),
    ("generic", "held", lambda r: f'"auth_token": "{pick(r, ALNUM + "-_", 28)}"'),
]
