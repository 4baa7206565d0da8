"""The Directory on words that name the wrong thing, which the eighth generated evaluation
(tests/bench/directory_needs/eighth.py) holds: an everyday verb the vocabulary reads as a product's kind
("call a gRPC service" read as a phone call, Zoom first), a technology's dotted or signed name ("Node.js"
searched as node and js, "C#" as nothing), a kind not wanted in two words ("without TV shows", "except
ads") and a word of another language with two senses ("apagar as luzes", "cerca"). Each test is on a
small census written here, or on the reading alone."""

import pytest

from districts.town_hall import ranking, services
from districts.town_hall.tests.base import found_names, listing, take

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("need", "verbs"),
    [
        ("call a gRPC service", {"call"}),
        ("call a REST API and show me the JSON", {"call"}),
        ("make a JSON-RPC call", {"call"}),
        ("chat with my PDFs", {"chat"}),
        ("store embeddings for semantic search", {"store"}),
        ("design a database schema", {"design"}),
        ("draw a UML diagram", {"draw"}),
        # the noun's sense, a person or a product the vocabulary knows: read as before
        ("call my mom", set()),
        ("a video call with Bob", set()),
        ("schedule a Zoom call", set()),
        ("chat with the team about the release", set()),
        ("chat on Discord", set()),
        ("draw a picture of a fox", set()),
        # another language's little word, or what the need does not want, is nothing a verb acts on
        ("chat de equipo pero no Slack", set()),
        ("Team Chat statt Discord", set()),
    ],
)
def test_an_everyday_verb_on_a_technical_thing_is_read_in_its_ordinary_sense(need: str, verbs: set[str]) -> None:
    """ "call a gRPC service" brought Zoom, "chat with my PDFs" Slack, "store embeddings" Shopify: the
    vocabulary's entry is the noun's sense (a phone call, a team chat, a shop)."""
    assert services.ordinary_verbs(services.wanted_and_not(need)[0]) == verbs


def test_a_verb_in_its_ordinary_sense_brings_no_product(db: None) -> None:
    take(
        [
            listing("io.github.zoom/zoom-workspace", description="Zoom meetings, phone calls and voice."),
            listing("io.github.a/grpc-invoke", description="Invoke gRPC services by reflection."),
        ]
    )
    assert found_names("call a gRPC service")[0] == "io.github.a/grpc-invoke"
    terms, cased = services.read_need("call a gRPC service")
    reading = ranking.read(terms, *cased)
    assert reading.concepts == [] and "~zoom" not in reading.products
    # a call to a person is still a call
    terms, cased = services.read_need("call my mom")
    assert "~zoom" in ranking.read(terms, *cased).products


@pytest.mark.parametrize(
    ("need", "searched"),
    [
        ("Node.js package docs", ["nodejs", "package", "docs"]),
        ("debug my Next.js app", ["debug", "nextjs", "app"]),
        ("C# code navigation", ["csharp", "code", "navigation"]),
        ("C++ package manager", ["cpp", "package", "manager"]),
        ("F# scripts", ["fsharp", "scripts"]),
        ("ASP.NET Core debugging", ["aspnet", "core", "debugging"]),
        (".NET project templates", ["dotnet", "project", "templates"]),
        ("Objective-C code", ["objectivec", "code"]),
        # a file's name or a domain is no technology's
        ("read package.json", ["read", "package", "json"]),
        ("my site example.net", ["site", "example", "net"]),
    ],
)
def test_a_technology_s_dotted_or_signed_name_is_one_word(need: str, searched: list[str]) -> None:
    """ "Node.js" was searched as node and js (every server of a graph node, every JavaScript one), "C#"
    and "C++" as nothing at all."""
    assert services.terms_of(need) == searched


