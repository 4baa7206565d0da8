"""A generated evaluation of needs written as tasks, not things. Written on 2026-12-07 from the census
snapshot, before the Directory's answers to any of them were read and before the change it measures, in
six kinds:

- `errand`: an imperative errand, in one of several forms ("shorten this link before I paste it",
  "please ...", "can you ... for me?");
- `outcome`: the outcome wanted, not the work ("let me know when the build breaks", "a weekly report
  of how many people visit our site");
- `keep`: a chore that keeps coming back ("I keep having to ...", "I'm tired of having to ... by hand");
- `chore`: a chore described without the name of the kind of tool that does it, often for "my app"
  ("store secrets for my app", "sign a contract with a client online");
- `formats`: a task naming its input and output formats ("turn a CSV file into JSON", "a Word document
  as a PDF");
- `misspelled`: a task naming a brand misspelled by one or two edits ("send an sms with twillio",
  "add subscribers to mailchmp").

Each item names the kind of server that does the task, as make.py's needs do: `best` a regular
expression over a relevant lot's name (without io.github.), `relevant` one over name, title and
description, judged against the census by make.write_judged (every lot the pattern matches is
relevant), never by reading what the Directory finds. Each kind's items are split by a fixed seed into
a dev half (tenth-dev, the only one read for the change) and a held-out half (tenth-held, measured
before the change and once at the end): the halves ask for different things, so are judged on
different lots. The forms of `errand` and `keep` are split too, so a held-out need is also phrased in a
form no dev need uses.

Run from the repository with the full census (../shared/census/registry-snapshot.json) imported:
`manage.py shell -c "from tests.bench.directory_needs.tenth import main; main()"`.
"""

import random

from tests.bench.directory_needs.make import halved, write_judged

SEED = "tenth:2026-12-07"

