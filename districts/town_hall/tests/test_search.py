"""Search is ranked full-text over name, title and description, on whichever database the suite runs
(run it on SQLite and on PostgreSQL): not a substring of the name."""

import pytest
from django.db import connection

from clockford.town.models import Passport
from districts.town_hall import services
from districts.town_hall.models import CensusState
from districts.town_hall.tests.base import listing, take

pytestmark = pytest.mark.django_db


def lot_description(name: str) -> str:
    return services.find_lot(name).record["words"]["description"]  # type: ignore[union-attr]


def names(need: str, limit: int = 8) -> list[str]:
    _, records = services.search(services.terms_of(need), limit)
    return [r["name"] for r in records]


def test_it_finds_servers_by_what_they_do(demo: CensusState) -> None:
    assert names("read-only postgres database access")[0] == "io.clockford.demo/postgres-readonly"
    # None of these words is in the name: the description answers.
    assert names("hour by hour forecasts")[0] == "io.clockford.demo/Weather"
    assert names("extract tables from documents")[0] == "io.clockford.demo/pdf-reader"


def test_it_is_not_a_substring_of_the_name(demo: CensusState) -> None:
    # "web search" is no registry name's substring (the name says web-search), yet it leads.
    assert not any("web search" in n for n in names("anything at all", 25))
    assert names("web search")[0] == "io.clockford.demo/web-search"
    # Word forms match: plural to singular, and a prefix to the longer word.
    assert "io.clockford.demo/postgres-readonly" in names("databases")
    assert "io.clockford.demo/sqlite-explorer" in names("sqlit explore")


def test_it_ranks_the_lot_holding_every_word_first(db: None) -> None:
    take(
        [
            listing("com.a/slack-bot", description="Post messages to Slack channels and read threads."),
            listing("com.a/slack-archive", description="Slack Slack Slack export of old workspaces."),
            listing("com.a/teams", description="Post messages to Microsoft Teams channels."),
        ]
    )
    assert names("post slack messages")[0] == "com.a/slack-bot"


def test_inactive_servers_go_last_and_deleted_ones_are_not_found(demo: CensusState) -> None:
    assert names("maps routes addresses")[-1] == "io.clockford.demo/old-maps"
    assert "io.clockford.demo/removed" not in names("server publisher removed registry", 25)


def test_terms_leave_out_filler_and_keep_the_order(db: None) -> None:
    assert services.terms_of("I need an MCP server for Read-Only Postgres, please!") == ["read", "postgres"]
    assert services.terms_of("MCP server") == ["mcp", "server"]  # nothing else to search by
    # Every word; of a long need, words_searched keeps the ten fewest lots hold (test_ranking).
    assert services.terms_of("a b " + " ".join(f"w{i}" for i in range(20))) == [f"w{i}" for i in range(20)]
    assert services.terms_of("天気 予報") == ["天気", "予報"]


def test_matches_counts_every_lot_that_holds_a_word(demo: CensusState) -> None:
    matches, records = services.search(["gateway"], 3)
    assert matches == 12 and len(records) == 3  # eleven behind the shared gateway, and an SMS gateway


def test_each_database_has_its_own_ranked_search(demo: CensusState) -> None:
    fn = services.search_postgresql if connection.vendor == "postgresql" else services.search_sqlite
    matches, found = fn(["weather", "forecasts"])
    assert matches == 2
    assert found[0][0] == services.find_lot("io.clockford.demo/Weather").number  # type: ignore[union-attr]
    assert found[0][2:5] == ("clockford demo Weather", "Demo Weather", lot_description("io.clockford.demo/Weather"))
    relevance = [c[1] for c in found]
    assert relevance == sorted(relevance, reverse=True) and relevance[0] > 0


def test_the_directory_answers_in_its_fields(demo: CensusState, alice: Passport) -> None:
    answer, remembered, servers = services.ask(alice.id, "weather forecasts", 2)
    assert remembered is False and servers == 34
    assert answer["terms"] == ["weather", "forecasts"] and answer["matches"] == 2
    assert [set(r) for r in answer["results"]] == [set(services.RESULT_KEYS)] * 2
    assert "demo census" in answer["source"]
