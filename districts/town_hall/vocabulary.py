"""The Directory's vocabulary: general words, so a need in everyday words finds servers described in
technical ones. docs/directory.md explains how each table is used.

These tables know about words and products, never about needs or servers: no entry names a registry
name or a lot, and none maps a question to its answer. A word a need uses is looked up here; what it
brings is more words to search by (`CONCEPTS`) and, for a product, the organisation that makes it
(`MAKERS`), whose own namespace is the strongest sign of the product's official server.
"""

# An everyday or general word -> the words servers use for it. The words brought in recall and rank
# servers, but weigh less than the need's own words (services.search, ranking.score).
CONCEPTS: dict[str, tuple[str, ...]] = {
    # talking to people
    "chat": ("slack", "discord", "teams", "mattermost", "telegram", "whatsapp", "messaging", "channels"),
    "chats": ("slack", "discord", "teams", "mattermost", "telegram", "whatsapp", "messaging", "channels"),
    "chatting": ("slack", "discord", "teams", "mattermost", "telegram", "messaging"),
    "messenger": ("telegram", "whatsapp", "messaging", "signal"),
    "texts": ("sms", "twilio", "messages"),
    "text message": ("sms", "twilio"),
    "sms": ("twilio", "text", "messages"),
    "email": ("mail", "gmail", "outlook", "smtp", "inbox"),
    "emails": ("mail", "gmail", "outlook", "smtp", "inbox"),
    "inbox": ("email", "mail", "gmail", "outlook"),
    "meeting": ("zoom", "meet", "teams", "calendar"),
    "meetings": ("zoom", "meet", "teams", "calendar"),
    "call": ("zoom", "meeting", "phone", "voice"),
    "video call": ("zoom", "meet", "teams"),
    # work
    "tickets": ("jira", "issues", "linear", "tracker"),
    "ticket": ("jira", "issue", "linear", "tracker"),
    "bugs": ("issues", "jira", "linear", "tracker", "sentry"),
    "backlog": ("issues", "jira", "linear", "sprint"),
    "sprint": ("jira", "linear", "agile", "issues"),
    "to-do": ("todo", "tasks", "todoist"),
    "todo": ("tasks", "todoist"),
    "wiki": ("confluence", "notion", "docs", "knowledge"),
    "whiteboard": ("miro", "board", "diagram"),
    "spreadsheet": ("excel", "sheets", "airtable", "csv"),
    "spreadsheets": ("excel", "sheets", "airtable", "csv"),
    "slides": ("powerpoint", "presentation", "deck"),
    "presentation": ("powerpoint", "slides", "deck"),
    "docs": ("documentation", "documents"),
    "documentation": ("docs", "reference"),
    # money
    "bill": ("cost", "billing", "spend", "pricing", "finops", "invoice"),
    "bills": ("cost", "billing", "spend", "pricing", "invoice"),
    "spend": ("cost", "billing", "finops"),
    "spending": ("cost", "billing", "finops", "budget"),
    "payments": ("stripe", "paypal", "checkout", "billing"),
    "payment": ("stripe", "paypal", "checkout", "billing"),
    "pays": ("payments", "billing", "stripe", "subscription"),
    "revenue": ("payments", "subscriptions", "billing", "stripe"),
    "card": ("payments", "stripe", "charge"),
    "refund": ("payments", "stripe", "paypal", "charge"),
    "invoice": ("billing", "payments", "invoicing"),
    "invoices": ("billing", "payments", "invoicing"),
    "shop": ("ecommerce", "store", "shopify", "products"),
    "store": ("ecommerce", "shop", "shopify"),
    # building software
    "cloud": ("aws", "azure", "gcp", "google"),
    "deploy": ("deployment", "deployments", "hosting"),
    "hosting": ("deploy", "deployments"),
    "repo": ("repository", "github", "gitlab", "git"),
    "repos": ("repositories", "github", "gitlab", "git"),
    "code review": ("pull", "requests", "review"),
    "crash": ("errors", "exceptions", "sentry", "crash"),
    "crashes": ("errors", "exceptions", "sentry"),
    "errors": ("sentry", "exceptions", "monitoring"),
    "alerts": ("monitoring", "incidents", "alerting", "pagerduty"),
    "on call": ("pagerduty", "incidents", "oncall"),
    "outage": ("incidents", "monitoring", "status"),
    "logs": ("logging", "observability", "traces"),
    "metrics": ("monitoring", "observability", "dashboards"),
    "dashboards": ("grafana", "monitoring", "analytics"),
    "analytics": ("events", "metrics", "insights"),
    "cache": ("redis", "caching", "memcached"),
    "warehouse": ("snowflake", "bigquery", "redshift", "analytics"),
    "vulnerabilities": ("security", "cve", "scan", "snyk"),
    "vulnerability": ("security", "cve", "scan", "snyk"),
    "containers": ("docker", "kubernetes", "container"),
    "cluster": ("kubernetes", "k8s", "clusters"),
    "clusters": ("kubernetes", "k8s", "cluster"),
    "browser": ("playwright", "puppeteer", "chrome", "automation"),
    "scraping": ("scrape", "scraper", "crawl", "crawler"),
    "scrape": ("scraping", "scraper", "crawl"),
    "crawl": ("crawler", "scrape", "scraping"),
    "website": ("web", "site"),
    "web": ("website", "internet"),
    "search engine": ("search", "web"),
    # content and media
    "pictures": ("images", "photos", "image"),
    "photos": ("images", "image", "pictures"),
    "drawings": ("images", "design", "diagram"),
    "design": ("figma", "designs", "ui"),
    "designs": ("figma", "design", "ui"),
    "mockups": ("figma", "design", "ui"),
    "voice": ("speech", "audio", "tts"),
    "podcast": ("audio", "episodes", "podcasts"),
    "music": ("spotify", "songs", "audio"),
    "songs": ("music", "spotify"),
    "movies": ("films", "video", "tmdb"),
    "map": ("maps", "geocoding", "places", "directions"),
    "maps": ("map", "geocoding", "places", "directions"),
    "directions": ("maps", "routes", "routing"),
    "weather": ("forecast", "meteorological"),
    "news": ("headlines", "articles"),
    "notes": ("notion", "obsidian", "notes"),
    "files": ("drive", "storage", "documents"),
    "storage": ("files", "bucket", "drive"),
    "customers": ("crm", "contacts", "customer"),
    "sales": ("crm", "deals", "leads", "pipeline"),
    "crm": ("salesforce", "hubspot", "contacts", "deals"),
    "support": ("tickets", "helpdesk", "zendesk"),
    "models": ("ml", "llm", "model"),
}

