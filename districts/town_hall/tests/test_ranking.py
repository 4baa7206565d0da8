"""The Directory's ranking signals, on small censuses written here (never the full snapshot): the
namespace that is the named product leads its look-alikes, a maker's namespace counts for its product,
a hosting platform's shared domain does not, everyday words find technical servers through the
vocabulary, and every result says why it ranks where it does, in the town's words."""

import pytest

from clockford.town.models import Passport
from districts.testing import visit
from districts.town_hall import ranking, services, vocabulary
from districts.town_hall.tests.base import listing, take

pytestmark = pytest.mark.django_db


def names(need: str, limit: int = 8) -> list[str]:
    terms, cased = services.read_need(need)
    _, records = services.search(terms, limit, cased=cased)
    return [r["name"] for r in records]


def whys(need: str, limit: int = 8) -> dict[str, str]:
    terms, cased = services.read_need(need)
    _, records = services.search(terms, limit, cased=cased)
    return {r["name"]: r["why"] for r in records}


def look_alikes(product: str) -> list[dict[str, object]]:
    """Servers that say the product's name louder than its own server does."""
    p = product.capitalize()
    return [
        listing(
            f"io.github.fan{i}/{product}-mcp-server",
            description=f"{p} {p} MCP server: {p} pages, {p} databases, {p} search, everything {p}.",
            title=f"{p} MCP",
        )
        for i in range(3)
    ] + [
        listing(f"io.github.{product}surface/scanner", description=f"{p} tools for scanning pages."),
        listing(f"ai.smithery/{product}", description=f"Use {p} pages from your agent.", remotes=[]),
    ]


def test_the_products_own_namespace_comes_first_and_look_alikes_after(db: None) -> None:
    take(
        [
            *look_alikes("notion"),
            listing("com.notion/mcp", description="Official Notion MCP server", title=None, repo=None),
        ]
    )
    got = names("work with my notion pages")
    assert got[0] == "com.notion/mcp"
    assert set(got[1:]) == {n["server"]["name"] for n in look_alikes("notion")}  # type: ignore[index]


def test_a_github_organisation_that_is_the_product_counts_too(db: None) -> None:
    take([*look_alikes("sentry"), listing("io.github.getsentry/sentry-mcp", description="Sentry errors.")])
    assert names("sentry errors in my app")[0] == "io.github.getsentry/sentry-mcp"
    # A login that merely starts with the product's name is not its organisation.
    assert ranking.wraps("getsentry", "sentry") and not ranking.wraps("sentrysurface", "sentry")


def test_the_makers_namespace_counts_for_its_product(db: None) -> None:
    take(
        [
            listing("io.github.fan/jira-mcp", description="Create and search Jira issues, Jira sprints, Jira boards."),
            listing("io.github.fan2/jira-server", description="Jira Jira Jira: create issues in Jira Cloud."),
            listing("com.atlassian/atlassian-mcp-server", description="Atlassian Rovo MCP Server", title=None),
        ]
    )
    assert names("create jira tickets")[0] == "com.atlassian/atlassian-mcp-server"
    assert "maker of the product you named" in whys("create jira tickets")["com.atlassian/atlassian-mcp-server"]


def test_a_hosting_platforms_shared_domain_is_not_the_platform(db: None) -> None:
    assert ranking.owner_of("app.vercel.agent-svg-registry/mcp") == ranking.Owner("agentsvgregistry", "domain")
    assert ranking.owner_of("com.trycloudflare.candy-josh/tool") == ranking.Owner("candyjosh", "domain")
    assert ranking.owner_of("com.vercel/vercel-mcp") == ranking.Owner("vercel", "domain")
    assert ranking.owner_of("io.github.PagerDuty/pagerduty-mcp") == ranking.Owner("pagerduty", "github")
    assert ranking.owner_of("uk.co.shipmycar/mcp") == ranking.Owner("shipmycar", "domain")
    assert ranking.owner_of("aws.api.us-east-1.eks-mcp/server") == ranking.Owner("aws", "domain")
    take(
        [
            listing("app.vercel.agent-svg-registry/mcp", description="Deploy to Vercel: Vercel deployments, Vercel."),
            listing("com.vercel/vercel-mcp", description="An MCP server for Vercel"),
        ]
    )
    assert names("vercel deployments")[0] == "com.vercel/vercel-mcp"


