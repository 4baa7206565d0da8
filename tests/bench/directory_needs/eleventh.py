"""A generated evaluation of needs in seven kinds no earlier set holds. Written on 2026-12-08 from the
census snapshot, before the Directory's answers to any of them were read and before the change it
measures:

- `constraint`: a thing wanted with a constraint on its price, its licence or the language it is used
  from, in one of several forms ("a free {thing} server", "{thing} I can use from my Python code"):
  relevant is a server of the thing (the census says too little of price and licence to judge those);
- `choose`: a choice or a comparison ("which is better for ..., jira or linear?", "what's the best
  vector db for ..."): a server of any thing compared is relevant;
- `pipeline`: a data source, an action and a destination ("get my Strava rides into a spreadsheet"): a
  server of the source or of the destination is relevant, and the best is either's own;
- `url`: a need with a URL pasted in, the URL often the only place the product is named
  ("https://acme.atlassian.net/browse/OPS-1182 ...");
- `error`: an error message or a line of code pasted in, the product often named only by its library,
  its exception or its port ("psycopg2.OperationalError: ...", "ECONNREFUSED 127.0.0.1:6379");
- `broken`: a need written in broken English by a non-native speaker ("i want make invoice for my
  customer and send to him");
- `acronym`: a kind of server named by an acronym or a trade's jargon ("IaC drift detection", "OTel
  traces", "KYC checks on new customers").

Each item names the kind of server that does the task, as make.py's needs do: `best` a regular
expression over a relevant lot's name (without io.github.), `relevant` one over name, title and
description, judged against the census by make.write_judged (every lot the pattern matches is
relevant), never by reading what the Directory finds. Each kind's items are split by a fixed seed into
a dev half (eleventh-dev, the only one read for the change) and a held-out half (eleventh-held, measured
before the change and once at the end): the halves ask for different things, so are judged on
different lots. The forms of `constraint` are split too, so a held-out need is also phrased in a form no
dev need uses.

Run from the repository with the full census (../shared/census/registry-snapshot.json) imported:
`manage.py shell -c "from tests.bench.directory_needs.eleventh import main; main()"`.
"""

import random

from tests.bench.directory_needs.make import halved, write_judged

SEED = "eleventh:2026-12-08"

