"""The Directory on needs of a kind the ranking once misread: needs that say what they do not want,
needs the census has nothing for, long needs that name a product, common English words that look like
other words or products, and input that is not words at all; and the reply's provenance and reasons.
Each test is on a small census written here."""

import pytest

from clockford.town.models import Passport
from districts.testing import visit
from districts.town_hall import services
from districts.town_hall.tests.base import found_names, listing, take

pytestmark = pytest.mark.django_db


def databases() -> None:
    take(
        [
            listing(f"io.github.pg{i}/postgres-mcp", description="Query a Postgres relational database.")
            for i in range(5)
        ]
        + [
            listing("io.github.my/mysql-mcp", description="Query a MySQL relational database."),
            listing("io.github.lite/sqlite-mcp", description="A SQLite database for local files."),
        ]
    )


# -- Negation ---------------------------------------------------------------------------------------


def test_words_after_a_negation_are_not_searched(db: None) -> None:
    databases()
    assert services.words_searched("a relational database but not postgres") == ["relational", "database"]
    assert services.words_searched("email, no gmail please") == ["email"]
    assert services.words_searched("web search without google") == ["web", "search"]
    assert services.words_searched("eine Datenbank ohne Postgres")[-1] != "postgres"
    assert services.words_searched("recherche web sans Google") == ["search", "web"]
    # "not" that says how a thing fails is no exclusion, and Portuguese's "no" is "in the"
    assert "loading" in services.words_searched("why is my page not loading")
    assert "asana" in services.words_searched("gerenciar tarefas e projetos no asana")


def test_what_a_need_excludes_is_read_as_groups(db: None) -> None:
    assert services.excluded_of("a relational database but not postgres") == (("postgres",),)
    # a server is left out when it speaks of every word of a group: Google's maps, not every map
    assert services.excluded_of("maps and directions, no google maps") == (("google", "maps"),)
    assert services.excluded_of("a database other than postgres or mysql") == (("postgres",), ("mysql",))
    assert services.excluded_of("code hosting instead of GitHub, and pull requests") == (("github",),)
    assert services.excluded_of("a relational database") == ()


@pytest.mark.parametrize(
    "need",
    [
        "weather forecasts, no API key",
        "weather forecasts without an API key",
        "a weather server that does not need an API key",
        "compare JSON files without worrying about key order",
        "workflow automation builder, no-code",
        "not only Slack but also Discord messages",
        "not just Notion pages but databases too",
        "Slack notifications, not to mention Discord alerts",
        "nicht nur Slack sondern auch Discord Nachrichten",
        "niet alleen Slack maar ook Discord berichten",
        "SANS Internet Storm Center threat data",
        "a tool to exclude files from git commits",
    ],
)
def test_a_need_that_names_no_thing_after_a_negation_excludes_nothing(need: str) -> None:
    """A need that wants a kind of server ("no API key": the servers that say "no API key required"
    are the ones it wants), or adds rather than takes away ("not only Slack but also Discord"), loses
    none of its words: a second probe found them left out of their own answers."""
    assert services.excluded_of(need) == ()


@pytest.mark.parametrize(
    ("need", "excluded"),
    [
        ("project management, I do not want Jira", (("jira",),)),
        ("project management. Please don't suggest Jira", (("jira",),)),
        ("No Gmail, just email sending", (("gmail",),)),
        ("issue tracker other than Jira", (("jira",),)),
        ("cloud storage, never AWS", (("aws",),)),
    ],
)
def test_a_need_that_does_not_want_a_product_says_so_in_many_ways(need: str, excluded: tuple[tuple[str, ...]]) -> None:
    assert services.excluded_of(need) == excluded


