"""The words screen's corpus for names cut by a line break or by blanks after their dot, under every
class of top-level domain the screen knows, and for prose where a sentence ends with a dot and the
next sentence or line starts with a word that is also a top-level domain. It extends split_domains.py
(which keeps its own cases and numbers). Made in memory, by kind, in two halves: dev to tune on;
held-out with other names, other top-level domains, other frames and other prose, measured once.

    .venv/bin/python -m clockford.town.tests.corpus.cut_names [dev|held]

Each case is {kind, variant, text, want}: want True when the screen must refuse it on a public
surface (a link), False when it must pass. Every name here, written with a plain dot, is refused by
the bare-name rules (test_cut_names_corpus checks it): a cut name the screen passes is a miss of the
break's reading, not of the bare-name rules.

Kinds that must be refused (the variant says how the name is cut):

- cut-common: a well-known top-level domain not on the short list words._BROKEN_TLDS (tv, ca, eu,
  shop, online; held-out: site, club, nz, vip, tech), in small letters;
- cut-sometimes: one that is also a product or code name (io, app, dev, studio; held-out: ai, media,
  digital, agency);
- cut-ordinary: one that is also a word or a file extension (me, info, name, page, md; held-out: link,
  email, live, life, sh), with a path after it or a host's hyphen or digit before the break, as a
  plain-dot name needs;
- cut-newer: a newer one of the public suffix list (click, guru, rocks, download; held-out: support,
  bond, codes, cyou);
- cut-capitals: a capital after the break (`evil.\\nCOM`, `Evil.\\nNet`, `promo2025.\\nCom`,
  `evil.\\nIo/login`), the label before in either case;
- cut-several: several breaks (`login.\\nevil.\\ncom`, `evil.\\nco.\\nuk`, `www.\\nevil.\\nio`);
- cut-crlf: Windows line ends (`evil.\\r\\nio`, `evil\\r\\n.shop`), with blanks after the break too;
- cut-alone: a Titlecase domain or two capitals alone on the line after one plain label
  (`evil.\\nCom`, `evil.\\nIO`, `mirror.\\nIo`), after a word that sends the reader there or on a
  line of its own;
- cut-words-after: a cut name with more words after it on its line (`visit evil.\\nshop for details`,
  `get it from evil.\\nCom now`), in small letters and with a capital;
- cut-spaced: a name with blanks after its dot on one line, in small letters (`evil. com`, `visit
  evil. net for details`, `promo2025. org today`).

Kinds that must pass:

- prose-spaced: a sentence, a dot, a space, and a sentence starting with a word that is also a
  top-level domain ("Done. Net result was fine.");
- prose-line: the same across a line break, and with Windows line ends ("See the list.\\nApp store
  opens at nine.");
- prose-caps: the next line starting with a word in capitals ("I agree.\\nIO errors are down.",
  "COM port 3 is free.");
- prose-small: chat in small letters, the next line starting with such a word and more words, or a
  word that makes a line of its own ("ok.\\napp is fine", "that was it.\\nlol"), or a signature's
  initials or short name ("Thanks.\\nJP");
- prose-tld-line: a line starting with a Titlecase word or two capitals that is also a domain, after
  a line ending in a word and a dot ("Done.\\nIt works", "see.\\nAI models", "team.\\nCo-founders",
  "Let me know.\\nJP", "Noted.\\nCom", "Approved.\\nMK"), after a word that sends a reader
  somewhere ("We went to the market.\\nNet result: …");

Chat in small letters that ends a sentence and begins the next on the same line with a word of the
short list ("done. net result was fine") is refused on purpose, as "evil. com" is (words.py says why):
it is in tests/test_words.py, not here.
"""

import functools
import random
import sys

from clockford.town import words
from clockford.town.tests.corpus.tally import Case, Tally, refused_in_public

SEED = 20261207
HALVES = ("dev", "held")
PER_KIND = 120


