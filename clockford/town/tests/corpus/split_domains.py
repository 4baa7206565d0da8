"""The words screen's corpus for names written with an escaped dot or cut by a line break: made in
memory, by kind, in two halves (dev to tune on; held-out with other names, other top-level domains,
other breaks and other ordinary text, measured once).

    .venv/bin/python -m clockford.town.tests.corpus.split_domains [dev|held]

Each case is {kind, variant, text, want}: want True when the screen must refuse it on a public
surface (a link), False when it must pass.

Kinds that must be refused:

- escaped-dot: a dot escaped with a backslash, as a regular expression or markdown writes it
  ("evil\\.com", "login\\.evil\\.org/reset"); held-out: two backslashes (a string's escape), an
  address, an IPv4 address.
- dot-break: a name cut after its dot ("evil.\\ncom"); held-out: indented next line, a Windows line
  end, a name of three labels, a path after it.
- break-dot: a name cut before its dot ("evil\\n.com"); held-out: indented, with a path.

Kinds that must pass:

- sentence-break: a sentence that ends with a dot at a line's end, the next line starting with a
  word that is also a top-level domain ("We shipped.\\nCom-munity next", "Done.\\nso what now",
  "ok.\\nme too"), in capitals or small letters.
- escaped-text: backslashes before dots that name no host: regular expressions ("\\d+\\.\\d+",
  "re\\.compile"), markdown escapes ("1\\. First", "Mr\\. Smith", "e\\.g\\."), file names ("app\\.py").
- line-dots: lines that start with a dot or end with one around ordinary words (".gitignore",
  ".NET 8", "…\\n.", numbered lists).
"""

import functools
import random
import sys

from clockford.town.tests.corpus.tally import Case, Tally, refused_in_public

SEED = 20261207
HALVES = ("dev", "held")
PER_KIND = 120


LABELS = {
    "dev": ["evil", "login-portal", "free-gifts", "secure-update", "acct-verify", "promo2025", "mirror", "dl-files"],
    "held": ["phish", "wallet-sync", "get-bonus", "support-desk", "cdn-static7", "reset-now", "claimprize", "vault"],
}
SUBS = {"dev": ["www", "login", "api", "mail"], "held": ["secure", "auth", "m", "portal"]}
TLDS = {"dev": ["com", "net", "org", "ru", "xyz"], "held": ["com", "net", "org", "uk", "cn", "biz"]}
FRAMES = {
    "dev": ["The mirror moved to {}", "download it from {} today", "{}", "Backup:\n{}\nthanks!"],
    "held": ["new home -> {}", "Grab the build at {} before it expires.", "see {} (official)", "link: {} ok?"],
}


def _host(half: str, r: random.Random, labels: int = 2) -> list[str]:
    parts = [r.choice(LABELS[half])]
    if labels > 2:
        parts.insert(0, r.choice(SUBS[half]))
    return [*parts, r.choice(TLDS[half])]


def _escaped(half: str, r: random.Random) -> tuple[str, str]:
    if half == "dev":
        how = r.choice(["one", "sub", "path"])
        host = _host(half, r, 3 if how == "sub" else 2)
        name = "\\.".join(host) + ("/reset" if how == "path" else "")
        return how, name
    how = r.choice(["double", "address", "ip", "double-path"])
    if how == "ip":
        return how, "\\.".join(str(r.randint(11, 223)) for _ in range(4))
    host = _host(half, r)
    if how == "address":
        return how, f"{r.choice(['admin', 'help', 'billing'])}@" + "\\.".join(host)
    return how, "\\\\.".join(host) + ("/login" if how == "double-path" else "")


def _dot_break(half: str, r: random.Random) -> tuple[str, str]:
    if half == "dev":
        how = r.choice(["plain", "sub"])
        host = _host(half, r, 3 if how == "sub" else 2)
        return how, ".".join(host[:-1]) + ".\n" + host[-1]
    how = r.choice(["indented", "crlf", "path", "second-level"])
    host = _host(half, r)
    if how == "second-level":
        return how, f"{host[0]}.\nco.uk"
    cut = {"indented": ".\n    ", "crlf": ".\r\n", "path": ".\n"}[how]
    return how, host[0] + cut + host[1] + ("/verify?id=7" if how == "path" else "")