# A product -> the organisations that make it, as their namespaces spell them (a domain's name, or a
# GitHub organisation). A need naming the product is a need for the maker's own server. A product
# whose maker's name is the product itself (stripe, notion, sentry) needs no entry: ranking.owner_is
# matches it directly.
MAKERS: dict[str, tuple[str, ...]] = {
    # Microsoft
    "teams": ("microsoft",),
    "outlook": ("microsoft",),
    "onedrive": ("microsoft",),
    "sharepoint": ("microsoft",),
    "excel": ("microsoft",),
    "powerpoint": ("microsoft",),
    "entra": ("microsoft",),
    "fabric": ("microsoft",),
    "powerbi": ("microsoft",),
    "nuget": ("microsoft",),
    "playwright": ("microsoft",),
    "vscode": ("microsoft",),
    "copilot": ("microsoft", "github"),
    "azure": ("microsoft", "azure"),
    "bing": ("microsoft",),
    "dotnet": ("microsoft",),
    # Google
    "gmail": ("google",),
    "gcp": ("google",),
    "firestore": ("google",),
    "bigquery": ("google",),
    "bigtable": ("google",),
    "gke": ("google",),
    "youtube": ("google",),
    "android": ("google",),
    "gemini": ("google",),
    "firebase": ("google", "firebase"),
    "googlemaps": ("google",),
    "cloudrun": ("google",),
    "cloudsql": ("google",),
    "googlecloud": ("google",),
    # Amazon
    "aws": ("aws", "amazon"),
    "s3": ("aws", "amazon"),
    "ec2": ("aws", "amazon"),
    "eks": ("aws", "amazon"),
    "ecs": ("aws", "amazon"),
    "lambda": ("aws", "amazon"),
    "dynamodb": ("aws", "amazon"),
    "bedrock": ("aws", "amazon"),
    "alexa": ("amazon",),
    "amazon": ("aws", "amazon"),
    # Atlassian
    "jira": ("atlassian",),
    "confluence": ("atlassian",),
    "trello": ("atlassian",),
    "bitbucket": ("atlassian",),
    "rovo": ("atlassian",),
    # others
    "terraform": ("hashicorp",),
    "vault": ("hashicorp",),
    "nextjs": ("vercel",),
    "context7": ("upstash",),
    "sonarqube": ("sonarsource",),
    "sonarcloud": ("sonarsource",),
    "atlas": ("mongodb",),
    "claude": ("anthropic",),
    "chatgpt": ("openai",),
    "whatsapp": ("meta", "facebook"),
    "instagram": ("meta", "facebook"),
    "openshift": ("redhat",),
    "duckdb": ("motherduck", "duckdb"),
}

# Two words a need may split that name one product ("hugging face", "new relic"): ranking joins
# every pair of neighbouring words and looks the joined word up as a product too, so no table is
# needed for those. Words that are never a product alone, whatever the census holds:
NOT_PRODUCTS = frozenset(
    """official server servers mcp api apis app apps data tools tool agent agents my our the web search
    files file code docs team cloud com io dev new open free best all get""".split()
)
