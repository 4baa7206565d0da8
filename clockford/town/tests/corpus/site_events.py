"""The words screen's corpus for a bare site name told with what happened to it or what it is doing
(down, back up, streaming, launched, hiring, hacked, in many tenses), for dots spelt with signs or
separators between or around the letters ("d-o-t", "(d)(o)(t)", "[.]", "{dot}", "/dot/"), and for a site
in a sentence of another language; and for the developer prose that tells the same of files, modules
and attributes ("session.live went down", "api.rs crashed"), file lists under headings that say
nothing of a change, version strings, Python attribute chains and log lines. Made in memory, by kind,
in two halves: every pool of words (site names, frames, lead-ins, signs, headings, code names) is
shuffled by a fixed seed and cut in two, dev taking one part to tune on and held-out the other,
measured once; the top-level domains are the same in both (a rule is for all of them).

    .venv/bin/python -m clockford.town.tests.corpus.site_events [dev|held]

Each case is {kind, variant, text, want}: want True when the screen must refuse it on a public
surface (a link), False when it must pass. The variant is the top-level domain, the sign the dot is
spelt with, the language, or the ordinary text's shape.

Kinds that must be refused:

- site-state: a bare site name and a state it is in or was in ("tunebase.com was down all morning",
  "is tunebase.net down for anyone else?", "tunebase.io has been offline since noon");
- site-event: a bare site name and what it did or what happened to it ("tunebase.com just launched",
  "tunebase.io is hiring", "tunebase.net got hacked last week", "tunebase.tv is streaming the final");
- signed-dot: the dot spelt with signs between or around its letters, or a dot in brackets ("tunebase
  d-o-t com", "tunebase(d)(o)(t)net", "tunebase[.]io", "tunebase {dot} org", "tunebase /dot/ com");
- foreign: a site in a sentence of French, Spanish, German, Italian, Portuguese or Dutch words.

Kinds that must pass:

- code-event: developer prose telling what happened to a file, module or attribute, some of them under
  a word that is also a top-level domain ("session.live went down after the deploy", "api.rs crashed
  on the empty input", "config.ts was rewritten");
- file-list: a short list of such names under a heading that says nothing of a change ("Files:",
  "Project layout", "Where to look");
- versions: version strings and ranges ("bumped django from 5.1.2 to 5.1.3", "react@18.3.1",
  "2.0.0-rc.1 is out");
- attr-chain: Python attribute chains in prose or code ("request.user.profile.email is empty",
  "`self.session.live = False`");
- log-line: log lines naming modules and files ("2026-12-07 10:01:22 INFO session.live reconnected").
"""

import functools
import random
import sys

from clockford.town.tests.corpus.tally import Case, Tally, made_by_kind, refused_in_public

SEED = 20261208
HALVES = ("dev", "held")
PER_KIND = 80

TLDS = "com net org io co tv gg app dev xyz me live fun win info site online shop club news".split()


def _halves(pool: list[str], name: str) -> dict[str, list[str]]:
    """The pool shuffled by the corpus's seed and cut in two, dev's part first."""
    words = sorted(pool)
    random.Random(f"{SEED}-{name}").shuffle(words)
    cut = len(words) // 2
    return {"dev": words[:cut], "held": words[cut:]}


