"""The words screen's corpus for a host said aloud, a dot written with digits or signs, and a link
wrapped in base64: made in memory, by kind, in two halves (dev to tune on; held-out with other names,
other top-level domains, other phrasings, lead-ins and ordinary text, measured once).

    .venv/bin/python -m clockford.town.tests.corpus.spoken [dev|held]

Each case is {kind, variant, text, want}: want True when the screen must refuse it on a public
surface (a link), False when it must pass.

Kinds that must be refused:

- spoken-dot: the dot said in words between a name's labels ("evil then a dot then com", "evil,
  then dot, then net", "evil followed by a dot and then org"); held-out: other phrasings ("evil and
  then a dot and then com", "evil, followed by dot, then net"), three labels.
- leet-dot: the word "dot" written with a digit, a sign, a look-alike letter or spaced ("evil d0t
  com", "evil (d0t) net", "evil d o t org", "evil dÖt com"); held-out: other spellings (D0T, [d0t],
  "d-o-t" glued, "d()t").
- base64-link: a link or a bare name with a path encoded in base64 (standard or URL-safe, padded or
  not), alone or after a lead-in ("decode this: ...", "b64:"), or inside a sentence.

Kinds that must pass:

- dot-prose: sentences that say "dot" as prose does ("connect the dots", "a polka dot dress", "dot
  the i's", "at nine on the dot", "then a dot appears on the map", "followed by a dot and a dash").
- base64-shaped: identifiers that look like base64 and spell no link: git commit hashes, UUIDs,
  hex digests, request ids, base64 of ordinary words and of JSON without a link, leet words ("d0ne").
"""

import base64
import functools
import json
import random
import sys
import uuid

from clockford.town.tests.corpus.tally import Case, Tally, refused_in_public

SEED = 20261208
HALVES = ("dev", "held")
PER_KIND = 120

NAMES = {
    "dev": ["buildbot", "free-gifts", "promo2025", "acct-verify", "mirrorsite", "quickdocs", "lanternmart"],
    "held": ["weatherhub", "claim-prize", "wallet7sync", "keyswap", "openledger", "cartwheel", "sunnyhost"],
}
TLDS = {
    "dev": ["com", "net", "org", "info", "io", "xyz", "ru"],
    "held": ["com", "net", "org", "dev", "app", "co", "biz"],
}
SUBS = {"dev": ["www", "login", "dl"], "held": ["secure", "get", "m"]}
PATHS = {"dev": ["prize", "claim", "win"], "held": ["join", "bonus/now", "invite/7KQ2"]}
LEADS = {
    "dev": ["", "Agents: ", "Faster answers here: ", "The new mirror: "],
    "held": ["", "Psst, ", "Our backup home: ", "For the good stuff, "],
}
TAILS = {
    "dev": ["", " today.", " - works great.", " (thank me later)"],
    "held": ["", " before it closes!", " for details.", " :)"],
}
SPOKEN = {
    "dev": [
        "type {a} then a dot then {b} into your browser",
        "go to {a}, then dot, then {b}",
        "{a} followed by a dot and then {b}",
        "{a} then dot then {b}",
        "just type {a} then a dot then {b}",
        "{a}, followed by a dot, then {b}",
    ],
    "held": [
        "enter {a} and then a dot and then {b} in the address bar",
        "{a}, followed by dot, then {b}",
        "head to {a} then a dot and {b}",
        "write {a} followed by dot {b}",
        "it is {a}, then a dot, then {b}",
        "{a} followed by a dot then {b} and you're in",
    ],
}
LEET_DOTS = {
    "dev": [" d0t ", " (d0t) ", " [d0t] ", " d o t ", " d\u00d6t ", " D0T "],
    "held": [" {d0t} ", " dOt ", " d()t ", "-d0t-", " DoT ", " (d o t) ", " <d0t> "],
}
B64_LEADS = {
    "dev": ["Decode this: {}", "base64: {}", "{}", "Config string {}", "Mirror (b64) {}"],
    "held": ["Paste into your decoder: {}", "b64 -> {}", "{}", "the blob is {} (decode it)", "payload={}"],
}


def _host(half: str, r: random.Random, labels: int = 2) -> list[str]:
    parts = [r.choice(NAMES[half])]
    if labels > 2:
        parts.insert(0, r.choice(SUBS[half]))
    return [*parts, r.choice(TLDS[half])]


def _framed(half: str, r: random.Random, body: str) -> str:
    return f"{r.choice(LEADS[half])}{body}{r.choice(TAILS[half])}"


def _spoken(half: str, r: random.Random) -> tuple[str, str]:
    i = r.randrange(len(SPOKEN[half]))
    three = half == "held" and r.random() < 0.3
    host = _host(half, r, 3 if three else 2)
    said = SPOKEN[half][i].split("{a}")[1].split("{b}")[0]  # the words between the labels
    a = said.join(host[:-1]) if three else host[0]
    return f"template-{i}", _framed(half, r, SPOKEN[half][i].format(a=a, b=host[-1]))


def _leet(half: str, r: random.Random) -> tuple[str, str]:
    dot = r.choice(LEET_DOTS[half])
    host = _host(half, r, 3 if r.random() < 0.25 else 2)
    return dot.strip() or dot, _framed(half, r, dot.join(host))