def test_everyday_words_find_technical_servers_through_the_vocabulary(db: None) -> None:
    take(
        [
            listing("io.github.fan/slack-bot", description="Post to Slack channels and read threads."),
            listing("io.github.fan/weather", description="Forecasts for the town, hour by hour."),
            listing("io.github.fan/recipes", description="Recipes my family likes."),
        ]
    )
    # None of the chat server's words is in the need: the vocabulary brings them.
    assert "slack" in vocabulary.CONCEPTS["chats"]
    s = services.seal()
    assert ranking.CENSUS.load(s.root, s.as_of).text.search(["team", "chats"], 5)[0] == 0  # type: ignore[union-attr]
    assert names("where my team chats")[0] == "io.github.fan/slack-bot"
    assert "the vocabulary gives" in whys("where my team chats")["io.github.fan/slack-bot"]


def test_every_result_says_why_in_the_towns_words(db: None) -> None:
    take(
        [
            listing("com.stripe/mcp", description="Stripe payments."),
            listing("io.github.fan/stripe-tools", description="Stripe payments and refunds.", status="deprecated"),
        ]
    )
    got = whys("stripe payments")
    assert list(got) == ["com.stripe/mcp", "io.github.fan/stripe-tools"]
    first = got["com.stripe/mcp"]
    assert first.startswith("Ranked 1: its namespace is the product you named (a domain the registry proves")
    assert "it holds all 2 of your words" in first and "integrity" in first
    assert "it is deprecated, so it goes after active servers" in got["io.github.fan/stripe-tools"]
    # The why quotes nothing anyone else wrote: no name, namespace or description.
    for why in got.values():
        assert "stripe" not in why.casefold() and "fan" not in why


def test_a_need_that_names_no_product_ranks_by_its_words(db: None) -> None:
    take(
        [
            listing("io.github.a/pdf-reader", description="Extract text and tables from PDF files."),
            listing("com.pdf/unrelated", description="Weather forecasts."),
        ]
    )
    # "pdf" is a namespace owner here, but the need's words lead: the namespace alone is not enough
    # against a server that holds every word asked.
    assert names("extract text from pdf files")[0] == "io.github.a/pdf-reader"


def test_one_edit_is_every_slip_of_one_letter() -> None:
    edits = ranking.one_edit("wether")
    assert {"ether", "wehter", "wither", "weather"} <= edits  # deleted, swapped, replaced, inserted
    assert "weathre" not in edits  # two edits away
    assert len(edits) <= 54 * len("wether") + 25


def test_a_word_almost_no_lot_holds_is_read_as_the_census_spells_it(db: None) -> None:
    take(
        [listing(f"io.github.w{i}/forecasts", description="Weather forecast for any city.") for i in range(6)]
        + [listing(f"io.github.g{i}/plants", description="Gardening tips for plants.") for i in range(3)]
        + [listing("io.github.k/kube", description="Gardenia kube3 clusters.")]
    )
    # Missing a letter, one letter too many and two letters swapped, each read as the word many lots hold.
    assert services.words_searched("wether forcast") == ["weather", "forecast"]
    assert services.words_searched("weathher forecsat") == ["weather", "forecast"]
    assert names("wether forcast") == names("weather forecast") != []
    # A word three lots hold is a word of the census ("gardening"), and so is one lot's next to it.
    assert services.words_searched("gardening gardenia") == ["gardening", "gardenia"]
    # Short words, words with digits and words the vocabulary knows are never changed.
    assert services.words_searched("cty kube4 invoice") == ["cty", "kube4", "invoice"]