SITES = _halves(
    [
        "tunebase", "gardenfeed", "quizmaster", "hikerguide", "coinvault", "retrobox", "bakeryclub", "fixmyphone",
        "knitcircle", "lootfarm", "chessnook", "stormwatch", "gigsnow", "skatepark", "fanzone", "birdnotes",
        "pixelharbor", "streamora", "clipvault", "mememill", "puzzlepost", "cardkingdom", "rentaboat",
        "dronedeals", "beanbrew", "fitfolks", "mapmakers", "soundshed", "trailfinder", "bookbarn", "vinylvault",
        "quicktix", "gamerden", "pawpals", "homechef", "jobjunction", "newsnook", "ridesharely", "glowshop",
        "wordsmithy",
    ],
    "sites",
)  # fmt: skip
LEADS = _halves(
    [
        "", "", "", "so ", "ugh, ", "heads up: ", "FYI ", "lol ", "btw ", "wow, ", "update: ", "apparently ",
        "looks like ", "oh no, ", "good news: ", "breaking: ", "psa: ", "ok so ", "just saw that ", "turns out ",
    ],
    "leads",
)  # fmt: skip
STATES = _halves(
    [
        "{} was down all morning", "{} is back up", "{} is down again", "{} has been offline since noon",
        "{} is up and running again", "{} was unreachable for an hour", "{} is loading really slowly",
        "{} will be down tomorrow for maintenance", "{} is still down", "{} is back online after the outage",
        "{} has been lagging all day", "{} was out for most of the weekend", "{} seems to be down",
        "{} is working again", "{} is timing out for me", "{} keeps going down", "{} is under maintenance",
        "{} was offline yesterday", "{} is in read-only mode", "{} is temporarily closed", "{} stays down until Monday",
        "is {} down for anyone else?", "anyone else seeing {} down?", "{}'s servers are overloaded",
        "{}'s login page is broken again", "{} went dark last night", "{} is currently unavailable",
        "{} is having an outage", "{} was flaky during the sale", "{} is sold out already", "{} is fully booked",
        "{} is blocked in my country", "{} is free this week", "{} is invite-only now",
    ],
    "states",
)  # fmt: skip
EVENTS = _halves(
    [
        "{} just launched", "{} is hiring", "{} got hacked last week", "{} is streaming the final",
        "{} launched a new app", "{} was hacked and leaked emails", "{} is hiring remote devs",
        "{} is streaming live right now", "{} got acquired", "{} relaunched with a new look",
        "{} will launch on Friday", "{} has been breached", "{} shut down its forum", "{} is giving away codes",
        "{} raised prices again", "{} dropped a new season", "{} is running a giveaway", "{} opened signups",
        "{} has started a sale", "{} was sold to a bigger company", "{} banned my account", "{} just went public",
        "{} announced a free tier", "{} is moving to a paid plan", "{} got a redesign", "{} leaked its user list",
        "{} is broadcasting the match tonight", "{} was taken over by scammers", "{} started a podcast",
        "{} is closing its doors", "{} rolled out dark mode", "{} is recruiting moderators",
        "{} posted the winners", "{} has been streaming all week",
    ],
    "events",
)  # fmt: skip
ENDS = _halves(["", "", "", "!", ".", "...", " lol", " :(", " 🎉", "?!"], "ends")
SIGNS = _halves(
    [
        "d-o-t", "d_o_t", "d o t", "(d)(o)(t)", "[.]", "(.)", "{dot}", "/dot/", "\\dot\\", "<dot>", "{.}",
        "[d-o-t]", "d*o*t", "D-O-T", "d/o/t", "d~o~t", "(d o t)", "|.|", "d-0-t", "[d][o][t]", "{d}{o}{t}",
        "d+o+t", "d . o . t", "<.>", "d_0_t", "-d-o-t-", "D_O_T", "(d-o-t)",
    ],
    "signs",
)  # fmt: skip
SIGN_FRAMES = _halves(
    [
        "visit {}", "{}", "go to {} now", "it's at {}", "{} is back up", "find us on {}", "new site: {}",
        "sign up at {}", "{} has the rest", "type {} in your browser", "we moved to {}", "check out {}",
        "my shop is {}", "{} for the stream", "the link is {}", "look up {}",
    ],
    "sign-frames",
)  # fmt: skip
FOREIGN = _halves(
    [
        "fr|Allez sur {} pour les détails", "fr|{} est en panne depuis hier", "fr|Le site {} recrute",
        "fr|Rendez-vous sur {} ce soir", "fr|{} a été piraté la semaine dernière",
        "es|Mira {} para más información", "es|{} está caído otra vez", "es|Entra en {} y regístrate",
        "es|{} acaba de lanzar su tienda", "es|Todo está en {}",
        "de|Besuchen Sie {} für mehr", "de|{} ist seit heute Morgen down", "de|Schau mal auf {} vorbei",
        "de|{} wurde gehackt", "de|Alle Infos gibt es auf {}",
        "it|Andate su {} per i dettagli", "it|{} è di nuovo online", "it|Iscriviti su {} oggi",
        "it|{} sta trasmettendo la partita",
        "pt|Acesse {} para saber mais", "pt|{} caiu de novo", "pt|Cadastre-se em {} agora",
        "pt|{} está contratando",
        "nl|Ga naar {} voor meer info", "nl|{} ligt er weer uit", "nl|Kijk op {} voor de tickets",
    ],
    "foreign",
)  # fmt: skip

