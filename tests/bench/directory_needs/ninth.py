"""A generated evaluation of needs as agents write them in the middle of an errand. Written on 2026-12-07
from the census snapshot, before the Directory's answers to any of them were read and before the change
it measures, in eight kinds:

- `context`: the need with the errand around it ("I'm fixing a flaky CI job on GitHub Actions; is there a
  server that can read workflow logs?");
- `question`: the need asked as a question ("Which server lets me send an SMS?");
- `two`: two things wanted at once ("postgres and redis"): a server of either is relevant, and the best
  is one of either's own;
- `notdo`: a need naming what the server must not do ("read-only", "no write access", "must not delete
  anything"): relevant is a server of the thing (the census says too little of what each may write);
- `auth`: a need naming how it signs in ("works with an API key, no OAuth", "a personal access token");
- `task`: a task, not a thing ("who is on call this weekend", "the site went down and nobody noticed");
- `short`: one or two words ("jira", "weather");
- `misspelled`: a brand misspelled ("confluance", "hubspt", "postgress").

Each kind's items (a wanted thing, so its own census lots) are split by a fixed seed into a dev half
(ninth-dev, the only one read for the change) and a held-out half (ninth-held, measured before the change
and once at the end): the halves ask for different things, so are judged on different lots. The forms
of `context`, `question`, `two`, `notdo` and `auth` are split too, so a held-out need is also phrased in
a form no dev need uses. Rows are as negation.py writes them (`kind`, `need`, `best`, `relevant`,
`excluded`), their patterns matched as make.py matches them.

Run from the repository with the full census (../shared/census/registry-snapshot.json) imported:
`manage.py shell -c "from tests.bench.directory_needs.ninth import main; main()"`.
"""

import random
from pathlib import Path

from tests.bench.directory_needs.make import halved, write_judged

HERE = Path(__file__).resolve().parent
SEED = "ninth:2026-12-07"

