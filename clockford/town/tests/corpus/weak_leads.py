"""The words screen's corpus for names cut by a line break at a dot after a weak lead-in: a word that
points at a place but also ends many sentences ("see", "at", "from", "on", "to", "link:", "->"),
unlike the strong ones of words._LEADS_TO ("visit", "go to", "download it from"). It extends
cut_names.py (which keeps its own cases and numbers), whose held-out half caught such names poorly.
Made in memory, by kind, in two halves: dev to tune on; held-out with other lead-ins, other names,
other top-level domains, other words after the name and other prose, measured once.

    .venv/bin/python -m clockford.town.tests.corpus.weak_leads [dev|held]

Each case is {kind, variant, text, want}: want True when the screen must refuse it on a public
surface (a link), False when it must pass. Every name here, written with a plain dot, is refused by
the bare-name rules (test_weak_leads_corpus checks it). The variant is the disguise: the line end
(lf, crlf, a blank line), an indented next line, the label in Titlecase, the label shaped as a host
(a hyphen, a digit, a subdomain), punctuation after the name.

Kinds that must be refused:

- weak-title-alone: a Titlecase domain of three letters or more alone on the line after the break
  ("see evil.\\nCom", "at evil.\\nShop!");
- weak-title-words: a Titlecase domain that is not an English word, then words that carry the first
  sentence on ("see evil.\\nCom for details", "at evil.\\nBiz (official)", "from evil.\\nRu today");
- weak-caps-words: the same in capitals, three letters or more ("at evil.\\nCOM before noon");
- weak-shaped: a name shaped as a host before the break (promo77, sign-in, auth.vault) and any
  capital after it, with any words after ("see promo77.\\nShop today", "link: auth.vault.\\nNET ok?").

Kinds that must pass (the same lead-ins end each first sentence):

- prose-weak-title: a Titlecase word that is also a domain starts the next sentence ("See you
  tomorrow. Net income rose", "I went to Boston.\\nCom port 3 is free");
- prose-weak-caps: a word in capitals starts it ("Meet me at noon.\\nUK team joins at ten");
- prose-weak-sign: a signature, initials or a word of its own on the next line ("See you at
  noon.\\nJP", "Look at that.\\nWow");
- prose-weak-function: a word that is also a domain and a word of English grammar, then words that
  could carry a sentence on ("See you there.\\nAs for the rest, fine.", "Net for the year was up");
- prose-weak-heading: a heading alone on the next line ("Got it from Anna.\\nNews"), or a department's
  short name after a first sentence that ends with a pronoun, a place or a time ("See above.\\nGov").
"""

import functools
import random
import sys

from clockford.town.tests.corpus.tally import Case, Tally, refused_in_public

SEED = 20261209
HALVES = ("dev", "held")
PER_KIND = 100

LEADS = {
    "dev": ["see {}", "Look at {}", "get it from {}", "link: {}", "it's at {}", "sign in at {}", "try {}"],
    "held": ["open {}", "the files are on {}", "new home -> {}", "url: {}", "pull it from {}", "it lives at {}"],
}
LABELS = {
    "dev": ["evil", "mirror", "getpaid", "dlfiles", "vault", "freebies"],
    "held": ["phish", "claimprize", "resetnow", "walletsync", "bonuses", "keyshop"],
}
SHAPED = {
    "dev": ["promo77", "sign-in", "auth.vault", "login2", "www.getpaid"],
    "held": ["acct9", "pay-now", "secure.phish", "cdn7", "portal.bonuses"],
}
ALONE_TLDS = {"dev": ["com", "org", "biz", "shop", "online"], "held": ["net", "edu", "xyz", "site", "club"]}
WORDS_TLDS = {"dev": ["com", "org", "biz", "ru", "gov"], "held": ["xyz", "edu", "cn", "uk", "mil"]}
CAPS_TLDS = {"dev": ["com", "org", "biz", "shop"], "held": ["net", "xyz", "edu", "site"]}
SHAPED_TLDS = {"dev": ["Com", "SHOP", "Net", "IO", "Ru"], "held": ["Org", "SITE", "Biz", "AI", "Cn"]}
CARRY_ON = {
    "dev": ["for details", "if it breaks", "today", "(official)", "ok?", "and sign in", "- quick!"],
    "held": ["before noon", "as before", "now", "instead", "(mirror)", "please", "then log in", "until Friday"],
}
ALONE_END = {"dev": ["", ".", "!", "\n\nthanks"], "held": ["", "?", " :)", "\nbye"]}


