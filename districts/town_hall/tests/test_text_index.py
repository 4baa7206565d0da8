"""The Directory's text index is in-process and the same on every database: FTS5 with the database
table's tokenizer, bm25 with its column weights, built once per seal from the searchable lots. On a
SQLite town it answers exactly as the database's own index; on PostgreSQL it answers the same."""

import pytest
from django.db import connection

from districts.town_hall import ranking, services
from districts.town_hall.models import CensusState, Lot
from districts.town_hall.tests.base import listing, take
from districts.town_hall.textindex import TextIndex, fts_query

pytestmark = pytest.mark.django_db


def index(demo: CensusState) -> TextIndex:
    known = ranking.CENSUS.load(demo.root, demo.as_of)
    assert known.text is not None
    return known.text


def test_it_counts_and_ranks_as_bm25_with_the_columns_weighed(demo: CensusState) -> None:
    matches, found = index(demo).search(["weather", "forecasts"], 60)
    weather = services.find_lot("io.clockford.demo/Weather")
    assert weather is not None and matches == 2 and found[0][0] == weather.number
    relevance = [r for _, r in found]
    assert relevance == sorted(relevance, reverse=True) and relevance[0] > 0
    # Plural and singular meet (porter), and a long term is a prefix: "sqlit" finds "sqlite".
    assert index(demo).search(["forecast"], 5)[0] == index(demo).search(["forecasts"], 5)[0] >= 1
    assert index(demo).search(["sqlit"], 5)[0] >= 1
    assert index(demo).search([], 5) == (0, [])


@pytest.mark.skipif(connection.vendor != "sqlite", reason="compares with the database's own FTS5 table")
def test_on_sqlite_it_answers_exactly_as_the_databases_own_index(demo: CensusState) -> None:
    for terms in (["weather", "forecasts"], ["gateway"], ["postgres", "database"], ["maps", "routes"]):
        matches, found = services.search_sqlite(terms)
        mine = index(demo).search(terms, services.CANDIDATES)
        assert mine[0] == matches
        assert sorted(mine[1]) == sorted((c[0], c[1]) for c in found), terms


def test_it_holds_only_searchable_lots_and_is_built_again_for_a_new_seal(db: None) -> None:
    take([listing("com.a/slack-bot", description="Post messages to Slack channels.")])
    first = CensusState.objects.get(pk=1)
    assert ranking.CENSUS.load(first.root, first.as_of).text.search(["slack"], 5)[0] == 1  # type: ignore[union-attr]
    take([listing("com.b/slack-archive", description="Export Slack workspaces.")])
    second = CensusState.objects.get(pk=1)
    assert second.root != first.root
    assert ranking.CENSUS.load(second.root, second.as_of).text.search(["slack"], 5)[0] == 2  # type: ignore[union-attr]
    Lot.objects.filter(name="com.b/slack-archive").update(status="deleted")
    ranking.CENSUS.forget()
    assert ranking.CENSUS.load(second.root, second.as_of).text.search(["slack"], 5)[0] == 1  # type: ignore[union-attr]


def test_the_query_is_words_only() -> None:
    assert fts_query(["postgres", "sql"]) == '"postgres"* OR "sql"'