@pytest.mark.parametrize(
    ("need", "excluded"),
    [
        # a product whose name is an everyday word, in lower case
        ("team chat, not slack", (("slack",),)),
        ("schedule video calls without zoom", (("zoom",),)),
        ("track the issues of my project except linear", (("linear",),)),
        # other English forms
        ("a sql database that is not MySQL", (("mysql",),)),
        ("a sql database that isn't MySQL", (("mysql",),)),
        ("browser automation not using Playwright", (("playwright",),)),
        ("non-Google read my email", (("google",),)),
        ("Discord-free team chat", (("discord",),)),
        ("search the web w/o Tavily", (("tavily",),)),
        ("cloud file storage, Microsoft excluded", (("microsoft",),)),
        ("an alternative to Notion for my notes", (("notion",),)),
        ("manage my git repositories and no GitHub", (("github",),)),
        ("team chat, we moved away from Slack", (("slack",),)),
        ("a sql database - we can't use MySQL", (("mysql",),)),
        ("team chat that does not depend on Telegram", (("telegram",),)),
        ("email, nothing from Microsoft", (("microsoft",),)),
        # other languages
        ("Websuche, bitte kein Brave", (("brave",),)),
        ("pesquisa na web sem Google", (("google",),)),
        ("chat de equipo que no sea Discord", (("discord",),)),
        ("lire mes e-mails, pas de Gmail", (("gmail",),)),
        ("pagamenti con carta, niente PayPal", (("paypal",),)),
        ("teamchat, liever geen Slack", (("slack",),)),
    ],
)
def test_more_ways_of_not_wanting_a_thing(need: str, excluded: tuple[tuple[str, ...]]) -> None:
    """Forms a generated evaluation (tests/bench/directory_needs/negation.py, its dev half) found
    searched for the very thing they do not want."""
    assert services.excluded_of(need) == excluded


@pytest.mark.parametrize(
    "need",
    [
        "sans serif fonts for my design",
        "pick a sans-serif font",
        "avoid rate limits when scraping websites",
        "not-for-profit donor management",
        "non-custodial crypto wallet",
        "gluten-free recipes",
        "why the cache isn't expiring in Redis",
        "Trouve-moi des vols pas chers entre Paris et Lisbonne",
        # a double negation, or a negation that keeps the thing
        "a sql database, not necessarily Postgres",
        "issue tracking, I can't do without Jira",
        "search the web, none other than Brave",
        "team chat, no problem with Slack",
        "monitoring dashboards and metrics, not without Datadog",
    ],
)
def test_a_negation_word_that_is_no_negation_keeps_every_word(need: str) -> None:
    """ "sans serif" is a font, "avoid rate limits" a kind of scraper, "can't do without Jira" wants it:
    the first two searched nothing before."""
    assert services.excluded_of(need) == ()
    assert services.wanted_and_not(need)[1] == ()


def test_a_font_need_searches_sans_serif(db: None) -> None:
    databases()
    assert services.words_searched("sans serif fonts for my design") == ["sans", "serif", "fonts", "design"]
    assert services.words_searched("avoid rate limits when scraping websites") == [
        "avoid",
        "rate",
        "limits",
        "scraping",
        "websites",
    ]
    assert services.words_searched("a sql database, not necessarily Postgres") == ["sql", "database", "postgres"]


def test_servers_about_the_excluded_product_are_left_out(db: None) -> None:
    databases()
    got = found_names("a relational database but not postgres")
    assert got and not any("postgres" in n for n in got)
    assert got[0] == "io.github.my/mysql-mcp"


def test_a_maker_not_wanted_leaves_out_its_products_servers(db: None, alice: Passport) -> None:
    """Jira's servers are Atlassian's product whoever publishes them; the say still counts one thing."""
    take(
        [
            listing("io.github.someone/jira-mcp", description="Track the issues of a project in Jira."),
            listing("io.github.other/linear-mcp", description="Track the issues of a project in Linear."),
            listing("io.github.third/teams-issues", description="Track the issues of a project for teams."),
        ]
    )
    assert sorted(found_names("track the issues of my project, never Atlassian")) == [
        "io.github.other/linear-mcp",
        "io.github.third/teams-issues",
    ]
    sc = visit(alice, "ask_directory", need="track the issues of my project, never Atlassian").structured
    assert sc["say"].endswith(
        "Your need says it does not want 1 thing: those words were not searched, and 1 server that speaks "
        "of it was left out."
    )


def test_the_say_counts_what_was_excluded(db: None, alice: Passport) -> None:
    databases()
    sc = visit(alice, "ask_directory", need="a relational database but not postgres").structured
    assert sc["terms"] == ["relational", "database"]
    assert "postgres" not in sc["say"].casefold()
    assert sc["say"].endswith(
        "Your need says it does not want 1 thing: those words were not searched, and 5 servers that speak "
        "of it were left out."
    )
    assert set(sc) == {"say", "terms", "matches", "results", "source", "footstep", "provenance"}


