"""The words screen's corpus for bare site names under top-level domains that are also ordinary words,
code attributes or file extensions (.info, .me, .live, .life, .link, .page, .email, .work, .win, .fun,
.ws, .cc, .zip, .mov), and for the code, logs, files and prose that write the same words after a dot.
Made in memory, by kind, in two halves: dev to tune on; held-out with other site names, other
receivers, other frames and other prose, measured once.

    .venv/bin/python -m clockford.town.tests.corpus.word_tlds [dev|held]

Each case is {kind, variant, text, want}: want True when the screen must refuse it on a public
surface (a link), False when it must pass. The variant is the top-level domain (or the file
extension, the receiver's shape).

Kinds that must be refused (a site name of two labels, no path, no `www.`):

- site-lead: a word that sends the reader to it before it ("visit buildbot.info", "sign up at
  getpocket.me");
- site-after: words after it that call it a place ("buildbot.info has the full guide", "buildbot.info
  (our new site)", "buildbot.info is our website");
- site-list: a list or a label line naming it alone ("Best: buildbot.info", "- buildbot.info",
  "Website: buildbot.info", "1. buildbot.info — great docs", "**buildbot.info**");
- site-shaped: a name shaped as a host (a hyphen, digits) in any of the frames above;
- site-file-tld: a site under .cc, .zip or .mov with words no one writes of a file ("visit
  buildbot.zip", "Website: getpocket.cc", "pixelforge.mov (our new site)");
- address: an address under such a domain ("write to hello@buildbot.info"): another rule's, kept here
  so that a change to this one cannot lose it.

Kinds that must pass:

- code-attr: a sentence naming an attribute or a method under such a word ("I changed profile.email to
  be unique", "task.info is None when the job failed", "the session.link field"), the receiver an
  ordinary English word, an identifier or a module;
- code-lead: the same with a word before it that also sends a reader somewhere ("see task.info for the
  reason", "the value at order.page", "open session.link in the handler");
- logger: a logger's method named or called (structlog.info, logging.info, log.info, console.info,
  celery_logger.info), in prose or a log line;
- config: log and config lines (`profile.email: required`, `[session.link]`, `task.info -> ok`,
  `site.page=3`);
- files: a file name under an extension that is also a domain (`video.mov`, `backup.zip`, `main.cc`):
  a file, not a link. Agents write about files they upload, unpack and compile far more often than
  they send a reader to a .zip or .mov site, and such a name with a path or `www.` is still refused;
- prose: ordinary sentences with those words after a dot and no space ("Thanks for the info.Me
  too", "better work.life balance", "That's life.Win some, lose some.").
"""

import functools
import random
import sys

from clockford.town.tests.corpus.tally import Case, Tally, made_by_kind, refused_in_public

SEED = 20261207
HALVES = ("dev", "held")
PER_KIND = 120

# The word-like top-level domains, each half all of them (the rule is for all of them), but the files'
# extensions .zip and .mov, which the site kinds leave out (files below).
SITE_TLDS = "info me live life link page email work win fun ws".split()
FILE_TLDS = ["cc", "zip", "mov"]
CODE_TLDS = "info link page email live life work win fun me ws cc".split()  # email.cc: a copy's field

SITES = {
    "dev": [
        "buildbot", "getpocket", "pixelforge", "dailybrief", "zenhabits", "shopnow", "mycoolblog", "trydeals",
        "fastgains", "bitwallet", "lootcrate", "promohub", "cryptoking", "freespins", "sweepwin", "bestprice",
    ],
    "held": [
        "claimreward", "luckyspin", "getfreebies", "walletfix", "tradepro", "moonshot", "dealzone", "joinnow",
        "cashback", "flashsale", "megaprize", "quickloan", "usetoken", "bonusland", "signupfast", "vipclub",
    ],
}  # fmt: skip
SHAPED = {
    "dev": ["my-shop", "win-big", "deals24", "promo-2026", "get-rich", "btc4u"],
    "held": ["free-gift", "spin2win", "loot-box", "prize99", "easy-cash", "claim-now"],
}
LEADS = {
    "dev": [
        "visit {}", "Go to {} for the rest.", "check out {} today", "sign up at {}", "Find us at {}.",
        "head to {} and register", "Our new home is {}.", "browse {} for deals", "It's hosted at {}",
        "More at {}", "join us on {}",
    ],
    "held": [
        "Please visit {} now.", "go over to {} to claim it", "sign up on {} before Friday",
        "you can download it from {}", "The website is {}", "link in bio: {}", "come see us at {}!",
        "register at {} for free", "get it on {}", "follow the steps on {}", "we moved to {}",
    ],
}  # fmt: skip
AFTERS = {
    "dev": [
        "{} has the full guide.", "{} (our new site)", "{} is our website", "{} for more", "{} — sign up free",
        "{} has the best prices", "{} is live now", "{} for details!",
    ],
    "held": [
        "{} is the official site.", "{} (mirror)", "{} has everything you need", "{} - join today",
        "{} is where we post updates", "{} for the download", "{} has a free trial", "{} is up again",
    ],
}  # fmt: skip
LISTS = {
    "dev": [
        "Best: {}", "- {}", "Website: {}", "1. {} — great docs", "**{}**", "Links:\n- {}\n- {}",
        "Site: {}", "* {}", "Top pick: {}", "Homepage: {}",
    ],
    "held": [
        "Favourite: {}", "+ {}", "Web: {}", "2) {} - cheap and fast", "__{}__", "Resources:\n* {}\n* {}",
        "Shop: {}", "- {} (recommended)", "Source: {}", "Contact: {}",
    ],
}  # fmt: skip
# Words no one writes of a file: a site under a file's extension.
FILE_SITE_FRAMES = {
    "dev": [
        "visit {}", "Go to {} to sign up", "{} (our new site)", "Website: {}", "{} is our website",
        "head to {} and register", "sign up at {}",
    ],
    "held": [
        "Please visit {} today", "go over to {} for the sale", "{} is the official site", "Homepage: {}",
        "{} (mirror)", "register at {} now", "link in bio: {}",
    ],
}  # fmt: skip
ADDRESSES = {
    "dev": ["write to hello@{}", "Email: support@{}", "mail me at jo@{}"],
    "held": ["contact team@{}", "send it to sales@{}", "reach us: info@{}"],
}

