"""A generated evaluation of needs by kinds the earlier sets do not hold. Written on 2026-12-07 from the
census snapshot, before the Directory's answers to any of them were read and before the change it
measures:

- `synonym`: a kind of server not wanted, named by a synonym or an abbreviation of the word a server
  writes ("movie recommendations, not TV" where servers write "television" or "TV"; "no bitcoin" where
  they write crypto, blockchain or web3; "without twitter" where they write social media, X or
  reddit); a server the unwanted pattern matches (every name of the kind) is never relevant, and
  `excluded5` is the share of the first five results that speak of it;
- `problem`: a need stated as a trouble, not a task ("my invoices are a mess");
- `format`: a need that names a file format or a protocol (".xlsx", "CalDAV", "S3-compatible");
- `typo`: a need with a slip of the keyboard in its main word ("wheather", "stirpe");
- `mixed`: a need mixing two languages ("ich brauche weather forecasts", "recipes senza wine"); some say
  in the other language what they do not want, and are judged as `synonym` is;
- `platform`: a need with a platform, a version or a place to run ("for Windows", "self-hosted, no
  cloud", "runs offline").

Each kind's items (a wanted thing, so its own census lots) are split by a fixed seed into a dev half
(seventh-dev, the only one read for the change) and a held-out half (seventh-held, measured before the
change and once at the end): the halves ask for different things, so are judged on different lots. The
forms of `synonym` are split too, so a held-out need is also phrased in a form no dev need uses. Rows
are as negation.py writes them (`kind`, `need`, `best`, `relevant`, `excluded`), their patterns
matched as make.py matches them.

Run from the repository with the full census (../shared/census/registry-snapshot.json) imported:
`manage.py shell -c "from tests.bench.directory_needs.seventh import main; main()"`.
"""

import random
from pathlib import Path

from tests.bench.directory_needs.make import halved, write_judged

HERE = Path(__file__).resolve().parent
SEED = "seventh:2026-12-07"

# What a server writes for a kind, whichever of its names the need uses.
_CRYPTO = r"crypto|bitcoin|\bbtc\b|blockchain|web3|ethereum|\beth\b|\bdefi\b|\bnfts?\b|stablecoin|solana"
_TV = r"television|\btv\b|tv shows?|\bseries\b"
_SOCIAL = r"social media|twitter|\bx\.com\b|\btweets?\b|reddit|facebook|instagram|tiktok|mastodon|bluesky|linkedin"
_DRINK = r"alcohol|\bwines?\b|\bbeers?\b|cocktail|liquor|spirits|booze"
_BETTING = r"betting|\bbets?\b|\bodds\b|gambl|casino|wager|sportsbook"
_BULK = r"marketing|campaign|newsletter|bulk (e-?mail|send)|mass mail"
_ADS = r"\bads\b|advertis|adwords|\bppc\b|ad campaigns?"
_AI = r"\bai\b|artificial intelligence|\bllms?\b|\bgpt\b|machine learning|openai"

