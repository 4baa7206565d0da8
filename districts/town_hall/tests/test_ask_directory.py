"""ask_directory through the real desk: terms, matches, results best first, limit 1-25 (default 8),
census words labelled publisher-words, a repeated question answered from memory at no cost, and the
Directory clerk busy under load."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clockford.town.models import Passport
from districts.testing import outcome, visit
from districts.town_hall import ranking, services
from districts.town_hall.models import CensusState, Lot

pytestmark = pytest.mark.django_db

FIELDS = {"say", "terms", "matches", "results", "source", "footstep", "provenance"}
MEMORY = " Answered from memory, at no cost."


def test_it_answers_every_field(demo: CensusState, alice: Passport) -> None:
    r = visit(alice, "ask_directory", need="read-only postgres database access")
    sc = r.structured
    assert r.is_error is False and set(sc) == FIELDS
    assert sc["terms"] == ["read", "postgres", "database", "access"]
    assert sc["results"][0]["name"] == "io.clockford.demo/postgres-readonly"
    assert [list(x) for x in sc["results"]] == [list(services.RESULT_KEYS)] * len(sc["results"])
    assert sc["results"][0]["integrity"] == {"score": 100, "reasons": []}
    assert sc["matches"] >= len(sc["results"])
    assert (
        sc["say"]
        == f"The Directory found {sc['matches']} matching servers; here are the best {len(sc['results'])}, each with its integrity."
    )
    assert outcome(r) == "ok"
    alice.refresh_from_db()
    assert alice.place == "Town Hall"


def test_the_limit_defaults_to_eight_and_is_kept(demo: CensusState, alice: Passport) -> None:
    assert len(visit(alice, "ask_directory", need="demo").structured["results"]) == 8
    assert len(visit(alice, "ask_directory", need="demo", limit=25).structured["results"]) == 25
    assert len(visit(alice, "ask_directory", need="demo", limit=1).structured["results"]) == 1


def test_census_words_are_labelled_and_never_in_say(demo: CensusState, alice: Passport) -> None:
    sc = visit(alice, "ask_directory", need="weather forecasts").structured
    parts = {(p["path"], p["label"]) for p in sc["provenance"]["parts"]}
    for path in ("name", "title", "publisher", "versions[]", "remote", "package", "words"):
        assert (f"results[].{path}", "publisher-words") in parts
    assert ("terms[]", "agent-written") in parts
    for result in sc["results"]:
        for text in (result["name"], result["title"], result["publisher"]):
            assert text not in sc["say"]


def test_a_repeated_question_is_answered_from_memory_at_no_cost(
    demo: CensusState, alice: Passport, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "PER_MINUTE", 2)
    first = visit(alice, "ask_directory", need="weather forecasts", limit=3).structured
    for _ in range(5):
        again = visit(alice, "ask_directory", need="Weather, forecasts!", limit=3)
        assert again.is_error is False
        assert again.structured["say"] == first["say"] + MEMORY
        assert again.structured["results"] == first["results"]
    # Only the first counted: one fresh question is still allowed this minute.
    assert visit(alice, "ask_directory", need="calendar events").is_error is False


def test_the_clerk_is_busy_past_the_minutes_questions(
    demo: CensusState, alice: Passport, bob: Passport, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "PER_MINUTE", 2)
    visit(alice, "ask_directory", need="one")
    visit(alice, "ask_directory", need="two")
    r = visit(alice, "ask_directory", need="three")
    assert r.is_error is True
    n = r.structured["retryAfterSeconds"]
    assert isinstance(n, int) and 1 <= n <= 61
    assert r.structured["say"] == f"The Directory clerk is busy. Try again in {n} seconds."
    assert "hold" not in r.structured and "results" not in r.structured
    assert outcome(r) == "busy"
    # Another agent's questions are its own; a remembered answer still comes.
    assert visit(bob, "ask_directory", need="three").is_error is False
    assert visit(alice, "ask_directory", need="one").is_error is False


def test_the_clerk_is_busy_when_too_many_searches_run_at_once(
    demo: CensusState, alice: Passport, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "AT_ONCE", 0)
    r = visit(alice, "ask_directory", need="weather")
    assert r.structured["say"] == "The Directory clerk is busy. Try again in 1 seconds."
    assert r.structured["retryAfterSeconds"] == 1


def test_a_secret_in_the_need_is_refused_and_not_kept(demo: CensusState, alice: Passport) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    r = visit(alice, "ask_directory", need=f"servers for {token}")
    assert r.is_error is True and r.structured["say"].startswith("That looks like a GitHub token.")
    assert token not in r.text


def test_an_empty_census_says_so(alice: Passport) -> None:
    r = visit(alice, "ask_directory", need="weather")
    assert r.is_error is False
    assert r.structured["results"] == [] and r.structured["matches"] == 0
    assert r.structured["say"] == "The census is empty, so the Directory has no servers to offer yet."


def test_a_census_still_being_imported_is_not_said_empty_beside_its_results(demo: CensusState, alice: Passport) -> None:
    """An import that replaces the demo census clears the seal first and seals again at its end; while it
    runs (or once it was stopped mid-run) the lots it wrote are found. The reply said the census was
    empty and listed servers beside it."""
    CensusState.objects.filter(pk=1).delete()
    services.forget_summary()
    services.CLERK.forget_all()
    ranking.CENSUS.forget()  # a worker that had not yet read the census under an empty seal
    r = visit(alice, "ask_directory", need="weather")
    assert r.structured["results"], r.structured
    assert "empty" not in r.structured["say"], r.structured["say"]


def test_nothing_matching_is_an_answer(demo: CensusState, alice: Passport) -> None:
    r = visit(alice, "ask_directory", need="zzqx vvwy")
    assert r.is_error is False and r.structured["results"] == []
    assert r.structured["say"] == "No server in the census matches those 2 words."


@pytest.mark.parametrize(
    ("need", "limit", "say"),
    [
        ("zzqx", 8, "No server in the census matches that word."),
        ("🙂🙂", 8, "No server in the census matches those words: none of them is a word the Directory searches."),
        ("weather", 1, "The Directory found 2 matching servers; here is the best, with its integrity."),
    ],
)
def test_counts_in_the_say_read_in_plain_english(
    demo: CensusState, alice: Passport, need: str, limit: int, say: str
) -> None:
    # Once said "matches those 1 words", "those 0 words" and "here are the best 1".
    r = visit(alice, "ask_directory", need=need, limit=limit)
    assert r.is_error is False
    assert r.structured["say"] == say


@pytest.mark.parametrize(
    "need",
    [
        "the",
        "OR AND NOT",
        '"quoted" NEAR(x y)',
        "🙂🙂",
        "天気予報",
        "x402 payments",
        "a-b_c/d:e*",
        "about them",
        "ünïcödé",
    ],
)
def test_odd_needs_are_answered_not_broken(demo: CensusState, alice: Passport, need: str) -> None:
    r = visit(alice, "ask_directory", need=need)
    assert r.is_error is False, r.structured["say"]
    assert isinstance(r.structured["matches"], int) and isinstance(r.structured["results"], list)


def directory_statements(passport: Passport, need: str) -> list[str]:
    """The SQL statements one ask_directory call sends about the census and its deeds (the desk's
    own, for the passport and the footstep, are the desk's business)."""
    with CaptureQueriesContext(connection) as seen:
        assert visit(passport, "ask_directory", need=need).is_error is False
    return [q["sql"] for q in seen.captured_queries if "town_hall_" in q["sql"] or "realty_" in q["sql"]]


def test_a_question_reads_the_census_version_and_the_deeds_and_nothing_more(demo: CensusState, alice: Passport) -> None:
    # Everything else is the census's and cannot change while its root stays the same: the index,
    # the facts and the records a reply shows are kept in the process (ranking.Census). Each
    # statement is a round trip on PostgreSQL, where the Directory has 15 ms for its whole answer.
    visit(alice, "ask_directory", need="warm the census up")
    for need in ("read-only postgres database access", "where my team chats", "weather forecasts"):
        sent = directory_statements(alice, need)
        assert len(sent) == 2, sent
        assert "town_hall_censusstate" in sent[0] and "realty_deed" in sent[1]
    # A question answered from memory reads the census's version, and the deeds fresh.
    assert len(directory_statements(alice, "weather forecasts")) == 2


def test_the_records_a_reply_shows_are_the_census_records(demo: CensusState, alice: Passport) -> None:
    results = visit(alice, "ask_directory", need="demo", limit=25).structured["results"]
    records = dict(Lot.objects.filter(number__in=[r["lot"] for r in results]).values_list("number", "record"))
    assert len(results) == 25
    for r in results:
        assert r == {**services.result_view({**records[r["lot"]], "why": r["why"]})}


def test_the_say_never_counts_more_matches_than_there_are(demo: CensusState, alice: Passport) -> None:
    """Past the servers that match, the results go on with ones that hold the vocabulary's words for the
    need's: the say counts the matches as `matches` does, and names the rest apart."""
    sc = visit(alice, "ask_directory", need="files").structured
    n, matches = len(sc["results"]), sc["matches"]
    assert 0 < matches < n, (matches, n)
    assert sc["say"] == (
        f"The Directory found {matches} matching servers; here they are with {n - matches} more that hold words "
        "the vocabulary gives for yours, best first, each with its integrity."
    )