# Receivers code names attributes of: ordinary English words, identifiers, modules.
RECEIVERS = {
    "dev": [
        "profile", "session", "task", "order", "account", "customer", "message", "invoice", "ticket", "widget",
        "article", "comment", "player", "match", "game", "member", "report", "entry", "payment", "booking",
        "userProfile", "currentUser", "job", "notification", "post", "story", "record", "team",
    ],
    "held": [
        "person", "visitor", "lesson", "course", "product", "listing", "shipment", "receipt", "project",
        "document", "draft", "reply", "thread", "episode", "contact", "employee", "patient", "tenant", "vendor",
        "orderItem", "activeSession", "row", "cart", "guest", "page", "round", "chapter", "review",
    ],
}  # fmt: skip
CODE_FRAMES = {
    "dev": [
        "I changed {} to be unique.", "{} is None when the job failed.", "the {} field is required",
        "set {} before saving", "{} now holds the address", "it returns {} as a string",
        "Renamed {} in the serializer.", "The {} attribute was empty.", "compare {} with the old value",
        "{} was missing from the form", "we read {} twice", "{} must be lower case",
    ],
    "held": [
        "I made {} nullable.", "{} comes back empty for guests.", "the {} column needs an index",
        "assign {} after the migration", "{} stores the last value", "the method returns {} unchanged",
        "Dropped {} from the API.", "The {} property is read-only.", "validate {} on save",
        "{} was stale in the cache", "copy {} into the new record", "{} should default to blank",
    ],
}  # fmt: skip
CODE_LEADS = {
    "dev": [
        "see {} for the reason", "the value at {} is stale", "open {} in the handler", "check {} first",
        "look at {} in the debugger", "go to {} in the model and add a default", "via {} we get the owner",
    ],
    "held": [
        "see {} in the model", "the bug is at {} again", "visit {} in the admin and fix the label",
        "check out {} in models.py", "we pass it via {}", "open {} and look", "head to {} in the form class",
    ],
}  # fmt: skip
LOGGERS = {
    "dev": ["structlog", "logging", "log", "logger", "console", "celery_logger", "LOG", "audit_log"],
    "held": ["loguru", "app_log", "syslog", "rootLogger", "Log", "slog", "winston", "request_log"],
}
LOGGER_FRAMES = {
    "dev": [
        "use {}.info for that message", "{}.info is too noisy here", "switched {}.info to debug",
        "called {}.info with the task id", "2026-12-07 10:00 {}.info started worker",
        "see {}.info in the worker", "Is {}.info thread-safe?", "{}.info and {}.error both fire",
        "I moved the message to {}.info.", "only {}.info shows up in the file",
    ],
    "held": [
        "the {}.info line prints twice", "replace print with {}.info", "{}.info now carries the request id",
        "lower {}.info to warning", "[12:01] {}.info: job done",
        "look at {}.info output", "does {}.info flush?", "{}.info or {}.warning, not both",
        "We log the start via {}.info.", "nothing from {}.info reached the sink",
    ],
}  # fmt: skip
CONFIG_FRAMES = {
    "dev": ["{}: required", "[{}]", "{} -> ok", "{} = true", "  {}: 3", "WARN {} missing", "Fields changed:\n- {}"],
    "held": ["{}: optional", "<{}>", "{} => none", "{} := null", "\t{}: false", "ERROR {} unset", "Touched:\n* {}"],
}
FILES = {
    "dev": [
        ("video", "mov"), ("backup", "zip"), ("main", "cc"), ("holiday", "mov"), ("archive", "zip"),
        ("parser", "cc"), ("photos", "zip"), ("clip", "mov"),
    ],
    "held": [
        ("recording", "mov"), ("export", "zip"), ("engine", "cc"), ("trailer", "mov"), ("release", "zip"),
        ("server", "cc"), ("logs", "zip"), ("interview", "mov"),
    ],
}  # fmt: skip
FILE_FRAMES = {
    "dev": [
        "upload the {}", "unzip {} first", "I attached {}", "{} is 2 GB", "compile {} again",
        "send me {} when ready", "{} failed to open", "open {} in the player", "Where is {}?",
        "{} (4 min)", "see {} for the diff",
    ],
    "held": [
        "download {} from the drive", "extract {} into the folder", "{} is too large to post",
        "build {} with -O2", "rename {} before sharing", "I sent {} last night", "{} is corrupt",
        "play {} on loop", "Attachment: {}", "{} was cut short", "check {} for the bug",
    ],
}  # fmt: skip
PROSE = {
    "dev": [
        "Thanks for the info.Me too, by the way.", "better work.life balance", "That's life.Win some, lose some.",
        "Read the next page.Link is below.", "We saw it live.Fun night!", "Need more info.Work starts Monday.",
        "Good game.Win next time", "no email.Page me instead", "Such is life.Live and learn.",
        "hard work.Fun though.", "Go for it.Me first", "great fun.Work tomorrow",
    ],
    "held": [
        "Got the info.Me and Sam will go.", "the usual work.life stuff", "It was a win.Life is good.",
        "Final page.Link to follow.", "Came to life.Live music tonight.", "Big win.Fun times",
        "It's just work.Win or lose.", "no info.Email me later", "my life.Work is fine.",
        "not for me.Fun anyway.", "after work.Me too", "that page.Info below",
    ],
}  # fmt: skip