def _gap(r: random.Random, half: str) -> tuple[str, str]:
    """The break and what may come before the next line: (variant, text)."""
    return r.choice(
        {
            "dev": [("lf", ".\n"), ("lf", ".\n"), ("crlf", ".\r\n"), ("indented", ".\n  ")],
            "held": [("lf", ".\n"), ("lf", ".\n"), ("crlf", ".\r\n"), ("indented", ".\r\n\t")],
        }[half]
    )


def _label(r: random.Random, half: str, kind: str) -> tuple[str, str]:
    if kind == "weak-shaped":
        return "shaped", r.choice(SHAPED[half])
    label = r.choice(LABELS[half])
    return ("title-label", label.title()) if r.random() < 0.25 else ("", label)


def _name(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    how, gap = _gap(r, half)
    shape, label = _label(r, half, kind)
    how = f"{how}+{shape}" if shape else how
    lead = r.choice(LEADS[half])
    if kind == "weak-title-alone":
        name = f"{label}{gap}{r.choice(ALONE_TLDS[half]).title()}{r.choice(ALONE_END[half])}"
    elif kind == "weak-title-words":
        name = f"{label}{gap}{r.choice(WORDS_TLDS[half]).title()} {r.choice(CARRY_ON[half])}"
    elif kind == "weak-caps-words":
        name = f"{label}{gap}{r.choice(CAPS_TLDS[half]).upper()} {r.choice(CARRY_ON[half])}"
    else:
        tail = r.choice(["", " " + r.choice(CARRY_ON[half]), " " + r.choice(CARRY_ON[half]).split()[0]])
        name = f"{label}{gap}{r.choice(SHAPED_TLDS[half])}{tail}"
    return how, lead.format(name)


# Prose: a first sentence ending with a weak lead-in and one word, then a second sentence.
ENDS = {
    "dev": [
        "See you tomorrow.",
        "I went to Boston.",
        "We met at noon.",
        "It came from Leeds.",
        "Look at that.",
        "Meet me at home.",
        "The keys are on the hook, see above.",
        "Try again.",
        "Note: done.",
        "We're at lunch.",
    ],
    "held": [
        "I'm at work.",
        "Talk to you soon.",
        "Got it from Anna.",
        "See you there.",
        "He sat on it.",
        "Open it.",
        "Back to basics.",
        "Status: fixed.",
        "The cart went from Thornbury to Ashby.",
    ],
}
TITLE_STARTS = {
    "dev": [
        "Net income rose this month.",
        "Org chart is pinned up.",
        "Com port 3 is free.",
        "Biz news: the mill reopened.",
        "Shop hours are longer now.",
        "Online voting closes soon.",
        "Gov forms are due Monday.",
        "Net result: two more rooms.",
        "Club night is on Friday.",
    ],
    "held": [
        "Edu budget grew a little.",
        "Site visit is Monday.",
        "Store credit works too.",
        "Net effect: none.",
        "Tech talk starts at three.",
        "Xyz coordinates are in the log.",
        "Mil spec cables arrived.",
        "Org rules apply to guests.",
        "Club members get a discount.",
    ],
}
CAPS_STARTS = {
    "dev": ["UK team joins at ten.", "IO errors are down.", "NET income rose.", "COM port 3 is free.", "ORG chart v2."],
    "held": ["AI notes are in the folder.", "ML models train overnight.", "EDU rates apply.", "CN office opens at 9."],
}
SIGNS = {
    "dev": ["JP", "Kim", "Mo", "Al", "Wow", "Fun", "Thanks", "CA"],
    "held": ["Jo", "AB", "MK", "Best", "Lol", "Art", "Cheers", "NZ"],
}
FUNCTION_STARTS = {
    "dev": [
        "As for the rest, fine.",
        "So if it rains we stay in.",
        "In the end it worked.",
        "No, not today.",
        "Me too, for now.",
        "Net for the year was up.",
        "It is done, as before.",
        "Us and them, as always.",
    ],
    "held": [
        "To be fair, it was late.",
        "Do it now, please.",
        "Be there before noon.",
        "Is it ok?",
        "My turn today.",
        "Shop before noon if you can.",
        "At least it is dry.",
        "By then it was over.",
    ],
}
# A line of its own after the first sentence: a heading, or a department's short name after a first
# sentence that ends with a pronoun, a place or a time ("See above.\nGov").
HEADINGS = {
    "dev": ["News", "Travel", "Shop", "Online", "Jobs", "Net"],
    "held": ["Blog", "Club", "Space", "Site", "Cloud", "Pro"],
}
DEPARTMENTS = {"dev": ["Org", "Gov", "Com"], "held": ["Edu", "Biz", "Mil"]}
ENDS_CLOSED = {
    "dev": ["See above.", "Look at it.", "Meet me at home.", "We met at noon.", "Talk to you later."],
    "held": ["See below.", "Open them.", "I'm at work.", "Send it to me.", "Go from there."],
}
AFTER_HEADING = {"dev": ["", "\nThe mill reopened.", "\n- two rooms left"], "held": ["", "\nAll quiet.", ":\n1. rent"]}
PROSE_GAPS = {
    "dev": [("spaced", " "), ("lf", "\n"), ("crlf", "\r\n"), ("blank-line", "\n\n")],
    "held": [("spaced", " "), ("lf", "\n"), ("crlf", "\r\n"), ("blank-line", "\n\n")],
}


def _prose(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    how, gap = r.choice(PROSE_GAPS[half])
    end = r.choice(ENDS[half])
    if kind == "prose-weak-sign":
        how, gap = r.choice([g for g in PROSE_GAPS[half] if g[0] != "spaced"])
        return how, f"{end}{gap}{r.choice(SIGNS[half])}"
    if kind == "prose-weak-heading":
        how, gap = r.choice([g for g in PROSE_GAPS[half] if g[0] != "spaced"])
        if r.random() < 0.5:
            return f"{how}+closed", f"{r.choice(ENDS_CLOSED[half])}{gap}{r.choice(DEPARTMENTS[half])}"
        return how, f"{end}{gap}{r.choice(HEADINGS[half])}{r.choice(AFTER_HEADING[half])}"
    starts = {"prose-weak-title": TITLE_STARTS, "prose-weak-caps": CAPS_STARTS, "prose-weak-function": FUNCTION_STARTS}
    return how, f"{end}{gap}{r.choice(starts[kind][half])}"


NAME_KINDS = ("weak-title-alone", "weak-title-words", "weak-caps-words", "weak-shaped")
PROSE_KINDS = ("prose-weak-title", "prose-weak-caps", "prose-weak-sign", "prose-weak-function", "prose-weak-heading")


@functools.cache
def cases(half: str) -> tuple[Case, ...]:
    r = random.Random(f"{SEED}-weak-{half}")
    out: list[Case] = []
    for kind in NAME_KINDS:
        for _ in range(PER_KIND):
            how, text = _name(kind, half, r)
            out.append(Case(kind, how, text, True))
    for kind in PROSE_KINDS:
        for _ in range(PER_KIND):
            how, text = _prose(kind, half, r)
            out.append(Case(kind, how, text, False))
    return tuple(out)


def plain(case: Case) -> str:
    """A cut name's text with its break (and the blanks that indent the next line) taken out."""
    text = case.text.replace("\r\n", "\n")
    for gap in (".\n  ", ".\n\t", ".\n"):
        text = text.replace(gap, ".", 1) if gap in text else text
    return text


TALLY = Tally(cases, refused_in_public, HALVES, "refused", "names", "prose", width=19, variants=True)
rates, totals, report = TALLY.rates, TALLY.totals, TALLY.report

if __name__ == "__main__":
    TALLY.main(*sys.argv[1:])
