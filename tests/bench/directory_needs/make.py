"""Writes dev.json and held.json, the Directory's evaluation, from the needs below and the census.

Each need was written by reading census records by category (chat, project tracking, payments, cloud,
databases, observability, search, scraping, design, CRM, and the rest): plain words an agent's person
might say, in several disguises (the product's name, its owner's name, everyday words, a task). Each
carries:

- `best`: the server a careful person would pick first, by registry name: the product's own official
  server where the census holds one (its namespace is the product's domain or GitHub organisation);
  a need with several equally good answers (several chat products, several clouds) names each.
- `pattern`: what a relevant server does, a regular expression over name, title and description.
  Every lot it matches, and every `best`, is listed in `relevant` when this script runs.

The needs are split by a hash of their text (not by hand) into a development half, the only one the
ranking was tuned on, and a held-out half, measured at the end. fresh.py holds a second evaluation by
another author, split the same way into fresh-look and fresh-sealed (its docstring says how each was
used); third.py a third, by a third author, kept whole as third; fourth.py a fourth, kept whole as
fourth; fifth.py a fifth, in other languages, kept whole as fifth. Run from the repository with the full census imported:  `manage.py shell -c "from tests.bench.directory_needs.make import main; main()"`.
"""

import hashlib
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

from tests.bench.directory import HALVES
from tests.bench.directory_needs.fifth import FIFTH
from tests.bench.directory_needs.fourth import FOURTH
from tests.bench.directory_needs.fresh import FRESH
from tests.bench.directory_needs.third import THIRD

HERE = Path(__file__).resolve().parent

