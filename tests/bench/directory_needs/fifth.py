"""A fifth evaluation of the Directory: 30 needs in other languages (6 Spanish, 6 Brazilian Portuguese,
6 French, 6 German, 3 Italian, 3 Dutch), written on 2026-12-06 by a fifth author who read only the
census snapshot (../shared/census) and its README, never the town's code, while the Directory was
being taught to read other languages (services.translated). It was measured once, against the code
before and after, and nothing was tuned on it.

About half are short phrases and half sentences of 8 to 20 words; 17 name a product (Stripe, Slack,
Jira, Gmail, Notion, PostgreSQL, Google Calendar, Todoist, GitHub, Kubernetes, Outlook, Figma, Google
Drive, PayPal, Google Sheets, HubSpot) and 13 only a task in everyday words (the weather, a PDF's text,
SEC filings, prices on web pages, images from text, a recording transcribed, a contract translated,
errors in production, flights, stock prices, news, unread e-mail summarised, a browser filling a form,
a route between two addresses); two are typed without accents. Each `best` names the product's own
server where the census holds one, else the clearest, most complete one; each `pattern` picks out the
servers that do what the need asks, matched as make.py matches every evaluation's.
"""

FIFTH: list[tuple[str, list[str], str]] = [
    # ---------------- Spanish ----------------
    (
        "facturas pendientes de Stripe",
        ["com.stripe/mcp"],
        r"^com\.stripe/|stripe[-_](mcp|billing|connect)\b|\bstripe\b[^.]{0,60}\binvoices?\b|\bstripe (api|mcp)\b|mcp[-_]stripe",
    ),
    (
        "Quiero que me avises con un mensaje en el canal de Slack del equipo cuando termine el despliegue.",
        ["io.github.mindstone/mcp-server-slack", "com.pulsemcp/slack", "ai.waystation/slack"],
        r"^(?!.*(read-only|retriev|\bread slack)).*(\bslack\b[^.]{0,50}\b(messag\w*|channels?|workspaces?|threads?)\b|\b(send|post|notif\w*|messaging|reminders?)\b[^.]{0,40}\bslack\b|/(mcp-server-)?slack(-mcp(-server)?)?\b|slack[_-](connect|mcp|enterprise))",
    ),
    (
        "que tiempo hara mañana",
        ["io.github.cyanheads/open-meteo-mcp-server", "io.github.WorldWeatherOnline/wwo-mcp"],
        r"^(?!.*(cosmic|space ?weather|solar indices|air quality mcp|flood mcp|climate mcp|marine mcp|aviation|metar|airport)).*(\bweather\b[^.]{0,40}\bforecasts?\b|\bforecasts?\b[^.]{0,40}\bweather\b|(current|real-time|live) weather|weather (api|data|information|forecast|server|mcp)|open-?meteo|meteoswiss|accuweather|openweather|/weather\b)",
    ),
    (
        "Necesito sacar el texto y las tablas de un PDF de cuarenta páginas que me mandaron.",
        ["io.github.Xvvln/pdf-reader-mcp", "io.github.opendatalab/mineru-open-mcp"],
        r"^(?!.*(crypto|logistics|flashcard|endnote|zotero|esg|screenshot|render|export|compress|modify pdf|index pdfs|scraper|solve_task|markdown to)).*(\b(read|extract|pars|ocr)\w*[^.]{0,40}\bpdfs?\b|\bpdfs?\b[^.]{0,30}\b(reader|parser|parsing|extraction|to markdown|text|tables?)\b)",
    ),
    (
        "crear tickets en Jira",
        ["com.atlassian/atlassian-mcp-server"],
        r"^com\.atlassian/atlassian-mcp|^(?!.*(secret scanner|qmetry|widget|jira-like|reconciler|parse and convert|attachments by)).*\bjira\b",
    ),
    (
        "Búscame los informes anuales que presentó Tesla ante la SEC en los últimos dos años.",
        [
            "io.github.stefanoamorelli/sec-edgar-mcp",
            "io.github.dgunning/edgartools",
            "io.github.cyanheads/secedgar-mcp-server",
        ],
        r"^(?!.*(litigation|layoffs|crypto filing|verdict|valuation from)).*(\bedgar\b|sec[- ]edgar|\bsec filings?\b|\b10-k\b)",
    ),
    # ---------------- Portuguese (Brazil) ----------------
    (
        "enviar e-mail pelo Gmail",
        ["io.github.domdomegg/gmail-mcp", "io.github.taylorwilsdon/workspace-mcp"],
        r"^(?!.*(agentmail|like gmail|one query|plaid for|permission gateway|inbox placement|teaches ai|expenses|fundraising|cancer)).*\bgmail\b",
    ),
    (
        "Quero criar páginas e atualizar os bancos de dados do meu Notion direto pelo chat.",
        ["com.notion/mcp"],
        r"^(?!.*(cost tracking|ticketing)).*\bnotion\b",
    ),
    (
        "consultar banco de dados PostgreSQL",
        ["io.github.YawLabs/postgres-mcp", "io.github.pgEdge/postgres-mcp", "io.github.bytebase/dbhub"],
        r"^(?!.*(memory|churn|provision|metadata|asset inventory|format|infrastructure analysis|deploy|paas|documentation|filesystem|migrations before|dbt|payment|prisma|tuner)).*\bpostgres(ql)?\b",
    ),
    (
        "Preciso extrair o conteúdo de algumas páginas da web pra comparar os preços dos concorrentes.",
        ["com.apify/apify-mcp-server", "io.github.firecrawl/firecrawl-mcp-server"],
        r"^(?!.*(backlink|seo\b|search console|podcast|hiring|tech stack|social|linkedin|leads?\b|test runner|not web scraping|rss|hotel|reddit|greet|micropayments\. crypto|260 mcp tools|12 free tools|code review|pay-per-use apis|host static|price oracle|competitive intel|convert html to markdown)).*(web[- ]?scrap\w*|scrap\w*[^.]{0,20}\b(web|websites?|webpages?|pages?|urls?|sites?)\b|\b(websites?|webpages?|web pages?|urls?)\b[^.]{0,30}\b(scrap\w*|extract\w*)|firecrawl|^com\.apify/)",
    ),
    (
        "gerar imagens a partir de texto",
        ["io.github.black-forest-labs/flux-mcp", "io.github.mindstone/mcp-server-openai-image"],
        r"^(?!.*(\bog image|opengraph|prompt optimizer|token usage|workflow automation|3d models?|prompts? from|bananaprompts|huangting|html|detect ai-generated|a\+ prompts|fitness|expired domains|shopify|youtube creator|content research|mermaid)).*(image generation|generat\w* (ai )?images?|text-to-image|\b(flux|midjourney|dall-e|stable diffusion|imagen|comfyui|seedream|nano ?banana|draw things)\b)",
    ),
    (
        "Tenho a gravação de uma reunião e queria transformar o áudio em texto, separando quem falou.",
        ["io.github.chicogong/ffvoice", "io.github.jwulff/whisper-mcp"],
        r"^(?!.*(routing and failover|speech translation|threat-intel|vocal stress|youtube|google chat voice|pronunciation|whatsapp|microphone)).*(\btranscri(be|ption|bes)\b[^.]{0,40}\b(audio|meetings?|calls?|voice|speech|recordings?|video)\b|\b(audio|meetings?|voice|speech|recordings?)\b[^.]{0,40}\btranscri(be|ption|bes)\b|\bwhisper\b|speech-to-text|\bstt\b|assemblyai|deepgram)",
    ),
    # ---------------- French ----------------
    (
        "planifier une reunion dans Google Agenda",
        ["io.github.domdomegg/google-cal-mcp", "io.github.taylorwilsdon/workspace-mcp"],
        r"^(?!.*(hotel|subscribe|attrove|plaid for|reminders|permission gateway|cancer)).*(\b(google calendar|gcal|google-cal(endar)?)\b|calendar[^.]{0,40}\bgoogle\b|(gmail|google workspace)[^.]{0,40}\bcalendar\b)",
    ),
    (
        "J'ai besoin de traduire un contrat de plusieurs pages en allemand pour un client.",
        ["com.translatesheet/mcp", "io.github.oytuntez/motaword-mcp"],
        r"^(?!.*(bible|quran|canon|protein|shortcuts|design tokens|figma|screenshot|jargon|odoo|subtext|formal specs|speech|tolgee|locize|crypto)).*(\btranslat(e|ion|ions|or)\b[^.]{0,40}\b(languages?|text|documents?|pdf|excel|formatting)\b|\b(deepl|libretranslate|motaword|translatesheet)\b|machine translation|translation (service|for ai)|(certified|professional) translations?|ai-powered translation)",
    ),
    (
        "ajouter des tâches dans Todoist",
        ["net.todoist/mcp"],
        r"\btodoist\b",
    ),
    (
        "Peux-tu ouvrir une pull request sur GitHub avec les corrections que tu viens de faire ?",
        ["io.github.github/github-mcp-server"],
        r"^github/github-mcp|^(?!.*(analy[sz]\w*|analytics|screens|review|changelog|intel\b|list prs|\bsre\b|stats|public rest api|ignite)).*(\bgithub\b[^.]{0,60}\b(prs?|pull requests?)\b|\b(prs?|pull requests?)\b[^.]{0,60}\bgithub\b|github (api|operations)|github mcp server|self-hosted github mcp|github-cli bridge|manage repositories[^.]*github)",
    ),
    (
        "surveiller les erreurs en production",
        ["io.github.getsentry/sentry-mcp"],
        r"\berror[- ](tracking|monitoring|reporting)\b|\bcrash (reporting|analytics)\b|\b(exceptions?|errors)\b[^.]{0,40}\b(monitor\w*|track\w*|alert\w*)|\b(monitor\w*|track\w*)\b[^.]{0,30}\b(errors|exceptions)\b|\bsentry\b|rollbar|bugsnag|honeybadger|crashlytics|\bdatadog\b|new ?relic|application (performance )?monitoring|\bapm\b",
    ),
    (
        "Trouve-moi des vols pas chers entre Paris et Lisbonne pour le mois prochain.",
        ["com.skiplagged/mcp", "com.pulsemcp/google-flights"],
        r"^(?!.*(flightradar|delay|logger|award flight|preflight|eu261|ads-b|australia|delta airlines|southwest|variflight|compensation)).*(\bflights?\b[^.]{0,40}\b(search|booking|book|deals|fares?|prices?)\b|\b(search|book|cheap)\w*\b[^.]{0,30}\bflights?\b|google flights|skiplagged|airfares?|\b(travel|trip)\w*\b[^.]{0,30}\bflights\b)",
    ),
    # ---------------- German ----------------
    (
        "Pods im Kubernetes-Cluster überwachen",
        ["io.github.containers/kubernetes-mcp-server"],
        r"^(?!.*(pronounce|jargon|dockerfiles|manifests?\b|iac audits|port[- ]forward|pod spawner|deploy containers|search instances|security scanner|guardrails for ai agents running|containerization|kubernetes deployments|load balancer)).*\b(kubernetes|k8s|kubectl|openshift|gke|aks|eks)\b",
    ),
    (
        "Zeig mir meine Termine für nächste Woche im Outlook-Kalender und trag ein neues Meeting ein.",
        ["com.microsoft/agent365-calendartools", "com.microsoft/workiq-calendartools"],
        r"^(?!.*(subscribe|one query|teaches ai|inbox placement)).*(\boutlook\b[^.]{0,40}\bcalendars?\b|\bcalendars?\b[^.]{0,60}\boutlook\b|microsoft 365[^.]{0,40}calendar|^com\.microsoft/\w+-calendartools)",
    ),
    (
        "aktuelle Aktienkurse abrufen",
        ["io.github.alphavantage/alpha_vantage_mcp"],
        r"^(?!.*(retailers|e-commerce|packaging|products|chinese|korean|kospi|\bnse\b|\bbse\b|nifty|indian|african|japanese|brazilian|finhay|pine labs)).*(\b(stock|share|equity|equities)\b[^.]{0,20}\b(prices?|quotes?|market data)\b|\b(real-time|live|historical)\b[^.]{0,20}\bstock\b|alpha ?vantage|yahoo[- ]finance|polygon\.io|polygon-io|finnhub|twelve ?data)",
    ),
    (
        "Kannst du mir die neuesten Nachrichten zu diesem Thema aus dem Netz raussuchen?",
        ["io.github.brave/brave-search-mcp-server", "ai.newzai.api/news-mcp"],
        r"^brave/brave-search|^(?!.*(hacker news|spaceflight|tenkai|\bvk\b|altmetric|google trends|bluesky|crypto news|ai news|generate headlines|rap songs|newsletter|trading|macro news|geopolitical event|polymarket)).*(\bnews (search|api|articles|headlines)\b|(search|find)\w*[^.]{0,30}\b(latest |breaking |global |real-time )?news\b|\bnews\b[^.]{0,20}\bsearch\b|headlines|\bgdelt\b|newsdata|perigon|web, (images, )?(videos, )?news)",
    ),
    (
        "Figma-Designs in Code umsetzen",
        ["com.figma.mcp/mcp"],
        r"^(?!.*(html prototypes into figma|seats|offboarding|design tokens between|webhook|podcast|sync lightroom|write to figma|readiness)).*\bfigma\b",
    ),
    (
        "Bitte lies meine ungelesenen E-Mails und fass mir die wichtigsten kurz zusammen.",
        ["io.github.marlinjai/email-mcp", "io.github.codefuturist/email-mcp"],
        r"^(?!.*(inbox placement|teaches ai|validation|verif|deliverability|transactional|newsletter|marketing|cold|outreach|agentmail|own email inboxes|disposable|temp(orary)? (e-?mail|inbox)|permission gateway|cancer|expenses|fundraising|reveal emails|find emails|121 mcp tools|maildev|forwarding|phishing|email infrastructure|programmable email inbox|ai agent email)).*(\b(read|search|summari[sz]e|triage|manage)\w*[^.]{0,40}\b(e-?mails?|inbox(es)?|mailbox(es)?)\b|\b(gmail|outlook mail|imap)\b|\be-?mail (client|inbox|tools)\b)",
    ),
    # ---------------- Italian ----------------
    (
        "caricare file su Google Drive",
        ["io.github.domdomegg/google-drive-mcp", "io.github.taylorwilsdon/workspace-mcp"],
        r"^(?!.*(colab|compliance violation|permission gateway|cancer)).*(\bgoogle[- ]drive\b|\bgdrive\b|(gmail|google workspace)[^.]{0,40}\bdrive\b)",
    ),
    (
        "Vorrei automatizzare il browser per compilare un modulo online e salvare uno screenshot della pagina.",
        ["io.github.microsoft/playwright-mcp"],
        r"^(?!.*(selector|test generation|test failure|trace\.zip|network chaos|spatial|e2e|reports?|insurance|grocery|google search via|accessibility|fewer tokens than|terminal|one mcp for devs|to pdf|mp4|html to markdown|android|test automation for claude|javascript analysis)).*(\bplaywright\b|\bpuppeteer\b|browser automation|automat\w* (the |a |real |cloud |headless )?browsers?|headless (browser|chrome)|control (a |the )?(web )?browser|browserbase|\bselenium\b)",
    ),
    (
        "controllare i pagamenti ricevuti su PayPal",
        ["com.paypal.mcp/mcp", "io.github.paypal/paypal-mcp-server"],
        r"^(?!.*(credit card merchant offers|storefront)).*\bpaypal\b",
    ),
    # ---------------- Dutch ----------------
    (
        "een Google Sheets-bestand bijwerken",
        ["io.github.domdomegg/google-sheets-mcp", "io.github.freema/mcp-gsheets"],
        r"^(?!.*(datasheets|cancer|permission gateway|financial models)).*(\bgoogle[- ]sheets\b|\bgsheets\b|(gmail|google workspace|drive|calendar)[^.]{0,40}\bsheets\b|spreadsheet[^.]{0,30}google)",
    ),
    (
        "Ik wil vanuit de chat mijn contactpersonen en deals in HubSpot kunnen bekijken.",
        ["io.github.mindstone/mcp-server-hubspot", "io.github.Servosity/hubspot-mcp"],
        r"^(?!.*(integrations center|lead qualification|marketing agent|revenue intelligence)).*\bhubspot\b",
    ),
    (
        "reistijd en route tussen twee adressen berekenen",
        ["com.googleapis.mapstools/mcp", "io.github.mapbox/mcp-server"],
        r"^com\.googleapis\.mapstools/|^(?!.*(aviation|vessel|india maps|task routes)).*(\b(maps?|geocod\w*|geospatial|openstreetmap|mapbox|tomtom|openrouteservice)\b[^.]{0,60}\b(directions|routing|routes?|distance|isochrones?|travel time)\b|\b(directions|routing|distance matrix|travel time|route optimization)\b[^.]{0,60}\b(maps?|geocod\w*|places?|traffic)\b)",
    ),
]
