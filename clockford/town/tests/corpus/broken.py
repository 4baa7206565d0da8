"""The secrets screen's corpus for secrets cut by a line break or named in prose: made in memory, by
kind, in two halves (dev to tune on, held-out with other providers, other breaks and other phrasing).

    .venv/bin/python -m clockford.town.tests.corpus.broken

Kinds (each case: {kind, variant, text, want}, want True when it must be refused):

- split-token: a provider's token with a line break in it, in a sentence. dev cuts once with "\\n";
  held cuts with "\\r\\n", with an indented next line, or twice (a token wrapped at a width).
- aws-prose: an AWS secret access key introduced in prose ("the AWS secret key is ..."), on one line
  or the next.
- wrapped-clean: ordinary lines that end and begin with identifiers, versions, hashes and capitals
  ("ASIA" over a list of countries), which a careless join would read as a token. Never refused.
- aws-clean: prose about AWS secret keys that holds none (paths, the documented example key, an
  access key id, forty letters of a sentence). Never refused.

Secrets are made at run time from a seeded generator (secrets.pick), so no secret-shaped literal sits
in the repository.
"""

import functools
import random
import string
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from clockford.town import words
from clockford.town.tests.corpus.secrets import ALNUM, B32, HEX, URLSAFE, pick

SEED = 20261205
HALVES = ("dev", "held")
PER_KIND = 120


@dataclass(frozen=True)
class Case:
    kind: str
    variant: str
    text: str
    want: bool  # refused


Maker = Callable[[random.Random], str]

TOKENS: dict[str, list[tuple[str, Maker]]] = {
    "dev": [
        ("github", lambda r: "ghp_" + pick(r, ALNUM, 36)),
        ("aws", lambda r: "AKIA" + pick(r, B32, 16)),
        ("stripe", lambda r: "sk_live_" + pick(r, ALNUM, 24)),
        ("gitlab", lambda r: "glpat-" + pick(r, URLSAFE, 20)),
        ("slack", lambda r: f"xoxb-{pick(r, string.digits, 12)}-{pick(r, string.digits, 13)}-{pick(r, ALNUM, 24)}"),
        ("google", lambda r: "AIza" + pick(r, URLSAFE, 35)),
    ],
    "held": [
        ("github", lambda r: r.choice(["gho_", "ghs_", "ghu_"]) + pick(r, ALNUM, 36)),
        ("github-pat", lambda r: "github_pat_" + pick(r, ALNUM, 22) + "_" + pick(r, ALNUM, 59)),
        ("aws", lambda r: "ASIA" + pick(r, B32, 16)),
        ("npm", lambda r: "npm_" + pick(r, ALNUM, 36)),
        ("huggingface", lambda r: "hf_" + pick(r, string.ascii_letters, 34)),
        ("digitalocean", lambda r: "dop_v1_" + pick(r, HEX, 64)),
    ],
}
SENTENCES = {
    "dev": ["Here is the token: {}", "my key {} — use it for the deploy", "{}\nthanks!", "Pasting it below:\n{}\nok?"],
    "held": ["creds (do not share) -> {}", "Use {} for the staging box.", "```\n{}\n```", "token\n{}\nend"],
}


