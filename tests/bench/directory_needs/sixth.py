"""A sixth evaluation of the Directory, by kind: needs that say what they do not want, needs the census
has nothing for, long rambling needs that name a product, common words that are also products' names,
and input that is not words at all. Written on 2026-12-07 from the census snapshot, before the
Directory's answers to any of them were read, and split by a fixed seed into a tune half (sixth-tune,
the only one tuned on) and a check half (sixth-check, measured at the end).

Each row is (kind, need, best, relevant, excluded), the last three regular expressions, each matched
as make.py matches (over a lot's name without `io.github.`, its title and its description; `best`
over the name alone):

- negation: `relevant` is what the need asks for, `excluded` the product it names as unwanted; a
  server `excluded` matches is never relevant, nor best. The bench also counts how many of the first
  five results are excluded ones.
- lacks: a topic no lot speaks of; `relevant` is the topic's own word, and the generator refuses a
  need whose pattern matches any lot (so the census really lacks it). The bench counts the replies
  that say nothing in the census fits closely.
- rambling and common: judged as the other evaluations are (MRR@10, recall@8, hit@1).
- junk: nothing to search; `relevant` lists words that must not be searched (the bench counts the
  replies whose terms are empty, or hold none of those words).

Run from the repository with the full census imported:
`manage.py shell -c "from tests.bench.directory_needs.sixth import main; main()"`.
"""

import random
from pathlib import Path

from tests.bench.directory_needs.make import census_lots, judged, write_halves

HERE = Path(__file__).resolve().parent
SEED = "sixth:2026-12-07"

_DB = r"\b(mysql|mariadb|sqlite|sql server|mssql|oracle database|cockroachdb|tidb)\b"
_CHAT = r"\b(discord|microsoft teams|mattermost|rocket\.?chat|telegram|zulip)\b"
_SEARCH = r"\bweb search\b|\bsearch engine\b|\bsearch the web\b"
_MAPS = r"\b(directions|routing|route planning|geocod\w*|openstreetmap|mapbox)\b"