@pytest.mark.parametrize(
    ("need", "excluded"),
    [
        ("weather forecasts, not aviation", (("aviation",),)),
        ("recipes but nothing about wine", (("wine",),)),
        ("maps without any traffic", (("traffic",),)),
        ("news headlines, I do not want sports", (("sports",),)),
        ("send emails but not marketing", (("marketing",),)),
        ("sports scores (no betting)", (("betting",),)),
    ],
)
def test_a_kind_of_server_in_everyday_words_after_a_negation_is_unwanted(
    need: str, excluded: tuple[tuple[str, ...]]
) -> None:
    """Only products and names were left out before: "weather forecasts, not aviation" searched
    aviation and ranked METAR servers among the first."""
    assert services.excluded_of(need) == excluded


@pytest.mark.parametrize(
    "need",
    [
        "pods not ready in my cluster",
        "never miss a meeting reminder",
        "translate documents without losing the formatting",
        "scrape websites, no getting blocked",
        "run python code without local setup",
        "geocode addresses, no signup",
    ],
)
def test_what_a_server_does_without_or_a_verb_after_a_negation_is_still_wanted(need: str) -> None:
    """What a server may say it does without (vocabulary.DOES_WITHOUT), a verb, or "not" within a clause
    names no kind of server: every word stays wanted."""
    assert services.excluded_of(need) == ()


def test_servers_of_an_unwanted_kind_are_left_out(db: None) -> None:
    take(
        [
            listing("io.github.a/aviation-weather", description="Aviation weather: METAR and TAF forecasts."),
            listing("io.github.b/weather", description="Weather forecasts for any city."),
            listing("io.github.c/trips", description="Flights and hotel bookings for your travel."),
            listing("io.github.d/flights", description="Search flights for your travel."),
        ]
    )
    assert found_names("weather forecasts, not aviation") == ["io.github.b/weather"]
    # a plural not wanted leaves out the servers that write it in the singular
    assert found_names("flights and travel, not hotels") == ["io.github.d/flights"]


@pytest.mark.parametrize(
    "need",
    [
        "sin and cos for trigonometry",
        "compute sin, cos and tan of an angle",
        "sem and seo campaigns",
        "Open Sans and Roboto fonts",
        "sans serif fonts for my design",
    ],
)
def test_an_english_need_keeps_the_english_sense_of_another_language_s_negation_word(need: str) -> None:
    """ "sin" is Spanish's "without" and "sem" Portuguese's, but in a need written in English they are
    the sine and search engine marketing: "sin and cos" searched only "trigonometry" before."""
    assert services.excluded_of(need) == ()
    assert services.wanted_and_not(need)[1] == ()


@pytest.mark.parametrize(
    ("need", "excluded"),
    [
        ("chat de equipo sin Slack", (("slack",),)),
        ("chat sin anuncios", (("anuncios",),)),
        ("pesquisa na web sem Google", (("google",),)),
        ("Team Chat ohne Slack", (("slack",),)),
    ],
)
def test_a_need_in_another_language_still_reads_its_negation_words(need: str, excluded: tuple[tuple[str, ...]]) -> None:
    assert services.excluded_of(need) == excluded


def test_sin_and_cos_are_searched(db: None) -> None:
    databases()
    assert services.words_searched("sin and cos for trigonometry") == ["sin", "cos", "trigonometry"]


# -- Needs the census lacks -------------------------------------------------------------------------


def test_a_need_nothing_fits_is_told_so(db: None, alice: Passport) -> None:
    take(
        [listing(f"io.github.s{i}/scheduler", description="Schedule jobs and times for your team.") for i in range(6)]
        + [listing("io.github.pets/pet-care", description="Pet care reminders for dogs and cats.")]
    )
    sc = visit(alice, "ask_directory", need="schedule feeding times for my pet tortoise").structured
    assert sc["results"]
    assert sc["say"].startswith(
        "The nearest servers hold only some of your words, so the census may have nothing that does what you need;"
    )
    assert "found" not in sc["say"]
    fits = visit(alice, "ask_directory", need="schedule jobs").structured
    assert fits["say"].startswith("The Directory found")
    # Everyday filler no lot holds ("bunch") says nothing of what the need is about.
    filler = visit(alice, "ask_directory", need="schedule a bunch of jobs for my team").structured
    assert filler["say"].startswith("The Directory found"), filler["say"]


