"""A generated evaluation of needs that say what they do not want, by the form they say it in, and of
needs whose negation word is no negation. Written on 2026-12-07 from the census snapshot: real
categories (chat, databases, search, mail, code hosting, ...), each with what a relevant server does
and the things a need may not want in it (a product, its maker, or a category), asked in many
disguises ("X but not Y", "Y-free X", "non-Y X", "an alternative to Y for X", "X sans Y", ...).

The forms of each kind are split by a fixed seed, before any answer was read, into those of the dev
half (negation-dev, the only one tuned on) and those of the held-out half (negation-held, measured
once at the end): a held-out need is asked in a form no dev need uses.

Each row has `kind`, `need`, `best`, `relevant` and, for a need that does not want something,
`excluded` (the pattern of what it does not want). Patterns are matched as make.py matches them (over
a lot's name without `io.github.`, its title and its description; `best` over the name alone); a
server `excluded` matches is never relevant, nor best. Kinds:

- `english`: the negation forms the Directory read before this set was written (but not, without,
  except, other than, instead of, ...);
- `more`: other English forms (Y-free, non-Y, not using Y, an alternative to Y, that isn't Y, ...);
- `everyday`: a product whose name is an everyday English word, written in lower case ("not slack",
  "no zoom", "without linear");
- `maker`: the unwanted thing is a maker ("nothing from Microsoft"): its products are unwanted too;
- `category`: the unwanted thing is a kind of server ("news, not crypto");
- `language`: the need in Spanish, Portuguese, French, German, Italian or Dutch;
- `wanted`: negation words that do not take the thing away ("can't do without Y", "nothing but Y",
  "not just Y", "I don't mind Y"): Y stays wanted, so its servers are relevant;
- `control`: a negation word that is no negation at all ("sans serif", "no-code", "not-for-profit",
  "Notion", "knot"): these must rank as before.

Run from the repository with the full census imported:
`manage.py shell -c "from tests.bench.directory_needs.negation import main; main()"`.
"""

import random
from pathlib import Path

from tests.bench.directory_needs.make import census_lots, judged, write_halves

HERE = Path(__file__).resolve().parent
SEED = "negation:2026-12-07"

_DB = r"\b(postgres\w*|mysql|mariadb|sqlite|sql server|mssql|cockroachdb|tidb)\b"
_CHAT = r"\b(slack|discord|microsoft teams|mattermost|rocket\.?chat|telegram|zulip)\b"
_SEARCH = r"\bweb search\b|\bsearch engine\b|\bsearch the web\b"
_MAIL = r"\b(e-?mails?|inbox|imap|smtp|gmail|outlook)\b"
_GIT = r"\b(github|gitlab|bitbucket|gitea|forgejo|codeberg)\b"
_ISSUES = r"\b(jira|linear|asana|trello|clickup|youtrack)\b|issue track"
_NOTES = r"\b(obsidian|evernote|joplin|logseq|onenote|notion|apple notes)\b"
_PAY = r"\b(stripe|paypal|square|adyen|mollie|razorpay|paddle|braintree)\b"
_HOST = r"\b(vercel|netlify|railway|render\.com|fly\.io|heroku)\b"
_CLOUD = r"\b(aws|azure|gcp|google cloud|digitalocean|hetzner)\b"
_MON = r"\b(grafana|prometheus|new ?relic|dynatrace|honeycomb|datadog)\b"
_BROWSER = r"\b(playwright|puppeteer|selenium|browserbase)\b"
_MEET = r"\b(zoom|google meet|webex|jitsi|whereby|microsoft teams)\b"
_VECTOR = r"\b(qdrant|weaviate|chroma\w*|milvus|lancedb|pinecone|pgvector)\b"
_STORE = r"\b(dropbox|onedrive|google drive|box\.com|s3)\b"