def test_the_answer_shows_the_words_searched(alice: Passport) -> None:
    take([listing(f"io.github.w{i}/forecasts", description="Weather forecast for any city.") for i in range(6)])
    reply = visit(alice, "ask_directory", need="wether forcast")
    assert reply.structured["terms"] == ["weather", "forecast"]
    assert len(reply.structured["results"]) == 6


def test_of_a_long_need_the_words_fewest_lots_hold_are_searched_in_the_order_given(db: None) -> None:
    take(
        [listing(f"io.github.c{i}/customers", description="Reply to customer tickets, set priority.") for i in range(8)]
        + [listing("io.github.zendesk/zendesk-mcp", description="Zendesk tickets.")]
    )
    need = "please reply to every angry customer ticket today, set priority urgent, escalate, assign, tag, close in zendesk"
    assert len(services.terms_of(need)) > services.MAX_TERMS
    searched = services.words_searched(need)
    # The product named last is searched; what goes is everyday filler ("every"), then what eight lots hold.
    assert len(searched) == services.MAX_TERMS and searched[-1] == "zendesk"
    assert "every" not in searched
    assert set(services.terms_of(need)) - set(searched) <= {"every", "reply", "customer", "set", "priority"}
    assert searched == [w for w in services.terms_of(need) if w in searched]
    assert names(need)[0] == "io.github.zendesk/zendesk-mcp"


def test_a_maker_with_many_servers_names_whose_not_which(db: None) -> None:
    google = [
        listing(f"com.googleapis.{p}/mcp", description=f"Google Cloud {p.capitalize()} on Google's own servers.")
        for p in ("run", "compute", "container", "design", "androidmanagement")
    ]
    take([*google, listing("io.github.fan/youtube-transcript", description="Transcripts of YouTube videos.")])
    # YouTube is Google's; of Google's five servers none holds a transcript, so none is the one asked for.
    assert names("youtube transcripts")[0] == "io.github.fan/youtube-transcript"
    assert "publishes many servers" in whys("youtube transcripts")["com.googleapis.run/mcp"]


def test_a_sentence_names_its_products_with_capitals(db: None) -> None:
    take(
        [
            listing("io.github.deployhq/deployhq-mcp-server", description="Deploy your sites with DeployHQ."),
            listing("sh.releases/mcp", description="Releases and changelogs for your repositories."),
            listing("io.github.fan/slack-mcp", description="Post messages to Slack channels."),
        ]
    )
    need = "Post a summary of the deploy into the #releases channel of our Slack workspace"
    terms, (written_as_names, plain, _) = services.read_need(need)
    assert written_as_names == {"slack"} and {"deploy", "releases", "channel"} <= plain and "post" not in plain
    assert names(need)[0] == "io.github.fan/slack-mcp"
    assert "not as a name" in whys(need)["sh.releases/mcp"]
    # Days and months are capitalised by grammar, not as names.
    need = "Book a slot next Tuesday in March on my Google Calendar"
    assert services.casing(need, services.terms_of(need))[0] == {"google", "calendar"}
    # So are places, peoples and languages: searched, as any word, but no name the need gives.
    need = "Were there any earthquakes above magnitude 5 near Japan for our Korean and French users?"
    written_as_names, plain, _ = services.casing(need, services.terms_of(need))
    assert written_as_names == set() and "earthquakes" in plain
    assert {"japan", "korean", "french"} <= set(services.terms_of(need))
    # And the cities, states and regions most asked about: a place, not a product, however many lots
    # hold the word.
    need = "Send an invoice to a customer in London and one in Austin, Texas"
    written_as_names, plain, _ = services.casing(need, services.terms_of(need))
    assert written_as_names == set() and {"london", "austin", "texas"} <= set(services.terms_of(need))
    # Without capitals past the first word, or with capitals everywhere, a need says nothing by its case.
    for unmarked in ("post to slack about the deploy", "Post To Slack About The Deploy", "Slack deploy notes"):
        assert services.read_need(unmarked)[1][:2] == (frozenset(), frozenset())