# -- Long needs ---------------------------------------------------------------------------------------


def test_a_long_need_keeps_the_product_it_names(db: None) -> None:
    take(
        [listing("io.github.shopify/shopify-mcp", description="Shopify orders and products.")]
        + [listing(f"io.github.s{i}/sheets", description="Spreadsheet rows out of any shop.") for i in range(9)]
    )
    need = (
        "I run a small online shop and every morning I must copy the new orders out of Shopify into a "
        "spreadsheet by hand, is there some way to do it"
    )
    searched = services.words_searched(need)
    assert len(searched) <= services.MAX_TERMS and "shopify" in searched
    # "every morning" and "by hand" say how often and how (services.untroubled), never searched; of the
    # eleven words left, the filler "way" goes ("must" fits in the ten)
    assert not {"way", "out", "every", "morning", "hand"} & set(searched)


def test_a_word_cut_at_the_need_s_end_is_not_searched(db: None) -> None:
    need = ("please help me read my inbox and " * 10)[: services.NEED_CAP - 3] + " em"
    assert len(need) == services.NEED_CAP
    assert "em" not in services.words_searched(need)
    assert "em" in services.words_searched("send an em")  # a whole word, not cut


# -- Common words ----------------------------------------------------------------------------------


def test_a_common_word_is_never_corrected_to_another(db: None) -> None:
    take(
        [listing(f"io.github.b{i}/builder", description="Built with care; built for rails apps.") for i in range(6)]
        + [listing("io.github.w/weather", description="Weather forecasts.") for _ in range(1)]
        + [listing(f"io.github.w{i}/weather", description="Weather forecasts and weather alerts.") for i in range(6)]
    )
    assert services.words_searched("design a quilt pattern") == ["design", "quilt", "pattern"]
    assert services.words_searched("ci tails") == ["ci", "tails"]
    # "fails" after a thing is an outcome, read as its kind (vocabulary.OUTCOMES), not a slip for rails
    assert services.words_searched("when ci fails") == ["ci", "failures"]
    assert services.words_searched("wether") == ["weather"]  # a slip is still read as one


def test_a_common_word_a_namespace_only_wraps_is_not_a_product(db: None) -> None:
    take(
        [
            listing("app.takehub/mcp", description="A hub for agents.", title="TakeHub"),
            listing("io.github.shots/screenshot-mcp", description="Take a screenshot of any web page."),
            listing("io.github.caps/capture", description="Screenshot capture for web pages."),
        ]
    )
    got = found_names("take a screenshot of a web page")
    assert got[0] != "app.takehub/mcp"
    assert "its namespace" not in " ".join(services.search(["take", "screenshot"], 8)[1][0]["why"].split(";"))


# -- Junk --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("need", [".*(a+)+$[^]\\d{1,}|?", "the and of to a", "a b c 1 2 3"])
def test_junk_searches_nothing(db: None, alice: Passport, need: str) -> None:
    take([listing("io.github.d1/d-one", description="The d of 1, and of a.")])
    assert services.words_searched(need) == []
    sc = visit(alice, "ask_directory", need=need).structured
    assert sc["terms"] == [] and sc["results"] == []
    assert sc["say"] == "No server in the census matches those words: none of them is a word the Directory searches."


# -- Provenance and reasons ---------------------------------------------------------------------------


def test_the_provenance_names_exactly_the_fields_results_hold(db: None, alice: Passport) -> None:
    databases()
    sc = visit(alice, "ask_directory", need="postgres").structured
    paths = {p["path"] for p in sc["provenance"]["parts"] if p["path"].startswith("results[].")}
    assert "results[].version" not in paths and "results[].host" not in paths
    for path in paths:
        field = path.removeprefix("results[].").removesuffix("[]")
        assert all(field in r for r in sc["results"]), path


def test_a_product_the_vocabulary_brought_is_said_to_be_so(db: None) -> None:
    take([listing("com.microsoft/mail", description="Send email with Outlook and Microsoft 365.")])
    terms, cased = services.read_need("send an email")
    _, records = services.search(terms, 8, cased=cased)
    assert records
    for r in records:
        assert "your words point to" not in r["why"]
        if "maker" in r["why"]:
            assert "vocabulary relates to your words, not one you named" in r["why"]
