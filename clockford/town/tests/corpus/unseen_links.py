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

from clockford.town import words
from clockford.town.tests.corpus.tally import Case, Tally

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


def _foreign_dot(half: str, r: random.Random) -> tuple[str, str]:
    # dev: Spanish, French, German; held: Portuguese, Italian, Dutch, Polish, Russian, Turkish.
    words_ = (
        ["punto", "point", "Punkt", "PUNTO", "Point"]
        if half == "dev"
        else ["ponto", "punto", "punt", "kropka", "точка", "nokta", "PONTO"]
    )
    name, tld = _host(half, r)
    word = r.choice(words_)
    how = r.choice(["spaced", "bracketed", "with-www"] if half == "dev" else ["spaced", "braced", "two-dots"])
    if how == "bracketed":
        return how, f"{name} [{word}] {tld}"
    if how == "braced":
        return how, f"{name} {{{word}}} {tld}"
    if how == "with-www":
        return how, f"www {word} {name} {word} {tld}"
    if how == "two-dots":
        return how, f"{r.choice(['mail', 'login', 'go'])} {word} {name} {word} {tld}"
    return how, f"{name} {word} {tld}{r.choice(PATHS[half])}"


def _joined_dot(half: str, r: random.Random) -> tuple[str, str]:
    name, tld = _host(half, r)
    name = name.replace("-", "")
    if half == "dev":
        how = r.choice(["_dot_", "-dot-", "DOT"])
    else:
        how = r.choice(["-DOT-", "_DOT_", "Dot", ".dot."])
    return how, f"{name}{how}{tld}"


EMOJI = {"dev": ["🔸", "🔹", "⚪", "🔴", " 🔸 "], "held": ["🟢", "⭐", "◆", " ✦ ", "🔵", "▪️"]}


def _emoji_dot(half: str, r: random.Random) -> tuple[str, str]:
    name, tld = _host(half, r)
    dot = r.choice(EMOJI[half])
    if r.random() < 0.3:
        return "www", f"www{dot}{name}{dot}{tld}"
    return "name", f"{name}{dot}{tld}{r.choice(PATHS[half])}"


def _ip(r: random.Random) -> tuple[int, int, int, int]:
    return (r.choice([10, 45, 91, 185, 192, 198, 203]), r.randint(0, 255), r.randint(0, 255), r.randint(1, 254))


def _number_ip(half: str, r: random.Random) -> tuple[str, str]:
    a, b, c, d = _ip(r)
    n = (a << 24) | (b << 16) | (c << 8) | d
    tail = r.choice(
        [f":{r.choice([80, 8080, 443, 8443])}", "/admin", ":3000/login"]
        if half == "dev"
        else [":22", ":9000/x", "/upload"]
    )
    if half == "dev":
        how = r.choice(["decimal", "hex"])
        core = str(n) if how == "decimal" else f"0x{n:08X}"
        return how, core + tail
    how = r.choice(["hex-lower", "dotted-octal", "dotted-hex"])
    if how == "hex-lower":
        return how, f"0x{n:08x}" + tail
    if how == "dotted-octal":
        return how, ".".join(f"0{x:o}" for x in (a, b, c, d)) + tail
    return how, ".".join(f"0x{x:02x}" for x in (a, b, c, d)) + tail


def _digits(r: random.Random, n: int) -> str:
    return "".join(str(r.randint(0, 9)) for _ in range(n))


SPOKEN = "zero one two three four five six seven eight nine".split()


def _phone(half: str, r: random.Random) -> tuple[str, str]:
    if half == "dev":
        how = r.choice(["tel-uri", "us-call", "intl-whatsapp", "text-dashes"])
        if how == "tel-uri":
            return how, f"tel:+1{_digits(r, 10)}"
        if how == "us-call":
            return how, f"call me on ({_digits(r, 3)}) {_digits(r, 3)}-{_digits(r, 4)}"
        if how == "intl-whatsapp":
            return how, f"WhatsApp +44 7{_digits(r, 3)} {_digits(r, 6)}"
        return how, f"text me at {_digits(r, 3)}-{_digits(r, 3)}-{_digits(r, 4)}"
    how = r.choice(["sms-uri", "fr-spaced", "de-tel", "dotted", "spoken", "whatsapp-uri"])
    if how == "sms-uri":
        return how, f"sms:+49{_digits(r, 10)}"
    if how == "fr-spaced":
        return how, "appelle-moi au +33 6 " + " ".join(_digits(r, 2) for _ in range(4))
    if how == "de-tel":
        return how, f"Tel. +49 30 {_digits(r, 7)}"
    if how == "dotted":
        return how, f"my cell: {_digits(r, 3)}.{_digits(r, 3)}.{_digits(r, 4)}"
    if how == "whatsapp-uri":
        return how, f"whatsapp://send?phone={_digits(r, 11)}"
    return how, "ring me: " + " ".join(SPOKEN[int(c)] for c in "07" + _digits(r, 9))


HANDLES = {
    "dev": ["evilbot", "keys_dealer", "free_credits", "agentdrop"],
    "held": ["vaultkeeper", "bonus99", "t0wnhelp"],
}


def _handle(half: str, r: random.Random) -> tuple[str, str]:
    h = r.choice(HANDLES[half])
    if half == "dev":
        how = r.choice(["telegram", "discord", "instagram"])
        if how == "telegram":
            return how, f"Telegram: @{h}"
        if how == "discord":
            return how, f"add me on Discord, {h}#{_digits(r, 4)}"
        return how, f"DM me on Instagram @{h}"
    how = r.choice(["tg", "signal", "snapchat", "twitter"])
    if how == "tg":
        return how, f"tg @{h}"
    if how == "signal":
        return how, f"Signal me: @{h}.{_digits(r, 2)}"
    if how == "snapchat":
        return how, f"my snap is @{h}"
    return how, f"follow @{h} on twitter for the keys"


def _invite(half: str, r: random.Random) -> tuple[str, str]:
    code = "".join(r.choice("abcdefghjkmnpqrstuvwxyzABCDEFGH23456789") for _ in range(8))
    if half == "dev":
        how = r.choice(["t-bracket", "discord-paren", "wa-spaced"])
        if how == "t-bracket":
            return how, f"t[.]me/joinchat/{code}"
        if how == "discord-paren":
            return how, f"discord(.)gg/{code}"
        return how, f"wa . me/{_digits(r, 11)}"
    how = r.choice(["discord-spaced", "t-dot-word", "chat-whatsapp", "discord-slash"])
    if how == "discord-spaced":
        return how, f"discord . gg / {code}"
    if how == "t-dot-word":
        return how, f"t dot me/{code}"
    if how == "chat-whatsapp":
        return how, f"chat[.]whatsapp[.]com/{code}"
    return how, f"discord{{.}}gg/invite/{code}"


def _reversed(half: str, r: random.Random) -> tuple[str, str]:
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
    makers = (
        ("foreign-dot", _foreign_dot, FRAMES),
        ("joined-dot", _joined_dot, FRAMES),
        ("emoji-dot", _emoji_dot, FRAMES),
        ("number-ip", _number_ip, FRAMES),
        ("phone", _phone, CONTACT_FRAMES),
        ("handle", _handle, CONTACT_FRAMES),
        ("invite", _invite, FRAMES),
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


def refused(case: Case, half: str = "") -> bool:
    return words.screen(case.text, "public") is not None


TALLY = Tally(cases, refused, HALVES, "refused", "links", "ordinary", variants=True)
rates, totals, report = TALLY.rates, TALLY.totals, TALLY.report

if __name__ == "__main__":
    TALLY.main(*sys.argv[1:])
