"""The words screen's corpus of link and contact disguises the other corpora do not make: made in
memory, by kind, in two halves (dev to tune on; held-out with other names, other frames, other
variants and another seed, measured once).

    .venv/bin/python -m clockford.town.tests.corpus.unseen_links [dev|held]

Each case is {kind, variant, text, want}: want True when the screen must refuse it on a public
surface (a link or an address to reach someone outside the town), False when it must pass.

Kinds that must be refused (what refuse.py and split_domains.py already make, a scheme defanged,
`[.]`, `(dot)`, English "dot", look-alike dots, percent-encoding, markdown and HTML links, punycode,
plain e-mail addresses, is left out):

- foreign-dot: the dot spelled in another language ("evil punto com", "evil [Punkt] de").
- joined-dot: the dot spelled and joined to the labels ("evil_dot_com", "evil-DOT-net").
- emoji-dot: a pictograph or a bullet sign where the dot goes ("evil🔸com", "evil ◆ org").
- number-ip: an IPv4 address written as one decimal, hexadecimal or octal number, or dotted octal
  or hexadecimal, with a port or a path and no scheme ("3232235777:8080", "0xC0A80101/admin").
- phone: a telephone number to call or message ("tel:+15551234567", "WhatsApp +44 7700 900123",
  "call me on (555) 123-4567").
- handle: an account on a messenger outside the town ("Telegram: @evilbot", "add me on Discord,
  name#1234").
- invite: a chat invite, its dot disguised ("t[.]me/joinchat/...", "discord (.) gg/abc").
- reversed: a name written backwards ("moc.live" for "evil.com").

Kinds that must pass: prose with dots (titles, abbreviations, lists), numbers (versions, decimals,
times, scores, dates, prices, ISBNs, ids, hexadecimal constants), code and file names (Java packages
written with com/org/net first), pictographs between words, the words for "dot" in other languages in
their prose, and @names and messenger names in the town's own talk.
"""

import functools
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clockford.town.tests.corpus.tally import Case, Tally, refused_in_public

SEED = 20261208
HALVES = ("dev", "held")
PER_KIND = 60

NAMES = {
    "dev": ["evil", "free-credits", "login-help", "promo-hub", "agentdrop", "keysync", "fastmirror", "claimnow"],
    "held": ["phisher", "bonus-vault", "town-rewards", "getkeys", "relay9", "securecheck", "dropzone", "prizes4u"],
}
TLDS = {"dev": ["com", "net", "org", "io", "de", "ru"], "held": ["com", "info", "biz", "co", "xyz", "es", "fr"]}
PATHS = {"dev": ["", "", "/login", "/free"], "held": ["", "", "/claim", "/v2/keys"]}
FRAMES = {
    "dev": ["Check {} for the fix.", "{}", "the mirror is {} now", "Found it: {}", "go to {} and sign in"],
    "held": ["new home → {}", "Ask them at {} tomorrow.", "({}) works best", "try {} — quicker", "everything: {}!"],
}
CONTACT_FRAMES = {
    "dev": ["reach me {}", "{}", "For the keys: {}", "Questions? {}"],
    "held": ["ping me → {}", "I'm on {} if the post is slow.", "Contact {}.", "faster: {}"],
}


def _host(half: str, r: random.Random) -> tuple[str, str]:
    return r.choice(NAMES[half]), r.choice(TLDS[half])


def _digits(r: random.Random, n: int) -> str:
    return "".join(str(r.randint(0, 9)) for _ in range(n))


# What a kind draws before it picks a way to write it, by name (a way reads `how`, the way's own name,
# there too), and a way: what it writes from that, drawing more where it needs to.
Drawn = dict[str, Any]
Way = Callable[[random.Random, Drawn], str]


@dataclass(frozen=True)
class Kind:
    draw: Callable[[str, random.Random], Drawn]
    ways: dict[str, dict[str, Way]]  # by half: a way's name (the case's variant) and what it writes


def _written(kind: Kind, half: str, r: random.Random) -> tuple[str, str]:
    """A case of `kind`: its draw, then one of the half's ways, picked as a choice among their names."""
    drawn = kind.draw(half, r)
    how = r.choice(list(kind.ways[half]))
    return how, kind.ways[half][how](r, {**drawn, "how": how})