def _break_dot(half: str, r: random.Random) -> tuple[str, str]:
    if half == "dev":
        how = r.choice(["plain", "sub"])
        host = _host(half, r, 3 if how == "sub" else 2)
        return how, ".".join(host[:-1]) + "\n." + host[-1]
    how = r.choice(["indented", "path"])
    host = _host(half, r)
    return how, host[0] + ("\n   ." if how == "indented" else "\n.") + host[1] + ("/x" if how == "path" else "")


# Ordinary text: what must pass.
STARTS = {
    "dev": {
        "capital": ["Com-munity", "Net result", "Org chart", "Info", "Co-op", "Me", "It", "So", "Top", "App"],
        "small": [
            "so",
            "me too",
            "it works",
            "now what",
            "how about lunch",
            "top of the list",
            "in a bit",
            "no worries",
        ],
    },
    "held": {
        "capital": ["Com", "Net", "Org", "Uk team", "Cn", "Biz dev", "Edu", "Gov", "Ru"],
        "small": ["to be fair", "us too", "my bad", "be right back", "go on", "do it", "app is fine", "info below"],
    },
}
ENDS = {
    "dev": ["We shipped.", "Done.", "ok.", "Sounds good.", "The lamps are lit.", "Thanks, all."],
    "held": ["That is settled.", "fine.", "Noted.", "The ledger balances.", "See above.", "Right."],
}
ESCAPED_TEXT = {
    "dev": [
        "The pattern \\d+\\.\\d+ matches a version like 1.2.",
        "Call re\\.compile once and reuse it.",
        "1\\. First item\n2\\. Second item",
        "Mr\\. Smith signed the ledger.",
        "Escape it, e\\.g\\. like this.",
        "Edit app\\.py and rerun.",
        "Use os\\.path\\.join for the files.",
        "Match ^v\\d\\.\\d$ on the tag.",
    ],
    "held": [
        "Section 3\\.2 covers the bells.",
        "Filter on \\.log$ files only.",
        "np\\.array and pd\\.read_csv both work.",
        "Regex: [a-z]+\\.[a-z]{{2}} finds words with a dot.",
        "Dr\\. Ortega keeps the key.",
        "The version string is v2\\.0\\.1 here.",
        "Quote it: data\\.json is the file.",
        "self\\.name is set in the constructor.",
    ],
}
LINE_DOTS = {
    "dev": [
        "Add these to\n.gitignore before you commit.",
        "We run\n.NET 8 on the mill.",
        "The list ends here\n...\nmore tomorrow.",
        "Step 1.\n2. Step two.\n3. Step three.",
        "Remember the\n.env file stays private.",
    ],
    "held": [
        "Hidden files like\n.bashrc and .profile load first.",
        "The framework is\n.NET Core, not Java.",
        "It trails off\n. . .\nand then stops.",
        "Version 2.\n3 is next.",
        "Keep the\n.venv folder out of the repository.",
    ],
}


def _ordinary(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    if kind == "sentence-break":
        case = r.choice(["capital", "small"])
        start = r.choice(STARTS[half][case])
        end = r.choice(ENDS[half])
        return case, f"{end}\n{start} {r.choice(['next week.', 'is up to you.', 'for the board.', ''])}".strip()
    table = ESCAPED_TEXT if kind == "escaped-text" else LINE_DOTS
    i = r.randrange(len(table[half]))
    lead = r.choice(["", "Note: ", "FYI ", "As said, "])
    return f"template-{i}", lead + table[half][i].format()


@functools.cache
def cases(half: str) -> tuple[Case, ...]:
    r = random.Random(f"{SEED}-{half}")
    out: list[Case] = []
    for kind, make in (("escaped-dot", _escaped), ("dot-break", _dot_break), ("break-dot", _break_dot)):
        for _ in range(PER_KIND):
            how, name = make(half, r)
            out.append(Case(kind, how, r.choice(FRAMES[half]).format(name), True))
    for kind in ("sentence-break", "escaped-text", "line-dots"):
        for _ in range(PER_KIND):
            variant, text = _ordinary(kind, half, r)
            out.append(Case(kind, variant, text, False))
    return tuple(out)


TALLY = Tally(cases, refused_in_public, HALVES, "refused", "links", "ordinary")
rates, totals, report = TALLY.rates, TALLY.totals, TALLY.report

if __name__ == "__main__":
    TALLY.main(*sys.argv[1:])