# name: (the need's wanted words, best (over the name), relevant, [(unwanted as written, its pattern)],
# its words in other languages or None)
CATEGORIES: dict[str, tuple[list[str], str, str, list[tuple[str, str]], dict[str, str] | None]] = {
    "database": (
        ["a sql database", "query a relational database"],
        r"postgres|mysql|mariadb|sqlite|mssql",
        _DB,
        [("postgres", r"postgres"), ("MySQL", r"mysql"), ("SQLite", r"sqlite")],
        {
            "es": "una base de datos SQL",
            "pt": "um banco de dados SQL",
            "fr": "une base de données SQL",
            "de": "eine SQL Datenbank",
            "it": "un database SQL",
            "nl": "een SQL database",
        },
    ),
    "chat": (
        ["team chat", "send messages to a chat channel"],
        r"slack|discord|teams|mattermost|telegram|zulip",
        _CHAT,
        [("Slack", r"slack"), ("Discord", r"discord"), ("Telegram", r"telegram")],
        {
            "es": "chat de equipo",
            "pt": "chat da equipe",
            "fr": "messagerie d'équipe",
            "de": "Team Chat",
            "it": "chat di gruppo",
            "nl": "teamchat",
        },
    ),
    "search": (
        ["search the web", "a web search engine"],
        r"brave|tavily|exa|searx|duckduckgo|kagi|linkup|perplexity|search",
        _SEARCH,
        [("Brave", r"\bbrave\b"), ("Google", r"\bgoogle\b"), ("Tavily", r"tavily")],
        {
            "es": "búsqueda web",
            "pt": "pesquisa na web",
            "fr": "recherche web",
            "de": "Websuche",
            "it": "ricerca web",
            "nl": "zoeken op het web",
        },
    ),
    "mail": (
        ["read my email", "send emails from my inbox"],
        r"mail|imap|outlook|smtp",
        _MAIL,
        [("Gmail", r"gmail"), ("Outlook", r"outlook")],
        {
            "es": "leer mi correo electrónico",
            "pt": "ler meu e-mail",
            "fr": "lire mes e-mails",
            "de": "meine E-Mails lesen",
            "it": "leggere la mia email",
            "nl": "mijn e-mail lezen",
        },
    ),
    "git": (
        ["git hosting with pull requests", "manage my git repositories"],
        r"github|gitlab|bitbucket|gitea|forgejo",
        _GIT,
        [("GitHub", r"github"), ("GitLab", r"gitlab")],
        None,
    ),
    "issues": (
        ["issue tracking", "track the issues of my project"],
        r"jira|linear|asana|trello|clickup|youtrack",
        _ISSUES,
        [("Jira", r"jira"), ("Asana", r"asana")],
        None,
    ),
    "notes": (
        ["a note taking app", "search my notes"],
        r"obsidian|evernote|joplin|logseq|onenote|notion",
        _NOTES,
        [("Notion", r"notion"), ("Obsidian", r"obsidian")],
        None,
    ),
    "payments": (
        ["take card payments", "accept payments online"],
        r"stripe|paypal|square|adyen|mollie|razorpay|paddle|braintree",
        _PAY,
        [("Stripe", r"stripe"), ("PayPal", r"paypal")],
        {
            "es": "pagos con tarjeta",
            "pt": "pagamentos com cartão",
            "fr": "paiements par carte",
            "de": "Kartenzahlungen",
            "it": "pagamenti con carta",
            "nl": "betalingen met kaart",
        },
    ),
    "hosting": (
        ["deploy my website", "host a web app"],
        r"vercel|netlify|railway|render|fly|heroku",
        _HOST,
        [("Vercel", r"vercel"), ("Netlify", r"netlify")],
        None,
    ),
    "cloud": (
        ["manage my cloud infrastructure", "cloud resources and servers"],
        r"aws|azure|gcp|cloud|digitalocean",
        _CLOUD,
        [("AWS", r"\baws\b|amazon"), ("Azure", r"azure")],
        None,
    ),
    "monitoring": (
        ["monitoring dashboards and metrics", "watch my service metrics"],
        r"grafana|prometheus|newrelic|dynatrace|honeycomb|datadog",
        _MON,
        [("Datadog", r"datadog"), ("Grafana", r"grafana")],
        None,
    ),
    "browser": (
        ["browser automation", "automate a web browser"],
        r"playwright|puppeteer|selenium|browserbase",
        _BROWSER,
        [("Playwright", r"playwright"), ("Selenium", r"selenium")],
        None,
    ),
    "meetings": (
        ["video meetings", "schedule video calls"],
        r"zoom|meet|teams|webex|jitsi|whereby",
        _MEET,
        [("Zoom", r"\bzoom\b"), ("Webex", r"webex")],
        None,
    ),
    "vector": (
        ["a vector database", "store embeddings in a vector store"],
        r"qdrant|weaviate|chroma|milvus|lancedb|pinecone",
        _VECTOR,
        [("Pinecone", r"pinecone"), ("Qdrant", r"qdrant")],
        None,
    ),
    "storage": (
        ["cloud file storage", "store and share files in the cloud"],
        r"dropbox|onedrive|drive|box|s3",
        _STORE,
        [("Dropbox", r"dropbox"), ("OneDrive", r"onedrive")],
        None,
    ),
}