# (the need's wanted words, best (over the name), relevant, the unwanted kind's names a need may use,
# its pattern)
SYNONYMS = [
    ("movie recommendations", r"movie|film|tmdb|cinema", r"\bmovies?\b|\bfilms?\b", ["TV", "TV shows"], _TV),
    ("news headlines", r"news", r"\bnews\b", ["crypto", "bitcoin"], _CRYPTO),
    ("stock prices", r"stock|market|financ|yahoo|alpha", r"\bstocks?\b|\bequit", ["crypto", "blockchain"], _CRYPTO),
    ("payment processing", r"pay|stripe|checkout", r"\bpayments?\b", ["web3", "crypto"], _CRYPTO),
    ("news headlines", r"news", r"\bnews\b", ["social media", "twitter"], _SOCIAL),
    ("web search results", r"search|serp", r"web search|search engine", ["reddit", "social media"], _SOCIAL),
    ("dinner recipes", r"recipe|food|cook|meal", r"\brecipes?\b", ["alcohol", "booze"], _DRINK),
    ("restaurant recommendations", r"restaurant|food|yelp|dining", r"restaurant", ["beer", "alcohol"], _DRINK),
    ("sports scores", r"sport|score|league|football|nba", r"\bsports?\b", ["gambling", "odds"], _BETTING),
    ("football match results", r"football|soccer|sport", r"football|soccer", ["bets", "betting"], _BETTING),
    ("send transactional emails", r"mail|smtp", r"\be-?mails?\b|smtp", ["newsletters", "bulk mail"], _BULK),
    ("website analytics", r"analytic", r"\banalytics\b", ["ads", "advertising"], _ADS),
    ("a plain calculator", r"calc|math", r"calculat|\bmath\w*", ["AI", "LLMs"], _AI),
    ("stock market data", r"stock|market|financ|yahoo|alpha", r"\bstocks?\b|market data", ["NFTs", "DeFi"], _CRYPTO),
]
SYNONYM_FORMS = [
    "{w}, not {x}",
    "{w} but no {x}",
    "{w} without {x}",
    "{w}, nothing about {x}",
    "{w} excluding {x}",
    "{w} - no {x} please",
    "{w}, I don't want {x}",
    "{w} except {x}",
    "{w}, minus {x}",
    "{w} (no {x})",
]
# A need stated as a trouble: (need, best, relevant).
PROBLEMS = [
    ("my invoices are a mess", r"invoic|bill|account|xero|quickbooks", r"\binvoic\w*"),
    ("I keep forgetting my meetings", r"calendar|remind|meet", r"\bcalendars?\b|\breminders?\b"),
    ("my inbox is overflowing and I can't keep up", r"mail|inbox", r"\b(e-?mails?|inbox|gmail|imap)\b"),
    (
        "our servers keep going down at night and nobody notices",
        r"monitor|uptime|status|incident|pager|alert",
        r"\buptime\b|monitoring|\bincidents?\b|on-?call",
    ),
    (
        "customers complain that nobody answers their support tickets",
        r"support|desk|zendesk|ticket",
        r"help ?desk|customer support|zendesk|freshdesk|support tickets?",
    ),
    (
        "I never know how much we spent this month",
        r"expense|budget|financ|spend",
        r"\bexpenses?\b|\bbudget\w*|spending",
    ),
    (
        "our website feels slow and I don't know why",
        r"lighthouse|pagespeed|perf|vital",
        r"lighthouse|pagespeed|web vitals",
    ),
    ("I'm drowning in PDFs I never get to read", r"pdf", r"\bpdfs?\b"),
    ("the build keeps breaking after every merge", r"ci|build|jenkins|circle|action", r"\bci\b|ci/cd|\bbuilds?\b"),
    ("I can't make sense of the contracts my lawyer sends", r"legal|law|contract", r"\blegal\b|\bcontracts?\b"),
    ("my saved links and bookmarks are chaos", r"bookmark|raindrop|link", r"bookmark|read-?later"),
    ("I keep forgetting the Spanish words I learn", r"anki|flash|vocab|language", r"\banki\b|flashcard"),
    ("I can never remember which containers are running", r"docker|container", r"\bdocker\b|\bcontainers?\b"),
    ("our documentation is always out of date", r"doc", r"\bdocumentation\b"),
]
# A need naming a file format or a protocol: (need, best, relevant).
FORMATS = [
    ("open an .xlsx file and read the rows", r"excel|xlsx|sheet", r"xlsx|\bexcel\b"),
    ("sync my calendar over CalDAV", r"caldav|calendar", r"caldav"),
    ("store backups in S3-compatible object storage", r"s3|minio|storage|r2", r"\bs3\b|object storage|minio"),
    ("read my mail over IMAP", r"imap|mail", r"\bimap\b"),
    ("upload files to a server via SFTP", r"ftp|ssh", r"\bs?ftp\b"),
    ("send mail over SMTP from my app", r"smtp|mail", r"\bsmtp\b"),
    ("parse an RSS feed", r"rss|feed", r"\brss\b|atom feed"),
    ("query a GraphQL endpoint", r"graphql", r"graphql"),
    ("convert a .docx to markdown", r"docx|word|doc|convert|markdown|pandoc", r"docx|word documents?"),
    ("clean up a messy .csv", r"csv", r"\bcsv\b"),
    ("build a .pptx slide deck", r"pptx|powerpoint|slide|ppt", r"pptx|powerpoint"),
    ("read .parquet files", r"parquet|duckdb", r"parquet"),
    ("explore an OpenAPI spec", r"openapi|swagger", r"openapi|swagger"),
    ("call a gRPC service", r"grpc", r"\bgrpc\b"),
    ("run commands over SSH", r"ssh", r"\bssh\b"),
    ("edit .svg graphics", r"svg", r"\bsvg\b"),
    ("read an EPUB book", r"epub|book", r"epub"),
    ("FHIR patient records", r"fhir|health|medical", r"\bfhir\b"),
]
# A need with a slip of the keyboard: (need, best, relevant).
TYPOS = [
    ("postgress database queries", r"postgres|pg", r"postgres"),
    ("send an emial with an attachment", r"mail|smtp", r"\be-?mails?\b"),
    ("githbu pull requests", r"github", r"github"),
    ("kuberentes pod logs", r"kube|k8s", r"kubernetes|\bk8s\b"),
    ("wheather forecast for the weekend", r"weather|forecast", r"\bweather\b"),
    ("spreadhseet formulas", r"sheet|excel", r"spreadsheet|google sheets|\bexcel\b"),
    ("take a screenshoot of a web page", r"screenshot|screen|browser", r"screenshots?"),
    ("translte a document into French", r"translat|deepl", r"\btranslat\w*"),
    ("stirpe payments and refunds", r"stripe", r"stripe"),
    ("search my notoin pages", r"notion", r"\bnotion\b"),
    ("inspect figam designs", r"figma", r"figma"),
    ("list my docekr containers", r"docker|container", r"\bdocker\b"),
    ("salesforse leads and opportunities", r"salesforce", r"salesforce"),
    ("wikipeida articles about history", r"wiki", r"wikipedia"),
    ("youtbue video transcripts", r"youtube|transcript", r"youtube"),
    ("airtabel records", r"airtable", r"airtable"),
    ("shopfiy orders", r"shopify", r"shopify"),
    ("hubsopt contacts and deals", r"hubspot", r"hubspot"),
]
# A need mixing two languages: (need, best, relevant, excluded).
MIXED = [
    ("ich brauche weather forecasts for Berlin", r"weather|forecast", r"\bweather\b", ""),
    ("necesito send messages to Slack", r"slack", r"\bslack\b", ""),
    ("je voudrais search the web", r"search|brave|tavily|exa|serp", r"web search|search engine", ""),
    ("crea una pull request en GitHub", r"github", r"github", ""),
    ("news headlines ohne sports", r"news", r"\bnews\b", r"\bsports?\b|football|soccer|\bnba\b|\bnfl\b"),
    ("recipes senza wine", r"recipe|food|cook|meal", r"\brecipes?\b", r"\bwines?\b|sommelier"),
    ("voglio translate this document", r"translat|deepl", r"\btranslat\w*", ""),
    ("quiero crear issues in Jira", r"jira|atlassian", r"\bjira\b", ""),
    ("enviar un email with Gmail", r"gmail|google", r"gmail", ""),
    ("buscar flights to Madrid", r"flight|travel|air", r"\bflights?\b", ""),
    ("job listings ohne freelance", r"job|career|hire|work", r"\bjobs?\b|\bcareers?\b", r"freelanc"),
    ("music streaming senza podcasts", r"music|spotify|audio|sound", r"\bmusic\b", r"podcast"),
    ("meteo for Rome tomorrow", r"weather|forecast|meteo", r"\bweather\b|meteo", ""),
    ("Kalender events for next week", r"calendar", r"\bcalendars?\b", ""),
]
# A need with a platform, a version or a place to run: (need, best, relevant).
PLATFORMS = [
    ("automate desktop apps on Windows", r"windows|desktop|automat", r"\bwindows\b"),
    ("control my Mac apps, macOS only", r"mac|apple", r"\bmacos\b|\bmac\b"),
    ("test my app in the iOS simulator", r"ios|simulator|xcode|mobile", r"\bios\b|simulator"),
    ("drive an Android emulator", r"android|mobile|adb", r"\bandroid\b"),
    ("a local LLM that runs offline", r"ollama|local|llm|lm", r"ollama|lm studio|local llms?"),
    ("self-hosted git, not GitHub", r"gitea|gitlab|forgejo", r"gitea|forgejo|gitlab"),
    ("PowerShell scripts on Windows", r"powershell|windows", r"powershell"),
    ("web analytics, self-hosted, no cloud", r"plausible|umami|matomo|analytic", r"plausible|umami|matomo"),
    ("Node.js 20 package docs", r"node|npm", r"node\.?js|\bnpm\b"),
    ("manage a Linux server", r"linux|server|ssh", r"\blinux\b"),
    (
        "notes kept locally, offline first",
        r"note|obsidian|local",
        r"\bnotes?\b.{0,40}(local|offline)|(local|offline).{0,40}\bnotes?\b",
    ),
    ("an iPhone shortcut runner", r"shortcut|ios|iphone|apple", r"shortcuts|iphone"),
]


