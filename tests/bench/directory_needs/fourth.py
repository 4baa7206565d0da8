"""A fourth evaluation of the Directory: 60 needs written on 2026-12-05 by a fourth author who read the
census and make.py's format only, never the ranking's code, while the ranking was being changed for the
third evaluation's errands (capitals that name products, a maker with many servers). It was measured
once the change was made, against the code before it and after (docs/directory.md), and nothing was
tuned on it. By style, in this order:

- 25: an agent's errand, a sentence of 8 to 25 words (19 naming a product, 7 of them a big maker's:
  Google Sheets, Google Calendar, Outlook, Azure DevOps, DynamoDB, S3, Confluence; 6 only the task);
- 15: a short keyword query, some misspelt or abbreviated ("postgress mcp", "k8s", "dockr containers");
- 8: another language (Spanish, German, French, Italian, Portuguese, Dutch, Japanese);
- 12: a less common category, by its task (weather, case law, proteins, filings, recipes, ...).

Where a pattern would match servers that are no answer to the need (a brand-visibility tool for a web
search), `_x` leaves them out by name.
"""

import re


def _x(excluded: list[str], pattern: str) -> str:
    """`pattern`, except for the servers named in `excluded` (matched at the start of the text, where
    make.py puts the name, without its "io.github." prefix)."""
    names = [n.removeprefix("io.github.") for n in excluded]
    return r"^(?!(?:" + "|".join(re.escape(n) for n in names) + r")\s)[\s\S]*?(?:" + pattern + r")"