# A product whose name is an everyday English word, in lower case: (category, as written, pattern).
EVERYDAY = [
    ("chat", "slack", r"slack"),
    ("issues", "linear", r"\blinear\b"),
    ("payments", "square", r"\bsquare\b"),
    ("meetings", "zoom", r"\bzoom\b"),
    ("meetings", "teams", r"\bteams\b"),
    ("notes", "notion", r"notion"),
    ("storage", "box", r"\bbox\b"),
    ("hosting", "render", r"\brender\b"),
]
# A maker, whose products are unwanted too: (category, as written, pattern).
MAKERS = [
    ("chat", "Microsoft", r"microsoft|\bteams\b"),
    ("mail", "Google", r"google|gmail"),
    ("mail", "Microsoft", r"microsoft|outlook"),
    ("storage", "Google", r"google"),
    ("storage", "Microsoft", r"microsoft|onedrive"),
    ("cloud", "Amazon", r"amazon|\baws\b"),
    ("cloud", "Microsoft", r"microsoft|azure"),
    ("browser", "Microsoft", r"microsoft|playwright"),
    ("issues", "Atlassian", r"atlassian|jira|confluence"),
    ("meetings", "Microsoft", r"microsoft|\bteams\b"),
]
# A kind of server that is unwanted: (need, best, relevant, as written, pattern).
KINDS_OF = [
    ("news headlines", r"news", r"\bnews\b", "crypto", r"crypto|bitcoin|blockchain|token"),
    ("stock market prices", r"stock|market|finance", r"\bstocks?\b|stock market", "crypto", r"crypto|bitcoin|coin"),
    ("a wallet for payments", r"wallet|pay", r"\bwallets?\b", "blockchain", r"blockchain|crypto|web3|chain"),
    ("a database", r"postgres|mysql|sqlite|mongo|database|db", r"\bdatabases?\b", "NoSQL", r"nosql|mongo"),
    ("weather forecasts", r"weather|forecast", r"\bweather\b", "aviation", r"aviation|metar|taf\b|flight"),
    ("maps and places", r"map|place|geo", r"\bmaps?\b", "Google", r"google"),
]

