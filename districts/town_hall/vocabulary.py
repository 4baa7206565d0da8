"""The Directory's vocabulary: general words, so a need in everyday words finds servers described in
technical ones. docs/directory.md explains how each table is used.

These tables know about words and products, never about needs or servers: no entry names a registry
name or a lot, and none maps a question to its answer. A word a need uses is looked up here; what it
brings is more words to search by (`CONCEPTS`) and, for a product, the organisation that makes it
(`MAKERS`), whose own namespace is the strongest sign of the product's official server. A word of
another language brings the English words for it (`TRANSLATIONS`, `CJK_RUNS`), the census being
written in English, and its little words none (`OTHER_LITTLE_WORDS`).
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
    "spent": ("spending", "expense", "expenses", "budget", "cost"),
    # a trouble's verb: "I keep forgetting my meetings" asks for reminders
    "forget": ("reminder", "reminders", "remind"),
    "forgetting": ("reminder", "reminders", "remind"),
    "forgot": ("reminder", "reminders", "remind"),
    "payments": ("stripe", "paypal", "checkout", "billing"),
    "payment": ("stripe", "paypal", "checkout", "billing"),
    "pays": ("payments", "billing", "stripe", "subscription"),
    "revenue": ("payments", "subscriptions", "billing", "stripe"),
    "card": ("payments", "stripe", "charge"),
    "refund": ("payments", "stripe", "paypal", "charge"),
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
    # "on call" is read as one word before stop words go ("on" is one): services.JOINED
    "oncall": ("pagerduty", "incidents", "escalation", "rootly", "opsgenie", "paging"),
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
    # everyday tasks, in the words servers use for them
    "transcribe": ("transcription", "speech", "whisper", "audio"),
    "transcript": ("transcription", "speech", "audio"),
    "transcription": ("transcribe", "speech", "whisper"),
    "voice memos": ("transcription", "speech", "audio"),
    "recording": ("audio", "transcription", "recordings"),
    "out loud": ("speech", "tts", "voice"),
    "read aloud": ("speech", "tts", "voice"),
    "draw": ("image", "generation", "images"),
    "picture": ("image", "images", "generation"),
    "illustration": ("image", "generation", "images"),
    "video clip": ("video", "generation", "videos"),
    "translate": ("translation", "translations", "i18n", "localization"),
    "translation": ("translate", "i18n", "localization"),
    "strings": ("i18n", "localization", "translations"),
    "flights": ("flight", "airline", "airfare", "travel"),
    "flight": ("flights", "airline", "travel"),
    "plane": ("flight", "flights", "aircraft", "aviation"),
    "airport": ("flights", "aviation"),
    "hotel": ("hotels", "booking", "travel", "accommodation"),
    "trip": ("travel", "flights", "hotels"),
    "houses": ("real", "estate", "property", "listings"),
    "house": ("real", "estate", "property", "home"),
    "apartment": ("real", "estate", "rental", "property"),
    "rent": ("rental", "real", "estate", "property"),
    "property": ("real", "estate", "listings"),
    "bitcoin": ("crypto", "btc", "price", "cryptocurrency"),
    "ethereum": ("crypto", "eth", "price", "cryptocurrency"),
    "crypto": ("cryptocurrency", "bitcoin", "coins", "price"),
    "coin": ("crypto", "cryptocurrency", "price"),
    "stock": ("stocks", "market", "ticker", "finance", "quotes"),
    "stocks": ("stock", "market", "ticker", "finance", "quotes"),
    "share price": ("stock", "stocks", "ticker", "quote"),
    "ticker": ("stock", "stocks", "quote", "market"),
    "currency": ("exchange", "rates", "forex", "conversion"),
    "exchange rate": ("currency", "forex", "rates"),
    "euros": ("currency", "exchange", "rates"),
    "dollars": ("currency", "exchange", "rates"),
    "lights": ("home", "assistant", "automation", "smart"),
    "thermostat": ("home", "assistant", "automation", "smart"),
    "smart home": ("home", "assistant", "automation", "iot"),
    "pod": ("kubernetes", "k8s", "pods"),
    "pods": ("kubernetes", "k8s", "pod"),
    # a technology by the one word its dotted or signed name is read as (SIGNED_NAMES)
    "nodejs": ("node", "npm", "javascript"),
    "csharp": ("dotnet", "roslyn"),
    "fsharp": ("dotnet",),
    "aspnet": ("dotnet", "aspnetcore"),
    "dotnet": ("csharp", "nuget"),
    "cpp": ("clang", "cmake"),
    "objectivec": ("objc", "xcode", "ios"),
    "k8s": ("kubernetes",),
    "calendar": ("events", "schedule", "gcal"),
    "book meeting": ("scheduling", "calendly", "appointments"),
    "appointment": ("scheduling", "booking", "calendar"),
    "invoice": ("billing", "payments", "invoicing", "accounting"),
    "accounting": ("quickbooks", "xero", "invoices", "bookkeeping"),
    "bookkeeping": ("accounting", "quickbooks", "xero"),
    "employee": ("hr", "hris", "employees", "payroll"),
    "time off": ("hr", "leave", "pto", "hris"),
    "payroll": ("hr", "employees", "salary"),
    # a task names whom it is for or what it waits on: paying contractors is payroll and payouts,
    # "when will it arrive" a shipment's tracking
    "contractors": ("payroll", "payouts", "freelancers", "invoicing"),
    "contractor": ("payroll", "payouts", "freelancers", "invoicing"),
    "abroad": ("international", "cross-border"),
    "arrive": ("delivery", "tracking", "shipment", "shipping"),
    "students": ("lms", "canvas", "courses", "education"),
    "grades": ("lms", "canvas", "students", "courses"),
    "embeddings": ("vector", "similarity", "semantic"),
    "similarity": ("vector", "embeddings", "semantic"),
    "website down": ("uptime", "monitoring", "status"),
    "uptime": ("monitoring", "status", "downtime"),
    "court": ("legal", "law", "case", "opinions"),
    "lawsuit": ("legal", "law", "court", "case"),
    "studies": ("research", "papers", "pubmed", "scholar"),
    "papers": ("research", "academic", "arxiv", "scholar"),
    "drug": ("fda", "medication", "pharmaceutical", "drugs"),
    "prescription": ("medication", "drug", "fda", "pharmacy"),
    "headlines": ("news", "articles"),
    "parcel": ("tracking", "shipment", "shipping", "package"),
    "package tracking": ("shipment", "shipping", "tracking", "carrier"),
    "address": ("geocoding", "maps", "location"),
    "latitude": ("geocoding", "coordinates", "maps"),
    "scores": ("sports", "matches", "league"),
    "football": ("sports", "soccer", "league", "matches"),
    "ocr": ("pdf", "documents", "extraction", "scanned"),
    "scanned": ("ocr", "pdf", "documents"),
    "pdf": ("documents", "document", "pdfs"),
    "playlist": ("music", "spotify", "songs"),
    # a chore named by what it handles, not by the kind of tool that does it ("store secrets for my
    # app", "sign a contract", "chase expense receipts", "move leads", "release notes from our commits")
    "secrets": ("vault", "credentials", "secret"),
    "contract": ("esignature", "signature", "signing", "agreement"),
    "contracts": ("esignature", "signature", "signing", "agreements"),
    "receipts": ("expenses", "expense", "receipt", "ocr"),
    "receipt": ("expenses", "expense", "ocr"),
    "hires": ("hr", "onboarding", "employees"),
    "passwords": ("password", "identity", "credentials", "sso"),
    "leads": ("crm", "sales", "prospects", "contacts"),
    "commits": ("git", "github", "repository"),
    "release notes": ("changelog", "releases"),
    "mentions": ("monitoring", "social", "listening", "brand"),
    "parcels": ("tracking", "shipment", "shipping", "package"),
    "compress": ("compression", "ffmpeg", "optimize"),
    # the words an outcome is rewritten as (OUTCOMES)
    "failures": ("monitoring", "alerts", "alerting", "status"),
    "captcha": ("bot", "fraud", "verification", "spam"),
    "performance": ("apm", "latency", "profiling", "monitoring"),
    "visitors": ("analytics", "traffic", "pageviews"),
    "backup": ("backups", "snapshots", "restore"),
    # a kind of server named by its trade's acronym, which few servers write ("ETL into our warehouse",
    # "SBOM for our containers", "MRR and churn")
    "etl": ("elt", "pipelines", "ingestion", "airbyte", "fivetran"),
    "sbom": ("cyclonedx", "spdx", "materials"),
    "mrr": ("recurring", "revenue", "subscriptions", "churn"),
    # a product named only by its client library, its command or its state, as an error message pasted
    # into a need names it ("botocore.exceptions.NoCredentialsError", "kubectl ... CrashLoopBackOff")
    "botocore": ("aws", "boto3"),
    "boto3": ("aws", "botocore"),
    "psycopg2": ("postgres", "postgresql"),
    "kubectl": ("kubernetes", "k8s"),
    "crashloopbackoff": ("kubernetes", "pods"),
}

# An outcome a need asks for, written as the outcome and not as the kind of server that brings it
# about ("let me know when the build breaks", "why my app got slow", "fewer fake signups", "back up the
# database every night"): each pattern -> the words it is read as, the kind's, before stop words go
# (services.outcome_read). The outcome's own words are held by no server that brings it about
# ("breaks", "slow", "fake"): searched, they ranked the servers that write them (fake-star audits for
# "fake signups") over the monitoring, performance or captcha servers asked for. How often a thing is
# wanted ("every night", "hourly") says nothing of its kind and is not searched, as "every week" is
# not (services._TROUBLE).
_TOLD = r"(?:let|tell|notify|alert|ping|warn)\s+(?:me|us)|(?:a\s+)?heads[\s-]+up|(?:to\s+)?be\s+(?:told|notified|alerted|warned)"
OUTCOMES: tuple[tuple[str, str], ...] = (
    (rf"\b(?:{_TOLD})(?:\s+know)?\s+(?:when|if|whenever|as\s+soon\s+as)\b", "alerts when"),
    # "failed" before a noun says which one ("the failed job", "failed charges"), not an outcome wanted
    (r"\b(?:breaks|broke|fails|starts\s+failing|goes\s+red|turns\s+red)\b|\bfailed\b(?!\s+[a-z])", "failures"),
    (r"\b(?:goes|went|is|are|was|were)\s+(?:down|offline)\b", "uptime"),
    (
        r"\b(?:got|gets|getting|get|is|are|was|became|becomes|feels|runs|running|so|too)\s+"
        r"(?:so\s+|really\s+|very\s+|too\s+|super\s+)?(?:slow|slower|sluggish|laggy)\b",
        "performance",
    ),
    (r"\b(?:fake|bogus|spam|bot)\s+(?:sign[\s-]?ups?|registrations?)\b", "captcha"),
    (r"\bback(?:ing|s)?\s+up\b", "backup"),
    (r"\b(?:every|each)\s+(?:single\s+)?(?:night|hour|evening)\b|\b(?:nightly|hourly)\b", " "),
    (
        r"\b(?:how\s+many\s+)?(?:people|users)\s+(?:visit|visits|visited|come\s+to|land\s+on)\s+"
        r"(?:our|my|the)\s+(?:site|website|web\s+site|pages?|blog|shop|store)\b",
        "site visitors",
    ),
    (r"\bchanges?\s+(?:their|its|the|our)\s+prices?\b", "price monitoring"),
    (
        r"\b(calls?|meetings?|interviews?)\s+(?:written|typed|turned)\s+(?:up|out)(?:\s+(?:as|into)\s+notes)?\b",
        r"\1 transcription",
    ),
    (r"\b(?:the\s+)?day['\u2019]?s\s+(?:meetings|events|appointments|schedule)\b", "calendar"),
    (r"\bpull(?:s|ing)?\s+((?:[\w'-]+\s+){1,4}?)out\s+of\b", r"extract \1from"),
    (
        r"\banswer(?:ing)?\s+(?:the\s+same\s+|common\s+|our\s+)?customer(?:s['\u2019]?)?\s+questions\b",
        "customer support",
    ),
)

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
    "aspnet": ("microsoft",),
    "csharp": ("microsoft",),
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

# Products whose names are everyday English words: after a negation, in a part of a word or two ("team
# chat, not slack", "video calls without zoom"), such a word names the product, not the everyday thing
# (services.negated). Elsewhere they are read as any word is. The makers' products above count too.
EVERYDAY_PRODUCTS = frozenset(
    """slack discord linear square zoom teams notion box render railway sentry stripe telegram canvas drive chrome
    excel bear segment amplitude monday signal loom miro keynote safari buffer ghost medium pocket basecamp
    harvest snowflake elastic okta clerk plaid ramp mercury gusto neon prisma fly vault atlas lambda fabric
    copilot gemini claude""".split()
)

# A technology whose name is written with a dot, a sign or a dash, read as one word: split at its dot
# ("Node.js" as node and js) it searched for every server that speaks of a node or of JavaScript, and
# its sign dropped ("C#", "C++", "F#") it searched for nothing at all. Each pattern -> the one word it
# is read as, in a need (services.terms_of) and in every listing (ranking.Census, beside the words as
# written): any "<name>.js" is "<name>js", so "Next.js" finds the servers that write "nextjs" too.
SIGNED_NAMES: tuple[tuple[str, str], ...] = (
    (r"(?<![\w.#+])c#(?![\w#])", "csharp"),
    (r"(?<![\w.#+])f#(?![\w#])", "fsharp"),
    (r"(?<![\w.#+])c\+\+(?![\w+])", "cpp"),
    (r"\basp\.net\b", "aspnet"),
    (r"(?<![\w.])\.net\b", "dotnet"),
    (r"\bobjective-c\b", "objectivec"),
    (r"\b([a-z][a-z0-9]*)\.js\b", r"\1js"),
)

# Two words a need may split that name one product ("hugging face", "new relic"): ranking joins
# every pair of neighbouring words and looks the joined word up as a product too, so no table is
# needed for those. Words that are never a product alone, whatever the census holds:
NOT_PRODUCTS = frozenset(
    """official server servers mcp api apis app apps data tools tool agent agents my our the web search
    files file code docs team cloud com io dev new open free best all get""".split()
)

# What a server needs or has that a need may ask it to do without ("weather, no API key", "without
# local setup", "avoid rate limits"): servers say so of themselves ("no auth", "no API key", "no
# signup": the words the census itself writes after "no", "without" or "zero" most often, and their
# like), and the servers that say it are the ones wanted: none is read as a product ("no signup", "no
# KYC"). After a negation any other everyday word names a kind of server that is unwanted ("weather
# forecasts, not aviation": services.negated).
DOES_WITHOUT = frozenset(
    """auth authentication oauth api apis key keys token tokens login logins signup sign registration
    account accounts setup config configuration install installation dependencies deps local cloud code
    coding llm model models browser database server internet network connection credentials password
    passwords kyc middleman middlemen hallucinations rate limits limit quota quotas cost costs fee fees
    charge charges subscription subscriptions card ads cookies telemetry container sudo root admin
    permission permissions vendor lock restrictions captcha captchas proxy proxies vpn hosting
    infrastructure backend frontend interface manual human humans approval approvals delay delays
    downtime guesswork boilerplate hassle fuss friction overhead bloat paid expensive cheap slow
    complicated complex heavy official""".split()
)

# A kind of server a need may say it does not want, by one of its names -> the other words servers
# write for the same kind: an abbreviation or the word in full ("TV", "television"), the kind's
# members ("crypto": bitcoin, ethereum, web3; "social media": twitter, reddit) and their spellings.
# After a negation, a server that speaks of any of them is left out as one that speaks of the name
# the need used (services._with_products): "movies, not TV" leaves out the servers of television. A
# member named alone ("no bitcoin", "without reddit") leaves out only its own spellings, for a need
# that does not want one product of a kind may want the others. Each word is matched as a word's
# start when it has five letters or more ("gambl" holds gambling and gamble), else whole.
_CRYPTO = "crypto cryptocurrency cryptocurrencies bitcoin btc blockchain web3 ethereum defi nft nfts stablecoin solana"
_SOCIAL = "social+media social+network social+networks twitter tweets reddit facebook instagram tiktok mastodon bluesky"
_SPORT = "football soccer basketball baseball hockey tennis cricket rugby nba nfl nhl mlb"
_GAMBLING = "gambl betting bets wager casino sportsbook odds"
_ALCOHOL = "alcohol wine wines beer beers cocktail liquor spirits whisky vodka brewery winery"
_BULK = "newsletter marketing campaign bulk+email bulk+mail mass+mail"
_ADS = "advertis ads adwords ppc"
KIND_NAMES: dict[str, tuple[str, ...]] = {
    kind: tuple(w.replace("+", " ") for w in words_.split())
    for kinds, words_ in (
        ("tv television televisions telly", "tv television"),
        ("crypto cryptocurrency cryptocurrencies blockchain blockchains web3", _CRYPTO),
        ("bitcoin btc", "bitcoin btc"),
        ("nft nfts", "nft nfts"),
        ("social+media socials social+network social+networks", _SOCIAL),
        ("twitter tweets", "twitter tweets"),
        ("sport sports", "sport sports " + _SPORT),
        ("gambling gamble betting bets bet wagers wagering casinos casino sportsbooks", _GAMBLING),
        ("alcohol alcoholic booze liquor drinks", _ALCOHOL),
        ("newsletter newsletters bulk+email bulk+emails bulk+mail mass+mail mass+email email+marketing", _BULK),
        ("marketing", "marketing campaign"),
        ("advertising adverts advert ads ads+campaigns", _ADS),
        ("ai llm llms artificial+intelligence", "ai llm llms artificial+intelligence gpt"),
        ("aviation aviations", "aviation metar taf aircraft aeronautical"),
        ("hotel hotels lodging accommodation accommodations", "hotel lodging accommodation"),
        ("podcast podcasts", "podcast"),
        ("movie movies film films", "movie film cinema"),
    )
    for kind in (k.replace("+", " ") for k in kinds.split())
}

# The words of tasks and things in other languages, each line an English word the census uses and
# the Spanish, Portuguese, French, German, Italian and Dutch words for it, written without accents
# (a need's word is looked up with its accents off, as a person typing fast writes it). The
# census describes its servers in English, so a need in another language searches for the English
# words too (services.translated). Words that are also English words ("red" is a network in Spanish,
# "actions" shares in French, "converter" and "payer" are English as written) are left out. A phrase
# of two words is written with a + between them ("base+datos", its little word left out as every stop
# word is).
_IN_OTHER_LANGUAGES = """
restaurant: restaurante restaurantes ristorante ristoranti
lights: luces luz luzes lumieres lumiere licht lichter luci lampen
pharmacy: farmacia farmacias pharmacie apotheke apotheken apotheek
folder: carpeta carpetas pasta pastas ordner cartella cartelle
disk: disco discos festplatte
old: antiguo antiguos antigua antiguas antigo antigos antiga antigas vecchio vecchi vecchie
send: enviar envia envie mandar manda envoyer envoie envoyez senden sende schicken schicke verschicken
    inviare invia versturen verstuur sturen stuur verzenden