# Code: files, modules and attributes, some under a word that is also a top-level domain.
CODE_NAMES = _halves(
    [
        "session.live", "stream.live", "channel.live", "feed.live", "task.info", "user.email", "order.page",
        "conn.link", "job.work", "player.win", "game.fun", "room.host", "build.app", "server.run",
        "worker.online", "cart.shop", "post.news", "team.club", "node.site", "config.ts", "api.rs", "main.go",
        "server.js", "worker.py", "handler.ts", "db.rs", "index.js", "cache.go", "routes.rb", "client.ts",
        "lib.rs", "store.js", "schema.sql", "models.py", "socket.ts", "queue.py", "auth.go", "settings.dev",
        "build.dev", "billing.shop",
    ],
    "code-names",
)  # fmt: skip
CODE_EVENTS = _halves(
    [
        "{} went down after the deploy", "{} crashed on the empty input", "{} was rewritten in the refactor",
        "{} is back up after the restart", "{} went down to zero entries", "{} crashed twice in CI",
        "{} timed out in the integration test", "{} was split into two files", "{} got renamed last sprint",
        "{} failed to compile on arm64", "{} broke the build again", "{} is flaky on the nightly run",
        "{} was reverted this morning", "{} panicked on a nil pointer", "{} is up again in staging",
        "{} leaks memory under load", "{} hangs when the queue is empty", "{} was launched from the CLI",
        "{} got hacked together for the demo", "the test for {} was down to one assert",
        "{} was streaming events until the socket closed", "{} is down to 40 lines now",
        "{} came back after the retry", "{} was offline in the fixture", "{} launched the worker twice",
        "{} went stale after the reconnect",
        "{} was flaky until we pinned the seed", "after the merge {} crashed the dev server",
        "{} went down because of the lock, I think", "{} is slow again since the cache change",
    ],
    "code-events",
)  # fmt: skip
CODE_LEADS = _halves(["", "", "", "so ", "fyi ", "ok, ", "looks like ", "note: ", "hm, ", "weird: "], "code-leads")
HEADINGS = _halves(
    [
        "Files:", "Contents:", "Project layout", "Where to look:", "Relevant files:", "Entry points",
        "## Key modules", "Tests to read:", "See also:", "**Owners**", "Read first:", "Structure:", "### Modules",
        "Index", "Worth a look:", "Generated:", "Fixtures:", "Questions about:", "Ignore these:", "Context:",
    ],
    "headings",
)  # fmt: skip
BULLETS = _halves(["- ", "* ", "+ ", "• ", "1. ", "- `"], "bullets")
PACKAGES = _halves(
    [
        "django", "react", "numpy", "node", "postgres", "redis", "celery", "vite", "pydantic", "ruff", "mypy",
        "tokio", "serde", "express", "pytest", "nginx",
    ],
    "packages",
)  # fmt: skip
VERSIONS = _halves(
    [
        "3.12.1", "18.3.1", "5.1.4", "1.22.4", "2.0.0-rc.1", "4.2.0.dev3", "0.9.11", "1.0.0-beta.2",
        "20.11.0", "3.4.1a2", "2024.10.1", "16.4", "7.2.5", "0.110.0", "1.36.0", "6.0.0-alpha.3",
    ],
    "versions",
)  # fmt: skip
VERSION_FRAMES = _halves(
    [
        "bumped {p} from {v} to {w}", "{p} {v} is out", "requires {p}>={v}", "tested on {p} {v}",
        "v{v} went out last night", "pinned {p}=={v}", "rolled back to {v}", "{p}@{v}", "upgrade {p} to {v} first",
        "{p} {v} crashed on startup", "{p} {v} is down to 2 MB", "{v} was released today", "{v}...{w}",
        "we are on {p} {v}, prod is on {w}", "{p} ~= {v}",
    ],
    "version-frames",
)  # fmt: skip
CHAINS = _halves(
    [
        "request.user.profile.email", "self.session.live", "settings.CACHES.default", "obj._meta.app_label",
        "ctx.stream.live", "event.data.info", "self.client.session.save()", "order.customer.address.city",
        "app.state.db.pool", "os.path.join", "response.headers.location", "task.result.info",
        "self.player.win", "room.owner.profile.page", "job.meta.work_dir", "conn.pool.online",
        "self.feed.news", "user.team.club_id", "node.parent.site", "match.score.home",
    ],
    "chains",
)  # fmt: skip
CHAIN_FRAMES = _halves(
    [
        "{} is None for guests", "I check {} before the loop", "`{}` raises AttributeError",
        "{} went stale after the reconnect", "{} is back after the fix", "`{} = False`", "print({})",
        "assert {} is not None", "{} was renamed in 5.0", "why is {} empty here?", "we cache {} per request",
        "{} crashed the template", "if not {}:\n    return", "log {} on every retry", "{} returns a list now",
        "the default for {} changed", "mock {} in the test", "{} is set in middleware", "don't mutate {}",
        "{} was down to None after logout",
    ],
    "chain-frames",
)  # fmt: skip
LOG_MODULES = _halves(
    [
        "django.request", "gunicorn.error", "celery.worker", "uvicorn.access", "session.live", "app.tasks",
        "api.rs", "stream.live", "worker.py", "feed.live", "task.info", "server.js", "cache.go", "auth.service",
    ],
    "log-modules",
)  # fmt: skip
LOG_MESSAGES = _halves(
    [
        "connection lost", "is up again", "went down (code 1006)", "reconnected after 3 tries",
        "worker timeout (pid: 4312)", "crashed: index out of bounds", "restarted", "stream started",
        "launched 4 workers", "back online", "health check failed", "took 1.2s",
    ],
    "log-messages",
)  # fmt: skip
LOG_FRAMES = _halves(
    [
        "2026-12-07 10:01:22,114 INFO [{m}] {s}", "2026-12-07T10:01:22Z ERROR {m}: {s}", "[{m}] WARNING {s}",
        "E1207 10:01:22.114 {m}:42] {s}", "level=info module={m} msg=\"{s}\"", "{m} | {s}",
        "12:01:09 {m} {s}", "WARN {m} - {s}",
    ],
    "log-frames",
)  # fmt: skip