# The forms a need says what it does not want in: {w} is what it wants, {x} what it does not.
ENGLISH = [
    "{w} but not {x}",
    "{w}, not {x}",
    "{w} without {x}",
    "{w}, no {x}",
    "{w} except {x}",
    "{w} other than {x}",
    "{w} instead of {x}",
    "{w} rather than {x}",
    "{w}, avoid {x}",
    "{w} excluding {x}",
    "{w}, anything but {x}",
    "{w} besides {x}",
    "{w}, never {x}",
    "{w}, I don't want {x}",
    "{w} apart from {x}",
    "{w} except for {x}",
]
MORE = [
    "{w}, {x}-free",
    "{x}-free {w}",
    "{w} not using {x}",
    "non-{x} {w}",
    "{w} that isn't {x}",
    "{w} that is not {x}",
    "{w} that doesn't use {x}",
    "{w}, no {x} please",
    "{w} (not {x})",
    "{w} w/o {x}",
    "{w}, skip {x}",
    "{w}, {x} is not an option",
    "{w} but no {x}",
    "{w}, without using {x}",
    "an alternative to {x} for {w}",
    "{w} as an alternative to {x}",
    "{w}, something other than {x}",
    "{w}, not {x} though",
    "{w} and no {x}",
    "{w}, we moved away from {x}",
    "{w} - we can't use {x}",
    "{w}, but nothing from {x}",
    "{w}, not made by {x}",
    "Not {x}: {w}",
    "{w}, minus {x}",
    "{w}, anything except {x}",
    "{w} that does not depend on {x}",
    "{w}, {x} excluded",
]
LANGUAGES = {
    "es": [
        "{w} sin {x}",
        "{w} pero no {x}",
        "{w} excepto {x}",
        "{w} en lugar de {x}",
        "{w} que no sea {x}",
        "{w}, nada de {x}",
        "{w} sin usar {x}",
        "{w}, no {x}",
    ],
    "pt": [
        "{w} sem {x}",
        "{w} mas não {x}",
        "{w} exceto {x}",
        "{w} em vez de {x}",
        "{w} que não seja {x}",
        "{w}, nada de {x}",
        "{w} sem usar {x}",
        "{w}, não {x}",
    ],
    "fr": [
        "{w} sans {x}",
        "{w} sauf {x}",
        "{w} mais pas {x}",
        "{w}, pas {x}",
        "{w} au lieu de {x}",
        "{w} autre que {x}",
        "{w} hors {x}",
        "{w}, pas de {x}",
    ],
    "de": [
        "{w} ohne {x}",
        "{w} außer {x}",
        "{w}, aber nicht {x}",
        "{w}, kein {x}",
        "{w} statt {x}",
        "{w}, nicht {x}",
        "{w} anstelle von {x}",
        "{w}, bitte kein {x}",
    ],
    "it": [
        "{w} senza {x}",
        "{w} tranne {x}",
        "{w} ma non {x}",
        "{w}, non {x}",
        "{w} invece di {x}",
        "{w} eccetto {x}",
        "{w} che non sia {x}",
        "{w}, niente {x}",
    ],
    "nl": [
        "{w} zonder {x}",
        "{w} behalve {x}",
        "{w} maar niet {x}",
        "{w}, geen {x}",
        "{w} in plaats van {x}",
        "{w}, niet {x}",
        "{w} anders dan {x}",
        "{w}, liever geen {x}",
    ],
}
# Negation words that leave the thing wanted: (form, whether the need wants that thing above all).
WANTED = [
    ("{w}, I can't do without {x}", True),
    ("{w}, nothing but {x}", True),
    ("{w}, none other than {x}", True),
    ("{w}, not without {x}", True),
    ("{w}, I don't mind {x}", False),
    ("{w}, {x} is not a problem", False),
    ("{w}, not necessarily {x}", False),
    ("{w}, not just {x}", False),
    ("not only {x} but any {w}", False),
    ("{w}, {x} or not, I don't mind", False),
    ("{w}, no problem with {x}", False),
    ("{w}, and not only {x}", False),
]
# A negation word that is no negation: (need, best, relevant).
CONTROLS = [
    ("sans serif fonts for my design", r"font", r"\bfonts?\b|typograph"),
    ("pick a sans-serif font", r"font", r"\bfonts?\b|typograph"),
    ("a no-code app builder", r"code|build|app", r"no-?code|low-?code|app builder"),
    ("no code automation workflows", r"automat|workflow|n8n|zapier|make", r"no-?code|automation|workflows?"),
    (
        "not-for-profit donor management",
        r"donor|nonprofit|charit|fundrais",
        r"nonprofit|non-profit|not-for-profit|donor|fundrais|charit",
    ),
    ("grants for nonprofits", r"grant|nonprofit", r"nonprofit|non-profit|grants?\b"),
    ("search my Notion workspace", r"notion", r"\bnotion\b"),
    ("notion pages and databases", r"notion", r"\bnotion\b"),
    ("Notion, Slack and Linear in one place", r"notion|slack|linear", r"\b(notion|slack|linear)\b"),
    ("how to tie a knot", r"knot|rope|sail", r"\bknots?\b"),
    ("NoSQL document database", r"mongo|couch|dynamo|firestore", r"nosql|mongo\w*|couchdb|dynamodb|firestore"),
    ("non-custodial crypto wallet", r"wallet", r"non-custodial|wallets?"),
    ("exception tracking for my app", r"sentry|error|exception|bug", r"exceptions?|error track|sentry"),
    ("never miss a meeting reminder", r"remind|calendar|meet", r"\breminders?\b|calendar"),
    ("avoid rate limits when scraping websites", r"scrap|crawl|firecrawl", r"scrap\w+|crawl\w*"),
    ("sin and cos for trigonometry", r"math|calc", r"trigonometr|\bmath\w*|calculat"),
    ("a notebook for data science", r"notebook|jupyter", r"notebooks?|jupyter"),
    ("noise cancelling audio cleanup", r"audio|noise|sound", r"\bnoise\b|audio"),
    ("Nothing Phone device info", r"phone|device|android", r"\bphones?\b|android"),
    ("SANS Internet Storm Center threat data", r"threat|security|sans|isc", r"threat|\bsans\b|storm center"),
]