# (need, best names, relevance pattern)
NEEDS: list[tuple[str, list[str], str]] = [
    # Notes and docs
    ("work with my notion pages", ["com.notion/mcp"], r"\bnotion\b"),
    ("the official notion server", ["com.notion/mcp"], r"\bnotion\b"),
    ("search our team wiki and workspace docs in notion", ["com.notion/mcp"], r"\bnotion\b"),
    # Project tracking
    ("create jira tickets", ["com.atlassian/atlassian-mcp-server"], r"\bjira\b|atlassian"),
    ("search confluence pages", ["com.atlassian/atlassian-mcp-server"], r"confluence|atlassian"),
    ("atlassian rovo", ["com.atlassian/atlassian-mcp-server"], r"atlassian|rovo|\bjira\b|confluence"),
    ("manage issues in linear", ["app.linear/linear"], r"\blinear\b"),
    ("our sprint board and bug backlog in linear", ["app.linear/linear"], r"\blinear\b"),
    ("monday.com boards", ["com.monday/monday.com"], r"monday"),
    ("update items on our monday work management board", ["com.monday/monday.com"], r"monday"),
    ("add tasks to my todoist", ["net.todoist/mcp"], r"todoist"),
    ("my personal to-do list app todoist", ["net.todoist/mcp"], r"todoist"),
    ("collaborate on a miro whiteboard", ["io.github.miroapp/mcp-server"], r"\bmiro\b"),
    ("sticky notes on an online whiteboard with miro", ["io.github.miroapp/mcp-server"], r"\bmiro\b|whiteboard"),
    ("spreadsheets and bases in airtable", ["com.airtable/mcp"], r"airtable"),
    ("read records from an airtable base", ["com.airtable/mcp"], r"airtable"),
    # Code hosting and delivery
    ("manage github repositories issues and pull requests", ["io.github.github/github-mcp-server"], r"github"),
    ("official github server", ["io.github.github/github-mcp-server"], r"github"),
    ("gitlab merge requests and pipelines", ["com.gitlab/mcp"], r"gitlab"),
    ("the official gitlab server for my projects", ["com.gitlab/mcp"], r"gitlab"),
    ("buildkite ci pipelines", ["io.github.buildkite/buildkite-mcp-server"], r"buildkite"),
    ("why did my buildkite build fail", ["io.github.buildkite/buildkite-mcp-server"], r"buildkite"),
    ("deploy my site on vercel", ["com.vercel/vercel-mcp"], r"vercel"),
    ("vercel deployments and logs", ["com.vercel/vercel-mcp"], r"vercel"),
    ("next.js dev tools", ["io.github.vercel/next-devtools-mcp"], r"next\.?js"),
    ("deploy services on railway", ["com.railway/mcp", "io.github.railwayapp/mcp-server"], r"railway"),
    ("terraform registry providers and modules", ["io.github.hashicorp/terraform-mcp-server"], r"terraform"),
    ("hashicorp terraform", ["io.github.hashicorp/terraform-mcp-server"], r"terraform|hashicorp"),
    ("test my apis in postman collections", ["com.postman/postman-mcp-server"], r"postman"),
    ("postman", ["com.postman/postman-mcp-server"], r"postman"),
    # Errors, monitoring, observability
    ("sentry errors in my app", ["io.github.getsentry/sentry-mcp"], r"\bsentry\b"),
    ("look up crash reports and stack traces from sentry", ["io.github.getsentry/sentry-mcp"], r"\bsentry\b"),
    ("grafana dashboards", ["io.github.grafana/mcp-grafana"], r"grafana"),
    ("query prometheus and loki through grafana", ["io.github.grafana/mcp-grafana"], r"grafana"),
    ("who is on call in pagerduty", ["io.github.PagerDuty/pagerduty-mcp"], r"pagerduty"),
    ("pagerduty incidents", ["io.github.PagerDuty/pagerduty-mcp"], r"pagerduty"),
    ("new relic observability data", ["com.newrelic/mcp-server"], r"new ?relic"),
    ("honeycomb traces and slos", ["io.honeycomb/mcp"], r"honeycomb"),
    ("dynatrace problems and logs", ["io.github.dynatrace-oss/Dynatrace-mcp"], r"dynatrace"),
    ("product analytics in posthog", ["io.github.PostHog/mcp"], r"posthog"),
    ("feature flags and funnels in posthog", ["io.github.PostHog/mcp"], r"posthog"),
    ("amplitude charts and user events", ["com.amplitude/mcp-server"], r"amplitude"),
    # Security and code quality
    ("scan my dependencies for vulnerabilities with snyk", ["io.snyk/mcp"], r"\bsnyk\b"),
    ("snyk", ["io.snyk/mcp"], r"\bsnyk\b"),
    ("sonarqube code quality issues", ["io.github.SonarSource/sonarqube-mcp-server"], r"sonar"),
    ("static analysis findings from sonar", ["io.github.SonarSource/sonarqube-mcp-server"], r"sonar"),
    ("auth0 tenant applications and users", ["com.auth0/mcp"], r"auth0"),
    ("microsoft entra directory users and groups", ["io.github.microsoft/EnterpriseMCP"], r"entra"),
    # Payments and commerce
    ("take payments with stripe", ["com.stripe/mcp"], r"stripe"),
    ("stripe customers and subscriptions", ["com.stripe/mcp"], r"stripe"),
    ("refund a customer's card payment on stripe", ["com.stripe/mcp"], r"stripe"),
    ("paypal invoices and transactions", ["com.paypal.mcp/mcp", "io.github.paypal/paypal-mcp-server"], r"paypal"),
    ("send a paypal invoice", ["com.paypal.mcp/mcp", "io.github.paypal/paypal-mcp-server"], r"paypal"),
    # Cloud providers
    (
        "manage aws cloud resources",
        ["io.github.aws/aws-mcp", "io.github.aws/mcp-proxy-for-aws"],
        r"\baws\b|amazon web services",
    ),
    (
        "amazon web services docs and api calls",
        ["io.github.aws/aws-mcp", "io.github.aws/mcp-proxy-for-aws"],
        r"\baws\b|amazon web services",
    ),
    ("troubleshoot my amazon eks cluster", ["aws.api.us-east-1.eks-mcp/server"], r"\beks\b"),
    ("amazon ecs workloads", ["aws.api.us-east-1.ecs-mcp/server"], r"\becs\b"),
    ("azure services", ["com.microsoft/azure"], r"azure"),
    ("manage my microsoft azure subscription resources", ["com.microsoft/azure"], r"azure"),
    (
        "my cloud bill",
        [
            "io.github.aws/aws-mcp",
            "io.github.aws/mcp-proxy-for-aws",
            "com.microsoft/azure",
            "io.github.GoogleCloudPlatform/gemini-cloud-assist-mcp",
        ],
        r"cloud.{0,20}(cost|bill|spend|pricing|finops)|(cost|billing|finops).{0,40}(aws|azure|gcp|cloud)",
    ),
    ("google cloud run deployments", ["com.googleapis.run/mcp"], r"cloud run"),
    ("deploy a container to google cloud run", ["com.googleapis.run/mcp"], r"cloud run"),
    ("google kubernetes engine clusters", ["com.googleapis.container/mcp"], r"\bgke\b|google kubernetes"),
    ("google cloud sql instances", ["com.googleapis.sqladmin/mcp"], r"cloud sql"),
    ("firestore documents on google cloud", ["com.googleapis.firestore/mcp"], r"firestore"),
    ("troubleshoot my gcp project", ["io.github.GoogleCloudPlatform/gemini-cloud-assist-mcp"], r"\bgcp\b|google cloud"),
    ("cloudflare workers and dns", ["com.cloudflare.mcp/mcp"], r"cloudflare"),
    ("the official cloudflare server", ["com.cloudflare.mcp/mcp"], r"cloudflare"),
    ("firebase projects and auth", ["io.github.firebase/firebase-mcp"], r"firebase"),
    # Databases
    ("supabase database and edge functions", ["com.supabase/mcp"], r"supabase"),
    ("postgres backend as a service with auth (supabase)", ["com.supabase/mcp"], r"supabase"),
    ("query my mongodb collections", ["io.github.mongodb-js/mongodb-mcp-server"], r"mongo"),
    ("mongodb atlas", ["io.github.mongodb-js/mongodb-mcp-server"], r"mongo"),
    ("redis keys and caches", ["io.github.redis/mcp-redis"], r"\bredis\b"),
    ("look up what is in my redis cache", ["io.github.redis/mcp-redis"], r"\bredis\b"),
    ("snowflake data warehouse", ["io.github.Snowflake-Labs/mcp"], r"snowflake"),
    ("run sql in snowflake", ["io.github.Snowflake-Labs/mcp"], r"snowflake"),
    ("planetscale database branches", ["io.github.planetscale/mcp-server"], r"planetscale"),
    ("motherduck duckdb analytics", ["io.github.motherduckdb/mcp-server-motherduck"], r"motherduck|duckdb"),
    ("prisma postgres databases", ["io.prisma/mcp"], r"prisma"),
    (
        "google's database toolbox",
        ["io.github.googleapis/genai-toolbox", "io.github.googleapis/mcp-toolbox"],
        r"toolbox for databases|genai-toolbox|mcp-toolbox",
    ),
    ("power bi semantic models", ["com.microsoft/powerbi-modeling-mcp"], r"power ?bi"),
    ("microsoft fabric workspaces", ["com.microsoft/microsoft-fabric"], r"\bfabric\b"),
    # Search, scraping and browsers
    ("search the web with brave", ["io.github.brave/brave-search-mcp-server"], r"\bbrave\b"),
    ("brave search", ["io.github.brave/brave-search-mcp-server"], r"\bbrave\b"),
    ("tavily web search", ["io.github.tavily-ai/tavily-mcp"], r"tavily"),
    ("exa neural search", ["ai.exa/exa"], r"\bexa\b"),
    ("ask perplexity", ["io.github.perplexityai/mcp-server", "ai.perplexity/mcp-server"], r"perplexity"),
    (
        "perplexity sonar answers with sources",
        ["io.github.perplexityai/mcp-server", "ai.perplexity/mcp-server"],
        r"perplexity",
    ),
    ("crawl a site with firecrawl", ["io.github.firecrawl/firecrawl-mcp-server"], r"firecrawl"),
    ("firecrawl", ["io.github.firecrawl/firecrawl-mcp-server"], r"firecrawl"),
    ("apify actors for scraping", ["com.apify/apify-mcp-server"], r"apify"),
    ("run an apify actor", ["com.apify/apify-mcp-server"], r"apify"),
    ("oxylabs web scraper", ["io.oxylabs/oxylabs-mcp"], r"oxylabs"),
    ("scrapfly", ["io.scrapfly.mcp/mcp"], r"scrapfly"),
    ("browserbase cloud browsers", ["io.github.browserbase/mcp-server-browserbase"], r"browserbase"),
    ("playwright browser automation", ["io.github.microsoft/playwright-mcp"], r"playwright"),
    ("microsoft's playwright", ["io.github.microsoft/playwright-mcp"], r"playwright"),
    ("searchapi real-time search results", ["io.searchapi/mcp"], r"searchapi"),
    ("linkup web search with sources", ["so.linkup.mcp/linkup-mcp-server"], r"linkup"),
    ("parallel web search for agents", ["ai.parallel/search-mcp"], r"\bparallel\b"),
    # Design, media and content
    ("inspect figma designs", ["com.figma.mcp/mcp"], r"figma"),
    ("turn my figma frames into code", ["com.figma.mcp/mcp"], r"figma"),
    ("build a site with webflow", ["com.webflow/mcp"], r"webflow"),
    ("webflow cms collections", ["com.webflow/mcp"], r"webflow"),
    ("my wix website", ["com.wix/mcp"], r"\bwix\b"),
    ("sanity content lake", ["io.sanity.www/mcp"], r"sanity"),
    ("headless cms content from sanity", ["io.sanity.www/mcp"], r"sanity"),
    ("cloudinary image and video assets", ["io.github.cloudinary/asset-management-mcp"], r"cloudinary"),
    ("search and analyse videos with twelve labs", ["io.twelvelabs/twelvelabs-mcp-server"], r"twelve ?labs"),
    ("hugging face models and datasets", ["co.huggingface/hf-mcp-server"], r"hugging ?face"),
    ("find a model on the hugging face hub", ["co.huggingface/hf-mcp-server"], r"hugging ?face"),
    ("maps and places from google maps", ["com.googleapis.mapstools/mcp"], r"google maps"),
    ("mapbox geocoding and directions", ["io.github.mapbox/mcp-server"], r"mapbox"),
    # Email, meetings and chat
    ("zoom meetings and recordings", ["io.github.zoom/zoom-workspace"], r"\bzoom\b"),
    ("my zoom workspace", ["io.github.zoom/zoom-workspace"], r"\bzoom\b"),
    (
        "microsoft teams chats and channels",
        ["com.microsoft/agent365-teamsserver", "com.microsoft/workiq-teamsserver"],
        r"microsoft teams|\bteams\b",
    ),
    (
        "where my team chats",
        ["com.microsoft/agent365-teamsserver", "com.microsoft/workiq-teamsserver"],
        r"\bslack\b|discord|microsoft teams|\bteams chats|mattermost|rocket\.?chat|\bchat (messages|channels)|team chat",
    ),
    (
        "send email from outlook with microsoft graph",
        ["com.microsoft/agent365-mailtools", "com.microsoft/workiq-mailtools"],
        r"outlook|microsoft graph|\bm365\b|mail",
    ),
    (
        "onedrive and sharepoint files",
        ["com.microsoft/agent365-odspremoteserver", "com.microsoft/workiq-odspremoteserver"],
        r"onedrive|sharepoint",
    ),
    ("test emails in a mailtrap sandbox", ["io.mailtrap/mcp"], r"mailtrap"),
    ("microsoft learn documentation", ["com.microsoft/microsoft-learn-mcp"], r"microsoft learn|learn\.microsoft"),
    (
        "official microsoft docs for azure and .net",
        ["com.microsoft/microsoft-learn-mcp"],
        r"microsoft learn|learn\.microsoft|microsoft docs",
    ),
    (
        "up-to-date library docs for my coding agent",
        ["io.github.upstash/context7"],
        r"context7|up-to-date (code )?doc|library doc",
    ),
    ("context7", ["io.github.upstash/context7"], r"context7"),
    ("make.com scenarios", ["com.make/mcp-server"], r"make\.com|\bmake\b scenario"),
    ("run my automation scenarios on make", ["com.make/mcp-server"], r"make\.com|\bmake\b scenario"),
    (
        "kubernetes and openshift clusters",
        ["io.github.containers/kubernetes-mcp-server"],
        r"kubernetes|openshift|\bk8s\b",
    ),
    ("nuget packages", ["com.microsoft/nuget"], r"nuget"),
    (
        "where my team's crash alerts and error reports live",
        ["io.github.getsentry/sentry-mcp"],
        r"\bsentry\b|crash|error (tracking|monitoring)",
    ),
    ("who pays us and our subscription revenue", ["com.stripe/mcp"], r"stripe|payments?|subscription|revenue|billing"),
]