# The errand, the need inside it, best (over the name), relevant.
CONTEXTS = [
    (
        "fixing a flaky CI job on GitHub Actions",
        "read workflow logs",
        r"github",
        r"github actions|workflow runs?|github",
    ),
    ("cleaning up our Kubernetes cluster", "list the pods that keep restarting", r"kube|k8s", r"kubernetes|\bk8s\b"),
    ("writing the quarterly report", "pull last quarter's revenue from Stripe", r"stripe", r"stripe"),
    ("planning a team offsite", "find free slots in everyone's Google Calendar", r"calendar", r"google calendar"),
    ("triaging a production outage", "search our Datadog logs", r"datadog", r"datadog"),
    ("migrating our blog", "export every post from WordPress", r"wordpress|wp", r"wordpress"),
    ("answering a customer's complaint", "look up their ticket history in Zendesk", r"zendesk", r"zendesk"),
    ("preparing a sales call", "pull the account's deals from HubSpot", r"hubspot", r"hubspot"),
    (
        "onboarding a new engineer",
        "give them the Confluence pages about our architecture",
        r"atlassian|confluence",
        r"confluence|atlassian",
    ),
    ("debugging a slow checkout page", "run a Lighthouse audit", r"lighthouse|pagespeed|perf", r"lighthouse|pagespeed"),
    ("tidying my downloads folder", "move and rename local files", r"file|fs", r"file ?system|local files|filesystem"),
    ("building a dashboard for the board", "query our BigQuery tables", r"bigquery", r"bigquery"),
]
CONTEXT_FORMS = [
    "I'm {errand}; is there a server that can {want}?",
    "While {errand}, I need something to {want}.",
    "Context: {errand}. Need: a server to {want}.",
    "We are {errand} and have to {want} - what fits?",
    "Currently {errand}. Next step: {want}. Any tool for that?",
    "I'm in the middle of {errand} and want to {want}",
]
# A need asked as a question: (the task, best, relevant).
QUESTIONS = [
    ("send an SMS to a customer", r"twilio|sms|vonage|plivo", r"\bsms\b|text messag"),
    ("translate a document into German", r"deepl|translat", r"translat"),
    ("check the weather in Paris tomorrow", r"weather|forecast", r"\bweather\b"),
    ("convert a web page to markdown", r"markdown|fetch|crawl|scrap", r"markdown"),
    ("find a flight from London to Rome", r"flight|travel|kiwi|skyscanner|amadeus", r"\bflights?\b"),
    ("read my Gmail inbox", r"gmail|google", r"gmail"),
    ("create an invoice in QuickBooks", r"quickbooks|intuit", r"quickbooks"),
    ("post a message to a Discord channel", r"discord", r"discord"),
    (
        "look up a company's details from its domain",
        r"company|enrich|clearbit|apollo|domain",
        r"enrich|company (data|info)",
    ),
    (
        "generate an image from a prompt",
        r"image|dall|flux|replicate|stability|imagen",
        r"image generat|generate images?|text-to-image",
    ),
    ("search academic papers", r"arxiv|paper|scholar|pubmed|semantic", r"arxiv|academic|research papers?|scholar"),
    ("run a SQL query against MySQL", r"mysql", r"mysql"),
]
QUESTION_FORMS = [
    "Is there a server that can {w}?",
    "Which MCP server lets me {w}?",
    "Can anything here {w}?",
    "What should I use to {w}?",
    "How can my agent {w}?",
    "Do you have a tool to {w}?",
]
# Two things wanted at once: (first, second, best of either, relevant of either).
TWOS = [
    ("postgres", "redis", r"postgres|pg|redis", r"postgres|\bredis\b"),
    ("slack", "jira", r"slack|atlassian|jira", r"\bslack\b|\bjira\b|atlassian"),
    ("github", "linear", r"github|linear", r"github|\blinear\b"),
    ("stripe", "quickbooks", r"stripe|quickbooks|intuit", r"stripe|quickbooks"),
    ("notion", "google drive", r"notion|drive|google", r"\bnotion\b|google drive"),
    ("sentry", "datadog", r"sentry|datadog", r"\bsentry\b|datadog"),
    ("figma", "storybook", r"figma|storybook", r"figma|storybook"),
    ("mongodb", "elasticsearch", r"mongo|elastic", r"mongo|elasticsearch"),
    ("gmail", "google calendar", r"gmail|calendar|google|workspace", r"gmail|google calendar"),
    ("hubspot", "salesforce", r"hubspot|salesforce", r"hubspot|salesforce"),
]
TWO_FORMS = ["{a} and {b}", "{a} plus {b}", "both {a} and {b}", "{a} & {b} together", "{a}, also {b}", "{a} + {b}"]
# A need that names what the server must not do: (the thing, best, relevant).
NOTDOS = [
    ("query my postgres database", r"postgres|pg", r"postgres"),
    ("browse files in my Google Drive", r"drive|google|gdrive", r"google drive"),
    ("look at our AWS resources", r"aws", r"\baws\b|amazon web services"),
    ("read our Salesforce records", r"salesforce", r"salesforce"),
    ("search my email", r"mail", r"\be-?mails?\b|gmail|inbox"),
    ("inspect our Kubernetes cluster", r"kube|k8s", r"kubernetes|\bk8s\b"),
    ("read GitHub issues", r"github", r"github"),
    ("look at our Shopify store's orders", r"shopify", r"shopify"),
    ("query Snowflake", r"snowflake", r"snowflake"),
    ("read my Obsidian notes", r"obsidian", r"obsidian"),
]
NOTDO_FORMS = [
    "{w}, read-only",
    "{w} - no write access",
    "{w} but it must not modify anything",
    "{w} (read only, never delete)",
    "{w}, without write permissions",
    "{w}; it should only read, not write",
]
# A need naming how the server signs in: (the thing, best, relevant).
AUTHS = [
    ("manage Jira issues", r"atlassian|jira", r"\bjira\b|atlassian"),
    ("search the web", r"search|brave|tavily|exa|serp", r"web search|search engine"),
    ("send emails through Resend", r"resend", r"\bresend\b"),
    ("work with Notion pages", r"notion", r"\bnotion\b"),
    ("read Google Sheets", r"sheet|google", r"google sheets|spreadsheets?"),
    ("use the OpenAI API", r"openai", r"openai"),
    ("manage Cloudflare DNS", r"cloudflare", r"cloudflare"),
    ("query Airtable bases", r"airtable", r"airtable"),
    ("post to a Slack workspace", r"slack", r"\bslack\b"),
    ("pull GitLab merge requests", r"gitlab", r"gitlab"),
]
AUTH_FORMS = [
    "{w}; works with an API key, no OAuth",
    "{w} using just an API key",
    "{w} with a personal access token",
    "{w}, no OAuth please",
    "{w} - API key auth only",
    "{w} without a browser sign-in",
]
# A task, not a thing: (need, best, relevant).
TASKS = [
    ("who is on call this weekend", r"pager|oncall|opsgenie|incident", r"on-?call|pagerduty|opsgenie"),
    (
        "our customers keep emailing and no one replies",
        r"support|desk|zendesk|ticket|freshdesk|intercom",
        r"help ?desk|customer support|zendesk|freshdesk|intercom|support tickets?",
    ),
    (
        "tell me when the website goes down",
        r"uptime|monitor|status|ping",
        r"uptime|downtime|status ?page|website monitor",
    ),
    ("find out who changed this line of code", r"git", r"\bgit\b|blame|commit history"),
    (
        "pay our contractors abroad",
        r"pay|wise|deel|transfer",
        r"payouts?|payroll|international (payments|transfers)|money transfer",
    ),
    (
        "know when my package will arrive",
        r"track|ship|parcel|package|17track|aftership",
        r"shipment|tracking number|parcel|package tracking",
    ),
    ("keep track of what I spend each month", r"expense|budget|financ|money|ynab", r"expenses?|budget"),
    (
        "see which of our ads actually make money",
        r"ads|advert|google|meta|facebook|marketing",
        r"\bads\b|advertis|ad campaigns?",
    ),
    ("book a table for four on friday", r"restaurant|reserv|opentable|resy|booking|table", r"restaurant|reservations?"),
    (
        "get our app's texts into Spanish and French",
        r"translat|locali|i18n|lokalise|crowdin|phrase",
        r"translat|locali[sz]ation|i18n",
    ),
    (
        "make sure nobody leaked a password in the repo",
        r"secret|leak|gitguardian|trufflehog|scan|secur",
        r"secrets? (scan|detect)|leaked (secrets|credentials)|gitguardian|trufflehog",
    ),
    ("find a time that works for everyone", r"calendar|cal|schedul|meet", r"schedul|\bcalendars?\b|availability"),
]
# One or two words: (need, best, relevant).
SHORTS = [
    ("jira", r"atlassian|jira", r"\bjira\b"),
    ("weather", r"weather|forecast", r"\bweather\b"),
    ("slack", r"slack", r"\bslack\b"),
    ("maps", r"map|google|mapbox", r"\bmaps?\b"),
    ("pdf", r"pdf", r"\bpdfs?\b"),
    ("calendar", r"calendar|cal", r"\bcalendars?\b"),
    ("crypto prices", r"crypto|coin|price", r"crypto|bitcoin|\bcoins?\b"),
    ("translate", r"translat|deepl", r"translat"),
    ("kubernetes", r"kube|k8s", r"kubernetes|\bk8s\b"),
    ("spotify", r"spotify", r"spotify"),
    ("email", r"mail", r"\be-?mails?\b"),
    ("git", r"git", r"\bgit\b"),
    ("stock prices", r"stock|market|financ|yahoo|alpha", r"\bstocks?\b"),
    ("youtube", r"youtube", r"youtube"),
]
# A brand misspelled: (need, best, relevant).
MISSPELLED = [
    ("confluance pages", r"atlassian|confluence", r"confluence|atlassian"),
    ("hubspt contacts", r"hubspot", r"hubspot"),
    ("salesfroce opportunities", r"salesforce", r"salesforce"),
    ("zendsk tickets", r"zendesk", r"zendesk"),
    ("shopfy orders", r"shopify", r"shopify"),
    ("spotfy playlists", r"spotify", r"spotify"),
    ("postgress tables", r"postgres|pg", r"postgres"),
    ("elasticsaerch index", r"elastic", r"elasticsearch"),
    ("mongdb collections", r"mongo", r"mongo"),
    ("twillio sms", r"twilio", r"twilio"),
    ("dropbx files", r"dropbox", r"dropbox"),
    ("clickup tasks in clikup", r"clickup", r"clickup"),
    ("notoin database", r"notion", r"\bnotion\b"),
    ("airtabel base", r"airtable", r"airtable"),
]