# The errand as a verb phrase, best (over the name), relevant.
ERRANDS = [
    (
        "shorten this long link before I paste it",
        r"short|link|url|bitly|dub",
        r"url shorten|shorten(s|ing)? (urls?|links?)|short links?|link shorten",
    ),
    ("send a text to the delivery driver", r"twilio|sms|vonage|plivo|text", r"\bsms\b|text messag"),
    ("put the dentist appointment in my calendar", r"calendar|cal", r"\bcalendars?\b"),
    (
        "transcribe this interview recording",
        r"transcri|whisper|speech|audio|deepgram|assembly",
        r"transcri|speech[- ]to[- ]text",
    ),
    (
        "check whether this email address really exists",
        r"email|mail|verif|valid",
        r"e-?mail (address )?(verif|validat)|verify e-?mail|validate e-?mail",
    ),
    (
        "resize these product photos for the web",
        r"image|photo|resiz|sharp|cloudinary|imagemagick",
        r"resiz|image (processing|editing|manipulation|optimi[sz])",
    ),
    ("translate our help center articles into Japanese", r"translat|deepl|locali|lokalise|crowdin", r"translat"),
    ("back up the production database every night", r"backup|postgres|mysql|database|db", r"\bbackups?\b|back up"),
    (
        "pull the line items out of these scanned receipts",
        r"ocr|receipt|document|extract|pdf|mistral",
        r"\bocr\b|receipts?|document (extraction|parsing|ai)|extract (text|data) from",
    ),
    (
        "find a cheap hotel in Lisbon for next weekend",
        r"hotel|booking|travel|airbnb|trip|expedia",
        r"\bhotels?\b|accommodation|airbnb",
    ),
    (
        "get the population of every country in Europe",
        r"data|world|country|countries|census|stat",
        r"\bpopulation\b|countries data|country data|world bank|statistics",
    ),
    (
        "write this week's standup notes into our team wiki",
        r"notion|confluence|atlassian|wiki|outline",
        r"\bwiki\b|confluence|notion",
    ),
    (
        "compress this video so it fits in an email",
        r"video|ffmpeg|media|compress",
        r"ffmpeg|video (compress|convers|process|editing)|compress(es|ing)? videos?",
    ),
    (
        "remove the background from this product photo",
        r"background|image|photo|remove|bg|cloudinary",
        r"background remov|remove (the )?backgrounds?|rembg",
    ),
]
ERRAND_FORMS = [
    "{w}",
    "please {w}",
    "can you {w} for me?",
    "I need to {w}",
    "help me {w}",
    "{w}, thanks",
]
# The outcome wanted: need, best, relevant.
OUTCOMES = [
    (
        "let me know when the build breaks",
        r"github|gitlab|circleci|jenkins|buildkite|ci|actions|pipeline",
        r"\bci\b|ci/cd|build (failures?|status)|github actions|jenkins|circleci|buildkite|pipelines?",
    ),
    (
        "a weekly report of how many people visit our site",
        r"analytics|plausible|posthog|umami|matomo|ga4|google",
        r"web analytics|google analytics|plausible|umami|matomo|site traffic|visitors|pageviews",
    ),
    (
        "every new lead from our website form ends up in the CRM",
        r"hubspot|salesforce|pipedrive|crm|attio|zoho",
        r"\bcrm\b|hubspot|salesforce|pipedrive",
    ),
    (
        "a heads-up when a competitor changes their prices",
        r"monitor|change|price|track|watch|visualping|diff",
        r"price (track|monitor)|change detection|detect changes|website (changes|monitor)|monitor (web ?)?pages?",
    ),
    (
        "everyone's hours logged so payroll is right",
        r"time|toggl|harvest|clockify|track|payroll|gusto",
        r"time ?track|timesheets?|toggl|harvest|clockify",
    ),
    (
        "a note in my inbox every morning with the day's meetings",
        r"calendar|cal|gmail|outlook|google|microsoft",
        r"\bcalendars?\b",
    ),
    (
        "our invoices paid on time without me chasing anyone",
        r"invoic|stripe|quickbooks|xero|billing|freshbooks|paypal",
        r"invoic",
    ),
    (
        "to be told when someone mentions our brand online",
        r"mention|social|brand|listen|monitor|reddit|twitter|x",
        r"brand (monitor|mention)|social listening|mentions",
    ),
    (
        "the cheapest flight to Rome next month",
        r"flight|travel|kiwi|skyscanner|amadeus|duffel|google",
        r"\bflights?\b|airfares?",
    ),
    (
        "our logo in a few sizes and colours",
        r"image|logo|design|canva|figma|svg|brand",
        r"\blogos?\b|image (generat|editing)|generate images?",
    ),
    (
        "all our customer calls written up as notes",
        r"transcri|meeting|call|gong|fireflies|otter|zoom|notes",
        r"transcri|meeting notes|call recordings?|call notes",
    ),
    (
        "a chart of our weekly signups",
        r"chart|analytics|posthog|mixpanel|amplitude|metabase|grafana|plot|viz",
        r"\bcharts?\b|plot|visuali[sz]|dashboards?",
    ),
    (
        "fewer fake signups on our forms",
        r"captcha|fraud|email|verif|valid|bot",
        r"captcha|fraud|bot detection|disposable e-?mail|e-?mail (verif|validat)",
    ),
    (
        "the latest version of every library we depend on",
        r"npm|pypi|package|depend|deps|registry|version|librar",
        r"package (versions|registry|registries)|latest versions?|\bnpm\b|\bpypi\b|dependenc",
    ),
]
# A chore that keeps coming back: the chore, best, relevant.
KEEPS = [
    (
        "copy numbers from emails into a spreadsheet",
        r"sheet|excel|spreadsheet|google|airtable|gmail|mail",
        r"google sheets|spreadsheets?|excel",
    ),
    ("look up exchange rates by hand", r"currenc|exchange|forex|fx|rate|money", r"exchange rates?|currenc|forex"),
    ("restart the same crashed pods", r"kube|k8s", r"kubernetes|\bk8s\b"),
    ("check when our SSL certificates expire", r"ssl|tls|cert|domain", r"\bssl\b|\btls\b|certificates?"),
    (
        "answer the same customer questions over and over",
        r"zendesk|intercom|freshdesk|support|help|desk|chatwoot",
        r"help ?desk|customer support|zendesk|intercom|freshdesk|support tickets?",
    ),
    (
        "reset passwords for new hires",
        r"okta|entra|microsoft|identity|auth0|sso|jumpcloud|keycloak|iam",
        r"\bokta\b|identity|\bsso\b|user management|active directory|\bentra\b|\biam\b",
    ),
    (
        "post the same update on Twitter and LinkedIn",
        r"social|twitter|linkedin|buffer|typefully|(^|[./-])x([./-]|$)",
        r"social media|twitter|linkedin",
    ),
    (
        "look up where our parcels are",
        r"track|ship|parcel|package|17track|aftership|easypost|shippo",
        r"shipment|tracking number|parcel|package tracking|shipping",
    ),
    ("write release notes from our commits", r"changelog|release|git|github|gitlab", r"changelog|release notes"),
    (
        "type up the handwritten forms customers send us",
        r"ocr|document|extract|pdf|vision|textract|mistral",
        r"\bocr\b|handwrit|document (extraction|parsing|ai)|extract (text|data) from",
    ),
    (
        "move leads from one tool to another",
        r"zapier|make|n8n|pipedream|workflow|automat|integrat|crm|hubspot",
        r"zapier|\bn8n\b|make\.com|pipedream|workflow automation|\bcrm\b",
    ),
    (
        "chase people for their expense receipts",
        r"expense|receipt|ramp|brex|expensify|spend|financ",
        r"expenses?|receipts?",
    ),
    (
        "copy our Stripe payouts into the accounting system",
        r"quickbooks|xero|account|stripe|intuit|book",
        r"accounting|bookkeeping|quickbooks|xero",
    ),
    (
        "remind the team about overdue tasks",
        r"task|todo|asana|clickup|linear|jira|todoist|remind|monday|trello",
        r"reminders?|to-?do|task management",
    ),
]
KEEP_FORMS = [
    "I keep having to {w}",
    "every week I end up having to {w}",
    "I'm tired of having to {w} by hand",
    "why do I always have to {w} myself?",
    "I always have to {w}, can something do it?",
    "someone here has to {w} every day",
]
# A chore said without the name of the kind of tool that does it: need, best, relevant.
CHORES = [
    (
        "store secrets for my app",
        r"secret|vault|1password|doppler|infisical|bitwarden|keeper|hashicorp",
        r"secrets? (manag|vault|store|storage)|\bvault\b|1password|doppler|infisical|bitwarden|password manag",
    ),
    (
        "keep the api keys out of my app's code",
        r"secret|vault|1password|doppler|infisical|bitwarden|keeper|hashicorp",
        r"secrets? (manag|vault|store|storage)|\bvault\b|1password|doppler|infisical|bitwarden|environment variables|\.env\b",
    ),
    (
        "sign a contract with a client online",
        r"sign|docusign|dropbox|pandadoc|adobe|boldsign|documenso",
        r"e-?signatures?|docusign|esign|sign (documents|contracts)|signnow|pandadoc|boldsign|documenso",
    ),
    (
        "send the monthly newsletter to our subscribers",
        r"mailchimp|newsletter|mail|brevo|sendgrid|convertkit|kit|beehiiv|resend|loops|klaviyo",
        r"newsletters?|mailchimp|email marketing|email campaigns?|beehiiv|convertkit",
    ),
    (
        "do the books for my small business",
        r"quickbooks|xero|intuit|account|freshbooks|book|ledger",
        r"accounting|bookkeeping|quickbooks|xero",
    ),
    (
        "turn a new feature on for some users only",
        r"flag|launchdarkly|flagsmith|posthog|unleash|growthbook|statsig|devcycle|split",
        r"feature flags?|launchdarkly|flagsmith|unleash|growthbook|feature toggles?",
    ),
    (
        "find out why my app got slow",
        r"sentry|datadog|newrelic|grafana|dynatrace|apm|perf|trace|honeycomb|observ",
        r"\bapm\b|performance monitoring|observability|profil|traces",
    ),
    (
        "send push notifications to my app's users",
        r"push|notif|onesignal|firebase|fcm|expo|pushover|ntfy|novu|knock",
        r"push notifications?|onesignal|firebase cloud messaging|\bfcm\b",
    ),
    (
        "let people log in to my app with their google account",
        r"auth|clerk|okta|firebase|supabase|stytch|workos|descope|login|sso|keycloak",
        r"\boauth\b|authentication|auth0|\bclerk\b|\bsso\b|sign[- ]in|login",
    ),
    (
        "work out where a visitor is from their ip",
        r"ip|geo|location|maxmind",
        r"ip (geo|lookup|address|intelligence)|geoip|ipinfo|geolocation",
    ),
    (
        "take card payments in my app",
        r"stripe|paypal|square|adyen|pay|checkout|braintree|mollie|razorpay",
        r"payments?|stripe|paypal|checkout",
    ),
    (
        "make sure my app's dependencies have no known holes",
        r"snyk|sonar|vuln|secur|scan|osv|socket|dependabot|cve|trivy|semgrep",
        r"vulnerabilit|\bcve\b|\bosv\b|security scan|dependency (scan|audit)|\bsca\b",
    ),
    (
        "put my app's images somewhere users can download them fast",
        r"cdn|s3|storage|cloudflare|r2|bucket|cloudinary|blob|bunny",
        r"\bcdn\b|object storage|\bs3\b|buckets?|blob storage",
    ),
    (
        "keep a record of every change made to my app's database",
        r"audit|log|postgres|database|db|migrat|history",
        r"audit (log|trail)s?|change data capture|\bcdc\b|migrations?",
    ),
]
# A task naming its input and output formats: need, best, relevant.
FORMATS = [
    (
        "turn a CSV file into JSON",
        r"csv|json|convert|data|file",
        r"\bcsv\b.{0,60}\bjson\b|\bjson\b.{0,60}\bcsv\b|(data|file|format) convers",
    ),
    (
        "a Word document as a PDF",
        r"pdf|doc|word|convert|office",
        r"\b(docx|word)\b.{0,60}\bpdf\b|\bpdf\b.{0,60}\b(docx|word)\b|document convers",
    ),
    (
        "this web page as clean markdown",
        r"markdown|fetch|crawl|scrap|firecrawl|jina|html|web|page|read",
        r"html.{0,40}markdown|markdown.{0,40}html|(to|into|as) markdown",
    ),
    (
        "an mp4 clip as an animated gif",
        r"gif|ffmpeg|video|media|convert",
        r"\bgifs?\b|ffmpeg|video (convers|process|editing)",
    ),
    (
        "an excel workbook as csv files",
        r"excel|xlsx|sheet|spreadsheet|csv|office|microsoft",
        r"\bexcel\b|\bxlsx\b|spreadsheets?",
    ),
    (
        "an mp3 of a lecture into a text transcript",
        r"transcri|whisper|speech|audio|deepgram|assembly",
        r"transcri|speech[- ]to[- ]text",
    ),
    ("a PNG logo into an SVG", r"svg|vector|image|convert|logo", r"\bsvgs?\b|vectori[sz]"),
    (
        "a scanned PDF as searchable text",
        r"ocr|pdf|document|extract|mistral|textract",
        r"\bocr\b|scanned|extract text|pdf text",
    ),
    ("a YAML config as JSON", r"yaml|json|convert|config", r"\byaml\b"),
    (
        "a JSON schema as TypeScript types",
        r"typescript|schema|json|ts|type",
        r"typescript types|json schema|quicktype|type generat",
    ),
    (
        "a docx report as markdown",
        r"markdown|docx|doc|word|convert|pandoc|markitdown|office",
        r"\bdocx\b|markitdown|pandoc|(to|into) markdown",
    ),
    ("an epub book as a pdf", r"pdf|epub|book|convert|calibre|ebook|document", r"\bepub\b|\bebooks?\b|calibre"),
]
# A task naming a brand misspelled by one or two edits: need, best, relevant.
MISSPELLED = [
    ("send an sms with twillio", r"twilio", r"twilio"),
    ("add subscribers to mailchmp", r"mailchimp", r"mailchimp"),
    ("see the signup funnel in mixpanle", r"mixpanel|analytics", r"mixpanel"),
    ("move cards on my trelo board", r"trello|atlassian", r"trello"),
    ("assign the task in asanna", r"asana", r"\basana\b"),
    ("book the call through calendy", r"calendly", r"calendly"),
    ("get the contract signed in docusing", r"docusign", r"docusign"),
    ("deploy the site to netlfy", r"netlify", r"netlify"),
    ("log the deal in pipedirve", r"pipedrive", r"pipedrive"),
    ("publish the new page on webflw", r"webflow", r"webflow"),
    ("check the dashboards in grafna", r"grafana", r"grafana"),
    ("reply to the chat in intercomm", r"intercom", r"intercom"),
    ("ping the channel on discrod", r"discord", r"discord"),
    ("update the product page on shopfiy", r"shopify", r"shopify"),
]


def needs() -> list[tuple[str, str, str, str, str, str]]:
    """(half, kind, need, best, relevant, excluded) for every need, split by SEED."""
    rng = random.Random(SEED)
    out: list[tuple[str, str, str, str, str, str]] = []
    for kind, rows, all_forms in (("errand", ERRANDS, ERRAND_FORMS), ("keep", KEEPS, KEEP_FORMS)):
        forms = dict(zip(("dev", "held"), halved(list(all_forms), rng), strict=True))
        for half, items in zip(("dev", "held"), halved(list(rows), rng), strict=True):
            for w, best, relevant in items:  # type: ignore[misc]
                out.append((half, kind, str(rng.choice(forms[half])).format(w=w), best, relevant, ""))
    for kind, rows in (("outcome", OUTCOMES), ("chore", CHORES), ("formats", FORMATS), ("misspelled", MISSPELLED)):
        for half, items in zip(("dev", "held"), halved(list(rows), rng), strict=True):
            for need, best, relevant in items:  # type: ignore[misc]
                out.append((half, kind, need, best, relevant, ""))
    return out


def main() -> None:
    write_judged("tenth", needs())