FOURTH: list[tuple[str, list[str], str]] = [
    # ---------------- 25 agent errands ----------------
    (
        "Pull last week's failed charges from our Stripe account and list which customers they belong to",
        ["com.stripe/mcp", "io.github.friendlygeorge/stripe-mcp-server", "io.github.infoinlet-marketplace/mcp-stripe"],
        r"^com\.stripe/|stripe[-_ ]?(mcp|analytics|billing)|stripe_connect|(mcp|server) for stripe|stripe (api|for ai)|read-only access to stripe|\bstripe\b.{0,60}(customers|charges|refunds|subscriptions|invoices)",
    ),
    (
        "Append today's sales totals as a new row at the bottom of our team's Google Sheets spreadsheet",
        ["io.github.domdomegg/google-sheets-mcp", "io.github.freema/mcp-gsheets", "com.mcparmory/google-sheets"],
        r"google.?sheets|mcp-gsheets|mcp-sheets|(drive|docs),? (and )?sheets|docs, sheets|workspace \(docs, sheets|google workspaces\.",
    ),
    (
        "Go through my unread Outlook inbox from this morning and draft short polite replies to each message",
        [
            "com.microsoft/workiq-mailtools",
            "io.github.mindstone/mcp-server-microsoft-mail",
            "io.github.littlebearapps/outlook-mcp",
        ],
        r"outlook (mail|email|mcp|assistant|\(mail\))|microsoft[- ]outlook|outlook-(mcp|mail|assistant)|mcp-outlook|/outlook\s|microsoft-mail|365 outlook mail|outlook personal accounts|(agent365|workiq)-mailtools|outlook mail via mcp|gmail, outlook, icloud|rlrghb/outlook",
    ),
    (
        "Scan the orders table in DynamoDB for items still marked pending and count them by region",
        ["com.pulsemcp/dynamodb", "io.github.aws/aws-mcp"],
        r"dynamodb|^io\.github\.aws/|^aws/(aws-mcp|mcp-proxy)",
    ),
    (
        "Create a Confluence page under the Engineering space that summarizes this sprint's release notes",
        [
            "com.atlassian/atlassian-mcp-server",
            "com.mcparmory/atlassian-confluence",
            "io.github.aaronsb/confluence-cloud",
        ],
        r"confluence|atlassian rovo",
    ),
    (
        "Open a pull request on GitHub that bumps the package version and links it to the related issue",
        ["io.github.github/github-mcp-server", "com.mcparmory/github", "ai.smithery/smithery-ai-github"],
        _x(
            [
                "ai.smithery/Hint-Services-obsidian-github-mcp",
                "com.mcparmory/bitbucket",
                "io.github.lawp09/bitbucket-mcp",
                "io.github.Compuute/compuute-scan-api",
                "io.github.noticedso/cli",
                "io.github.zzstoatzz/tangled-mcp",
                "io.github.ryudi84/github-stats",
                "io.github.therealMrFunGuy/github-insights",
                "com.thenextgennexus/github-mcp-server",
                "io.github.rog0x/github",
            ],
            r"^github/github-mcp|(connect|access)\w*[^.]{0,25}github|github (api|operations|mcp|for ai agents|repo analytics)|structured github|(mcp server for|managing|manage) (repos|github)|repos, prs, issues|prs, issues, (across|actions)|automate github|wraps the github|github-mcp-server|mcp-github\b|github_private|git and github operations|github pr analysis",
        ),
    ),
    (
        "Post a heads-up in the #deploys Slack channel once the nightly build finishes",
        ["ai.waystation/slack", "com.pulsemcp/slack", "io.github.mindstone/mcp-server-slack"],
        r"(^|/|\W)slack[-_ ]?(mcp|connect|explorer|enterprise|-mcp-server)|/slack\b|slack workspaces?|slack (messages|conversations|channels)|mcp server for slack|slack-mcp|mcp-server-slack|smithery-ai-slack|(send|post)[^.]{0,40}slack",
    ),
    (
        "Add a book to my reading-list database in Notion with its title, author and a short note",
        ["com.notion/mcp", "io.github.n24q02m/better-notion-mcp", "com.mcparmory/notion"],
        r"^com\.notion/|notion (mcp|api|workspace)|operate notion|notion_connect|[-/]notion\b|notion-mcp|mcp-notion|(for|connect) notion|notion mcp",
    ),
    (
        "Run a read-only SQL query on our Postgres database to find users who haven't logged in for 90 days",
        ["io.github.YawLabs/postgres-mcp", "io.github.bytebase/dbhub", "io.github.marcelo-ochoa/postgres"],
        _x(
            [
                "io.github.MukundaKatta/sqlfmt-mcp",
                "io.github.SurajKGoyal/amnesic",
                "io.github.brianfofficial/retentioncheck-mcp-server",
                "io.github.us-all/dbt",
                "io.github.InstaNode-dev/mcp",
                "io.github.dbsectrainer/mcp-data-pipeline-connector",
                "io.github.isdaniel/pgtuner_mcp",
            ],
            r"postgres(ql)?\b[^.]{0,60}(quer|schema|database|inspect|read-only|connect|sql|crud|mcp)|(quer|read-only|connect|access)[^.]{0,40}postgres|^[^ ]*postgres[^ ]* ",
        ),
    ),
    (
        "Find yesterday's Shopify orders that still haven't been fulfilled and list the customer emails",
        ["com.mcparmory/shopify-admin", "ai.gossiper/shopify-admin-mcp", "io.github.pipeworx-io/shopify"],
        _x(
            [
                "io.github.eliaskress/flowcheck",
                "io.github.martinX308/synplex",
                "io.github.shelvick/shopify-subscription-reconciliation",
            ],
            r"shopify admin|shopify-(admin|mcp)|/shopify\s|shopify orders|shopify merchants|manage products, orders, customers|shopify api",
        ),
    ),
    (
        "File a bug ticket in Linear with reproduction steps and assign it to the mobile team",
        ["app.linear/linear", "io.github.pipeworx-io/linear", "io.github.adelaidasofia/linear-mcp"],
        r"^app\.linear/|/linear$|linear-(mcp|broker|bootstrap)|linear (graphql|project|software|mcp|projects)|jira, linear|\blinear\b, trello",
    ),
    (
        "Fetch the newest unresolved Sentry errors for the checkout service and show me their stack traces",
        ["io.github.getsentry/sentry-mcp", "com.mcparmory/sentry", "io.github.friendlygeorge/sentry-mcp-server"],
        r"getsentry|\bsentry[-_ ](mcp|error)|mcparmory/sentry|for sentry|/sentry\s",
    ),
    (
        "Read the component specs and design tokens from a Figma file so I can build the screen in React",
        ["com.figma.mcp/mcp", "io.github.GLips/Figma-Context-MCP", "com.mcparmory/figma"],
        _x(["io.usewire/lennys-podcast", "com.lightsyncpro/lsp", "io.github.KyleTaggart/lsp"], r"figma"),
    ),
    (
        "List the Azure DevOps work items assigned to me in the current sprint and update their states",
        ["io.github.PremierInc/azure-devops", "io.github.broisnischal/azure-mcp"],
        r"azure.?devops|devops boards",
    ),
    (
        "Find a free 30-minute slot on my Google Calendar next Tuesday afternoon and book a meeting with Dana",
        ["com.pulsemcp/google-calendar", "io.github.domdomegg/google-cal-mcp", "ai.calendarmcp/server"],
        _x(
            ["com.pingfyr/pingfyr", "io.github.peter-fusek/oncofiles", "io.github.alifanov/scopegate"],
            r"google.?cal(endar)?\b|\bgcal\b|google workspace mcp server for|google workspace cli|gmail, (google )?calendar|(gmail|drive), calendar|for google workspaces|mcp-calendar|google-mcp",
        ),
    ),
    (
        "Move the Acme Corp deal to the negotiation stage in HubSpot and log a note about today's call",
        ["io.github.mindstone/mcp-server-hubspot", "io.github.pipeworx-io/hubspot", "io.github.Servosity/hubspot-mcp"],
        r"hubspot[- ](mcp|crm|sales)|/hubspot$|mcp-server-hubspot",
    ),
    (
        "Purge the CDN cache for our domain and double-check its DNS records on Cloudflare",
        ["com.cloudflare.mcp/mcp", "io.github.itunified-io/cloudflare", "io.github.crunchtools/cloudflare"],
        r"^com\.cloudflare\.mcp/|/cloudflare\s|cloudflare (dns,|mcp)|mcp server for cloudflare",
    ),
    (
        "Upload the generated monthly report PDF to an Amazon S3 bucket and give me a presigned download link",
        ["io.github.ofershap/s3", "com.pulsemcp/s3", "io.github.infoinlet-marketplace/mcp-s3"],
        r"(aws|amazon)[ -]s3|/s3$|mcp-s3|s3/minio|for s3, azure blob|s3-compatible|^aws/(aws-mcp|mcp-proxy)",
    ),
    (
        "Log into the staging site, click through the checkout flow, and take a screenshot of each page",
        [
            "io.github.microsoft/playwright-mcp",
            "io.github.browserbase/mcp-server-browserbase",
            "com.pulsemcp/playwright-stealth",
        ],
        _x(
            [
                "io.github.Cubenest/peek-mcp",
                "io.github.bakhtiersizhaev/openevidence-mcp",
                "io.github.jsvvsolsllc/mioffice",
                "io.github.Royalti-io/ikenga-pkg-mcp-iyke",
                "io.github.pedro-rivas/android-puppeteer-mcp",
                "io.github.vmoranv/jshookmcp",
                "io.github.vola-trebla/playwright-network-chaos-mcp",
                "io.github.ModelPiper/toolpiper",
            ],
            r"browser automation|automat\w* (cloud )?browsers?|headless (chrom\w*|browser)|(drive|control)s? (a |the |your )?(real |local |stealth-patched )?(chrom\w*|browser|firefox)|browserbase|stagehand|browser (agent|sessions|tools|mcp)|navigate, (click|screenshot|interact|fill)|mcp server for chrome devtools|^microsoft/playwright-mcp|playwright (tools|browser)|browser-(use|agent)|puppeteer",
        ),
    ),
    (
        "Pull the text out of a scanned PDF invoice and extract the vendor name, date and total amount",
        ["com.mcparmory/pdfco", "io.github.RECERQA/rq-scan", "ai.filegraph/document-processing"],
        _x(
            [
                "ai.roc/mcp",
                "app.contendeo/contendeo",
                "io.github.ARAS-Workspace/claude-kvm",
                "io.github.Evozim/zero-leak",
                "io.github.JeenyJAI/mcp-test-utils",
                "io.github.MCPServings/paper-mcp",
                "io.github.cyanheads/libofcongress-mcp-server",
                "io.github.mcp-dir/socialdl-mcp",
                "io.github.pachote/nira-screen-vision",
                "io.github.sh3ll3x3c/native-devtools",
                "io.github.wefi-ai/ekyc-suite",
                "io.github.Deesmo/arch-tools-mcp",
                "io.github.deapi-ai/mcp-server-deapi",
                "io.github.lukisch/bach-filecommander-mcp",
                "io.github.SamMorrowDrums/remarkable",
                "io.github.praveensehgal/remarkable",
                "io.github.wavyrai/rm-mcp",
                "io.github.lazyants/transkribus",
                "io.github.ChrBoebel/optical-context-mcp",
                "io.github.Swih/mistral-mcp",
                "io.github.Lab94/frenchie-skill",
                "io.github.fieldcure/filesystem",
            ],
            r"\bocr\b|invoice (extraction|parsing|data)|(extract|parse)\w*[^.]{0,40}(invoices?|receipts?|scanned)|document (ai|extraction|parsing)|scanned (pdf|documents?)",
        ),
    ),
    (
        "Transcribe an hour-long recording of our team meeting into text with speaker labels",
        ["com.scriptivox.www/transcription", "io.github.chicogong/ffvoice", "io.github.jwulff/whisper-mcp"],
        _x(
            [
                "io.github.adelaidasofia/whatsapp-mcp",
                "io.github.fgasparetto/voice-transcriber-mcp",
                "io.github.fasuizu-br/speech-ai",
            ],
            r"speech.to.text|transcri(be|ption)[^.]{0,30}(audio|files?|recordings?|from urls)|(audio|voice|local)[^.]{0,20}transcri|whisper(\.cpp| models| api|-mcp)|diariz|macwhisper",
        ),
    ),
    (
        "Translate a batch of product descriptions from English into German while keeping our brand terms intact",
        ["com.translatesheet/mcp", "ai.i18nagent/i18n-agent", "io.github.Nativ-Technologies/nativ"],
        _x(
            [
                "io.github.Evozim/rule-porter",
                "io.github.pipeworx-io/jargon-translator",
                "io.github.juanjaragavi/devspeak",
                "io.github.tlennon-ie/neurodock-mcp-translation",
                "io.github.Damien829/aipaygen",
                "io.github.beautyfree/app-store-connect",
            ],
            r"\bdeepl\b|translat(e|ion|or)[^.]{0,40}(languages|langs|text|documents|memory|quality|brand|terminology)|(ai|machine)[- ]powered (translation|localization)|translations and localization|\btranslator\b|mcp-translate|text-translator|locize",
        ),
    ),
    (
        "Text a customer on their mobile number to remind them about tomorrow's 10am appointment",
        ["com.infobip/mcp", "io.github.Wavix/mcp", "com.mobile-text-alerts/sms-mcp"],
        r"send(s|ing)? (an? )?(transactional )?sms|\bsms\b[^.]{0,30}(messag|gateway|campaign|contacts|marketing|mms)|twilio (mcp|api|sms)|sms, (rcs|whatsapp|voice|ai voice)|texting|sms-mcp|x402-sms|envoyez des sms|/twilio\s",
    ),
    (
        "Fetch every URL in this list and return the main article text as clean markdown",
        ["com.mcparmory/firecrawl", "com.apify/apify-mcp-server", "io.github.0xMassi/webclaw"],
        _x(
            [
                "ai.smithery/BadRooBot-test_m",
                "ai.smithery/blacklotusdev8-test_m",
                "io.github.Godalo-ai/godalo",
                "io.github.HomenShum/nodebench",
                "io.github.EruditeIntelligence/x402-services",
                "io.github.bzsasson/screaming-frog-mcp",
                "io.github.houtini-ai/seo-crawler-mcp",
                "io.github.shck-dev/notion-mcp",
                "io.github.meltingpixelsai/harvey-tools",
                "io.github.meltingpixelsai/zero-core-tools",
                "sh.sparkforge/sparkforge",
                "io.github.xpaysh/competitive-intel",
                "so.sombra/sombra",
                "io.github.Retio-ai/pagemap",
                "com.earnidle/mcp",
                "io.github.mypracticaltools/reddit-mcp-server",
                "io.github.veyvey45-eng/travel-monitor-launch",
                "io.github.cybairfly/codify-mcp",
            ],
            r"firecrawl|\bapify|web[- ]?scrap|scrap(e|ing|er)[^.]{0,40}(web|websites?|pages?|urls?|content|markdown)|(url|page|website|web content)s?[^.]{0,30}(to|into|as) (clean |llm-ready )?markdown|html to markdown|crawl[^.]{0,30}(websites?|sites|urls)",
        ),
    ),
    (
        "Search the web for this week's news about a competitor and summarize the top five results with links",
        ["io.github.brave/brave-search-mcp-server", "ai.exa/exa", "ai.perplexity/mcp-server"],
        _x(
            [
                "com.kai-agi.mcp/kai-agi",
                "com.trycloudflare.annotated-lot-operational-tourism/kai-agi",
                "io.github.brunosrz/vectora",
                "io.github.dcostenco/prism-mcp",
                "io.github.lm203688/atex-ai-gateway",
                "io.github.sapiom/mcp-server",
                "io.github.beycom/onetool-mcp",
                "io.github.fieldcure/essentials",
                "io.github.xpaysh/content-research",
                "io.github.xpaysh/lead-gen",
                "io.github.xpaysh/competitive-intel",
                "ai.smithery/exa-labs-exa-code-mcp",
                "io.github.theYahia/vk-mcp",
                "io.github.mirnoorata/codexa",
                "io.github.WeAreBraveLabs/domain-checker-mcp",
                "io.github.WeCodeBase/smart-speaker-mcp",
                "io.github.Mnexa-AI/mcp-server",
                "com.pulsemcp/serpapi-hotels",
                "io.github.YinTokey/mcp_hackernews",
                "live.alpic.linkup-company-resea-2df3e8e8/Linkup-Company-Research",
            ],
            r"web search|search the web|websearch|brave[- ]search|brave\.com/search|tavily|^ai\.exa/|/exa\s|mcp-exa|perplexity('s)? (api|sonar)|perplexity-search|^ai\.perplexity/|^perplexityai/|searxng|serpapi|serper|google search (api|results)|you\.com|news search|search, news, images|linkup",
        ),
    ),
    # ---------------- 15 short keyword queries ----------------
    (
        "postgress mcp",
        ["io.github.YawLabs/postgres-mcp", "io.github.neverinfamous/postgres-mcp", "io.github.bytebase/dbhub"],
        _x(
            [
                "io.github.MihaiBuilds/memory-vault",
                "io.github.MukundaKatta/sqlfmt-mcp",
                "io.github.Sidd27/infrawise",
                "io.github.SurajKGoyal/amnesic",
                "io.github.brianfofficial/retentioncheck-mcp-server",
                "io.github.cloudquery/mcp",
                "io.github.jamjet-labs/engram-server",
                "io.github.lu-zhengda/virtual-fs",
                "io.github.nicholasglazer/gnosis",
                "io.github.tribal-memory/tribal",
                "io.github.us-all/dbt",
                "io.github.nexusrun/nexus-ai",
                "io.sota/mcp",
                "io.github.dbsectrainer/mcp-data-pipeline-connector",
                "io.github.enessari/metabase-ai-assistant",
            ],
            r"postgres",
        ),
    ),
    (
        "k8s",
        ["io.github.containers/kubernetes-mcp-server", "com.googleapis.container/mcp", "io.github.kaneg/k8s-mcp-go"],
        _x(
            [
                "io.github.anzy-renlab-ai/pronounce",
                "io.github.rajeswaran140/crowvault",
                "io.github.Shareed2k/honey",
                "io.github.nogoo9/no-crd",
            ],
            r"kubernetes|\bk8s\b|kubectl|\bgke\b|openshift",
        ),
    ),
    (
        "gmail",
        ["io.github.domdomegg/gmail-mcp", "com.mcparmory/google-gmail", "io.github.taylorwilsdon/workspace-mcp"],
        _x(
            [
                "co.raisekit/raisekit",
                "io.github.live-direct-marketing/inbox-check",
                "io.github.OsamaHassouna/email-playbook-mcp",
                "io.github.peter-fusek/oncofiles",
                "io.github.alifanov/scopegate",
                "ai.smithery/agentmail",
            ],
            r"gmail",
        ),
    ),
    (
        "vector db",
        [
            "com.mcparmory/pinecone",
            "io.github.infoinlet-marketplace/mcp-qdrant",
            "io.github.meloncafe/chromadb-remote-mcp",
        ],
        _x(
            [
                "tech.ydb-qdrant.pets/codex-pets-ydb-qdrant",
                "tech.ydb-qdrant/gravity-ai-ui",
                "io.github.verygoodplugins/mcp-automem",
                "io.github.LabForgeDev/copilot-memory-mcp",
                "io.github.turbyho/mem-context",
                "io.github.romainsantoli-web/memory-os-ai",
            ],
            r"vector (db|database)|qdrant|pinecone|weaviate|milvus|chromadb|faiss vector|lancedb|redis vector store",
        ),
    ),
    (
        "redis",
        ["io.github.redis/mcp-redis", "io.github.YawLabs/redis-mcp", "io.github.infoinlet-marketplace/mcp-redis"],
        _x(
            [
                "io.github.kubeshark/mcp",
                "io.github.nexusrun/nexus-ai",
                "io.github.NeuralNexusNote/n3mc-workingmemory",
                "io.github.madezmedia/acmi-mcp",
                "io.github.NeerajG03/vector-memory",
            ],
            r"redis|valkey",
        ),
    ),
    (
        "yt transcript",
        [
            "io.github.jkawamoto/mcp-youtube-transcript",
            "com.transcriptapi/youtube-transcript-and-youtube-search",
            "dev.transcriptapi/tubescribe",
        ],
        _x(
            ["com.youtubestudiomcp/youtube-studio"],
            r"youtube[^.]{0,60}(transcript|captions?)|transcripts?[^.]{0,60}youtube|transcribe youtube",
        ),
    ),
    (
        "jira",
        ["com.atlassian/atlassian-mcp-server", "com.mcparmory/atlassian-jira", "io.github.aaronsb/jira-cloud"],
        _x(
            [
                "io.github.antnewman/pm-data",
                "io.github.spark1security/n0s1-mcp",
                "io.github.spranab/saga-mcp",
                "io.github.issuecapture/mcp-server",
                "io.github.navapbc/rebar",
            ],
            r"\bjira\b|atlassian rovo",
        ),
    ),
    (
        "dockr containers",
        ["io.github.alisaitteke/docker-mcp", "io.github.ofershap/docker", "io.github.friendlygeorge/docker-mcp-server"],
        _x(
            [
                "io.github.ayushagrawal288/memex",
                "io.github.pierre3/maildev-mcp",
                "io.github.artemdruzhininad-star/docker-wts-build",
                "io.github.UnbearableDev/docker-compose-audit",
                "com.pulsemcp/fly-io",
            ],
            r"docker (containers|operations|mcp|hub|compose)|(manag|control)\w* docker|docker,? (images|containers)|container (management|runtimes?)|podman|/docker\b|docker-(mcp|helper|compose)",
        ),
    ),
    (
        "mongo",
        [
            "io.github.mongodb-js/mongodb-mcp-server",
            "io.github.infoinlet-marketplace/mcp-mongodb",
            "io.github.bluwork/mongo-scout-mcp",
        ],
        _x(["com.appsai/mcp-server", "io.github.Sidd27/infrawise"], r"mongo"),
    ),
    (
        "terraform",
        ["io.github.hashicorp/terraform-mcp-server", "io.github.zloeber/terraform-ingest"],
        r"terraform",
    ),
    (
        "whatsapp business api",
        ["io.github.ManyContacts/whatsapp-business", "io.github.nakulben/whatsapp-mcp", "com.infobip/mcp"],
        _x(
            [
                "co.callendar/mcp",
                "com.local-mcp/local-mcp",
                "io.chamade/server",
                "io.favcrm/favcrm",
                "io.github.JMLEE850623/talktoplanb-mcp",
                "io.github.fursatdev-tech/fursat",
                "site.qrrapido/qr-generator",
                "io.github.toflow-ai/toflow",
                "io.github.dgtalquantumleap-ai/ebenova-fieldops",
                "io.github.ar-agents/mcp",
            ],
            r"whatsapp",
        ),
    ),
    (
        "merge pdfs",
        ["io.github.AryanBV/pdf-toolkit-mcp", "com.exactpdf/mcp", "io.github.EigenCharlie/pdf-toolkit-mcp"],
        _x(
            ["io.github.ChrBoebel/optical-context-mcp"],
            r"(merge|split|compress|rotate)[^.]{0,40}pdf|pdf[^.]{0,40}\b(merge|split|compress|rotate)|pdf[- ](toolkit|tools)|pdf-merge",
        ),
    ),
    (
        "img generation ai",
        [
            "io.github.black-forest-labs/flux-mcp",
            "io.github.mindstone/mcp-server-openai-image",
            "io.github.AceDataCloud/mcp-midjourney",
        ],
        _x(
            [
                "ai.smithery/BadRooBot-test_m",
                "com.wpwriter/wordpress",
                "com.snapog/snapog",
                "io.github.Banana-Prompts/banana-prompts-mcp",
                "io.github.Evozim/prompt-refiner",
                "io.github.XianDAO-Labs/huangting-flux",
                "io.github.prompeteer/prompeteer-mcp",
                "io.github.web-resurrect/mcp",
                "io.github.wmarceau/fitness-influencer",
                "net.identifai/mcp",
                "io.github.securecoders/opengraph-io-mcp",
                "io.github.miller-joe/shopify-mcp",
                "io.github.miller-joe/youtube-mcp",
                "io.github.htmlcsstoimage/html-css-to-image",
                "io.github.pictify-io/mcp",
                "io.github.dpozimski/ogforge-mcp",
                "io.studiomeyer/personal-suite",
                "sh.sparkforge/sparkforge",
                "io.github.fredpsantos33/iteratools",
                "io.github.sapiom/mcp-server",
                "io.github.xpaysh/content-research",
                "io.github.Synclub-tech/synclub-dxt",
                "io.github.dreliq9/adclip",
                "io.github.whale-professor/mcp-server-3daistudio",
                "io.github.Lab94/frenchie-skill",
                "pro.pixeldrive/pixeldrive",
                "io.github.MohamedAbdallah-14/prompt-to-asset",
                "io.github.GoTolstoy/studio",
                "io.github.theYahia/gigachat-mcp",
                "ai.router/ai-gateway",
                "io.github.stabgan/openrouter-multimodal",
            ],
            r"image[- ]?gen|generat\w*[^.]{0,30}\bimages?\b|text-to-image|dall-?e|\bflux\b|stable diffusion|midjourney|comfyui|nano ?banana|seedream|imagen\b|draw things",
        ),
    ),
    (
        "wordpres",
        ["io.github.rnaga/wp-mcp", "io.github.cvrt-jh/wordpress-mcp", "press.respira/respira-wordpress"],
        _x(
            [
                "io.github.giuseppesocci-bot/kalicart-global",
                "io.heartly/deals",
                "io.tooloracle/ecommerceoracle",
                "com.lightsyncpro/lsp",
                "io.github.KyleTaggart/lsp",
                "io.github.web-resurrect/mcp",
            ],
            r"wordpress|\bwp-mcp|elementor|woocommerce",
        ),
    ),
    (
        "discord bot",
        [
            "ai.smithery/sachicali-discordmcp-suite",
            "io.github.PaSympa/discord-mcp",
            "io.github.Oratorian/discord-node-mcp",
        ],
        _x(
            [
                "com.pingfyr/pingfyr",
                "io.chamade/server",
                "io.github.DockerDiscordControl/timergy",
                "io.github.Noriget/agentping",
                "io.github.ndjordjevic/pinrag",
                "io.github.nirholas/mcp-notify",
            ],
            r"discord",
        ),
    ),
    # ---------------- 8 needs in other languages ----------------
    (
        "emitir facturas electrónicas CFDI para mis clientes en México",
        ["io.github.codespar/mcp-facturapi", "io.github.HEUSAI/notsy-facturacion"],
        r"cfdi|facturapi|claves del sat",
    ),
    (
        "Rechnungen und Belege direkt in Lexoffice oder sevDesk anlegen",
        ["io.github.makririch/buchpilot", "io.github.lazyants/lexware"],
        r"lexoffice|lexware|sevdesk|datev",
    ),
    (
        "trouver les informations d'une entreprise française à partir de son numéro SIREN",
        ["io.github.pipeworx-io/entreprises-fr", "io.github.ccamborde/klaren-mcp", "io.github.BricePourLe13/merx"],
        r"siren|siret|recherche-entreprises|french compan|entreprises fran|insee|\binpi\b|pappers|societe\.com",
    ),
    (
        "trovare i dati ISTAT sulla popolazione dei comuni italiani",
        ["io.github.pipeworx-io/istat-it", "io.github.stucchi/italy-opendata", "io.github.pipeworx-io/dati-it"],
        r"\bistat\b|italy-opendata|dati\.gov\.it|/dati-it\s|italy's national (open-data|statistics)|comuni italiani",
    ),
    (
        "consultar endereço pelo CEP e dados de uma empresa pelo CNPJ",
        [
            "io.github.codespar/mcp-brasil-api",
            "io.github.dan94k/brazilian-dev-mcp",
            "io.github.codespar/mcp-nuvem-fiscal",
        ],
        r"\bcep\b|\bcnpj\b|brasilapi|receita federal",
    ),
    (
        "Nederlandse wetten en uitspraken van rechters doorzoeken",
        ["eu.ansvar/dutch-law-mcp", "io.github.Prudai/rechtspraak-mcp", "eu.ansvar/dutch-law"],
        r"dutch[- ]law|dutch statutes|rechtspraak|uitspraken|wetten\.overheid|\becli\b",
    ),
    (
        "日本の上場企業の決算書や有価証券報告書を調べたい",
        ["io.github.edinetdb/edinet-db-mcp", "io.github.ajtgjmdjp/edinet-mcp"],
        r"edinet|有価証券|j-quants|jquants|japanese (financial disclosures|stock|listed)",
    ),
    (
        "東京の土地の取引価格や地価を調べたい",
        ["io.github.KoumeKoubou/japan-realestate", "io.github.sugukurukabe/japan-real-estate-intel-mcp"],
        r"japan(ese)?[- ]?(real ?estate|realestate)|japan-realestate|不動産|地価|land prices?.{0,60}japan|japan.{0,60}land price|japan-data-mcp|bit\)|court-run real-estate auctions",
    ),
    # ---------------- 12 less common categories ----------------
    (
        "Will it rain in Lisbon this weekend? I need an hour-by-hour forecast with wind and temperature",
        ["io.github.JonJam/accuweather-mcp", "io.github.Br0ski777/weather-api", "io.github.WorldWeatherOnline/wwo-mcp"],
        _x(
            [
                "ai.smithery/BadRooBot-my_test_mcp",
                "ai.smithery/jenniferjiang0511-mit-ai-studio-hw3",
                "com.proflightsearch/airport-delays",
                "io.github.OdinBot33/cce-mcp-server",
                "io.github.QWarranto/leafengines",
                "io.github.SongT-50/korean-public-data-mcp",
                "io.github.StarHawkMK1/weather",
                "io.github.augee99/mcp-weather",
                "io.github.cyanheads/aviation-weather-mcp-server",
                "io.github.cyanheads/noaa-spaceweather-mcp-server",
                "io.github.daedalus/mcp-metar",
                "io.github.ebrunet001/mcp-server-latest-news",
                "io.github.malkreide/zurich-opendata-mcp",
                "io.github.mansurjisan/coops-mcp",
                "io.github.pipeworx-io/airquality",
                "io.github.pipeworx-io/climate",
                "io.github.pipeworx-io/flood",
                "io.github.pipeworx-io/marine",
                "io.github.qso-graph/solar-mcp",
                "io.github.variflight/variflight-mcp",
                "io.github.vikramgorla/swiss",
                "com.mcpbundles/uk-environmental-intelligence",
                "io.github.Br0ski777/solana-pools",
                "io.github.pipeworx-io/meteors",
                "io.github.clm-studios/nephyr-weather",
            ],
            r"weather[^.]{0,40}(forecast|data|api|conditions)|forecast[^.]{0,40}weather|current weather|open-?meteo|accuweather|weather-(api|ai-mcp)|met office|meteoswiss|meteorolog|met norway|openweather|tomorrow\.io|qweather|meteostat|willyweather|\bnws\b|national weather service",
        ),
    ),
    (
        "Find US federal court opinions that discuss fair use in software copyright cases",
        [
            "io.github.cyanheads/courtlistener-mcp-server",
            "io.github.Vaquill-AI/courtlistener-mcp",
            "org.memoryapi/legal",
        ],
        _x(
            [
                "com.pangolinfo/amazon-mcp",
                "io.github.STR-Consulting/pacer-mcp",
                "io.github.Ryan-Clinton/law-enforcement-intelligence-mcp",
            ],
            r"courtlistener|pacer|us (primary law|legal case|court)|u\.s\. (court|supreme)|(us )?federal (and state )?(court )?(opinions|court)|federal court (cases|records)|court opinions|case law search|legal-data-hunter|court records|judge profiles",
        ),
    ),
    (
        "Look up the amino-acid sequence and known 3D structures for the human insulin protein",
        ["io.github.josefdc/uniprot-mcp", "io.github.cyanheads/protein-mcp-server", "io.github.pipeworx-io/pdbe"],
        r"uniprot|protein|\bpdb\b|rcsb|pdbe|\bensembl\b|interpro|mygene|ncbi",
    ),
    (
        "Pull a US public company's last five 10-K filings and chart how its revenue and margins changed",
        ["io.github.cyanheads/secedgar-mcp-server", "io.github.dgunning/edgartools", "com.metricduck/mcp-server"],
        _x(
            ["com.spocont/ifrCoworker", "com.spocont/ifrs", "io.github.Ryan-Clinton/litigation-intelligence-mcp"],
            r"\bedgar\b|sec filings?|sec-edgar|secedgar|10-k|xbrl",
        ),
    ),
    (
        "Show last night's NBA box scores and the current conference standings",
        ["io.balldontlie/mcp", "io.github.cyanheads/sports-mcp-server", "io.github.ebrunet001/mcp-server-espn"],
        _x(
            [
                "io.github.rjexile/sports-card-agent",
                "io.github.rocnubie/82-0-mcp",
                "io.github.DaVinciPicks/davincibets-mcp",
                "app.flaim/mcp",
                "com.blazesportsintel/college-baseball",
                "io.github.kingplaybookHQadmin1/kingsplaybook-mcp",
            ],
            r"\bnba\b|balldontlie|espn|(sports|live) scores|multi-sport|scores, (schedules|standings|stats)|sports (data|api)",
        ),
    ),
    (
        "I have chicken thighs, lemons and rice; suggest a dinner recipe I can cook in under 40 minutes",
        ["io.github.pipeworx-io/spoonacular", "io.github.AIDataNordic/food-recipe-mcp", "com.recipe-clipper/prep-it"],
        _x(
            ["io.github.teamsincetoday/recipe-commerce-mcp", "glass.cocktail/cocktail-glass"],
            r"food recipes?|recipes?[^.]{0,40}(meal|cook|ingredient|nutrition|grocer|pantry|dish|kitchen)|(meal|cook|cooking|kitchen|pantry)[^.]{0,40}recipes?|themealdb|spoonacular|recipe[- ](finder|mcp|clipper)|cookwith",
        ),
    ),
    (
        "Which planets and deep-sky objects will be visible tonight from my backyard, and where should I point my telescope?",
        ["io.github.gregario/astronomy-oracle", "io.github.pipeworx-io/simbad", "io.github.pipeworx-io/horizons-nasa"],
        _x(
            [
                "io.github.IPGeolocation/ipgeolocation-io-mcp",
                "io.github.WorldWeatherOnline/wwo-mcp",
                "io.github.aryaminus/astro",
                "io.github.davidmosiah/astral-mcp",
                "io.github.igmizo/auseklis",
                "io.github.stardustxx/kairos",
                "io.github.huangzesen/heliospice",
                "io.github.huangzesen/xhelio-spice",
                "io.github.pipeworx-io/nasa-power",
                "io.github.pipeworx-io/nasa-eonet",
                "io.github.pipeworx-io/nasa-cmr",
                "io.github.gregcastro23/planetary-agents",
                "io.github.kaitoy/nasa-images",
                "org.io-aerospace/mcp-server",
            ],
            r"astronom|ephemeri(s|des)|deep-sky|exoplanet|celestial|planetary positions|simbad|vizier|jpl horizons|space telescopes|moon phases|stargaz|night sky|\bnasa\b",
        ),
    ),
    (
        "Turn my biology lecture notes into flashcards and quiz me with spaced repetition before the exam",
        ["ai.ankimcp/anki-mcp-server", "io.github.quizlar/mcp-server", "io.github.nailuoGG/anki-mcp-server"],
        _x(
            ["io.github.FSHolmberg/gridually-mcp"],
            r"flashcard|spaced[- ]repetition|\banki\b|quiz (generator|generation)|quiz-generator|quiz-factory|auto-graded quizzes",
        ),
    ),
    (
        "Estimate what a three-bedroom house in Austin, Texas is worth and show recent comparable sales nearby",
        ["io.github.chrischall/zillow-mcp", "io.github.pipeworx-io/attom", "org.memoryapi/property"],
        _x(
            ["ai.readypermit/geo", "app.evlek/mcp-server", "io.github.CREIntel/ndi-mcp-server"],
            r"zillow|redfin|zestimate|attom|us real estate|us property data|us home price|(us|u\.s\.) parcels|(home|house) (price|value)s? (forecasts|for any us)|home prices, rents|comparable sales|sale-comps|real estate (investment intelligence|deal search)|pitt county nc real estate|rental/brrrr",
        ),
    ),
    (
        "Compare round-trip airfares from Boston to Rome for early October and find the cheapest travel dates",
        ["com.pulsemcp/google-flights", "com.skiplagged/mcp", "io.github.andreacappelletti97/google-flights"],
        r"flight (search|deals|booking|prices)|(search|book|find)\w*[^.]{0,30}flights|flights?, hotels|google flights|award flights?|airfare|cheap flights?|fare (watching|alerts)|skiplagged",
    ),
    (
        "Were there any earthquakes above magnitude 5 near Japan in the last 24 hours?",
        [
            "io.github.cyanheads/earthquake-mcp-server",
            "io.github.pipeworx-io/usgs-earthquakes",
            "com.olyport/earthquake",
        ],
        r"earthquake|seismic (data|feeds)|usgs.{0,20}earthquake|kandilli",
    ),
    (
        "Which vegetables grow well next to tomatoes, and when should I sow them in my vegetable garden?",
        ["io.github.Cropgraph/cropgraph", "app.fryd/mcp-server", "io.github.CSOAI-ORG/gardening-ai-mcp"],
        r"companion planting|crops, companions|gardening|vegetable garden|planting (plans|calendar)|sowing|cropgraph|pondlog-garden",
    ),
]