LABELS = {
    "dev": ["evil", "login-portal", "free-gifts", "acct-verify", "promo2025", "mirror", "dlfiles", "getpaid"],
    "held": ["phish", "wallet-sync", "bonus4u", "support-desk", "cdn7", "resetnow", "claimprize", "vault"],
}
SUBS = {"dev": ["www", "login", "mail"], "held": ["secure", "auth", "portal"]}
TLDS = {
    "cut-common": {"dev": ["tv", "ca", "eu", "shop", "online"], "held": ["site", "club", "nz", "vip", "tech"]},
    "cut-sometimes": {"dev": ["io", "app", "dev", "studio"], "held": ["ai", "media", "digital", "agency"]},
    "cut-ordinary": {"dev": ["me", "info", "name", "page", "md"], "held": ["link", "email", "live", "life", "sh"]},
    "cut-newer": {"dev": ["click", "guru", "rocks", "download"], "held": ["support", "bond", "codes", "cyou"]},
    "cut-capitals": {"dev": ["com", "net", "org", "io", "xyz"], "held": ["com", "net", "biz", "ru", "shop"]},
    "cut-several": {"dev": ["com", "io", "shop"], "held": ["org", "app", "site"]},
    "cut-crlf": {"dev": ["io", "shop", "com", "click"], "held": ["ai", "site", "net", "support"]},
}
FRAMES = {
    "dev": ["The mirror moved to {}", "download it from {} today", "{}", "Backup:\n{}\nthanks!", "{}, for now"],
    "held": ["new home -> {}", "Grab the build at {} before it expires.", "see {} (official)", "link: {} ok?", "{}!"],
}
PATHS = {"dev": ["/login", "/x?id=7", ":8443/"], "held": ["/reset", "/v/2", ":8080"]}


def _name(half: str, r: random.Random, kind: str) -> tuple[str, list[str]]:
    """A name's labels before its top-level domain, and the domain, for a kind."""
    tld = r.choice(TLDS[kind][half])
    return tld, [r.choice(LABELS[half])]