PROSE_BEFORE = {"dev": ["", "ok. ", "Well, ", "Note: ", "- "], "held": ["", "sure. ", "Honestly, ", "PS: ", "* "]}

SITE_KINDS = ("site-lead", "site-after", "site-list", "site-shaped", "site-file-tld", "address")
OTHER_KINDS = ("code-attr", "code-lead", "logger", "config", "files", "prose")


def _site(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    tld = r.choice(SITE_TLDS)
    name = f"{r.choice(SHAPED[half] if kind == 'site-shaped' else SITES[half])}.{tld}"
    if kind == "site-file-tld":
        tld = r.choice(FILE_TLDS)
        return tld, r.choice(FILE_SITE_FRAMES[half]).format(f"{r.choice(SITES[half])}.{tld}")
    if kind == "address":
        return tld, r.choice(ADDRESSES[half]).format(f"{r.choice(SITES[half])}.{tld}")
    frames = {"site-lead": LEADS, "site-after": AFTERS, "site-list": LISTS}.get(kind)
    frame = r.choice(frames[half] if frames else r.choice([LEADS, AFTERS, LISTS])[half])
    second = f"{r.choice(SITES[half])}.{r.choice(SITE_TLDS)}"
    return tld, frame.format(name, second)


def _other(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    if kind == "files":
        stem, ext = r.choice(FILES[half])
        stem = stem.title() if r.random() < 0.2 else stem
        return ext, r.choice(FILE_FRAMES[half]).format(f"{stem}.{ext}")
    if kind == "prose":
        text = r.choice(PROSE[half])
        text = text if r.random() < 0.5 else text.lower()
        return "prose", r.choice(PROSE_BEFORE[half]) + text
    if kind == "logger":
        logger = r.choice(LOGGERS[half])
        return "info", r.choice(LOGGER_FRAMES[half]).replace("{}", logger)
    tld = r.choice(CODE_TLDS)
    receiver = r.choice(RECEIVERS[half])
    frames = {"code-attr": CODE_FRAMES, "code-lead": CODE_LEADS, "config": CONFIG_FRAMES}[kind]
    return tld, r.choice(frames[half]).format(f"{receiver}.{tld}")


@functools.cache
def cases(half: str) -> tuple[Case, ...]:
    kinds = tuple((kind, True) for kind in SITE_KINDS) + tuple((kind, False) for kind in OTHER_KINDS)
    return made_by_kind(random.Random(f"{SEED}-word-tlds-{half}"), half, kinds, _made, PER_KIND)


def _made(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    return _site(kind, half, r) if kind in SITE_KINDS else _other(kind, half, r)


TALLY = Tally(cases, refused_in_public, HALVES, "refused", "sites", "ordinary", width=14, variants=True)
rates, totals, report = TALLY.rates, TALLY.totals, TALLY.report

if __name__ == "__main__":
    TALLY.main(*sys.argv[1:])