def _split(items: list[str], rng: random.Random) -> tuple[set[str], set[str]]:
    """The forms of a kind in two: the dev half's and the held-out half's."""
    order = list(items)
    rng.shuffle(order)
    return set(order[: len(order) // 2]), set(order[len(order) // 2 :])


def needs() -> list[tuple[str, str, str, str, str, str]]:
    """(half, kind, need, best, relevant, excluded) for every need, each kind's forms split by SEED."""
    rng = random.Random(SEED)
    out: list[tuple[str, str, str, str, str, str]] = []

    def add(kind: str, forms: list[str], cases: list[tuple[str, str, str, str, str]], per: int) -> None:
        """Each case (wanted words, best, relevant, as written, pattern) in `per` forms of each half."""
        dev, held = _split(forms, rng)
        for w, best, relevant, x, excluded in cases:
            for half, chosen in (("dev", sorted(dev)), ("held", sorted(held))):
                for form in rng.sample(chosen, min(per, len(chosen))):
                    need = form.format(w=w, x=x)
                    out.append(
                        (
                            half,
                            kind,
                            need[0].upper() + need[1:] if form[0] == "{" and rng.random() < 0.3 else need,
                            best,
                            relevant,
                            excluded,
                        )
                    )

    plain = [
        (rng.choice(words), best, relevant, x, pattern)
        for words, best, relevant, unwanted, _ in CATEGORIES.values()
        for x, pattern in unwanted
    ]
    add("english", ENGLISH, plain, 2)
    add("more", MORE, plain, 3)
    everyday = [(rng.choice(CATEGORIES[c][0]), CATEGORIES[c][1], CATEGORIES[c][2], x, p) for c, x, p in EVERYDAY]
    add("everyday", ENGLISH + MORE, everyday, 4)
    makers = [(rng.choice(CATEGORIES[c][0]), CATEGORIES[c][1], CATEGORIES[c][2], x, p) for c, x, p in MAKERS]
    add("maker", ENGLISH + MORE, makers, 3)
    add("category", ENGLISH + MORE, [(w, b, r, x, p) for w, b, r, x, p in KINDS_OF], 4)
    for lang, forms in LANGUAGES.items():
        cases = [
            (other[lang], best, relevant, x, pattern)
            for _, best, relevant, unwanted, other in CATEGORIES.values()
            if other
            for x, pattern in unwanted[:2]
        ]
        add("language", forms, cases, 1)
    dev_w, held_w = _split([f for f, _ in WANTED], rng)
    above = dict(WANTED)
    for _, best, relevant, unwanted, _ in CATEGORIES.values():
        for x, pattern in unwanted[:1]:
            w = rng.choice(CATEGORIES_WORDS[best])
            for half, chosen in (("dev", sorted(dev_w)), ("held", sorted(held_w))):
                form = rng.choice(chosen)
                # "nothing but X" wants X above all: X's own servers are the best ones.
                out.append((half, "wanted", form.format(w=w, x=x), pattern if above[form] else best, relevant, ""))
    for i, (need, best, relevant) in enumerate(CONTROLS):
        out.append(("dev" if i % 2 == 0 else "held", "control", need, best, relevant, ""))
    return out


CATEGORIES_WORDS = {best: words for words, best, _, _, _ in CATEGORIES.values()}


def main() -> None:
    lots = census_lots()
    halves: dict[str, list[dict[str, object]]] = {"negation-dev": [], "negation-held": []}
    wrong: list[str] = []
    for half, kind, need, best, relevant, excluded in needs():
        names, bests = judged(lots, relevant, best, excluded)
        if kind != "control" and not bests:
            wrong.append(f"{need!r}: no relevant server's name matches {best!r}")
        row = {"kind": kind, "need": need, "best": bests, "relevant": names, "excluded": excluded}
        halves[f"negation-{half}"].append(row)
    write_halves(halves, wrong)