def test_the_words_an_agent_frames_its_need_in_are_not_searched(db: None) -> None:
    take(
        [
            listing("io.github.fan/slack-mcp", description="Post messages to Slack channels."),
            listing("io.github.x/hello-world", description="Hello world: a first server to greet you."),
            listing("io.github.y/ideas", description="Ideas: advise, brainstorm and appreciate."),
            listing("io.github.z/zendesk", description="Zendesk tickets: reply, set priority, urgent or not."),
        ]
    )
    bare = "post the deploy notes to Slack"
    for framed in (
        f"Hello there. Could you find something to {bare}? Much appreciated.",
        f"Hey, {bare} - any ideas?",
        f"Urgent: {bare}. Please advise.",
        f"Question from my agent: what server lets me {bare}?",
        f"I'm looking for an MCP server for this errand: {bare}",
        f"{bare} asap, thx",
    ):
        # The same words searched, and the same names (a word the frame leaves first in the sentence
        # was written within it, and so counts as written in lower case: "to post ...").
        (terms, (named, _, _)), (bare_terms, (bare_named, _, _)) = services.read_need(framed), services.read_need(bare)
        assert (terms, named) == (bare_terms, bare_named), framed
        assert names(framed)[0] == "io.github.fan/slack-mcp"
    # A word of the frame's within the need itself is the need's, and searched.
    need = "Reply to the ticket and set its priority to urgent in Zendesk. Thanks!"
    assert services.words_searched(need) == ["reply", "ticket", "set", "priority", "urgent", "zendesk"]
    # A need may begin with a word that also opens an asking: it is the need's own.
    for need in ("Recommend products to shoppers", "Suggest tags for posts", "Urgent care clinics", "Hello world"):
        assert services.words_searched(need)[0] == need.split()[0].lower()
    # A name right after the greeting is still written within a sentence, as a name.
    assert services.read_need("Hey, Slack: post the deploy notes please")[1][0] == {"slack"}
    # A need that is all frame is searched whole, as before; a product named so is not frame.
    assert services.words_searched("hello") == ["hello"] and names("hello")[0] == "io.github.x/hello-world"
    assert services.words_searched("Good morning! Any ideas?") == ["good", "morning", "ideas"]
    # Linear: the longest need, all clauses, is read at once.
    assert services.unframed("hi, " * 50)[1:] == (0, 200)


def test_a_need_in_another_language_searches_the_census_in_english(db: None) -> None:
    take(
        [
            listing("io.github.a/pg-query", description="Query a PostgreSQL database in production."),
            listing("io.github.b/weather", description="Weather forecast for any city, retrieved live."),
            listing("io.github.c/stripe-books", description="Check Stripe invoices and payments."),
            listing("io.github.d/discord", description="Send a message to a Discord channel."),
            listing("io.github.e/recetas", description="Recetas de cocina: recetas recetas recetas."),
        ]
        + [
            listing(f"io.github.r{i}/recetas-{i}", description="Recetas for cooks.")
            for i in range(services.TRANSLATE_UPTO)
        ]
    )
    # The census is written in English: the words of other languages are searched in English, their
    # little words left out, accents or not, a phrase of two words ("base de datos") as one.
    assert services.words_searched("consultar la base de datos postgres de producción") == [
        "query",
        "database",
        "postgres",
        "production",
    ]
    assert services.words_searched("consultar la base de datos postgres de produccion")[-1] == "production"
    assert names("consultar la base de datos postgres de producción")[0] == "io.github.a/pg-query"
    assert services.words_searched("enviar un mensaje a un canal de discord") == [
        "send",
        "message",
        "channel",
        "discord",
    ]
    assert names("Rechnungen und Zahlungen in Stripe prüfen")[0] == "io.github.c/stripe-books"
    # A German compound no lot holds is read as its two words.
    assert services.words_searched("Wettervorhersage für morgen abrufen") == ["weather", "forecast", "retrieve"]
    assert names("Wettervorhersage für morgen abrufen")[0] == "io.github.b/weather"
    # Japanese, Chinese and Korean write no spaces between words: the runs the vocabulary knows are
    # found within one, the longest first, kana's marks kept (データ is not テータ).
    assert services.words_searched("天気予報を調べて") == ["weather", "forecast"]
    assert services.words_searched("明天的天气预报") == ["weather", "forecast"]
    assert services.words_searched("Discord にメッセージを送信") == ["discord", "message", "send"]
    assert names("Discord にメッセージを送信")[0] == "io.github.d/discord"
    assert services.words_searched("날씨 예보") == ["weather", "forecast"]
    # A word the census uses is searched as written: more than TRANSLATE_UPTO lots hold "recetas".
    assert services.words_searched("recetas") == ["recetas"]
    # A need in English is never read so.
    for english in ("send a message to a channel", "query the production database", "check invoices"):
        assert services.words_searched(english) == services.terms_of(english)