# The thing wanted, before its constraint: thing, best (over the name), relevant.
CONSTRAINED = [
    ("web search", r"search|brave|tavily|exa|serp", r"web search|search engine|\bserp\b"),
    ("pdf text extraction", r"pdf", r"\bpdf\b"),
    ("weather forecast", r"weather", r"\bweather\b"),
    (
        "vector database for embeddings",
        r"vector|qdrant|pinecone|chroma|weaviate|milvus",
        r"vector (database|store|search|db)|qdrant|pinecone|chroma|weaviate|milvus",
    ),
    (
        "image generation",
        r"image|flux|dall|stable|imagen|replicate",
        r"image generat|generate images?|text[- ]to[- ]image",
    ),
    ("translation between languages", r"translat|deepl", r"translat"),
    (
        "stock market prices",
        r"stock|financ|market|yahoo|alpha",
        r"stock (price|market|quote|data)|stocks?\b.{0,30}(price|quote)|yahoo finance|alpha vantage",
    ),
    (
        "text to speech voices",
        r"tts|speech|voice|eleven",
        r"text[- ]to[- ]speech|\btts\b|voice (generat|synth)",
    ),
    (
        "email sending",
        r"mail|resend|sendgrid|smtp",
        r"send(ing)? e-?mails?|smtp|transactional e-?mail|e-?mail (api|delivery|sending)",
    ),
    ("geocoding of street addresses", r"geo|map|location|nominatim|mapbox", r"geocod"),
    (
        "diagram drawing",
        r"diagram|mermaid|drawio|excalidraw|plantuml",
        r"diagram|mermaid|draw\.?io|excalidraw|plantuml",
    ),
    ("screenshots of web pages", r"screenshot|browser|playwright|puppeteer", r"screenshot"),
    ("news headlines", r"news", r"\bnews\b|headlines"),
    ("sqlite database access", r"sqlite", r"sqlite"),
]
CONSTRAINT_FORMS = [
    "a free {w} server",
    "{w}, open source please",
    "{w} I can use from my Python code",
    "{w} that works with TypeScript",
    "cheap {w}, we have no budget",
    "{w} with no paid plan needed",
    "an MIT-licensed {w} tool",
    "{w} on a free tier",
]
# A choice or a comparison: need, best, relevant.
CHOICES = [
    (
        "which is better for a small team's issue tracking, jira or linear?",
        r"jira|atlassian|linear",
        r"\bjira\b|atlassian|\blinear\b",
    ),
    ("postgres vs mysql for my side project, which one should I connect?", r"postgres|mysql|pg", r"postgres|mysql"),
    (
        "what's the best vector db for a small RAG app",
        r"vector|qdrant|pinecone|chroma|weaviate|milvus|pgvector",
        r"vector (database|store|search|db)|qdrant|pinecone|chroma|weaviate|milvus|pgvector",
    ),
    ("should I use notion or obsidian for my personal notes?", r"notion|obsidian", r"\bnotion\b|obsidian"),
    ("stripe or paypal, which is easier to take payments with", r"stripe|paypal", r"stripe|paypal"),
    (
        "which search api gives the freshest results: brave, tavily or exa?",
        r"brave|tavily|exa",
        r"\bbrave\b|tavily|\bexa\b",
    ),
    (
        "recommend me the best tool to scrape websites that use javascript",
        r"scrap|crawl|firecrawl|apify|browser|playwright|puppeteer",
        r"scrap|crawl|headless|browser automation",
    ),
    (
        "what is the most popular server for controlling a browser?",
        r"playwright|puppeteer|browser|chrome",
        r"browser automation|playwright|puppeteer|headless (browser|chrome)|control(s|ling)? (a |the )?browser",
    ),
    ("slack or discord for our community, which has a better server", r"slack|discord", r"\bslack\b|discord"),
    (
        "which cloud is cheapest for hosting a small api: aws, gcp or azure?",
        r"aws|azure|gcp|google|cloud",
        r"\baws\b|azure|\bgcp\b|google cloud",
    ),
    ("what's better for transactional emails, resend or sendgrid?", r"resend|sendgrid", r"\bresend\b|sendgrid"),
    (
        "the best option to track errors in a react app, sentry or something else?",
        r"sentry",
        r"\bsentry\b|error (tracking|monitoring)",
    ),
    ("hubspot vs salesforce: which crm server is more complete?", r"hubspot|salesforce", r"hubspot|salesforce"),
    (
        "is github or gitlab better supported here for reviewing merge requests?",
        r"github|gitlab",
        r"github|gitlab",
    ),
]
# A source, an action and a destination: need, best (either's own), relevant (either).
PIPELINES = [
    ("get my strava rides into a spreadsheet", r"strava", r"strava|google sheets|spreadsheets?|excel"),
    ("save my gmail attachments to google drive", r"gmail|google|drive|workspace", r"gmail|google drive"),
    ("post new github releases to our slack channel", r"github|slack", r"github|\bslack\b"),
    ("copy my shopify orders into quickbooks", r"shopify|quickbooks|intuit", r"shopify|quickbooks"),
    ("turn jira tickets into a weekly summary email", r"jira|atlassian", r"\bjira\b|atlassian"),
    ("sync hubspot contacts to mailchimp", r"hubspot|mailchimp", r"hubspot|mailchimp"),
    ("export our google analytics traffic into a csv", r"analytics|ga4|google", r"google analytics|\bga4\b"),
    ("send typeform responses to airtable", r"typeform|airtable", r"typeform|airtable"),
    ("load our stripe charges into bigquery", r"stripe|bigquery|google", r"stripe|bigquery"),
    ("pull my spotify listening history into a notion page", r"spotify|notion", r"spotify|\bnotion\b"),
    ("turn youtube video transcripts into blog posts on wordpress", r"youtube|wordpress", r"youtube|wordpress"),
    ("back up my notion workspace to github", r"notion|github", r"\bnotion\b|github"),
    ("forward zendesk tickets into linear issues", r"zendesk|linear", r"zendesk|\blinear\b"),
    ("get calendly bookings onto my google calendar", r"calendly|calendar|google", r"calendly|google calendar"),
]
# A need with a URL pasted in: need, best, relevant.
URLS = [
    ("https://github.com/acme/api/pull/412 can you review this PR", r"github", r"github"),
    (
        "what's in this figma file https://www.figma.com/design/AbC123/Landing-page?node-id=1-2",
        r"figma",
        r"figma",
    ),
    ("summarize https://www.youtube.com/watch?v=dQw4w9WgXcQ", r"youtube|transcript|video", r"youtube"),
    (
        "open https://acme.atlassian.net/browse/OPS-1182 and tell me the status",
        r"atlassian|jira",
        r"\bjira\b|atlassian",
    ),
    (
        "read this doc https://docs.google.com/document/d/1xYz/edit",
        r"google|docs|drive|workspace",
        r"google docs|google drive|google workspace",
    ),
    ("https://www.notion.so/acme/Roadmap-2027-8f3e2a tidy this page up", r"notion", r"\bnotion\b"),
    (
        "scrape the product list from https://shop.example.com/collections/all",
        r"scrap|crawl|firecrawl|fetch|apify",
        r"scrap|crawl",
    ),
    (
        "check https://status.example.org is up every 5 min",
        r"uptime|monitor|status|ping|check",
        r"uptime|website monitor|downtime|status (page|check)|health ?check",
    ),
    ("what does this arxiv paper say https://arxiv.org/abs/2401.01234", r"arxiv|paper|scholar|research", r"arxiv"),
    ("linear issue https://linear.app/acme/issue/ENG-77 assign to me", r"linear", r"\blinear\b"),
    ("this sentry issue https://acme.sentry.io/issues/4471/ keeps coming back", r"sentry", r"\bsentry\b"),
    ("get the comments from https://www.reddit.com/r/selfhosted/comments/abc123/", r"reddit", r"reddit"),
    ("https://app.hubspot.com/contacts/123/record/0-1/456 update this contact's phone", r"hubspot", r"hubspot"),
    ("download the dataset at https://huggingface.co/datasets/squad", r"hugging|hf", r"hugging ?face"),
]
# An error message or a line of code pasted in: need, best, relevant.
ERRORS = [
    ("psycopg2.OperationalError: could not connect to server: Connection refused", r"postgres|pg", r"postgres"),
    ("Error: connect ECONNREFUSED 127.0.0.1:6379 in my redis client", r"redis", r"\bredis\b"),
    ("kubectl get pods shows CrashLoopBackOff, help me find out why", r"kube|k8s", r"kubernetes|\bk8s\b|kubectl"),
    (
        "docker: Error response from daemon: Conflict. The container name is already in use",
        r"docker|container",
        r"docker",
    ),
    (
        "TypeError: Cannot read properties of undefined (reading 'map') in my React component",
        r"react|sentry|debug|javascript|browser|devtools",
        r"\breact\b|javascript|debug",
    ),
    ("stripe.error.CardError: Your card was declined.", r"stripe", r"stripe"),
    (
        "SELECT * FROM orders WHERE created_at > now() - interval '1 day'; run this against our db",
        r"postgres|sql|database|db",
        r"\bsql\b|postgres|database",
    ),
    ("git push rejected: ! [rejected] main -> main (non-fast-forward)", r"git", r"\bgit\b|github|gitlab"),
    ("terraform plan: Error: Unsupported argument on main.tf line 12", r"terraform|hashicorp", r"terraform"),
    (
        "botocore.exceptions.NoCredentialsError: Unable to locate credentials",
        r"aws",
        r"\baws\b|amazon web services",
    ),
    (
        "my GitHub Actions run says 'Process completed with exit code 1', where are the logs",
        r"github",
        r"github actions|github|\bci\b",
    ),
    (
        "ModuleNotFoundError: No module named 'pandas' -- I need something to run python code",
        r"python|code|sandbox|exec|jupyter|e2b",
        r"python|code (execution|interpreter)|sandbox|jupyter",
    ),
    ("HTTP 429 Too Many Requests from the OpenAI API", r"openai", r"openai"),
    ("MongoServerError: E11000 duplicate key error collection: app.users", r"mongo", r"mongo"),
]
# A need in broken English: need, best, relevant.
BROKEN = [
    (
        "i want make invoice for my customer and send to him",
        r"invoic|stripe|quickbooks|xero|paypal|freshbooks",
        r"invoic",
    ),
    ("how i can know the weather of tomorrow in my city", r"weather", r"\bweather\b"),
    ("please tool for put my meeting in calendar of google", r"calendar|google", r"google calendar|\bcalendars?\b"),
    ("need something what read pdf and give me text", r"pdf", r"\bpdf\b"),
    ("i search server for send message whatsapp to clients", r"whatsapp", r"whatsapp"),
    ("how to make translate of my document in english to german", r"translat|deepl", r"translat"),
    ("which tool is give the price of bitcoin today", r"crypto|coin|bitcoin|price", r"bitcoin|crypto"),
    ("i am need to see the issues of my github repo", r"github", r"github"),
    ("for search in internet the news of today", r"news|search", r"\bnews\b"),
    ("me want tool for do the database query mysql", r"mysql", r"mysql"),
    (
        "is exist a server that make the photo more small?",
        r"image|photo|resiz|compress|optimi",
        r"resiz|image (processing|compress|optimi[sz])|compress(es|ing)? images?",
    ),
    (
        "how make the short link for share",
        r"short|link|url|bitly|dub",
        r"url shorten|shorten(s|ing)? (urls?|links?)|short links?|link shorten",
    ),
    (
        "i not understand my aws bill, who can explain me",
        r"aws|cost|bill",
        r"(aws|cloud).{0,30}(cost|bill|spend)|(cost|billing).{0,40}(aws|cloud)",
    ),
    ("tool for to write in spreadsheet of google automatic", r"sheet|google", r"google sheets|spreadsheets?"),
]
# A kind named by an acronym or jargon: need, best, relevant.
ACRONYMS = [
    (
        "IaC drift detection",
        r"terraform|pulumi|iac|opentofu|cloudformation|infra",
        r"infrastructure as code|\biac\b|terraform|pulumi|opentofu|cloudformation",
    ),
    (
        "ETL into our warehouse",
        r"etl|airbyte|fivetran|dbt|pipeline|data",
        r"\betl\b|\belt\b|data pipelines?|airbyte|fivetran|data integration",
    ),
    (
        "SERP data for our keywords",
        r"serp|search|google|dataforseo",
        r"\bserp\b|search engine results",
    ),
    (
        "OTel traces",
        r"otel|opentelemetry|trace|jaeger|observ|honeycomb",
        r"opentelemetry|\botel\b|traces|tracing",
    ),
    (
        "SSO for our internal apps",
        r"sso|okta|auth|identity|keycloak|workos",
        r"\bsso\b|single sign[- ]on|\bsaml\b|okta|identity provider",
    ),
    (
        "RAG over our PDFs",
        r"rag|vector|retriev|pdf|document|knowledge",
        r"\brag\b|retrieval[- ]augmented|vector (database|store|search)|semantic search",
    ),
    ("CDC from postgres", r"cdc|debezium|postgres|stream|kafka", r"change data capture|\bcdc\b|debezium"),
    (
        "LLM evals for our prompts",
        r"eval|langfuse|braintrust|prompt|llm|observ|phoenix|opik",
        r"\bevals?\b|evaluation|langfuse|braintrust|prompt (management|testing)",
    ),
    (
        "KYC checks on new customers",
        r"kyc|identity|verif|onfido|sumsub|persona|compliance",
        r"\bkyc\b|identity verification|know your customer|\baml\b",
    ),
    (
        "SBOM for our containers",
        r"sbom|syft|trivy|anchore|secur|scan|vuln",
        r"\bsbom\b|software bill of materials|cyclonedx|spdx",
    ),
    (
        "A/B tests on the pricing page",
        r"ab|experiment|statsig|growthbook|posthog|optimizely|flag",
        r"\ba/?b test|experiment|split test",
    ),
    (
        "MRR and churn for our SaaS",
        r"stripe|baremetrics|chartmogul|revenue|subscription|billing|profitwell",
        r"\bmrr\b|recurring revenue|churn|subscription (analytics|metrics)",
    ),
    (
        "ATS candidates in the hiring pipeline",
        r"ats|greenhouse|lever|ashby|recruit|hiring|workable",
        r"applicant tracking|\bats\b|recruit|greenhouse|\blever\b|ashby|candidates",
    ),
    (
        "EHR patient records via FHIR",
        r"fhir|health|ehr|epic|medical|patient",
        r"\bfhir\b|\behr\b|electronic health|patient records",
    ),
]


def needs() -> list[tuple[str, str, str, str, str, str]]:
    """(half, kind, need, best, relevant, excluded) for every need, split by SEED."""
    rng = random.Random(SEED)
    out: list[tuple[str, str, str, str, str, str]] = []
    forms = dict(zip(("dev", "held"), halved(list(CONSTRAINT_FORMS), rng), strict=True))
    for half, items in zip(("dev", "held"), halved(list(CONSTRAINED), rng), strict=True):
        for w, best, relevant in items:  # type: ignore[misc]
            out.append((half, "constraint", str(rng.choice(forms[half])).format(w=w), best, relevant, ""))
    for kind, rows in (
        ("choose", CHOICES),
        ("pipeline", PIPELINES),
        ("url", URLS),
        ("error", ERRORS),
        ("broken", BROKEN),
        ("acronym", ACRONYMS),
    ):
        for half, items in zip(("dev", "held"), halved(list(rows), rng), strict=True):
            for need, best, relevant in items:  # type: ignore[misc]
                out.append((half, kind, need, best, relevant, ""))
    return out


def main() -> None:
    write_judged("eleventh", needs())
