"""The words screen's corpus for a bare site name under a word-like top-level domain with words around
it that the older corpora (word_tlds.py) did not write, for dots said or spelled with signs, and for
the file lists, review notes, changelogs and prose that write the same names and words. Made in
memory, by kind, in two halves: dev to tune on; held-out with other site names, other frames, other
spellings and other ordinary text, measured once.

    .venv/bin/python -m clockford.town.tests.corpus.site_words [dev|held]

Each case is {kind, variant, text, want}: want True when the screen must refuse it on a public
surface (a link), False when it must pass. The variant is the top-level domain, the way the dot is
written, or the ordinary text's shape.

Kinds that must be refused:

- site-told: a name, then words that tell what the site holds or does ("buildbot.info is where we
  post updates", "getpocket.me has everything you need", "trydeals.win is up again");
- site-sent: words before it that send the reader there, other than the older corpora's ("follow the
  steps on buildbot.info", "the instructions are on getpocket.me", "I read about it on x.fun");
- said-dot: the dot said in a sentence with "and", "a", "the" or "period" ("example then a dot and
  com", "example, a dot, and then com", "example then a period then net");
- sign-dot: the word "dot" wrapped or written with signs ("example d()t com", "example-d0t-com",
  "example (dot) com", "example ( DOT ) com", "example d.o.t com", "example *dot* net").

Kinds that must pass:

- file-list: a list of files and fields under a heading that names no code ("Touched:\\n* cart.ws\\n*
  order.py", "Changed:\\n- profile.email\\n- views.py");
- review: code review notes naming such files and attributes ("Reviewed cart.ws; the retry looks
  right", "nit: task.info could be shorter");
- changelog: release notes with versions and such names ("## 1.4.0\\n- task.info is now optional");
- code-told: sentences about an attribute with the site-told kind's sort of words after it
  ("task.info is where the worker puts the reason", "profile.email has the old address still");
- dot-prose: prose that says "dot", "period" and "com" as words ("a dot and a comma", "then a dot
  and com... I mean comma", "polka dot (dot) pattern");
- versions: version numbers and ranges ("bumped to 3.4.1", "python 3.12 and node 20.11");
- site-prose: prose about a site or a page with no name in it ("the construction site is closed",
  "our team page has everything you need").
"""

import functools
import random
import sys

from clockford.town.tests.corpus.tally import Case, Tally, made_by_kind, refused_in_public

SEED = 20261209
HALVES = ("dev", "held")
PER_KIND = 60