def test_a_place_the_census_never_names_is_neither_a_word_to_hold_nor_another_word(db: None) -> None:
    take(
        [
            listing("io.github.a/forecast", description="Weather forecast for any city."),
            listing("io.github.c/radar", description="Weather weather weather: weather radar for weather fans."),
        ]
        + [listing(f"io.github.l{i}/logos", description="Logos for brands.") for i in range(6)]
        + [listing("io.github.s/invoices", description="Send an invoice to a shop's customers.")]
    )
    # No lot holds the name "Elmsford": counted as a word to hold, it kept the server that holds every other
    # word from holding them all, and a server that says one of them louder came first.
    assert names("Weather forecast in Elmsford")[0] == names("Weather forecast")[0] == "io.github.a/forecast"
    why = whys("Weather forecast in Elmsford")["io.github.a/forecast"]
    assert "it holds all 2 of your words, leaving aside the names no server in the census holds" in why
    # A word a sentence writes as a name is not spelled as another word many lots hold ("Lagos" is not
    # logos); in lower case it still is, as any rare word is.
    assert services.words_searched("Send an invoice for a shop in Lagos") == ["send", "invoice", "shop", "lagos"]
    assert services.words_searched("send an invoice for a shop in lagos")[-1] == "logos"
    assert names("Send an invoice for a shop in Lagos")[0] == "io.github.s/invoices"


def test_a_name_few_lots_hold_names_a_server_only_beside_another_word_of_the_need(db: None) -> None:
    take(
        [
            listing("io.github.pmaker/lisbon-notes", description="Lisbon notes, Lisbon walks."),
            listing("io.github.fan/deploy-sites", description="Deploy static sites and previews."),
            listing("io.github.q/quillborough-tides", description="Tides of Quillborough harbour, by the hour."),
            listing("io.github.r/tide-tables", description="Tide tables for any harbour."),
        ]
    )
    # "Lisbon" is held by one lot, which holds none of the need's other words: a place, not the server
    # asked for.
    assert names("Deploy my site from Lisbon")[0] == "io.github.fan/deploy-sites"
    assert "holds the name" not in whys("Deploy my site from Lisbon")["io.github.pmaker/lisbon-notes"]
    # A name as rare, held beside another of the need's words, still names its server.
    assert names("Harbour tides at Quillborough")[0] == "io.github.q/quillborough-tides"
    assert (
        "its name or title holds the name you wrote"
        in whys("Harbour tides at Quillborough")["io.github.q/quillborough-tides"]
    )