def split(need: str, halves: tuple[str, str] = ("dev", "held"), salt: str = "") -> str:
    """One of two halves, by a hash of the need's text (with a salt, a second evaluation's own split)."""
    return halves[int(hashlib.sha256(f"{salt}{need}".encode()).hexdigest()[:8], 16) % 2]


Lots = list[tuple[str, str, str]]


def census_lots() -> Lots:
    """Every lot of the imported census as the generators read it: (name, search title, search description)."""
    from districts.town_hall.models import Lot

    return list(
        Lot.objects.exclude(status="deleted")
        .values_list("name", "search_title", "search_description")
        .order_by("number")
    )


def _text(name: str, title: str, description: str) -> str:
    # io.github. is where a namespace lives, not what a server does: it is left out of the match.
    return f"{name.removeprefix('io.github.')} {title} {description}"


def judged(lots: Lots, relevant: str, best: str, excluded: str = "") -> tuple[list[str], list[str]]:
    """The lots a need's `relevant` pattern matches and its `excluded` one does not, and of them those
    whose name (without io.github.) `best` matches, if it is given: (relevant, best), sorted."""
    r = re.compile(relevant, re.IGNORECASE)
    x = re.compile(excluded, re.IGNORECASE) if excluded else None
    b = re.compile(best, re.IGNORECASE) if best else None
    names, bests = set(), set()
    for n, t, d in lots:
        text = _text(n, t, d)
        if x is not None and x.search(text):
            continue
        if r.search(text):
            names.add(n)
            if b is not None and b.search(n.removeprefix("io.github.")):
                bests.add(n)
    return sorted(names), sorted(bests)