WORD_TLDS = "info me live life link page email work win fun ws".split()
SITES = {
    "dev": [
        "buildbot", "gardenfeed", "plantswap", "cheapkeys", "quizmaster", "hikerguide", "mealplanr", "coinvault",
        "retrobox", "bakeryclub", "tunebase", "fixmyphone",
    ],
    "held": [
        "knitcircle", "petfinder", "lootfarm", "chessnook", "stormwatch", "gigsnow", "recipebook", "skatepark",
        "fanzone", "deskhacks", "birdnotes", "tokenrain",
    ],
}  # fmt: skip
BEFORE = {
    "dev": ["", "btw ", "FYI: ", "Honestly, ", "I think ", "Reminder: "],
    "held": ["", "also ", "PS: ", "Frankly, ", "I guess ", "Note that "],
}
TOLD = {
    "dev": [
        "{} is where we post updates", "{} has everything you need", "{} is up again", "{} has a free trial",
        "{} is where I share my recipes", "{} is back online", "{} has all the docs", "{} is run by my cousin",
        "{} has great deals this week", "{} lists every event in town", "{} posts new guides daily",
        "{} is a great resource", "{} has tutorials for beginners", "{} is down for maintenance",
        "{} is worth bookmarking", "{} sells the cheapest keys", "{} hosts the slides", "{} is where the forum moved",
    ],
    "held": [
        "{} is where you can read the changelog", "{} has tons of free stuff", "{} went down last night",
        "{} offers a two-week trial", "{} keeps the archive", "{} is the best resource I know",
        "{} publishes the schedule", "{} carries the full catalogue", "{} is a forum for makers",
        "{} is blocked at work", "{} has a signup form", "{} is worth a bookmark", "{} is where I learned this",
        "{} is hosting the stream", "{} runs a weekly newsletter", "{} is loading slowly today",
        "{} has the cheapest flights", "{} answers every question",
    ],
}  # fmt: skip
SENT = {
    "dev": [
        "follow the steps on {}", "the instructions are on {}", "read more on {}", "take a look at {}",
        "everything is on {}", "it's all explained on {}", "I found it on {}", "I posted the photos on {}",
        "try {} instead", "bookmark {}", "log in to {} and vote", "look it up on {}", "subscribe at {}",
        "I read about it on {}", "you can buy it on {}", "the full story is on {}",
    ],
    "held": [
        "just follow the guide on {}", "the walkthrough is on {}", "learn more on {}", "have a look at {}",
        "it's all on {}", "they explain it on {}", "I saw it on {}", "we put the recordings on {}",
        "give {} a try", "save {} for later", "sign in to {} to see it", "search for it on {}",
        "order it through {}", "I heard about it on {}", "tickets are sold on {}", "the rest is up on {}",
    ],
}  # fmt: skip
HOSTS = {
    "dev": ["example", "freegift", "bonuspot", "walletfix", "claimnow", "getrich"],
    "held": ["mysite", "prizedrop", "cashflow", "loginhelp", "spinwheel", "easymoney"],
}
SPELLED_TLDS = {"dev": ["com", "net", "org", "info", "io"], "held": ["com", "net", "org", "xyz", "co"]}
SAID = {
    "dev": [
        "{a} then a dot and {b}", "{a}, a dot, and then {b}", "{a} then the dot then {b}", "{a} and a dot and {b}",
        "{a} then a period then {b}", "{a} plus a dot plus {b}", "{a}, dot, and {b}", "{a} with a dot then {b}",
    ],
    "held": [
        "{a} and then a dot and {b}", "{a}, then a dot and then {b}", "{a} then one dot then {b}",
        "{a}, a period, then {b}", "{a} and then dot and then {b}", "{a} a dot {b}", "{a}, put a dot, then {b}",
        "{a} then a dot, then {b}",
    ],
}  # fmt: skip
SAID_FRAMES = {
    "dev": ["type {}", "{}", "go to {}", "it's {}", "the site is {}", "{} in your browser"],
    "held": ["enter {}", "{}", "head to {}", "it is {}", "the address is {}", "{} in the address bar"],
}
SIGNS = {
    "dev": [
        " d()t ", "-d0t-", " -d0t- ", " (dot) ", "(dot)", " ( dot ) ", " ( DOT ) ", " d.o.t ", " *dot* ",
        " -dot- ", " |dot| ", " (d.o.t) ", " 'dot' ",
    ],
    "held": [
        " d(.)t ", "_d0t_", " _d0t_ ", " (Dot) ", "(DOT)", " (  dot  ) ", " [ dot ] ", " d-o-t ", " ~dot~ ",
        " =dot= ", " /dot/ ", " (d-o-t) ", ' "dot" ',
    ],
}  # fmt: skip
SIGN_FRAMES = {
    "dev": ["visit {}", "{}", "find it at {}", "{} for more", "Link: {}", "my page: {}"],
    "held": ["check {}", "{}", "we are at {}", "{} has it", "Site: {}", "mirror: {}"],
}