def _named(half: str, r: random.Random) -> Drawn:
    name, tld = _host(half, r)
    return {"half": half, "name": name, "tld": tld}


def _spaced(r: random.Random, v: Drawn) -> str:
    return f"{v['name']} {v['word']} {v['tld']}{r.choice(PATHS[v['half']])}"


def _unhyphenated(half: str, r: random.Random) -> Drawn:
    v = _named(half, r)
    return {**v, "name": v["name"].replace("-", "")}


def _glued(r: random.Random, v: Drawn) -> str:
    return f"{v['name']}{v['how']}{v['tld']}"  # the way's name is the dot as written


# The dot in another language: dev Spanish, French, German; held Portuguese, Italian, Dutch, Polish,
# Russian, Turkish.
DOT_WORDS = {
    "dev": ["punto", "point", "Punkt", "PUNTO", "Point"],
    "held": ["ponto", "punto", "punt", "kropka", "точка", "nokta", "PONTO"],
}
FOREIGN_DOT = Kind(
    lambda half, r: {**_named(half, r), "word": r.choice(DOT_WORDS[half])},
    {
        "dev": {
            "spaced": _spaced,
            "bracketed": lambda r, v: f"{v['name']} [{v['word']}] {v['tld']}",
            "with-www": lambda r, v: f"www {v['word']} {v['name']} {v['word']} {v['tld']}",
        },
        "held": {
            "spaced": _spaced,
            "braced": lambda r, v: f"{v['name']} {{{v['word']}}} {v['tld']}",
            "two-dots": lambda r, v: (
                f"{r.choice(['mail', 'login', 'go'])} {v['word']} {v['name']} {v['word']} {v['tld']}"
            ),
        },
    },
)
JOINED_DOT = Kind(
    _unhyphenated,
    {
        "dev": dict.fromkeys(["_dot_", "-dot-", "DOT"], _glued),
        "held": dict.fromkeys(["-DOT-", "_DOT_", "Dot", ".dot."], _glued),
    },
)

EMOJI = {"dev": ["🔸", "🔹", "⚪", "🔴", " 🔸 "], "held": ["🟢", "⭐", "◆", " ✦ ", "🔵", "▪️"]}


def _emoji_dot(half: str, r: random.Random) -> tuple[str, str]:
    # Its way is a weighted coin, not a choice among ways as a Kind's is: its own maker.
    name, tld = _host(half, r)
    dot = r.choice(EMOJI[half])
    if r.random() < 0.3:
        return "www", f"www{dot}{name}{dot}{tld}"
    return "name", f"{name}{dot}{tld}{r.choice(PATHS[half])}"


def _ip(half: str, r: random.Random) -> Drawn:
    a, b, c, d = r.choice([10, 45, 91, 185, 192, 198, 203]), r.randint(0, 255), r.randint(0, 255), r.randint(1, 254)
    tail = r.choice(
        [f":{r.choice([80, 8080, 443, 8443])}", "/admin", ":3000/login"]
        if half == "dev"
        else [":22", ":9000/x", "/upload"]
    )
    return {"parts": (a, b, c, d), "n": (a << 24) | (b << 16) | (c << 8) | d, "tail": tail}


NUMBER_IP = Kind(
    _ip,
    {
        "dev": {
            "decimal": lambda r, v: f"{v['n']}{v['tail']}",
            "hex": lambda r, v: f"0x{v['n']:08X}{v['tail']}",
        },
        "held": {
            "hex-lower": lambda r, v: f"0x{v['n']:08x}{v['tail']}",
            "dotted-octal": lambda r, v: ".".join(f"0{x:o}" for x in v["parts"]) + v["tail"],
            "dotted-hex": lambda r, v: ".".join(f"0x{x:02x}" for x in v["parts"]) + v["tail"],
        },
    },
)