def needs() -> list[tuple[str, str, str, str, str, str]]:
    """(half, kind, need, best, relevant, excluded) for every need, split by SEED."""
    rng = random.Random(SEED)
    out: list[tuple[str, str, str, str, str, str]] = []
    formed = (
        ("question", QUESTIONS, QUESTION_FORMS),
        ("notdo", NOTDOS, NOTDO_FORMS),
        ("auth", AUTHS, AUTH_FORMS),
    )
    forms = dict(zip(("dev", "held"), halved(list(CONTEXT_FORMS), rng), strict=True))
    for half, items in zip(("dev", "held"), halved(list(CONTEXTS), rng), strict=True):
        for errand, want, best, relevant in items:  # type: ignore[misc]
            need = str(rng.choice(forms[half])).format(errand=errand, want=want)
            out.append((half, "context", need, best, relevant, ""))
    for kind, rows, all_forms in formed:
        forms = dict(zip(("dev", "held"), halved(list(all_forms), rng), strict=True))
        for half, items in zip(("dev", "held"), halved(list(rows), rng), strict=True):
            for w, best, relevant in items:  # type: ignore[misc]
                out.append((half, kind, str(rng.choice(forms[half])).format(w=w), best, relevant, ""))
    forms = dict(zip(("dev", "held"), halved(list(TWO_FORMS), rng), strict=True))
    for half, items in zip(("dev", "held"), halved(list(TWOS), rng), strict=True):
        for a, b, best, relevant in items:  # type: ignore[misc]
            out.append((half, "two", str(rng.choice(forms[half])).format(a=a, b=b), best, relevant, ""))
    for kind, rows in (("task", TASKS), ("short", SHORTS), ("misspelled", MISSPELLED)):
        for half, items in zip(("dev", "held"), halved(list(rows), rng), strict=True):
            for need, best, relevant in items:  # type: ignore[misc]
                out.append((half, kind, need, best, relevant, ""))
    return out


def main() -> None:
    write_judged("ninth", needs())