def test_a_listing_s_dotted_name_is_found_by_its_one_word(db: None) -> None:
    take(
        [
            listing("io.github.a/runtime", description="A Node.js runtime for scripts."),
            listing("io.github.b/graph", description="Graph node and edge queries for JS charts."),
            listing("io.github.c/lens", description="Navigate C# code with Roslyn."),
            listing("io.github.d/shapes", description="Draw C shapes and code them."),
        ]
    )
    assert found_names("Node.js runtime")[0] == "io.github.a/runtime"
    assert found_names("C# code")[0] == "io.github.c/lens"


@pytest.mark.parametrize(
    ("need", "excluded"),
    [
        # a kind named in two words ("TV shows"): every server of the kind, as of "TV" alone
        ("movie recommendations without TV shows", ("tv", "television")),
        ("sports scores except sports betting", ("betting", "gambl", "casino")),
        ("stock market data without crypto prices", ("bitcoin", "blockchain")),
        # "except ads" is a kind unwanted; "no ads" what a server does without, and wanted
        ("website analytics except ads", ("ads", "advertis")),
    ],
)
def test_a_kind_not_wanted_in_two_words_leaves_out_the_kind(need: str, excluded: tuple[str, ...]) -> None:
    """ "without TV shows" left out only the servers that hold both words; "except ads" searched
    "except" and "ads"."""
    groups = services._with_products(services.excluded_of(need))
    assert all((w,) in groups for w in excluded)
    assert "except" not in services.terms_of(services.wanted_and_not(need)[0])


def test_the_second_of_two_words_names_the_kind_when_it_can(db: None) -> None:
    """ "sports betting" is betting: "sports scores except sports betting" left out every sports server."""
    take(
        [
            listing("io.github.a/scores", description="Live sports scores and league tables."),
            listing("io.github.b/odds", description="Sports betting odds from every casino."),
            listing("io.github.c/headlines", description="News headlines from around the world."),
            listing("io.github.d/footie", description="Football news headlines."),
        ]
    )
    assert found_names("sports scores except sports betting") == ["io.github.a/scores"]
    # "sports news" is news of sports: every sports server is unwanted, football's too
    assert found_names("news headlines except sports news") == ["io.github.c/headlines"]


def test_no_ads_is_still_what_a_server_does_without() -> None:
    assert services.excluded_of("website analytics, no ads") == ()


def test_servers_of_a_kind_named_in_two_words_are_left_out(db: None) -> None:
    take(
        [
            listing("io.github.a/films", description="Movie recommendations and film reviews."),
            listing("io.github.b/screens", description="Movie and TV recommendations."),
            listing("io.github.c/telly", description="Movie and television recommendations."),
        ]
    )
    assert found_names("movie recommendations without TV shows") == ["io.github.a/films"]


@pytest.mark.parametrize(
    ("need", "searched"),
    [
        ("apagar as luzes da sala", ["turn", "off", "lights", "sala"]),
        ("apagar arquivos antigos do disco", ["delete", "file", "old", "disk"]),
        ("cerca ristoranti a Roma", ["nearby", "restaurant", "roma"]),
        ("cerca documenti", ["search", "document"]),
        ("programar una reunión con el equipo", ["schedule", "meeting", "equipo"]),
        ("aprender a programar en Python", ["aprender", "programming", "code", "python"]),
        ("ver las acciones de GitHub que fallaron", ["ver", "actions", "github", "fallaron"]),
        ("precio de las acciones hoy", ["price", "stock"]),
        ("stuur een bericht naar ons Slack kanaal", ["send", "message", "slack", "channel"]),
        ("einen Bericht als PDF erstellen", ["report", "als", "pdf", "create"]),
        ("criar uma pasta nova no Google Drive", ["create", "folder", "google", "drive"]),
        ("receitas de pasta italiana", ["recipe", "pasta", "italiana"]),
    ],
)
def test_a_word_of_another_language_is_read_in_the_sense_its_other_words_give(
    db: None, need: str, searched: list[str]
) -> None:
    """ "apagar as luzes" (switch off the lights) searched delete; "cerca" was always Italian's search,
    "acciones" always shares, "programar" always to schedule, "bericht" always a message."""
    take([listing("io.github.a/invoices", description="Create and send invoices.")])
    assert services.words_searched(need) == searched