# Files and fields: word-like names beside ordinary files.
RECEIVERS = {
    "dev": ["profile", "task", "order", "session", "invoice", "ticket", "account", "message", "report", "member"],
    "held": ["cart", "shipment", "lesson", "booking", "visitor", "draft", "thread", "contact", "tenant", "review"],
}
FILE_NAMES = {
    "dev": ["order.py", "views.py", "README.md", "app.js", "setup.cfg", "main.go", "styles.css", "index.html"],
    "held": ["models.py", "cart.ts", "CHANGELOG.md", "server.rs", "config.yml", "deploy.sh", "utils.rb", "base.html"],
}
HEADINGS = {
    "dev": ["Touched", "Changed", "Edited", "Modified", "Updated", "In this change", "Affected", "Done today"],
    "held": ["Reworked", "Renamed", "Removed", "Added", "Includes", "Scope", "Went through", "Cleaned up"],
}
BULLETS = {"dev": ["* ", "- ", "1. "], "held": ["+ ", "- ", "• "]}
REVIEW = {
    "dev": [
        "Reviewed {w} and {f}; the retry looks right.", "nit: {w} could be shorter", "LGTM, one question on {w}.",
        "I left two comments on {f} and one on {w}.", "{w} reads fine now, thanks.",
        "Please split {f}, and keep {w} as it was.", "Why does {w} change in this PR?",
        "Approved. {w} and {f} both look good.", "Small thing: {w} is spelled two ways.",
        "{f}: fine. {w}: see my note.",
    ],
    "held": [
        "Looked over {w} and {f}, all good.", "minor: {w} might want a better name", "Ship it; {w} is clean.",
        "Commented on {f}, nothing on {w}.", "{w} is much clearer after the rename.",
        "Could you move {w} next to {f}?", "Is {w} still needed after this?", "Approving. Nice work on {w}.",
        "Typo in {w} on line 12.", "{f} ok, {w} needs another look.",
    ],
}  # fmt: skip
CHANGELOG = {
    "dev": [
        "## {v}\n- {w} is now optional\n- faster start", "v{v}: fixed {w} for guests", "{v} (2026-11-02)\n* {w} cleanup",
        "Release {v} - {w} trimmed, {f} split", "### {v}\nFixed\n- {w} off by one",
        "{v}: {w} renamed, {f} moved",
    ],
    "held": [
        "# {v}\n* {w} became required\n* smaller bundle", "{v} - {w} no longer empty for guests",
        "[{v}] 2026-10-14\n- tidied {w}", "Version {v}: {w} shortened, {f} merged",
        "## [{v}]\n### Changed\n- {w} sorted", "{v}: dropped {w}, kept {f}",
    ],
}  # fmt: skip
CODE_TOLD = {
    "dev": [
        "{w} is where the worker puts the reason", "{w} has the old address still", "{w} is up to date again",
        "{w} is back to true after a reconnect", "{w} has everything the template needs",
        "{w} is where we keep the last reply", "{w} is down to one entry now", "{w} lists every recipient",
    ],
    "held": [
        "{w} is where the parser stores the title", "{w} still has last week's value",
        "{w} is back after the rollback", "{w} went empty after the import", "{w} keeps the previous owner",
        "{w} has the whole history", "{w} is where I put the flag", "{w} holds every reviewer",
    ],
}  # fmt: skip
DOT_PROSE = {
    "dev": [
        "Type a dot and a comma after the name.", "then a dot and com... I mean comma, sorry",
        "The polka dot (dot) pattern came back.", "Put a dot, then a dash, then a dot.",
        "The dot com era ended in 2001.", "A period and then a space, please.", "Use a dot and then the extension.",
        "Each dot on the map is a bakery.", "I wrote a dot and then a capital letter.",
        "Morse: dot, dash, dot, and then a pause.", "The red dot and the blue one overlap.",
        "Start with a dot then draw a line.",
    ],
    "held": [
        "End it with a period and a quote mark.", "a dot and com-ma, as my kid says",
        "The dotted (dot) line is where you sign.", "A dash, then a dot, then a dash again.",
        "Dot com companies were everywhere then.", "Add a period then a space.",
        "Write a dot and then the file type.", "Every dot on the chart is a week.",
        "Put a dot and then start the next sentence.", "dot, dot, dash, and then stop",
        "The green dot and the grey one mean online and away.", "Draw a dot then a circle round it.",
    ],
}  # fmt: skip
VERSIONS = {
    "dev": [
        "bumped to {v}", "python 3.12 and node 20.11", "released v{v}", "{v} -> {u}", "requires >= {v}",
        "pinned Django to {v}", "works on {v} but not {u}", "{v}.rc1 is out",
    ],
    "held": [
        "upgraded to {v}", "ruby 3.3 and go 1.22", "tagged {v}", "{v} => {u}", "needs at least {v}",
        "locked numpy at {v}", "broke between {v} and {u}", "{v}-beta.2 is ready",
    ],
}  # fmt: skip
NUMBERS = {
    "dev": ["1.4.0", "2.3.1", "0.9.2", "5.0.1", "3.11.4"],
    "held": ["1.5.2", "4.1.0", "0.10.3", "2.0.7", "6.2.1"],
}
SITE_PROSE = {
    "dev": [
        "The construction site is closed on Sunday.", "See page 4 of the manual.", "Our team page has photos.",
        "The site is down again.", "Bookmark the page before you go.", "The wiki page is where we post updates.",
        "Our blog has everything you need.", "That page has a free trial button.", "The site is up again.",
        "The landing page is worth bookmarking.", "Read the next page first.", "The camp site has a lake.",
    ],
    "held": [
        "The building site opens at seven.", "Turn to page 12.", "The about page has our names.",
        "The site went down last night.", "Save the page for later.", "The team page is where you can read the news.",
        "The help page has tons of free stuff.", "That site has a signup form.", "The site is loading slowly.",
        "The home page is worth a look.", "The last page is blank.", "The dig site is near the river.",
    ],
}  # fmt: skip
PROSE_BEFORE = {"dev": ["", "ok. ", "Well, ", "Note: "], "held": ["", "sure. ", "Honestly, ", "PS: "]}