def needs() -> list[tuple[str, str, str, str, str, str]]:
    """(half, kind, need, best, relevant, excluded) for every need, split by SEED."""
    rng = random.Random(SEED)
    out: list[tuple[str, str, str, str, str, str]] = []
    forms = dict(zip(("dev", "held"), halved(list(SYNONYM_FORMS), rng), strict=True))
    for half, items in zip(("dev", "held"), halved(list(SYNONYMS), rng), strict=True):
        for w, best, relevant, names, excluded in items:  # type: ignore[misc]
            for x in names:
                form = rng.choice(forms[half])
                out.append((half, "synonym", str(form).format(w=w, x=x), best, relevant, excluded))
    for kind, rows in (("problem", PROBLEMS), ("format", FORMATS), ("typo", TYPOS), ("platform", PLATFORMS)):
        for half, items in zip(("dev", "held"), halved(list(rows), rng), strict=True):
            for need, best, relevant in items:  # type: ignore[misc]
                out.append((half, kind, need, best, relevant, ""))
    for half, items in zip(("dev", "held"), halved(list(MIXED), rng), strict=True):
        for need, best, relevant, excluded in items:  # type: ignore[misc]
            out.append((half, "mixed", need, best, relevant, excluded))
    return out


def main() -> None:
    write_judged("seventh", needs())