query: consultar consulta interroger requeter abfragen abfrage interrogare opvragen bevragen
retrieve: abrufen recuperar recuperer
search: buscar busca busqueda pesquisar pesquisa procurar chercher rechercher recherche suchen suche
    durchsuchen cercare cerca ricerca zoeken zoek
create: crear crea criar crie creer creez erstellen erstelle anlegen creare maken maak aanmaken
manage: gestionar gestiona administrar gerenciar gerir gerer verwalten verwalte gestire beheren beheer
read: leer ler lire lesen leggere lezen lees
write: escribir escrever ecrire schreiben scrivere schrijven
translate: traducir traduce traduzir traduza traduire ubersetzen uebersetzen tradurre vertalen vertaal
translation: traduccion traducao traduction ubersetzung traduzione vertaling
generate: generar genera gerar gere generer generieren erzeugen generare genereren
check: revisar verificar comprobar checar conferir prufen pruefen uberprufen controllare
    verificare controleren
monitor: monitorear monitorizar supervisar vigilar monitorar surveiller uberwachen ueberwachen
    monitorare monitoren bewaken
list: listar lister auflisten elencare
update: actualizar atualizar aktualisieren aggiornare bijwerken
delete: borrar eliminar apagar excluir supprimer loschen loeschen cancellare verwijderen
download: descargar baixar telecharger herunterladen scaricare
upload: subir carregar televerser hochladen caricare
schedule: programar agendar planifier planen programmare plannen
book: reservar reserver buchen prenotare boeken
summarize: resumir resumen resumo resumer zusammenfassen riassumere samenvatten
analyze: analizar analisar analyser analysieren analizzare analyseren
deploy: desplegar implantar deployer bereitstellen distribuire uitrollen
extract: extraer extrair extraire extrahieren estrarre extraheren
convert: convertir umwandeln konvertieren convertire converteren
pay: pagar bezahlen pagare betalen
track: rastrear seguimiento suivre verfolgen tracciare volgen
publish: publicar postar publier veroffentlichen pubblicare publiceren
database: datenbank databank gegevensbank basedatos bancodados base+datos banco+dados base+donnees banca+dati
data: datos dados donnees daten dati gegevens
message: mensaje mensajes mensagem mensagens nachricht nachrichten messaggio messaggi bericht berichten
email: correo correos courriel courriels
channel: canal kanal canale kanaal chaine
weather: clima meteo wetter weerbericht
forecast: pronostico previsao previsoes prevision previsions vorhersage previsioni voorspelling
invoice: factura facturas fatura faturas facture factures rechnung rechnungen fattura fatture factuur facturen
payment: pago pagos pagamento pagamentos paiement paiements zahlung zahlungen bezahlung pagamenti betaling betalingen
customer: cliente clientes kunde kunden clienti klant klanten
task: tarea tareas tarefa tarefas tache taches aufgabe aufgaben compito compiti taak
project: proyecto proyectos projeto projetos projet projets projekt projekte progetto progetti projecten
meeting: reunion reuniones reuniao reunioes besprechung riunione riunioni vergadering vergaderingen
appointment: cita termin termine appuntamento afspraak
calendar: calendario calendrier kalender
document: documento documentos dokument dokumente documenti
file: archivo archivos fichero ficheros arquivo arquivos fichier fichiers datei dateien bestand bestanden
image: imagen imagenes imagem imagens bild bilder immagine immagini afbeelding afbeeldingen
text: texto texte testo tekst
page: pagina paginas seite seiten
website: sitio webseite sito
error: errores erro erros erreur erreurs fehler errore errori fout fouten
code: codigo quellcode codice
repository: repositorio 
company: empresa empresas entreprise entreprises unternehmen firma azienda aziende bedrijf bedrijven
report: informe informes reporte reportes relatorio relatorios berichte rapporto verslag
financial: financiero financieros financiera financieras financeiro financeiros financeira financier
    financiers financiere finanz finanzen finanziario finanziari financieel financiele