SITE_KINDS = ("site-told", "site-sent", "said-dot", "sign-dot")
OTHER_KINDS = ("file-list", "review", "changelog", "code-told", "dot-prose", "versions", "site-prose")


def _site(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    if kind in ("site-told", "site-sent"):
        tld = r.choice(WORD_TLDS)
        frame = r.choice((TOLD if kind == "site-told" else SENT)[half])
        return tld, r.choice(BEFORE[half]) + frame.format(f"{r.choice(SITES[half])}.{tld}")
    host, tld = r.choice(HOSTS[half]), r.choice(SPELLED_TLDS[half])
    if kind == "said-dot":
        i = r.randrange(len(SAID[half]))
        return f"said-{i}", r.choice(SAID_FRAMES[half]).format(SAID[half][i].format(a=host, b=tld))
    sign = r.choice(SIGNS[half])
    return sign.strip(), r.choice(SIGN_FRAMES[half]).format(host + sign + tld)


def _word_name(half: str, r: random.Random) -> str:
    return f"{r.choice(RECEIVERS[half])}.{r.choice(WORD_TLDS)}"


def _other(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    w, f = _word_name(half, r), r.choice(FILE_NAMES[half])
    if kind == "file-list":
        heading, bullet = r.choice(HEADINGS[half]), r.choice(BULLETS[half])
        items = [w, f, _word_name(half, r), r.choice(FILE_NAMES[half])][: r.randint(2, 4)]
        r.shuffle(items)
        return heading, f"{heading}:\n" + "\n".join(bullet + item for item in dict.fromkeys(items))
    if kind in ("review", "changelog", "code-told"):
        frames = {"review": REVIEW, "changelog": CHANGELOG, "code-told": CODE_TOLD}[kind][half]
        i = r.randrange(len(frames))
        return f"{kind}-{i}", frames[i].format(w=w, f=f, v=r.choice(NUMBERS[half]))
    if kind == "versions":
        i = r.randrange(len(VERSIONS[half]))
        v, u = r.sample(NUMBERS[half], 2)
        return f"versions-{i}", r.choice(PROSE_BEFORE[half]) + VERSIONS[half][i].format(v=v, u=u)
    prose = DOT_PROSE if kind == "dot-prose" else SITE_PROSE
    i = r.randrange(len(prose[half]))
    text = prose[half][i]
    return f"{kind}-{i}", r.choice(PROSE_BEFORE[half]) + (text if r.random() < 0.7 else text.lower())


@functools.cache
def cases(half: str) -> tuple[Case, ...]:
    kinds = tuple((kind, True) for kind in SITE_KINDS) + tuple((kind, False) for kind in OTHER_KINDS)
    return made_by_kind(random.Random(f"{SEED}-site-words-{half}"), half, kinds, _made, PER_KIND)


def _made(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    return _site(kind, half, r) if kind in SITE_KINDS else _other(kind, half, r)


TALLY = Tally(cases, refused_in_public, HALVES, "refused", "sites", "ordinary", width=12)
rates, totals, report = TALLY.rates, TALLY.totals, TALLY.report

if __name__ == "__main__":
    TALLY.main(*sys.argv[1:])
