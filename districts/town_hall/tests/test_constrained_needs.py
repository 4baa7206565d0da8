"""The Directory on needs with a constraint on price, licence or the language of the asker's own code,
and on needs choosing between products, which the eleventh generated evaluation
(tests/bench/directory_needs/eleventh.py) holds: the constraint's words were searched as if they were the
thing wanted ("free" and "tier" beside "web search", "MIT" beside "SQLite"), and a choice's words of
judgement ("better") found servers named for them. Each test is on a small census written here, or on the
reading alone."""

import pytest

from districts.town_hall import services
from districts.town_hall.tests.base import found_names, listing, take

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("need", "searched"),
    [
        # price
        ("web search on a free tier", ["web", "search"]),
        ("cheap pdf text extraction, we have no budget", ["cheap", "pdf", "text", "extraction"]),
        ("vector database for embeddings with no paid plan needed", ["vector", "database", "embeddings"]),
        ("a free text to speech voices server", ["text", "speech", "voices"]),
        ("translation for free", ["translation"]),
        # licence
        ("an MIT-licensed sqlite server", ["sqlite"]),
        ("image generation released under the Apache 2.0 license", ["image", "generation"]),
        ("open source kanban board", ["kanban", "board"]),
        # the language of the asker's own code
        ("a sqlite server I can call from my Python code", ["sqlite"]),
        ("weather forecasts usable from Rust", ["weather", "forecasts"]),
        ("a postgres server in TypeScript", ["postgres"]),
        # a choice's words of judgement
        ("slack or discord for our community, which has a better server", ["slack", "discord", "community"]),
        ("postgres vs. mysql", ["postgres", "mysql"]),
        # kept: what is itself about the constraint, code in a language, names, and a need of constraints alone
        ("open source intelligence on a domain", ["open", "source", "intelligence", "domain"]),
        ("run code in Python", ["run", "code", "python"]),
        ("gluten-free recipes", ["gluten", "free", "recipes"]),
        ("Better Auth sessions", ["better", "auth", "sessions"]),
        ("security best practices", ["security", "best", "practices"]),
        ("cheap flights to rome", ["cheap", "flights", "rome"]),
        ("find a free slot on my calendar", ["free", "slot", "calendar"]),
        ("integrate with Apache Kafka", ["integrate", "apache", "kafka"]),
        ("better auth sessions", ["better", "auth", "sessions"]),  # a product, written in small letters
        ("manage my vs code extensions", ["manage", "vs", "code", "extensions"]),
        ("python vs node sdk docs", ["python", "node", "sdk", "docs"]),
        # the language is what the need is about: its docs, crates, a first program
        ("crates docs in rust", ["crates", "docs", "rust"]),
        ("hello world in rust", ["hello", "world", "rust"]),
        ("examples of async in python", ["examples", "async", "python"]),
        ("something free", ["free"]),
        ("open source", ["open", "source"]),
    ],
)
def test_a_constraint_and_a_choice_s_judgement_are_not_searched_as_the_thing_wanted(
    db: None, need: str, searched: list[str]
) -> None:
    assert services.words_searched(need) == searched


def test_a_licence_finds_the_thing_not_a_server_named_for_the_licence(db: None) -> None:
    """ "MIT" found a server of MIT's dining halls before the SQLite server that was asked for."""
    take(
        [
            listing("io.github.a/mit-dining", description="Menus of the MIT dining halls, licensed for students."),
            listing("io.github.b/sqlite", description="Query and edit SQLite databases."),
        ]
    )
    assert found_names("an MIT-licensed sqlite server") == ["io.github.b/sqlite"]


def test_the_language_of_the_asker_s_code_finds_the_thing_not_servers_of_the_language(db: None) -> None:
    take(
        [
            listing("io.github.a/python-runner", description="Run Python code and Python scripts in a sandbox."),
            listing("io.github.b/sqlite", description="Query and edit SQLite databases."),
        ]
    )
    assert found_names("sqlite I can call from my Python code") == ["io.github.b/sqlite"]


def test_a_choice_finds_both_products_not_a_server_named_for_its_judgement(db: None) -> None:
    """ "which has a better server" found BetterDB among Slack's and Discord's servers."""
    take(
        [
            listing("io.github.a/betterdb", description="Better monitoring for your Valkey and Redis server."),
            listing("io.github.b/slack", description="Read and post Slack messages."),
            listing("io.github.c/discord", description="Read and post Discord messages."),
        ]
    )
    found = found_names("slack or discord, which has a better server")
    assert sorted(found) == ["io.github.b/slack", "io.github.c/discord"]