def _cut(token: str, r: random.Random, half: str) -> tuple[str, str]:
    if half == "dev":
        at = r.randrange(4, len(token) - 3)
        return "newline", token[:at] + "\n" + token[at:]
    how = r.choice(["crlf", "indented", "wrapped"])
    if how == "wrapped":
        width = r.randrange(12, max(13, len(token) // 2))
        return how, "\n".join(token[i : i + width] for i in range(0, len(token), width))
    at = r.randrange(4, len(token) - 3)
    return how, token[:at] + ("\r\n" if how == "crlf" else "\n    ") + token[at:]


def split_tokens(half: str) -> list[Case]:
    r = random.Random(f"{SEED}-{half}-split")
    out = []
    for i in range(PER_KIND):
        name, make = TOKENS[half][i % len(TOKENS[half])]
        how, cut = _cut(make(r), r, half)
        out.append(Case("split-token", f"{name}-{how}", r.choice(SENTENCES[half]).format(cut), True))
    return out


AWS_PROSE = {
    "dev": [
        "AWS secret key is {}",
        "The aws secret access key is {} (rotate monthly)",
        "my AWS secret key: {}",
        "AWS Secret Access Key\n{}",
    ],
    "held": [
        "aws-secret for the prod account is {}.",
        "Here's the AWS secret access key you asked for → {}",
        "AWS_SECRET_KEY {}",
        "the aws secret key (staging) = {} , thanks",
    ],
}


def aws_prose(half: str) -> list[Case]:
    r = random.Random(f"{SEED}-{half}-aws")
    out = []
    for i in range(PER_KIND):
        template = AWS_PROSE[half][i % len(AWS_PROSE[half])]
        out.append(
            Case("aws-prose", f"template-{i % len(AWS_PROSE[half])}", template.format(pick(r, ALNUM + "/+", 40)), True)
        )
    return out


WRAPPED = {
    "dev": [
        "Set CONFIG_{a}\nVALUE_{b} in the env file and restart.",
        "ASIA\nPACIFIC\nEUROPE\nAMERICAS — regions we cover.",
        "commit {h}\n{h2} fixed the build",
        "Rows:\nrow_{a}_{b}\nrow_{b}_{a}\nend of list",
        "Version v{a}.{b}\nv{b}.{a} both work with AKIA-style ids.",
    ],
    "held": [
        "Checksums:\nsha256:{h}\nsha256:{h2}",
        "ASIA\nCHINAJAPANKOREAIN\nDIA is a typo in the old table.",
        "Path: /srv/town/{a}\n/srv/town/{b}/logs ok",
        "Build IDs\nBUILD{a}X{b}\nBUILD{b}Y{a}\nall green",
        "Call get_{a}_items\nthen put_{b}_items and check ghp-style names are rejected.",
    ],
}
AWS_CLEAN = {
    "dev": [
        "The AWS secret key lives in the vault; rotate it every {a} days.",
        "AWS secret key is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY in the docs, not a real one.",
        "Never paste the AWS secret access key into a notice; it is forty characters of base64.",
        "aws secret key rotation checklist: step {a}, step {b}, done",
    ],
    "held": [
        "aws secret stored at arn/aws/secretsmanager/eu/{a}/prod/api/key{b} for now.",
        "The AWS secret access key id is AKIA followed by sixteen letters; ask your person for yours.",
        "AWS secret key is ThisIsJustALongSentenceWrittenTogetherOk (a test string).",
        "My aws secret key got rotated at {a}:{b} — nothing to share here.",
    ],
}


def _clean(templates: dict[str, list[str]], kind: str, half: str) -> list[Case]:
    r = random.Random(f"{SEED}-{half}-{kind}")
    out = []
    for i in range(PER_KIND):
        t = templates[half][i % len(templates[half])]
        text = t.format(a=r.randint(1, 999), b=r.randint(1, 999), h=pick(r, HEX, 40), h2=pick(r, HEX, 40))
        out.append(Case(kind, f"template-{i % len(templates[half])}", text, False))
    return out


@functools.cache
def cases(half: str) -> tuple[Case, ...]:
    return (
        *split_tokens(half),
        *aws_prose(half),
        *_clean(WRAPPED, "wrapped-clean", half),
        *_clean(AWS_CLEAN, "aws-clean", half),
    )


def rates(half: str) -> dict[str, tuple[int, int]]:
    """Per kind: (refused, tried)."""
    refused: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    for case in cases(half):
        tried[case.kind] += 1
        refused[case.kind] += words.find_secret(case.text) is not None
    return {k: (refused[k], tried[k]) for k in sorted(tried)}


def report(half: str) -> str:
    return "\n".join(f"  {kind:<14} refused {h}/{n} ({100 * h / n:.1f}%)" for kind, (h, n) in rates(half).items())


def main(*halves: str) -> None:
    for half in halves or HALVES:
        print(f"=== {half} ===\n{report(half)}")
        for case in cases(half):
            if (words.find_secret(case.text) is not None) != case.want:
                print(f"  wrong  {case.kind:<14} {case.variant:<16} {case.text!a}")


if __name__ == "__main__":
    main(*sys.argv[1:])