SPOKEN = "zero one two three four five six seven eight nine".split()
PHONE = Kind(
    lambda half, r: {},
    {
        "dev": {
            "tel-uri": lambda r, v: f"tel:+1{_digits(r, 10)}",
            "us-call": lambda r, v: f"call me on ({_digits(r, 3)}) {_digits(r, 3)}-{_digits(r, 4)}",
            "intl-whatsapp": lambda r, v: f"WhatsApp +44 7{_digits(r, 3)} {_digits(r, 6)}",
            "text-dashes": lambda r, v: f"text me at {_digits(r, 3)}-{_digits(r, 3)}-{_digits(r, 4)}",
        },
        "held": {
            "sms-uri": lambda r, v: f"sms:+49{_digits(r, 10)}",
            "fr-spaced": lambda r, v: "appelle-moi au +33 6 " + " ".join(_digits(r, 2) for _ in range(4)),
            "de-tel": lambda r, v: f"Tel. +49 30 {_digits(r, 7)}",
            "dotted": lambda r, v: f"my cell: {_digits(r, 3)}.{_digits(r, 3)}.{_digits(r, 4)}",
            "spoken": lambda r, v: "ring me: " + " ".join(SPOKEN[int(c)] for c in "07" + _digits(r, 9)),
            "whatsapp-uri": lambda r, v: f"whatsapp://send?phone={_digits(r, 11)}",
        },
    },
)

HANDLES = {
    "dev": ["evilbot", "keys_dealer", "free_credits", "agentdrop"],
    "held": ["vaultkeeper", "bonus99", "t0wnhelp"],
}
HANDLE = Kind(
    lambda half, r: {"h": r.choice(HANDLES[half])},
    {
        "dev": {
            "telegram": lambda r, v: f"Telegram: @{v['h']}",
            "discord": lambda r, v: f"add me on Discord, {v['h']}#{_digits(r, 4)}",
            "instagram": lambda r, v: f"DM me on Instagram @{v['h']}",
        },
        "held": {
            "tg": lambda r, v: f"tg @{v['h']}",
            "signal": lambda r, v: f"Signal me: @{v['h']}.{_digits(r, 2)}",
            "snapchat": lambda r, v: f"my snap is @{v['h']}",
            "twitter": lambda r, v: f"follow @{v['h']} on twitter for the keys",
        },
    },
)

INVITE = Kind(
    lambda half, r: {"code": "".join(r.choice("abcdefghjkmnpqrstuvwxyzABCDEFGH23456789") for _ in range(8))},
    {
        "dev": {
            "t-bracket": lambda r, v: f"t[.]me/joinchat/{v['code']}",
            "discord-paren": lambda r, v: f"discord(.)gg/{v['code']}",
            "wa-spaced": lambda r, v: f"wa . me/{_digits(r, 11)}",
        },
        "held": {
            "discord-spaced": lambda r, v: f"discord . gg / {v['code']}",
            "t-dot-word": lambda r, v: f"t dot me/{v['code']}",
            "chat-whatsapp": lambda r, v: f"chat[.]whatsapp[.]com/{v['code']}",
            "discord-slash": lambda r, v: f"discord{{.}}gg/invite/{v['code']}",
        },
    },
)


def _reversed(half: str, r: random.Random) -> tuple[str, str]:
    # Its way is a weighted coin on the held-out half, not a choice among ways: its own maker.
    name, tld = _host(half, r)
    tld = r.choice(["com", "net", "org"])
    sub = r.random() < 0.3 and half == "held"
    host = f"{'login.' if sub else ''}{name}.{tld}"
    return ("sub" if sub else "name"), host[::-1]