def test_a_word_that_begins_a_sentence_is_capitalised_by_grammar_and_a_greeting_is_not_searched() -> None:
    need = "Hi! Quick question from an agent: post the deploy notes to Slack. Thanks!"
    assert services.written_as_names(need) == {"slack"}  # not Quick, not Thanks: each begins a sentence
    assert services.terms_of(need)[:2] == ["quick", "question"] and "thanks" not in services.terms_of(need)
    # "Quick question from an agent" frames the need (services.unframed): its words are not read.
    assert services.casing(need, services.terms_of(need))[:2] == ({"slack"}, {"post", "deploy", "notes"})
    # After a colon a sentence goes on: a name there is still a name.
    assert services.written_as_names("Urgent: post the notes to Slack") == {"slack"}
    # An agent's errand and what its person asked are no words of a server.
    assert services.terms_of("My person asked me to run this errand: transcribe a podcast") == [
        "person",
        "run",
        "transcribe",
        "podcast",
    ]


def test_a_name_of_two_words_is_one_name(db: None) -> None:
    take(
        [
            listing("com.googleapis.run/mcp", description="Google Cloud Run services and their revisions."),
            listing("io.github.fan/drive-mcp", description="Upload files to Google Drive folders and share them."),
        ]
    )
    need = "Upload the report to a shared folder in Google Drive"
    assert names(need)[0] == "io.github.fan/drive-mcp"
    assert "does not speak of the whole name" in whys(need)["com.googleapis.run/mcp"]


def test_a_word_of_another_language_is_read_in_the_sense_its_need_gives_it(db: None) -> None:
    """French "carte", German "Karte" and Dutch "kaart" are a map and a card: a need to take payments
    by card searched for maps, and Google Maps' servers came before the payment ones. Portuguese "você"
    (you) was read as Italian "voce" (a voice), "ligne de commande" as an order, Spanish "firma" (a
    signature) as a company, "nota fiscal" as a note."""
    take(
        [
            listing("io.github.a/card-payments", description="Accept card payments and refunds."),
            listing("io.github.b/maps", description="Maps, directions and places."),
            listing("io.github.c/mailer", description="Send an email from your inbox."),
        ]
    )
    assert services.words_searched("paiement par carte bancaire") == ["payment", "par", "card"]
    assert services.words_searched("paiement par carte de crédit") == ["payment", "par", "credit", "card"]
    assert services.words_searched("Kartenzahlungen akzeptieren")[:2] == ["card", "payment"]
    assert services.words_searched("betalingen met kaart") == ["payment", "card"]
    assert names("betalingen met kaart")[0] == "io.github.a/card-payments"
    # the map, where nothing in the need speaks of paying
    assert services.words_searched("carte de France des restaurants") == ["map", "france", "restaurants"]
    assert services.words_searched("kaart van Amsterdam")[0] == "map"
    assert "voice" not in services.words_searched("você pode enviar um email")
    assert services.words_searched("outil en ligne de commande")[-2:] == ["command", "line"]
    assert services.words_searched("firma digital de contratos")[0] == "signature"
    assert services.words_searched("assinatura digital de contratos")[0] == "signature"
    assert services.words_searched("emitir nota fiscal")[-2:] == ["fiscal", "nfe"]


def test_another_languages_little_words_are_not_searched() -> None:
    assert services.terms_of("enviar un mensaje a un canal de discord") == ["enviar", "mensaje", "canal", "discord"]
    assert services.terms_of("Nachricht an einen Kanal in Discord senden") == [
        "nachricht",
        "kanal",
        "discord",
        "senden",
    ]
    # words that are English too stay searched
    assert "die" in services.terms_of("die casting machines") and "per" in services.terms_of("cost per seat")
    assert "mit" in services.terms_of("MIT licensed servers") and "os" in services.terms_of("OS process list")


def test_a_product_the_vocabulary_brings_again_keeps_the_names_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    # "Hugging Face" is a name the need writes; a vocabulary that also brings huggingface for
    # "models" must not make the named product a plain word.
    monkeypatch.setitem(vocabulary.CONCEPTS, "models", ("huggingface",))
    r = ranking.read(["hugging", "face", "models"], frozenset({"hugging", "face"}), frozenset({"models"}))
    assert "huggingface" in r.products and "huggingface" not in r.plain
    assert "models" in r.plain