SITE_KINDS = ("site-state", "site-event", "signed-dot", "foreign")
OTHER_KINDS = ("code-event", "file-list", "versions", "attr-chain", "log-line")


def _site(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    tld = r.choice(TLDS)
    name = r.choice(SITES[half])
    if kind == "signed-dot":
        sign = r.choice(SIGNS[half])
        spaced = f" {sign} " if r.random() < 0.6 else sign
        return sign, r.choice(SIGN_FRAMES[half]).format(f"{name}{spaced}{tld}")
    site = f"{name.title() if r.random() < 0.15 else name}.{tld}"
    if kind == "foreign":
        language, frame = r.choice(FOREIGN[half]).split("|")
        return language, frame.format(site)
    frame = r.choice((STATES if kind == "site-state" else EVENTS)[half])
    text = r.choice(LEADS[half]) + frame.format(site) + r.choice(ENDS[half])
    return tld, text


def _other(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    if kind == "code-event":
        name = r.choice(CODE_NAMES[half])
        text = r.choice(CODE_LEADS[half]) + r.choice(CODE_EVENTS[half]).format(name)
        return name.rsplit(".", 1)[1], text
    if kind == "file-list":
        bullet = r.choice(BULLETS[half])
        close = "`" if bullet.endswith("`") else ""
        names = r.sample(CODE_NAMES[half], r.randint(2, 4))
        return "list", "\n".join([r.choice(HEADINGS[half])] + [f"{bullet}{n}{close}" for n in names])
    if kind == "versions":
        v, w = r.sample(VERSIONS[half], 2)
        return "version", r.choice(VERSION_FRAMES[half]).format(p=r.choice(PACKAGES[half]), v=v, w=w)
    if kind == "attr-chain":
        return "chain", r.choice(CHAIN_FRAMES[half]).format(r.choice(CHAINS[half]))
    module = r.choice(LOG_MODULES[half])
    return "log", r.choice(LOG_FRAMES[half]).format(m=module, s=r.choice(LOG_MESSAGES[half]))


@functools.cache
def cases(half: str) -> tuple[Case, ...]:
    kinds = tuple((kind, True) for kind in SITE_KINDS) + tuple((kind, False) for kind in OTHER_KINDS)
    return made_by_kind(random.Random(f"{SEED}-site-events-{half}"), half, kinds, _made, PER_KIND)


def _made(kind: str, half: str, r: random.Random) -> tuple[str, str]:
    return _site(kind, half, r) if kind in SITE_KINDS else _other(kind, half, r)


TALLY = Tally(cases, refused_in_public, HALVES, "refused", "sites", "ordinary", width=12, variants=True)
rates, totals, report = TALLY.rates, TALLY.totals, TALLY.report

if __name__ == "__main__":
    TALLY.main(*sys.argv[1:])