# Ordinary text: what must pass.
ORDINARY = {
    "prose-dots": {
        "dev": [
            "Mr. Smith signed the ledger at 9 a.m. today.",
            "Bring tools, e.g. a hammer, nails, etc. and gloves.",
            "The U.S. office and the U.K. office both agreed.",
            "1. Apples\n2. Pears\n3. Plums",
            "Dr. Ortega lives on St. James St. near the mill.",
            "Done. Next. Then lunch.",
        ],
        "held": [
            "Mrs. Kowalski met Prof. Lin at noon, i.e. before the vote.",
            "a) sweep\nb) lamps\nc) bells.",
            "No. 7 is the best bench; vs. No. 3 it wins.",
            "The report (approx. 4 pp.) is due Fri. morning.",
            "See ch. 3, sec. 2 and fig. 4 for the map.",
            "It was fine... then it wasn't.",
        ],
    },
    "numbers": {
        "dev": [
            "We upgraded to v2.3.1 and Python 3.12 works.",
            "Pi is about 3.14159 and e about 2.71828.",
            "The match ended 3-2 after extra time; 21:14 at the half.",
            "Meet at 10.30 on 07.12.2026, it costs $4.99.",
            "The value is 0xDEADBEEF and the mask is 0xFF00FF00.",
            "Order 3232235777 shipped; 12.5% of it was wood.",
        ],
        "held": [
            "ISBN 978-0-13-110362-7 is the cookbook.",
            "Build 10.0.19045 is on the mill; score was 2:1.",
            "We counted 1,234,567 tokens and 2130706433 bytes.",
            "Return 0x7FFFFFFF when the queue is full.",
            "Call it at 3:45 pm, room 1204, seat 55-12.",
            "The rate went from 0.25 to 1.75 in 2025-11.",
        ],
    },
    "code-files": {
        "dev": [
            "Edit main.py and config.yaml, then run it.",
            "import com.example.app.Main; works now.",
            "Use os.path.join(base, name) for paths.",
            "package org.apache.commons is the dependency.",
            "self.name = name in the constructor.",
        ],
        "held": [
            "The bundle id is net.clockford.bells in the manifest.",
            "Open README.md and requirements.txt first.",
            "np.array(x).mean() is faster than the loop.",
            "Call user.profile.save() after the update.",
            "Logs go to var/log/mill.log each night.",
        ],
    },
    "pictographs": {
        "dev": [
            "Great work 🔸 thanks all",
            "done ✅ next 🔜 lunch",
            "🔴 down · 🟢 up, the mill is fine",
            "Plan: sweep 🔹 lamps 🔹 bells",
        ],
        "held": [
            "status ◆ green ◆ all good",
            "⭐ best bench ⭐ by the fountain",
            "bells 🟢 lamps 🔵 done",
            "Thank you ✦ see you tomorrow",
        ],
    },
    "foreign-prose": {
        "dev": [
            "El punto es que no sé la respuesta.",
            "Le point de vue du maire est clair.",
            "Punkt drei ist erledigt, danke.",
            "la burbuja punto com de los noventa",
        ],
        "held": [
            "O ponto de encontro é a praça.",
            "Il punto più alto della torre.",
            "Dit punt is belangrijk voor de raad.",
            "To jest kropka nad i.",
        ],
    },
    "town-talk": {
        "dev": [
            "ping @ada when the mill is done",
            "thanks @ops-bot, the lamps are lit",
            "The Signal House rings at noon.",
            "There was discord between the bakers.",
        ],
        "held": [
            "@lee_99 has the ledger, ask them",
            "cc @keysync on the census",
            "The telegram arrived in 1898, says the Archive.",
            "Give me a signal when you're ready.",
        ],
    },
}
LEADS = ["", "Note: ", "FYI ", "As said, ", "Update - "]


@functools.cache
def cases(half: str) -> tuple[Case, ...]:
    r = random.Random(f"{SEED}-{half}")
    out: list[Case] = []
    makers: tuple[tuple[str, Callable[[str, random.Random], tuple[str, str]], dict[str, list[str]]], ...] = (
        ("foreign-dot", functools.partial(_written, FOREIGN_DOT), FRAMES),
        ("joined-dot", functools.partial(_written, JOINED_DOT), FRAMES),
        ("emoji-dot", _emoji_dot, FRAMES),
        ("number-ip", functools.partial(_written, NUMBER_IP), FRAMES),
        ("phone", functools.partial(_written, PHONE), CONTACT_FRAMES),
        ("handle", functools.partial(_written, HANDLE), CONTACT_FRAMES),
        ("invite", functools.partial(_written, INVITE), FRAMES),
        ("reversed", _reversed, FRAMES),
    )
    for kind, make, frames in makers:
        for _ in range(PER_KIND):
            how, core = make(half, r)
            out.append(Case(kind, how, r.choice(frames[half]).format(core), True))
    for kind, table in ORDINARY.items():
        for _ in range(PER_KIND):
            i = r.randrange(len(table[half]))
            out.append(Case(kind, f"template-{i}", r.choice(LEADS) + table[half][i], False))
    return tuple(out)


TALLY = Tally(cases, refused_in_public, HALVES, "refused", "links", "ordinary", variants=True)
rates, totals, report = TALLY.rates, TALLY.totals, TALLY.report

if __name__ == "__main__":
    TALLY.main(*sys.argv[1:])