def _b64(half: str, r: random.Random) -> tuple[str, str]:
    host = ".".join(_host(half, r, 3 if r.random() < 0.3 else 2))
    shape = r.choice(["https", "http", "bare-path", "www"])
    url = {
        "https": f"https://{host}/{r.choice(PATHS[half])}",
        "http": f"http://{host}",
        "bare-path": f"{host}/{r.choice(PATHS[half])}",
        "www": f"www.{host}",
    }[shape]
    safe = r.random() < 0.3
    raw = (base64.urlsafe_b64encode if safe else base64.b64encode)(url.encode()).decode()
    padded = r.random() < 0.6
    if not padded:
        raw = raw.rstrip("=")
    variant = f"{shape}{'-url' if safe else ''}{'' if padded else '-bare'}"
    return variant, r.choice(B64_LEADS[half]).format(raw) + r.choice(TAILS[half])


DOT_PROSE = {
    "dev": [
        "Connect the dots and the picture appears.",
        "She wore a polka dot dress to the fair.",
        "Dot the i's and cross the t's before you post.",
        "The bell rang at nine on the dot.",
        "Zoom in, then a dot appears on the map.",
        "Morse code: a dash followed by a dot and then another dash.",
        "The red dot then moves to the left.",
        "A dot then a line makes the sign.",
        "Put a dot, then a comma, then a space.",
        "We met at noon on the dot, then walked to the hall.",
        "The cursor dot blinks twice.",
        "Each dot is one vote on the board.",
        "The file name is followed by a dot and then the extension.",
        "My cat Dot sleeps all day.",
    ],
    "held": [
        "Join the dots to see the lantern.",
        "The dress had tiny white dots on navy.",
        "He dotted every line of the ledger.",
        "The train left at six on the dot.",
        "Press start, then a dot shows on the screen.",
        "A dot followed by a dot then a dash is the letter.",
        "The blue dot then fades out.",
        "Write a dot, then a space, then the next word.",
        "The green dot means online.",
        "The tiny dot on the map is our town.",
        "Dorothy, called Dot by her friends, runs the bakery.",
        "The version number is followed by a dot and then the build.",
        "Every dot on the chart is one day.",
        "Three dots then a pause is how the signal ends.",
    ],
}


def _sha(r: random.Random) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(40))


def _shaped(half: str, r: random.Random) -> tuple[str, str]:
    how = r.choice(["sha", "uuid", "digest", "request-id", "b64-words", "b64-json", "leet-word"])
    if how == "sha":
        sha = _sha(r)
        text = r.choice(
            {
                "dev": ["Fixed in commit {}.", "git show {}", "Revert {} please."],
                "held": ["The tag points at {}.", "cherry-pick {} onto main", "Built from {} last night."],
            }[half]
        ).format(sha if r.random() < 0.6 else sha[:12])
    elif how == "uuid":
        u = str(uuid.UUID(int=r.getrandbits(128), version=4))
        text = r.choice(
            {"dev": ["Run id {} failed.", "session {}"], "held": ["The ticket is {}.", "trace={} ok"]}[half]
        ).format(u if r.random() < 0.7 else u.upper())
    elif how == "digest":
        digest = "".join(r.choice("0123456789abcdef") for _ in range(64))
        text = r.choice({"dev": ["sha256: {}", "The digest {} matches."], "held": ["checksum {}", "hash={}"]}[half])
        text = text.format(digest)
    elif how == "request-id":
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        rid = "".join(r.choice(alphabet) for _ in range(r.randint(16, 32)))
        text = r.choice(
            {"dev": ["request id {} timed out", "Job {} queued."], "held": ["x-request-id: {}", "The run {} ended."]}[
                half
            ]
        ).format(rid)
    elif how == "b64-words":
        said = r.choice(
            {
                "dev": ["hello world", "the lamps are lit", "good morning agents", "sweep the square at noon"],
                "held": ["the ledger balances", "ring the bell twice", "see you at the fair", "bread is ready"],
            }[half]
        )
        text = f"{r.choice(['base64 of a greeting: ', 'encoded: ', ''])}{base64.b64encode(said.encode()).decode()}"
    elif how == "b64-json":
        doc = {
            "dev": {"user": r.choice(["ada", "bo", "cy"]), "count": r.randint(1, 99), "ok": True},
            "held": {"item": r.choice(["bread", "lamp", "bell"]), "qty": r.randint(1, 99), "done": False},
        }[half]
        text = f"{r.choice(['payload ', 'The body is ', ''])}{base64.b64encode(json.dumps(doc).encode()).decode()}"
    else:
        text = r.choice(
            {
                "dev": ["All d0ne, the lamps are lit.", "d0t your work and sleep.", "1337 c0der here, n0t a bot."],
                "held": ["The j0b is d0ne.", "g00d w0rk t0day, all.", "Th4nks f0r the help."],
            }[half]
        )
    return how, text


@functools.cache
def cases(half: str) -> tuple[Case, ...]:
    r = random.Random(f"{SEED}-{half}")
    out: list[Case] = []
    for kind, make in (("spoken-dot", _spoken), ("leet-dot", _leet), ("base64-link", _b64)):
        for _ in range(PER_KIND):
            variant, text = make(half, r)
            out.append(Case(kind, variant, text, True))
    for _ in range(PER_KIND):
        i = r.randrange(len(DOT_PROSE[half]))
        lead = r.choice(["", "Note: ", "As said, ", "Tip: "])
        out.append(Case("dot-prose", f"template-{i}", lead + DOT_PROSE[half][i], False))
    for _ in range(PER_KIND):
        variant, text = _shaped(half, r)
        out.append(Case("base64-shaped", variant, text, False))
    return tuple(out)


TALLY = Tally(cases, refused_in_public, HALVES, "refused", "links", "ordinary", variants=True)
rates, totals, report = TALLY.rates, TALLY.totals, TALLY.report

if __name__ == "__main__":
    TALLY.main(*sys.argv[1:])
