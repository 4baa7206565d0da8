"""A generated evaluation of needs whose words name the wrong thing. Written on 2026-12-07 from the
census snapshot, before the Directory's answers to any of them were read and before the change it
measures:

- `verb`: an everyday verb the vocabulary reads as a product's kind, used in its ordinary sense before
  a technical thing ("call a gRPC service" is no phone call, "chat with my PDFs" no team chat, "store
  embeddings" no shop);
- `techname`: a technology whose name is written with a dot, a sign or a dash (Node.js, Next.js, C#,
  C++, .NET, ASP.NET, Three.js, Vue.js): one name, not two words;
- `phrase`: a kind not wanted, named by two words after a negation ("without TV shows", "except
  sports betting"); a server the unwanted pattern matches is never relevant, and `excluded5` is the
  share of the first five results that speak of it;
- `task`: a need naming a task rather than a thing ("nobody answers our support tickets", "who is on
  call tonight");
- `sense`: a word of another language with two senses, each asked by the need's other words
  (Spanish "acciones": shares, or GitHub's Actions; "programar": to schedule, or to program;
  Portuguese "apagar" to delete, Spanish to switch off; Dutch "bericht" a message, German a report;
  Italian "cerca" search, Spanish near; Portuguese "pasta" a folder, and the food).

Each kind's items (a wanted thing, so its own census lots) are split by a fixed seed into a dev half
(eighth-dev, the only one read for the change) and a held-out half (eighth-held, measured before the
change and once at the end): the halves ask for different things, so are judged on different lots.
The forms of `phrase` are split too, so a held-out need is also phrased in a form no dev need uses; a
`sense` item's two senses go to the same half. Rows are as negation.py writes them (`kind`, `need`,
`best`, `relevant`, `excluded`), their patterns matched as make.py matches them.

Run from the repository with the full census (../shared/census/registry-snapshot.json) imported:
`manage.py shell -c "from tests.bench.directory_needs.eighth import main; main()"`.
"""

import random
from pathlib import Path

from tests.bench.directory_needs.make import halved, write_judged

HERE = Path(__file__).resolve().parent
SEED = "eighth:2026-12-07"

# What a server writes for a kind, whichever words the need uses.
_TV = r"television|\btv\b|tv shows?|\bseries\b"
_ADS = r"\bads\b|advertis|adwords|\bppc\b|ad campaigns?|ad tracking"
_BETTING = r"betting|\bbets?\b|\bodds\b|gambl|casino|wager|sportsbook"
_CRYPTO = r"crypto|bitcoin|\bbtc\b|blockchain|web3|ethereum|\beth\b|\bdefi\b|\bnfts?\b|stablecoin|solana|coins?\b"
_DRINK = r"alcohol|\bwines?\b|\bbeers?\b|cocktail|liquor|spirits|booze|drinks?\b"
_BULK = r"marketing|campaign|newsletter|bulk (e-?mail|send)|mass mail"
_SOCIAL = r"social media|social networks?|twitter|\bx\.com\b|\btweets?\b|reddit|facebook|instagram|tiktok|mastodon"
_SPORT = r"\bsports?\b|football|soccer|\bnba\b|\bnfl\b|basketball|baseball"
_GAMES = r"video ?games?|\bgaming\b|steam|\bgames?\b"