filings: declaraciones
price: precio precios preco precos prix preis preise prezzo prezzi prijs prijzen
stock: acciones acoes aktien azioni aandelen
news: noticias nouvelles actualites notizie nieuws
map: mapa mapas carte karte karten mappa kaart kaarten
card: tarjeta tarjetas cartao cartoes kreditkarte kreditkarten bankkarte bankkarten betaalkaart
credit card: carte+credit cartes+credit tarjeta+credito cartao+credito carta+credito creditcard
fiscal nfe: nota+fiscal notas+fiscais
card payment: kartenzahlung kartenzahlungen carte+bancaire cartes+bancaires
command line: ligne+commande linea+comando linha+comando kommandozeile opdrachtregel
signature: firma+digital firma+electronica firma+digitale firma+elettronica assinatura+digital
    assinatura+eletronica
address: direccion endereco adresse indirizzo adres
spreadsheet: planilha planilhas tableur tabelle tabellen rekenblad
sheet: hoja hojas feuille foglio
diagram: diagrama diagramme diagramm diagramma
architecture: arquitectura arquitetura architektur architettura architectuur
production: produccion producao produktion produzione productie
sales: ventas vendas ventes verkauf umsatz vendite verkoop
order: pedido pedidos commande commandes bestellung bestellungen ordine ordini bestelling bestellingen
product: producto productos produto produtos produit produits produkt produkte prodotto prodotti producten
shop: tienda loja magasin negozio winkel
user: usuario usuarios utilisateur utilisateurs benutzer nutzer utente utenti gebruiker gebruikers
contact: contacto contactos contato contatos kontakt kontakte contatti contacten
note: nota notas notizen notities
voice: voz voix stimme vocale vocali
music: musica musique musik muziek
recipe: receta recetas receita receitas recette recettes rezept rezepte ricetta ricette recept recepten
flight: vuelo vuelos voo voos flug fluge fluege volo voli vlucht vluchten
law: ley leyes lei leis loi lois gesetz gesetze legge leggi
legal: juridico juridique rechtlich giuridico juridisch
health: salud saude sante gesundheit gezondheid
security: seguridad seguranca securite sicherheit sicurezza beveiliging
vulnerability: vulnerabilidad vulnerabilidades vulnerabilidade vulnerabilite schwachstelle schwachstellen
    vulnerabilita kwetsbaarheid