def write_halves(halves: dict[str, list[dict[str, object]]], wrong: Sequence[str] = ()) -> None:
    """Each half's rows as HERE/<half>.json, once every need was judged as its kind wants: otherwise a
    SystemExit listing the needs that were not, and nothing written."""
    if wrong:
        raise SystemExit("\n".join(wrong))
    for half, rows in halves.items():
        (HERE / f"{half}.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
        print(half, len(rows), "needs")


def halved(items: list[object], rng: random.Random) -> tuple[list[object], list[object]]:
    """Items in two, in their order: the dev half's and the held-out half's, as rng shuffles them."""
    order = list(range(len(items)))
    rng.shuffle(order)
    dev = set(order[: len(order) // 2])
    return [x for i, x in enumerate(items) if i in dev], [x for i, x in enumerate(items) if i not in dev]


def write_judged(name: str, needs: Sequence[tuple[str, str, str, str, str, str]]) -> None:
    """A generated evaluation's needs, (half, kind, need, best, relevant, excluded) each, judged against
    the census and written as <name>-dev.json and <name>-held.json, with each half's count by kind."""
    lots = census_lots()
    halves: dict[str, list[dict[str, object]]] = {f"{name}-dev": [], f"{name}-held": []}
    wrong: list[str] = []
    for half, kind, need, best, relevant, excluded in needs:
        names, bests = judged(lots, relevant, best, excluded)
        if not bests:
            wrong.append(f"{need!r}: no relevant server's name matches {best!r}")
        row = {"kind": kind, "need": need, "best": bests, "relevant": names, "excluded": excluded}
        halves[f"{name}-{half}"].append(row)
    write_halves(halves, wrong)
    for half, rows in halves.items():
        print(half, {k: sum(1 for r in rows if r["kind"] == k) for k in dict.fromkeys(r["kind"] for r in rows)})


def main() -> None:
    lots = census_lots()
    names = {n for n, _, _ in lots}
    halves: dict[str, list[dict[str, object]]] = {half: [] for half in HALVES}
    written = [(need, best, pattern, split(need)) for need, best, pattern in NEEDS]
    fresh = ("fresh-look", "fresh-sealed")
    written += [(need, best, pattern, split(need, fresh, salt="fresh:")) for need, best, pattern in FRESH]
    written += [(need, best, pattern, "third") for need, best, pattern in THIRD]
    written += [(need, best, pattern, "fourth") for need, best, pattern in FOURTH]
    written += [(need, best, pattern, "fifth") for need, best, pattern in FIFTH]
    for need, best, pattern, half in written:
        missing = [b for b in best if b not in names]
        if missing:
            raise SystemExit(f"{need!r}: best {missing} not in the census")
        relevant = sorted(set(judged(lots, pattern, "")[0]) | set(best))
        halves[half].append({"need": need, "best": best, "pattern": pattern, "relevant": relevant})
    write_halves(halves)