# A verb in its ordinary sense: (need, best, relevant).
VERBS = [
    ("call a gRPC service", r"grpc", r"\bgrpc\b"),
    (
        "call a REST API and show me the JSON",
        r"http|api|fetch|curl|rest",
        r"rest api|http requests?|api client|\bcurl\b",
    ),
    ("call a webhook when the job finishes", r"webhook|hook", r"\bwebhooks?\b"),
    ("call JSON-RPC methods", r"rpc|json", r"json-?rpc"),
    ("chat with my PDFs", r"pdf", r"\bpdfs?\b"),
    ("chat with a CSV file", r"csv", r"\bcsv\b"),
    (
        "store embeddings for semantic search",
        r"vector|embed|pinecone|qdrant|chroma|weaviate|milvus",
        r"\bembeddings?\b|vector (store|database|db)",
    ),
    ("design a database schema", r"schema|db|sql|erd", r"schema|\berd?\b|data model"),
    (
        "store secrets for my app",
        r"secret|vault|1password|bitwarden|infisical|doppler",
        r"secrets? (manag|stor)|\bvault\b|1password|bitwarden|infisical|doppler",
    ),
    ("chat with our Postgres database", r"postgres|pg", r"postgres"),
]
# A technology written as one name with a dot, a sign or a dash: (need, best, relevant).
TECHNAMES = [
    ("Node.js package docs", r"node|npm", r"node\.?js|\bnpm\b"),
    ("debug my Next.js app", r"next", r"next\.?js"),
    ("Vue.js components", r"vue", r"\bvue(\.?js)?\b"),
    ("ASP.NET Core debugging", r"asp|dotnet|net", r"asp\.?net|\.net\b|dotnet"),
    (".NET project templates", r"dotnet|net", r"\.net\b|dotnet"),
    ("C# code navigation", r"csharp|roslyn|dotnet|sharp", r"\bc#|csharp|c sharp|roslyn"),
    ("C++ package manager", r"cpp|clang|cmake", r"c\+\+|\bcpp\b"),
    ("Three.js scenes", r"three", r"three\.?js"),
]
# (the need's wanted words, best (over the name), relevant, two-word names of the unwanted kind, its pattern)
PHRASES = [
    ("movie recommendations", r"movie|film|tmdb|cinema", r"\bmovies?\b|\bfilms?\b", ["TV shows", "TV series"], _TV),
    ("website analytics", r"analytic", r"\banalytics\b", ["online ads", "ad tracking"], _ADS),
    ("sports scores", r"sport|score|league|football|nba", r"\bsports?\b", ["sports betting", "betting odds"], _BETTING),
    (
        "stock market data",
        r"stock|market|financ|yahoo|alpha",
        r"\bstocks?\b|market data",
        ["crypto coins", "crypto prices"],
        _CRYPTO,
    ),
    ("dinner recipes", r"recipe|food|cook|meal", r"\brecipes?\b", ["alcoholic drinks", "wine pairings"], _DRINK),
    ("send transactional emails", r"mail|smtp", r"\be-?mails?\b|smtp", ["marketing emails", "bulk newsletters"], _BULK),
    ("news headlines", r"news", r"\bnews\b", ["social networks", "social posts"], _SOCIAL),
    ("news headlines", r"news", r"\bnews\b", ["sports news", "sports results"], _SPORT),
    ("music streaming", r"music|spotify|audio|sound", r"\bmusic\b", ["video games", "game soundtracks"], _GAMES),
    (
        "weather forecasts",
        r"weather|forecast",
        r"\bweather\b",
        ["air quality", "pollen counts"],
        r"air quality|pollen|\baqi\b",
    ),
]
PHRASE_FORMS = [
    "{w} without {x}",
    "{w} except {x}",
    "{w}, but no {x}",
    "{w}, not {x}",
    "{w} excluding {x}",
    "{w} (no {x})",
    "{w}, nothing about {x}",
    "{w} - skip {x}",
]
# A need naming a task: (need, best, relevant).
TASKS = [
    (
        "nobody answers our support tickets",
        r"support|desk|zendesk|ticket|freshdesk",
        r"help ?desk|customer support|zendesk|freshdesk|support tickets?",
    ),
    ("who is on call tonight", r"pager|oncall|opsgenie|incident", r"on-?call|pagerduty|opsgenie"),
    ("find out why our website loads slowly", r"lighthouse|pagespeed|perf|vital", r"lighthouse|pagespeed|web vitals"),
    ("remind me to pay the rent", r"remind", r"\breminders?\b"),
    ("turn a recording into text", r"transcri|whisper|speech", r"transcri"),
    (
        "get a second pair of eyes on my pull request",
        r"review",
        r"code reviews?|review (pull|merge) requests?|pr reviews?",
    ),
    ("get a contract signed online", r"sign|docusign", r"e-?signatures?|docusign|sign documents"),
    ("make sure our certificates don't expire", r"cert|ssl|tls", r"(ssl|tls) certificates?|certificate expir"),
    ("check whether a domain name is still free", r"domain|whois", r"domain (availability|name)|whois"),
    ("fix the grammar in my essay", r"grammar|proof|spell|language", r"grammar|proofread|spell ?check"),
    ("split the bill with my friends", r"split|expense", r"split\w* (the )?(bill|expenses)|splitwise|shared expenses"),
    ("see who our GitHub workflow runs failed for", r"github|action", r"github actions|workflow runs?"),
]
# A word of another language in each of its senses: [(need, best, relevant), (need, best, relevant)].
SENSES = [
    [
        (
            "precio de las acciones de Apple hoy",
            r"stock|market|financ|yahoo|alpha",
            r"\bstocks?\b|\bequit|stock market",
        ),
        ("ver las acciones de GitHub que fallaron", r"github|action", r"github actions|workflow runs?"),
    ],
    [
        ("programar una reunión con el equipo", r"calendar|cal|meet", r"\bcalendars?\b|meeting"),
        ("aprender a programar en Python", r"python", r"\bpython\b"),
    ],
    [
        ("apagar as luzes da sala", r"home|hass|light|hue", r"home assistant|smart home|\blights?\b"),
        ("apagar arquivos antigos do disco", r"file|fs", r"delete files|file (system|management)|filesystem"),
    ],
    [
        ("stuur een bericht naar ons Slack kanaal", r"slack", r"\bslack\b"),
        ("einen Bericht als PDF erstellen", r"report|pdf", r"\breports?\b.{0,30}pdf|pdf.{0,30}reports?|report generat"),
    ],
    [
        ("cerca ristoranti a Roma", r"restaurant|food|yelp|dining", r"restaurant"),
        ("farmacias cerca de mi casa", r"pharm|drug|health", r"\bpharmac"),
    ],
    [
        ("criar uma pasta nova no Google Drive", r"drive|gdrive|google", r"google drive|\bfolders?\b"),
        ("receitas de pasta italiana", r"recipe|food|cook|meal", r"\brecipes?\b"),
    ],
]


def needs() -> list[tuple[str, str, str, str, str, str]]:
    """(half, kind, need, best, relevant, excluded) for every need, split by SEED."""
    rng = random.Random(SEED)
    out: list[tuple[str, str, str, str, str, str]] = []
    forms = dict(zip(("dev", "held"), halved(list(PHRASE_FORMS), rng), strict=True))
    for half, items in zip(("dev", "held"), halved(list(PHRASES), rng), strict=True):
        for w, best, relevant, names, excluded in items:  # type: ignore[misc]
            for x in names:
                form = rng.choice(forms[half])
                out.append((half, "phrase", str(form).format(w=w, x=x), best, relevant, excluded))
    for kind, rows in (("verb", VERBS), ("techname", TECHNAMES), ("task", TASKS)):
        for half, items in zip(("dev", "held"), halved(list(rows), rng), strict=True):
            for need, best, relevant in items:  # type: ignore[misc]
                out.append((half, kind, need, best, relevant, ""))
    for half, items in zip(("dev", "held"), halved(list(SENSES), rng), strict=True):
        for pair in items:
            for need, best, relevant in pair:  # type: ignore[union-attr]
                out.append((half, "sense", need, best, relevant, ""))
    return out


def main() -> None:
    write_judged("eighth", needs())