container: contenedor contenedores conteiner conteneur conteneurs contenitore
cloud: nube nuvem nuage
storage: almacenamiento armazenamento stockage speicher archiviazione opslag
backup: respaldo sauvegarde sicherung
alert: alerta alertas alerte alertes warnung warnungen avviso avvisi waarschuwing
dashboard: tablero painel
screenshot: bildschirmfoto
browser: navegador navigateur
tests: pruebas 
accounting: contabilidad contabilidade comptabilite buchhaltung contabilita boekhouding
bank: banco banque banca
transaction: transaccion transacciones transacao transacoes transaktion transaktionen transazione
    transazioni transactie transacties
subscription: suscripcion suscripciones assinatura assinaturas abonnement abonnements abbonamento
    abonnementen
account: cuenta conta compte konto conto rekening
password: contrasena senha passwort wachtwoord
free: gratis gratuito gratuita gratuit kostenlos
ai: ia
social: sociales sociais sociaux soziale
logs: registros protokolle
issue: incidencia incidencias problema problemas
"""
# Words of other languages that say nothing a search could use (the little words, the asking), left
# out as the English stop words are (services.STOPWORDS holds those written without accents).
# Portuguese "você" (accents off, voce) is one: Italian's "voce", a voice, is read by "vocale" above.
OTHER_LITTLE_WORDS = frozenset(
    """fur uber a as nao atraves partir entre desde hasta ate apres avant mas muy todo todos todas tous
    toutes alle jeden cada chaque ogni elke nuestro nuestra nuestros nuestras nosso nossa nossos notre
    unser unsere unseren unserem nostro nostra nostri onze ons este esta estos estas esse essa isso
    dieser diese dieses questo questa deze dit aan naar met om uit bij hacer fazer faire machen doen
    quiero quero veux voudrais mochte mochten vorrei wil necesito preciso besoin brauche bisogno nodig
    puedes podes pode peux pouvez kannst konnen puoi kun kunt como comment wie come hoe qual cual quelle
    quel welche welcher quale welke das manana amanha demain morgen domani hoy hoje aujourd hui heute
    oggi vandaag nuevo nueva novo nova nouveau nouvelle neu neue nuovo nieuw automaticamente
    automatiquement automatisch sempre siempre toujours immer voce voces""".split()
)


# A word of another language with two senses, the table's first: each -> the English words of its other
# sense and the words (of the need, or their English) that call for it. French "carte", German "Karte"
# and Dutch "kaart" are a map and a card: "carte de France" is a map, "paiement par carte" a card.
_PAYING = frozenset(
    """payment payments pay bank credit debit gift loyalty wallet checkout transaction subscription
    bancaire bancaires credito debito cadeau regalo""".split()
)
# Spanish "acciones" (Portuguese "ações", Italian "azioni") are shares, and GitHub's Actions in a need
# about workflows; "programar" is to schedule, or to program in a need that names a language; "apagar"
# is Portuguese's delete and Spanish's switch off (lights, a device); Dutch "bericht" is a message,
# German "Bericht" a report (of a quarter, as a PDF); Italian "cerca" is search, Spanish "cerca" near (a
# place to go to); Portuguese "pasta" is a folder, and the food in a need about cooking.
_WORKFLOWS = frozenset("github gitlab workflow workflows ci pipeline pipelines push build builds runner".split())
_LANGUAGES = frozenset(
    """python javascript typescript java rust golang kotlin swift ruby php code codigo codice script scripts
    software app apps aplicacion aplicaciones aplicativo programming programmer""".split()
)
_DEVICES = frozenset("lights light lamp lamps tv television heating heater computer pc device devices alarm".split())
_REPORTING = frozenset("pdf excel quarterly monthly annual quartal quartals monat monats jahr analyse analysis".split())
_PLACES = frozenset(
    """pharmacy restaurant hotel hotels store shop shops gas station hospital atm cafe parking casa
    supermercado mercado""".split()
)
_COOKING = frozenset("recipe recipes cook cooking food dinner sauce italian italiana comida".split())
OTHER_SENSE: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    **{w: (("card",), _PAYING) for w in "carte karte karten kaart kaarten".split()},
    **{w: (("actions",), _WORKFLOWS) for w in "acciones acoes azioni".split()},
    "programar": (("programming", "code"), _LANGUAGES),
    "apagar": (("turn", "off"), _DEVICES),
    "bericht": (("report",), _REPORTING),
    "cerca": (("nearby",), _PLACES),
    "pasta": (("pasta",), _COOKING),
}


def _table(text: str) -> dict[str, tuple[str, ...]]:
    """A table's lines read: each "english words: what stands for them ..." (a line going on indented
    on the next), each entry -> the English words, a + in an entry a space ("base+datos")."""
    out: dict[str, tuple[str, ...]] = {}
    for line in text.replace("\n ", " ").strip().splitlines():
        english, _, entries = line.partition(":")
        for entry in entries.split():
            key = entry.replace("+", " ")
            out[key] = tuple(dict.fromkeys((*out.get(key, ()), *english.split())))
    return out


TRANSLATIONS: dict[str, tuple[str, ...]] = _table(_IN_OTHER_LANGUAGES)

# The same for Japanese, Chinese (simplified and traditional) and Korean, which write no spaces between
# words (Korean joins its little words to them): each line the English words for a run of characters
# that may stand anywhere in one of a need's words ("天気予報を調べて" holds 天気 and 予報). Each run is at
# least two characters long, so that none is found inside an unrelated word by chance.
_IN_CJK = """
weather: 天気 天气 天氣 날씨
forecast: 予報 预报 預報 예보
search: 検索 搜索 搜尋 검색
papers: 論文 论文 논문
summarize: 要約 摘要 总结 總結 요약
translate: 翻訳 翻译 翻譯 번역
address: 住所 地址 주소
latitude: 緯度 纬度 緯度 위도
longitude: 経度 经度 經度 경도
map: 地図 地图 地圖 지도
route: 経路 路线 路線 경로
database: データベース 数据库 資料庫 데이터베이스
data: データ 数据 數據 데이터
email: メール 邮件 郵件 이메일 메일
send: 送信 发送 發送 전송 보내
message: メッセージ 消息 讯息 訊息 메시지
invoice: 請求書 发票 發票 청구서 인보이스
payment: 支払 支付 付款 결제 지불
calendar: カレンダー 日历 日曆 캘린더 달력
meeting: 会議 会议 會議 회의 ミーティング
schedule: 予定 日程 일정 スケジュール
image: 画像 图片 圖片 图像 圖像 이미지
generate: 生成 생성
stock price: 株価 股价 股價 주가
news: ニュース 新闻 新聞 뉴스
task: タスク 任务 任務 할일
project: プロジェクト 项目 項目 프로젝트
file: ファイル 文件 檔案 파일
document: 文書 ドキュメント 文档 文檔 문서
code: コード 代码 代碼 코드
error: エラー 错误 錯誤 오류 에러
logs: ログ 日志 日誌 로그
monitor: 監視 监控 監控 모니터링
deploy: デプロイ 部署 배포
repository: リポジトリ 仓库 倉庫 저장소
customer: 顧客 客户 客戶 고객
sales: 売上 销售 銷售 매출 판매
order: 注文 订单 訂單 주문
product: 商品 产品 產品 제품 상품
price: 価格 价格 價格 가격
flight: フライト 航班 항공편
hotel: ホテル 酒店 호텔
restaurant: レストラン 餐厅 餐廳 식당 레스토랑
recipe: レシピ 食谱 食譜 레시피
music: 音楽 音乐 音樂 음악
video: 動画 视频 視頻 影片 동영상 비디오
browser: ブラウザ 浏览器 瀏覽器 브라우저
screenshot: スクリーンショット 截图 截圖 스크린샷
web page: ウェブページ 网页 網頁 웹페이지
website: ウェブサイト 网站 網站 웹사이트
scrape: スクレイピング 爬取 抓取 크롤링 스크래핑
security: セキュリティ 보안
vulnerability: 脆弱性 漏洞 취약점
law: 法律 법률
health: 健康 건강
bank: 銀行 银行 은행
account: アカウント 账户 帳戶 계정
password: パスワード 密码 密碼 비밀번호
notes: メモ ノート 笔记 筆記 메모 노트
chat: チャット 聊天 채팅
query: クエリ 查询 查詢 쿼리 조회
analyze: 分析 분석
report: レポート 报告 報告 보고서 리포트
spreadsheet: スプレッドシート 电子表格 電子表格 스프레드시트
contact: 連絡先 联系人 聯絡人 연락처
user: ユーザー 用户 用戶 사용자
company: 企業 会社 公司 회사 기업
financial filings: 決算 财报 財報 공시
tax: 税金 세금
earthquake: 地震 지진
create: 作成 创建 創建 만들기
manage: 管理 관리
read: 読み 读取 讀取 읽기
check: 確認 检查 檢查 확인
list: 一覧 列表 목록
update: 更新 업데이트
delete: 削除 删除 刪除 삭제
download: ダウンロード 下载 下載 다운로드
upload: アップロード 上传 上傳 업로드
book: 予約 预订 預訂 예약
convert: 変換 转换 轉換 변환
extract: 抽出 提取 추출
transcribe: 文字起こし 转录 轉錄
audio: 音声 音频 音訊 오디오 음성
"""


# A run of characters -> the English words for it (services.translated looks for the longest first).
CJK_RUNS: dict[str, tuple[str, ...]] = _table(_IN_CJK)
CJK_LONGEST = max(map(len, CJK_RUNS))


def _english() -> frozenset[str]:
    from pathlib import Path

    lines = (Path(__file__).with_name("english.txt")).read_text(encoding="utf-8").splitlines()
    return frozenset(w for w in lines if w and not w.startswith("#"))


# Common English words (english.txt, from SCOWL): never a slip of the keyboard for another word
# (ranking.spelled), and a product's name only on strong evidence (ranking.namespace_signal).
ENGLISH: frozenset[str] = _english()