def _cut(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    tld, before = _name(half, r, kind)
    host = ".".join(before)
    if kind in ("cut-common", "cut-sometimes", "cut-newer"):
        how = r.choice(["dot-break", "break-dot", "dot-break-path"])
        if how == "break-dot":
            return how, f"{host}\n.{tld}"
        return how, f"{host}.\n{tld}" + (r.choice(PATHS[half]) if how == "dot-break-path" else "")
    if kind == "cut-ordinary":
        # A file extension needs a path even with a plain dot (sign-in.md is a file).
        how = "path" if tld in words._FILE_EXTENSIONS else r.choice(["path", "hyphen", "digit"])
        if how == "path":
            return how, f"{host}.\n{tld}{r.choice([p for p in PATHS[half] if '/' in p])}"
        left = {"hyphen": {"dev": "sign-in", "held": "pay-now"}, "digit": {"dev": "login2", "held": "acct9"}}[how][half]
        return how, f"{left}.\n{tld}"
    if kind == "cut-capitals":
        how = r.choice(["caps", "caps-title-label", "title-path", "title-host", "title-sub", "title-alone"])
        if how == "caps-title-label" and tld not in words._SOMETIMES:  # Evil.IO is a library's name
            return how, f"{host.title()}.\n{tld.upper()}"
        if how in ("caps", "caps-title-label"):
            return "caps", f"{host}.\n{tld.upper()}"
        if how == "title-path":
            return how, f"{host}.\n{tld.title()}{r.choice(PATHS[half])}"
        if how == "title-host":
            left = {"dev": "secure-login", "held": "promo77"}[half]
            return how, f"{left}.\n{tld.title()}"
        if how == "title-sub":
            return how, f"{r.choice(SUBS[half])}.{host}.\n{tld.title()}"
        return how, f"{host}.\n{tld.title()}"  # indistinguishable from "fine.\nCom": see words.py
    if kind == "cut-several":
        how = r.choice(["sub-each", "second-level", "www", "break-dot-each"])
        if how == "sub-each":
            return how, f"{r.choice(SUBS[half][1:])}.\n{host}.\n{tld}"
        if how == "second-level":
            return how, f"{host}.\n{'co' if half == 'dev' else 'org'}.\nuk"
        if how == "www":
            return how, f"www.\n{host}.\n{tld}"
        return how, f"{r.choice(SUBS[half][1:])}\n.{host}\n.{tld}"
    how = r.choice(["dot-break", "break-dot", "indented", "path"])
    if how == "break-dot":
        return how, f"{host}\r\n.{tld}"
    if how == "indented":
        return how, f"{host}.\r\n    {tld}"
    return how, f"{host}.\r\n{tld}" + (r.choice(PATHS[half]) if how == "path" else "")


# Ordinary prose: a sentence ends and the next starts with a word that is also a top-level domain.
ENDS = {
    "dev": ["Done.", "We shipped it.", "See the list.", "The bells rang.", "That was the plan.", "ok, fixed."],
    "held": ["I agree.", "It is settled.", "Read the notes.", "The mill turned.", "All good here.", "We met at noon."],
}
STARTS = {
    "dev": [
        "Net result: two more rooms.",
        "App store opens at nine.",
        "Info is on the board.",
        "Design review is on Friday.",
        "Media folks will join us.",
        "Studio time is booked.",
        "Top of the list is rent.",
        "Live music starts later.",
        "Page two has the map.",
        "Org chart is pinned up.",
        "Com-munity night is Thursday.",
        "Shop hours are longer now.",
        "Online voting closes soon.",
        "Club members get a discount.",
    ],
    "held": [
        "Network traffic doubled.",
        "Services resume at six.",
        "Digital copies are fine.",
        "Art class is full.",
        "Store credit works too.",
        "Cloud cover kept it cool.",
        "News travels fast here.",
        "Travel plans changed.",
        "Space is tight in the hall.",
        "Edu folks asked for a tour.",
        "Gov forms are due Monday.",
        "Click the lamp twice to dim it.",
        "Support arrived before noon.",
        "Email me the ledger, please.",
    ],
}
CAPS = {
    "dev": ["IO errors are down.", "NET income rose this month.", "UK team joins at ten.", "APP review is done."],
    "held": ["COM port 3 is free.", "AI notes are in the folder.", "ORG rules apply to guests.", "CA rules differ."],
}
SMALL = {
    "dev": ["app is fine", "io is slow today", "info below", "studio is free", "dev build is out", "me too"],
    "held": ["ai did the summary", "shop opens late", "media is here", "site looks good", "tech talk at 3", "us too"],
}
LONE = {
    "dev": ["lol", "wow", "fyi", "so", "me"],
    "held": ["help", "you", "here", "no", "love"],
}
SIGNED = {"dev": ["JP", "Mo", "Al"], "held": ["Jo", "Kim", "AB"]}
SMALL_ENDS = {"dev": ["ok.", "done.", "that was it.", "fixed it."], "held": ["fine.", "noted.", "got it.", "all set."]}
SIGN_ENDS = {"dev": ["Thanks.", "Cheers."], "held": ["Best.", "See you."]}


def _prose(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    if kind == "prose-spaced":
        return "spaced", f"{r.choice(ENDS[half])} {r.choice(STARTS[half])}"
    if kind == "prose-line":
        how = r.choice(["lf", "crlf", "blank-line"])
        gap = {"lf": "\n", "crlf": "\r\n", "blank-line": "\n\n"}[how]
        return how, f"{r.choice(ENDS[half])}{gap}{r.choice(STARTS[half])}"
    if kind == "prose-caps":
        how = r.choice(["lf", "spaced"])
        return how, f"{r.choice(ENDS[half])}{' ' if how == 'spaced' else chr(10)}{r.choice(CAPS[half])}"
    how = r.choice(["small", "small", "lone", "signed"])
    if how == "small":
        return how, f"{r.choice(SMALL_ENDS[half])}\n{r.choice(SMALL[half])}"
    if how == "lone":
        return how, f"{r.choice(SMALL_ENDS[half])}\n{r.choice(LONE[half])}"
    return how, f"{r.choice(SIGN_ENDS[half])}\n{r.choice(SIGNED[half])}"


# Names cut and alone on their line (cut-alone), cut and followed by more words (cut-words-after), and
# spaced on one line in small letters (cut-spaced): the labels, domains and frames of each half.
ALONE_TLDS = {
    "dev": {"title": ["com", "net", "org", "xyz"], "two-caps": ["io", "ru", "tv"], "title-two": ["io", "ru"]},
    "held": {"title": ["biz", "edu", "shop", "site"], "two-caps": ["ai", "ly", "cn"], "title-two": ["ai", "nz"]},
}
ALONE_FRAMES = {
    "dev": ["{}", "The mirror moved to {}", "Backup:\n{}\nthanks!", "visit {}", "{}, for now"],
    "held": ["new home -> {}", "see {} (official)", "{}!", "mirror at {}", "Found it:\n{}\n\nbye"],
}
AFTER_TLDS = {
    "dev": {
        "small": ["shop", "io", "click", "tv"],
        "small-short-list": ["com", "ru"],
        "capital": ["Com", "NET", "Xyz"],
    },
    "held": {
        "small": ["site", "ai", "bond", "vip"],
        "small-short-list": ["org", "uk"],
        "capital": ["Org", "BIZ", "Ru"],
    },
}
AFTER_FRAMES = {
    "dev": ["visit {} for details", "get it at {} now", "download it from {} today", "see {} if it breaks"],
    "held": ["grab the build from {} before noon", "the files are at {} as before", "go to {} and log in"],
}
SPACED_TLDS = {"dev": ["com", "net"], "held": ["org", "com"]}
SPACED_FRAMES = {
    "dev": ["{}", "visit {} for details", "the mirror: {}", "{} has the files", "get it at {}!"],
    "held": ["try {} instead", "new home -> {} ok", "{}, then log in", "it lives at {} now", "see {}."],
}


def _cut_more(kind: str, half: str, r: random.Random) -> tuple[str, str, str]:
    """A case of cut-alone, cut-words-after or cut-spaced: (variant, name, frame)."""
    label = r.choice(LABELS[half])
    if kind == "cut-alone":
        how = r.choice(["title", "two-caps", "title-two"])
        tld = r.choice(ALONE_TLDS[half][how])
        return how, f"{label}.\n{tld.upper() if how == 'two-caps' else tld.title()}", r.choice(ALONE_FRAMES[half])
    if kind == "cut-words-after":
        how = r.choice(["small", "small", "small-short-list", "capital"])
        return how, f"{label}.\n{r.choice(AFTER_TLDS[half][how])}", r.choice(AFTER_FRAMES[half])
    how = r.choice(["host", "word"])
    left = {"host": {"dev": "free-gifts", "held": "acct9"}[half], "word": label}[how]
    if how == "word" and not left.isalpha():
        how = "host"
    return how, f"{left}. {r.choice(SPACED_TLDS[half])}", r.choice(SPACED_FRAMES[half])


# Prose: a line starting with a Titlecase word or two capitals that is also a domain.
TLD_LINES = {
    "dev": [
        ("Done.", "It works now."),
        ("Done.", "It"),
        ("see.", "AI models are slow today."),
        ("Thanks to the team.", "Co-founders meet at noon."),
        ("Let me know.", "JP"),
        ("Noted.", "Com"),
        ("Approved.", "MK"),
        ("Merged.", "DE"),
        ("Cheers.", "Jo"),
        ("We went to the market.", "Net result: two loaves."),
        ("I moved to the east wing.", "IT can find me there."),
        ("Signed.", "Al"),
    ],
    "held": [
        ("Agreed.", "It is the better plan."),
        ("ok.", "AI summary below."),
        ("Fixed.", "It"),
        ("Talk soon.", "MO"),
        ("Confirmed.", "CA"),
        ("Sure.", "Org chart is on the wall."),
        ("Regards.", "Al"),
        ("Back at the desk.", "US team is online."),
        ("The build went to the testers.", "Net effect: none."),
        ("Deployed.", "JM"),
        ("Send it to me.", "Me"),
        ("Nice work.", "Kim"),
    ],
}

CUT_KINDS = ("cut-common", "cut-sometimes", "cut-ordinary", "cut-newer", "cut-capitals", "cut-several", "cut-crlf")
MORE_CUT_KINDS = ("cut-alone", "cut-words-after", "cut-spaced")
PROSE_KINDS = ("prose-spaced", "prose-line", "prose-caps", "prose-small")
MORE_PROSE_KINDS = ("prose-tld-line",)


@functools.cache
def cases(half: str) -> tuple[Case, ...]:
    r = random.Random(f"{SEED}-cut-{half}")
    out: list[Case] = []
    for kind in CUT_KINDS:
        for _ in range(PER_KIND):
            how, name = _cut(kind, half, r)
            out.append(Case(kind, how, r.choice(FRAMES[half]).format(name), True))
    for kind in PROSE_KINDS:
        for _ in range(PER_KIND):
            how, text = _prose(kind, half, r)
            out.append(Case(kind, how, text, False))
    # The kinds added later draw from a generator of their own, so the cases above stay as they were.
    r = random.Random(f"{SEED}-cut-more-{half}")
    for kind in MORE_CUT_KINDS:
        for _ in range(PER_KIND):
            how, name, frame = _cut_more(kind, half, r)
            out.append(Case(kind, how, frame.format(name), True))
    for end, start in TLD_LINES[half]:
        for gap, how in (("\n", "lf"), ("\r\n", "crlf"), ("\n\n", "blank-line")):
            out.append(Case("prose-tld-line", how, f"{end}{gap}{start}", False))
    return tuple(out)


def plain(case: Case) -> str:
    """A cut name's text with its breaks and blanks at a dot taken out: the same name, plain."""
    text = case.text.replace("\r\n", "\n").replace(".\n    ", ".")
    if case.kind == "cut-spaced":
        return text.replace(". ", ".", 1)
    return text.replace(".\n", ".").replace("\n.", ".")


TALLY = Tally(cases, refused_in_public, HALVES, "refused", "names", "prose", width=14, variants=True)
rates, totals, report = TALLY.rates, TALLY.totals, TALLY.report

if __name__ == "__main__":
    TALLY.main(*sys.argv[1:])