# (kind, need, best (over the name), relevant, excluded)
SIXTH: list[tuple[str, str, str, str, str]] = [
    # ---------------- negation ----------------
    ("negation", "a sql database but not postgres", r"mysql|mariadb|sqlite|mssql", _DB, r"postgres"),
    (
        "negation",
        "connect to a relational database other than PostgreSQL",
        r"mysql|mariadb|sqlite|mssql",
        _DB,
        r"postgres",
    ),
    (
        "negation",
        "read my email, no gmail please",
        r"mail|imap|outlook",
        r"\b(e-?mail|inbox|imap|smtp)\b",
        r"gmail|google",
    ),
    (
        "negation",
        "send emails from my inbox without Gmail",
        r"mail|imap|outlook",
        r"\b(e-?mail|inbox|imap|smtp)\b",
        r"gmail|google",
    ),
    ("negation", "driving directions and geocoding, not google maps", r"map|osm|route|geo", _MAPS, r"google"),
    (
        "negation",
        "search the web except google",
        r"brave|tavily|exa|searx|duckduckgo|kagi|linkup|perplexity|search",
        _SEARCH,
        r"\bgoogle\b",
    ),
    (
        "negation",
        "a web search engine instead of Google",
        r"brave|tavily|exa|searx|duckduckgo|kagi|linkup|perplexity|search",
        _SEARCH,
        r"\bgoogle\b",
    ),
    (
        "negation",
        "git hosting with merge requests, not github",
        r"gitlab|bitbucket|gitea|forgejo",
        r"gitlab|bitbucket|gitea|forgejo|codeberg",
        r"github",
    ),
    (
        "negation",
        "issue tracking other than jira",
        r"linear|asana|trello|clickup|youtrack",
        r"\b(linear|asana|trello|clickup|youtrack)\b|issue track",
        r"jira|atlassian",
    ),
    ("negation", "team chat except slack", r"discord|teams|mattermost|telegram|zulip", _CHAT, r"slack"),
    (
        "negation",
        "take card payments instead of stripe",
        r"paypal|square|adyen|mollie|razorpay|paddle|braintree",
        r"\b(paypal|square|adyen|mollie|razorpay|paddle|braintree)\b",
        r"stripe",
    ),
    (
        "negation",
        "cloud file storage rather than google drive",
        r"dropbox|onedrive|box",
        r"\b(dropbox|onedrive|box\.com)\b",
        r"google",
    ),
    (
        "negation",
        "a note taking app besides notion",
        r"obsidian|evernote|joplin|logseq|onenote",
        r"\b(obsidian|evernote|joplin|logseq|onenote)\b",
        r"notion",
    ),
    (
        "negation",
        "crm contacts and deals excluding salesforce",
        r"hubspot|pipedrive|zoho|attio",
        r"\b(hubspot|pipedrive|zoho|attio)\b",
        r"salesforce",
    ),
    (
        "negation",
        "error tracking, but not sentry",
        r"rollbar|bugsnag|honeybadger|raygun",
        r"\b(rollbar|bugsnag|honeybadger|raygun)\b",
        r"sentry",
    ),
    (
        "negation",
        "video meetings but no zoom",
        r"meet|teams|webex|jitsi|whereby",
        r"\b(google meet|webex|jitsi|whereby)\b",
        r"zoom",
    ),
    (
        "negation",
        "a vector database, not pinecone",
        r"qdrant|weaviate|chroma|milvus|lancedb",
        r"\b(qdrant|weaviate|chroma\w*|milvus|lancedb)\b",
        r"pinecone",
    ),
    (
        "negation",
        "monitoring dashboards but not datadog",
        r"grafana|prometheus|newrelic|dynatrace|honeycomb",
        r"\b(grafana|prometheus|new relic|dynatrace|honeycomb)\b",
        r"datadog",
    ),
    (
        "negation",
        "deploy my website, not on vercel",
        r"netlify|railway|render|fly|heroku",
        r"\b(netlify|railway|render\.com|fly\.io|heroku)\b",
        r"vercel",
    ),
    (
        "negation",
        "browser automation instead of playwright",
        r"puppeteer|selenium|browserbase",
        r"\b(puppeteer|selenium|browserbase)\b",
        r"playwright",
    ),
    ("negation", "eine SQL Datenbank, aber nicht Postgres", r"mysql|mariadb|sqlite|mssql", _DB, r"postgres"),
    (
        "negation",
        "Websuche ohne Google",
        r"brave|tavily|exa|searx|duckduckgo|kagi|linkup|perplexity|search",
        _SEARCH,
        r"\bgoogle\b",
    ),
    ("negation", "chat de equipo pero no Slack", r"discord|teams|mattermost|telegram|zulip", _CHAT, r"slack"),
    (
        "negation",
        "pagos con tarjeta sin Stripe",
        r"paypal|square|adyen|mollie|razorpay|paddle|braintree",
        r"\b(paypal|square|adyen|mollie|razorpay|paddle|braintree)\b",
        r"stripe",
    ),
    (
        "negation",
        "recherche web sauf Google",
        r"brave|tavily|exa|searx|duckduckgo|kagi|linkup|perplexity|search",
        _SEARCH,
        r"\bgoogle\b",
    ),
    (
        "negation",
        "stockage de fichiers sans Dropbox",
        r"drive|onedrive|box|s3",
        r"\b(google drive|onedrive|box\.com|s3)\b",
        r"dropbox",
    ),
    # ---------------- lacks: the census has nothing for these ----------------
    ("lacks", "tune the strings of my violin", "", r"violin", ""),
    ("lacks", "schedule feeding times for my pet tortoise", "", r"tortoise", ""),
    ("lacks", "find a knitting pattern for a baby sweater", "", r"knitting|crochet", ""),
    ("lacks", "track how fast my sourdough starter rises", "", r"sourdough", ""),
    ("lacks", "plan an inspection of my beehives", "", r"beehive|beekeep|\bapiar(y|ies)\b", ""),
    ("lacks", "restore the mechanism of an antique grandfather clock", "", r"grandfather clock|horolog", ""),
    ("lacks", "remind me to repot my fern", "", r"\bferns?\b", ""),
    ("lacks", "log my fly fishing catches on the river", "", r"fly fishing|angling|angler", ""),
    ("lacks", "teach my parrot to say new words", "", r"parrot", ""),
    ("lacks", "fix a squeaky door hinge", "", r"hinge|squeak", ""),
    ("lacks", "press wildflowers into a scrapbook", "", r"wildflower|scrapbook", ""),
    ("lacks", "sharpen my kitchen knives on a whetstone", "", r"whetstone|knife sharpen", ""),
    ("lacks", "practice calligraphy with a fountain pen", "", r"calligraph", ""),
    ("lacks", "braid my pony's mane for a show", "", r"\bpon(y|ies)\b|\bmane\b", ""),
    ("lacks", "choose colours for a crochet blanket", "", r"crochet", ""),
    ("lacks", "find a word that rhymes with orange", "", r"rhym", ""),
    ("lacks", "carve a pumpkin lantern for halloween", "", r"pumpkin|carving", ""),
    # ---------------- rambling: long needs that name a product ----------------
    (
        "rambling",
        "ok so basically our support folks live in Zendesk all day and I want something that can read the newest tickets and maybe draft replies when the queue gets long",
        r"zendesk",
        r"zendesk",
        "",
    ),
    (
        "rambling",
        "my manager keeps asking for numbers so I need to pull last month's revenue out of QuickBooks and drop it into a report without copying it by hand every single time",
        r"quickbooks",
        r"quickbooks|intuit",
        "",
    ),
    (
        "rambling",
        "we host all our code on GitLab and honestly the pipelines break a lot lately, so I'd like an agent to look at failing jobs and tell me what went wrong",
        r"gitlab",
        r"gitlab",
        "",
    ),
    (
        "rambling",
        "so the thing is people book time with me through Calendly and they keep landing over lunch, is there a way to see and move those bookings around",
        r"calendly",
        r"calendly",
        "",
    ),
    (
        "rambling",
        "I keep a huge pile of research notes in Obsidian and would really love for the assistant to search them and link related ideas together while I write",
        r"obsidian",
        r"obsidian",
        "",
    ),
    (
        "rambling",
        "our little agency sends invoices through Xero and chasing the unpaid ones every month is such a pain, something to list who still owes us would be great",
        r"xero",
        r"\bxero\b",
        "",
    ),
    (
        "rambling",
        "every morning I check the Datadog monitors by hand to see what fired overnight and it takes ages, could an agent just summarize the alerts for me",
        r"datadog",
        r"datadog",
        "",
    ),
    (
        "rambling",
        "the marketing team dumps every campaign asset in Dropbox and nobody can ever find anything, I want to search the files and share links quickly",
        r"dropbox",
        r"dropbox",
        "",
    ),
    (
        "rambling",
        "we have customer data spread over HubSpot and after each sales call I need to update deal stages without clicking around forever, any way to do that",
        r"hubspot",
        r"hubspot",
        "",
    ),
    (
        "rambling",
        "my kid's school posts all the assignments in Canvas and I'd like to know what's due this week so nothing slips through the cracks again",
        r"canvas",
        r"canvas",
        "",
    ),
    (
        "rambling",
        "hi, so we run a small Kubernetes cluster for a few side projects and pods keep crashing at night, I need to read logs and restart things from chat",
        r"kubernetes|k8s",
        r"kubernetes|\bk8s\b",
        "",
    ),
    (
        "rambling",
        "our docs all live in Confluence but search there is honestly awful, I want to find the onboarding pages and summarize them for the new hires",
        r"confluence|atlassian",
        r"confluence",
        "",
    ),
    (
        "rambling",
        "basically I keep everything in Airtable, from leads to inventory, and I want the assistant to add records whenever new orders show up",
        r"airtable",
        r"airtable",
        "",
    ),
    (
        "rambling",
        "so we sell handmade candles online and every order lands in Shopify, I'd love to see which ones are still unfulfilled each morning before packing",
        r"shopify",
        r"shopify",
        "",
    ),
    # ---------------- common words that are also products' names, or that look like others ----------------
    ("common", "take a screenshot of my screen", r"screenshot|screen", r"screenshots?\b|screen ?capture", ""),
    ("common", "book a plane ticket to visit my family", r"flight|travel|air", r"\bflights?\b|airfare", ""),
    ("common", "cook dinner with what is left in my fridge", r"recipe|food|meal|cook", r"\brecipes?\b", ""),
    ("common", "a shopping list of things to buy at the store", r"shopping|grocer", r"shopping list|grocer", ""),
    ("common", "make a list of tasks for today", r"todo|task", r"\bto-?do\b|task list|task manag", ""),
    ("common", "run a linear regression on my data", r"stat|regression|math|data", r"regression", ""),
    (
        "common",
        "the fastest route to drive home",
        r"map|route|direction|navigat",
        r"\b(directions|routing|route planning|navigation)\b",
        "",
    ),
    ("common", "fix a broken formula in my spreadsheet", r"sheet|excel", r"spreadsheet|excel|google sheets", ""),
    (
        "common",
        "track a package I shipped last week",
        r"track|parcel|ship",
        r"parcel|package tracking|shipment tracking",
        "",
    ),
    ("common", "convert a recipe from cups to grams", r"unit|convert", r"unit conver", ""),
    ("common", "remind me to stretch every hour", r"remind", r"\breminders?\b", ""),
    ("common", "count the calories in my lunch", r"nutrition|calori|food|diet", r"calorie|nutrition", ""),
    ("common", "check the tide times at the beach", r"tide|marine|ocean", r"\btides?\b", ""),
    # ---------------- junk: nothing to search ----------------
    ("junk", "^[a-z]+$|\\w{2,}(?=x)", "", r"z|w|2|x", ""),
    ("junk", "!!! ??? ... ***", "", r"", ""),
    ("junk", "a b c d e f g", "", r"a|b|c|d|e|f|g", ""),
    ("junk", "1 2 3 4 5", "", r"1|2|3|4|5", ""),
    ("junk", "it is of the and to in on at", "", r"it|is|of|the|and|to|in|on|at", ""),
    ("junk", "x = (y + 1) * [z]", "", r"x|y|1|z", ""),
    ("junk", "so what is the the the", "", r"so|what|is|the", ""),
    ("junk", "((((())))) {{{}}} <<<>>>", "", r"", ""),
]


def main() -> None:
    lots = census_lots()
    halves: dict[str, list[dict[str, object]]] = {"sixth-tune": [], "sixth-check": []}
    order = list(range(len(SIXTH)))
    random.Random(SEED).shuffle(order)
    tune = set(order[: len(order) // 2])
    wrong: list[str] = []
    for i, (kind, need, best, relevant, excluded) in enumerate(SIXTH):
        row: dict[str, object] = {"kind": kind, "need": need}
        if kind == "junk":
            row |= {"best": [], "relevant": [], "absent": relevant.split("|") if relevant else []}
        else:
            names, bests = judged(lots, relevant, best, excluded)
            if kind == "lacks" and names:
                wrong.append(f"{need!r}: the census is not without it: {names[:5]}")
            elif kind != "lacks" and not bests:
                wrong.append(f"{need!r}: no relevant server's name matches {best!r}")
            row |= {"best": bests, "relevant": names, "excluded": excluded}
        halves["sixth-tune" if i in tune else "sixth-check"].append(row)
    write_halves(halves, wrong)
