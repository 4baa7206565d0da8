"""Taking the census: versions fold into lots, lot numbers never change, a second import changes
nothing, an interrupted run is finished by the next, and the demo never mixes with real data."""

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from districts.town_hall import ingest, integrity, services
from districts.town_hall.models import CensusState, Entry, Lot
from districts.town_hall.tests.base import listing, lot, take

pytestmark = pytest.mark.django_db


def snapshot() -> dict[str, Any]:
    return {lot.number: (lot.name, lot.record, lot.leaf) for lot in Lot.objects.all()}


def test_it_folds_versions_into_one_lot_newest_first(demo: CensusState) -> None:
    assert demo.demo is True
    assert demo.entries == 37 and demo.servers == 34
    pg = lot("io.clockford.demo/postgres-readonly").record
    assert pg["versions"] == ["1.1.0", "1.0.0", "0.9.0"]
    assert pg["version"] == "1.1.0"
    assert pg["firstSeen"] == "2026-08-02T10:00:00Z" and pg["updatedAt"] == "2026-10-20T10:00:00Z"
    assert pg["publisher"] == "demo.clockford.io"
    assert pg["package"] == {
        "registryType": "npm",
        "identifier": "@clockford-demo/postgres-readonly",
        "version": "1.1.0",
        "transport": "stdio",
    }
    assert pg["remote"] is None and pg["host"] is None and pg["hasRepo"] is True


def test_every_demo_entry_says_it_is_made_up(demo: CensusState) -> None:
    for e in Entry.objects.all():
        body = json.loads(e.body)
        assert body["_meta"]["io.clockford/demo"].startswith("Made up by Clockford")
        assert body["server"]["description"].startswith("Demo: ")
    assert services.census_name(demo).startswith("Clockford demo census (made-up servers")


def test_the_record_has_every_field_of_enter(demo: CensusState) -> None:
    record = lot("io.clockford.demo/web-search").record
    spec = "lot name title publisher version versions status firstSeen updatedAt host hasRepo remote package"
    assert set(spec.split()) | {"hostSharedWith", "house", "integrity", "words"} <= set(record)
    assert record["host"] == "search.clockford-demo.example"
    assert record["remote"] == {"type": "streamable-http", "url": "https://search.clockford-demo.example/mcp"}
    assert set(record["house"]) == {"class", "meaning", "floors", "lampLit"}
    assert set(record["integrity"]) == {"score", "reasons"}
    assert record["words"] == {
        "description": "Demo: search the web and return titles, links and short snippets for each result."
    }


def test_a_second_import_changes_nothing(demo: CensusState) -> None:
    before = snapshot()
    tally, again = ingest.import_demo()
    assert (tally.new, tally.changed, tally.folded, tally.new_lots, tally.derived) == (0, 0, 0, 0, 0)
    assert again.root == demo.root and again.sealed_at == demo.sealed_at
    assert snapshot() == before


def test_the_summary_counts_repeated_entries_and_every_record_written(db: None) -> None:
    """An entry repeated in one run was kept silently (the last one read wins), and a first import said
    only the records its census-wide reading changed again (237 of the real snapshot's 12,137)."""
    host = [{"type": "streamable-http", "url": "https://gw.example.com/a"}]
    items = [
        listing("com.a/one"),
        listing("com.a/one", description="Reads rows of a PostgreSQL database, the second telling."),
        listing("com.a/two", remotes=host),
        listing("com.a/three", remotes=host),
    ]
    tally, _ = take(items)
    assert (tally.received, tally.skipped, tally.repeated, tally.new, tally.new_lots) == (4, 0, 1, 3, 3)
    assert tally.derived == 3
    assert "4 entries read (0 skipped, 1 repeated), 3 new" in tally.line()
    assert tally.line().endswith("3 records new or changed.")
    assert "second telling" in lot("com.a/one").facts["description"]
    tally, _ = take([listing("com.a/four")])
    assert (tally.repeated, tally.derived) == (0, 1)
    assert tally.line() == (
        "1 entry read (0 skipped), 1 new, 0 changed; 1 server folded (1 new lot); 1 record new or changed."
    )


def test_lot_numbers_never_change_and_new_servers_take_the_next(db: None) -> None:
    take(
        [listing("com.a/one", published="2026-03-01T00:00:00Z"), listing("com.a/two", published="2026-04-01T00:00:00Z")]
    )
    assert (lot("com.a/one").number, lot("com.a/two").number) == (0, 1)
    # A server first registered before both still takes the next number; a new version keeps its lot.
    take(
        [
            listing("com.a/zero", published="2026-01-01T00:00:00Z"),
            listing("com.a/two", version="2.0.0", published="2026-05-01T00:00:00Z"),
        ]
    )
    assert (lot("com.a/one").number, lot("com.a/two").number, lot("com.a/zero").number) == (0, 1, 2)
    assert lot("com.a/two").record["versions"] == ["2.0.0", "1.0.0"]
    s = services.state()
    assert (s.entries, s.servers) == (4, 3)


def test_a_first_import_numbers_lots_in_registration_order(db: None) -> None:
    take([listing(f"com.a/s{i}", published=f"2026-0{9 - i}-01T00:00:00Z") for i in range(5)])
    assert [lot(f"com.a/s{i}").number for i in range(5)] == [4, 3, 2, 1, 0]


def test_names_that_differ_only_in_case_stay_distinct_and_are_flagged(db: None) -> None:
    take(
        [
            listing("io.github.SceneView/mcp", repo="https://github.com/SceneView/mcp"),
            listing("io.github.sceneview/mcp", repo="https://github.com/sceneview/mcp"),
        ]
    )
    upper, lower = lot("io.github.SceneView/mcp"), lot("io.github.sceneview/mcp")
    assert upper.number != lower.number
    assert upper.record["caseTwins"] == [lower.number] and lower.record["caseTwins"] == [upper.number]
    assert services.find_lot("io.github.SCENEVIEW/mcp") is None


def test_a_deleted_listing_keeps_its_lot(db: None) -> None:
    take([listing("com.a/gone", updated="2026-05-01T00:00:00Z")])
    number = lot("com.a/gone").number
    take([listing("com.a/gone", status="deleted", updated="2026-06-01T00:00:00Z")])
    gone = lot("com.a/gone")
    assert gone.number == number and gone.status == "deleted"
    assert gone.record["status"] == "deleted"
    assert services.search(["postgresql"], 8) == (0, [])


def test_an_entry_without_status_or_dates_is_still_counted(db: None) -> None:
    tally, s = take([listing("com.a/early", status=None, published=None), {"server": {"no": "name"}}, "junk"])  # type: ignore[list-item]
    assert tally.skipped == 2
    assert s.entries == 1 and s.servers == 1
    assert lot("com.a/early").record["status"] == "active"
    assert lot("com.a/early").record["firstSeen"] is None


def test_an_interrupted_fold_is_finished_by_the_next_run(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    items = [listing(f"com.a/s{i:02d}", published=f"2026-01-{i + 1:02d}T00:00:00Z") for i in range(12)]
    take(items)
    clean = services.state().root
    ingest.wipe()

    monkeypatch.setattr(ingest, "FOLD_BATCH", 5)
    calls = {"n": 0}
    real_fold = ingest.fold

    def failing(name: str, entries: list[Entry], *body: str | None) -> dict[str, Any]:
        calls["n"] += 1
        if calls["n"] == 8:
            raise KeyboardInterrupt
        return real_fold(name, entries, *body)

    monkeypatch.setattr(ingest, "fold", failing)
    with pytest.raises(KeyboardInterrupt):
        take(items)
    assert Lot.objects.count() == 5  # the first batch committed, the second rolled back
    assert Entry.objects.filter(folded=False).count() == 7
    monkeypatch.setattr(ingest, "fold", real_fold)
    take(items)
    assert services.state().root == clean
    assert [lot(f"com.a/s{i:02d}").number for i in range(12)] == list(range(12))


def test_real_data_replaces_the_demo_and_the_demo_never_replaces_real_data(demo: CensusState) -> None:
    take([listing("com.a/real")])
    s = services.state()
    assert s.demo is False and s.servers == 1 and lot("com.a/real").number == 0
    with pytest.raises(ingest.CensusError, match="will not replace it unless asked with --replace"):
        ingest.import_demo()
    assert services.state().servers == 1
    ingest.import_demo(replace=True)
    assert services.state().demo is True and services.state().servers == 34


def test_ensure_loads_the_demo_only_into_an_empty_census(db: None) -> None:
    assert "loaded the demo census" in ingest.ensure(None)
    assert "34 servers (the demo census)" in ingest.ensure(None)


def test_ensure_loads_the_demo_again_when_loading_it_was_cut_short(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first ./town up killed while it loaded the demo census: what it read is the demo's, and the next
    one loads the demo whole, labelled demo, rather than sealing part of it as a real census (which the
    demo would never leave for real data without being asked)."""

    def stopped(*args: Any) -> CensusState:
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest, "settle", stopped)
    with pytest.raises(KeyboardInterrupt):
        ingest.ensure(None)
    monkeypatch.undo()
    assert Entry.objects.exists() and not services.state().demo

    said = ingest.ensure(None)
    s = services.state()
    assert "cut short" in said and "loaded it again" in said and "labelled demo" in said, said
    assert s.demo is True and s.servers == 34 == s.holds
    take([listing("com.a/real")])  # real data still replaces it
    assert services.state().demo is False and services.state().servers == 1


@pytest.mark.parametrize("stopped_in", ["read", "fold"])
def test_ensure_finishes_an_import_stopped_before_its_seal(
    db: None, monkeypatch: pytest.MonkeyPatch, stopped_in: str
) -> None:
    """A town stopped (kill -9) while an import replaced the demo census: the demo is gone, the entries
    read are kept, and the census was never sealed. The next ./town up settles what was read and says
    the import was cut short, where it said "0 servers" while the Directory listed servers."""
    ingest.ensure(None)  # the demo
    items = [listing(f"com.a/s{i:02d}", published=f"2026-01-{i + 1:02d}T00:00:00Z") for i in range(12)]
    monkeypatch.setattr(ingest, "FOLD_BATCH", 5)
    real_fold, real_settle = ingest.fold, ingest.settle
    calls = {"n": 0}

    def failing_fold(name: str, entries: list[Entry], *body: str | None) -> dict[str, Any]:
        calls["n"] += 1
        if calls["n"] == 8:
            raise KeyboardInterrupt
        return real_fold(name, entries, *body)

    def stopped(*args: Any) -> CensusState:
        raise KeyboardInterrupt

    if stopped_in == "fold":
        monkeypatch.setattr(ingest, "fold", failing_fold)
    else:
        monkeypatch.setattr(ingest, "settle", stopped)
    with pytest.raises(KeyboardInterrupt):
        take(items)
    monkeypatch.setattr(ingest, "fold", real_fold)
    monkeypatch.setattr(ingest, "settle", real_settle)
    assert services.state().servers == 0 and Entry.objects.count() == 12

    said = ingest.ensure(None)
    s = services.state()
    assert "cut short" in said and "12 servers" in said, said
    # Whether the file had more is not known: the import run again takes only what is missing.
    assert said.endswith("If it had more to read, run it again: it takes what is missing and changes nothing else.")
    assert s.servers == 12 == Lot.objects.count() and s.holds == 12 and s.root and not s.demo
    assert not Entry.objects.filter(folded=False).exists()
    assert [lot(f"com.a/s{i:02d}").number for i in range(12)] == list(range(12))
    assert "cut short" not in ingest.ensure(None)  # settled once, then served as it is


def test_a_registrys_odd_entries_are_read_or_skipped_and_never_stop_the_census(db: None) -> None:
    """One odd entry stopped the import (and every later import and sync, as an entry taken in but
    never folded): a list field that is no list, a time that is no string or falls outside the years
    once in UTC; and on PostgreSQL, a NUL character, a NaN, a host longer than a host can be, a name
    that grows when case-folded. The odd fields now read as absent; an entry no database can keep
    as it is is skipped, and said in the count."""
    odd = "https://" + "h" * 300 + ".example.com/mcp"
    readable = [
        listing("com.a/remotes", remotes=5),  # type: ignore[arg-type]
        listing("com.a/packages", packages=7),  # type: ignore[arg-type]
        listing("com.a/number-time", published=12345),  # type: ignore[arg-type]
        listing("com.a/before-year-one", published="0001-01-01T00:00:00+01:00"),
        listing("com.a/after-9999", published="9999-12-31T23:59:59-01:00"),
        listing("com.a/long-host", remotes=[{"type": "streamable-http", "url": odd}]),
    ]
    unkeepable = [
        listing("com.a/nul", description="Reads rows of a \x00 PostgreSQL database with read-only roles."),
        listing("com.a/nan", extra={"size": float("nan")}),
        listing("com.a/surrogate", description="Reads rows of a \ud800 PostgreSQL database."),
        listing("com.a/" + "ß" * 249),  # 255 characters, 504 once case-folded
    ]
    tally, s = take(readable + unkeepable)
    assert (tally.received, tally.skipped, s.servers) == (10, 4, 6)
    assert not Entry.objects.filter(folded=False).exists()
    assert lot("com.a/remotes").record["remote"] is None
    assert lot("com.a/packages").record["package"] is None
    assert lot("com.a/number-time").record["firstSeen"] is None
    assert lot("com.a/before-year-one").record["firstSeen"] is None
    assert lot("com.a/after-9999").record["firstSeen"] is None
    long_host = lot("com.a/long-host").record
    assert long_host["host"] is None and long_host["remote"] == {"type": "streamable-http", "url": odd}
    # The census goes on: the next import reads as the first did.
    tally, s = take([listing("com.a/next")])
    assert (tally.skipped, s.servers) == (0, 7)


def test_a_remotes_fields_that_are_not_words_read_as_absent(db: None) -> None:
    """A remote's type or URL that is a number or an object read as its Python text ("{'a': 1}" in a
    record's URL); like a package's fields, they now read as absent, and a remote without a URL is none
    (it spared the listing the rule of no way to run)."""
    take(
        [
            listing("com.a/odd-remote", remotes=[{"type": 5, "url": {"a": 1}}, {"type": "sse", "url": " "}]),
            listing("com.a/odd-type", remotes=[{"type": ["sse"], "url": "https://odd.example.com/mcp"}]),
        ]
    )
    odd = lot("com.a/odd-remote")
    assert odd.record["remote"] is None and "{'a'" not in json.dumps(odd.record)
    assert "no-launch-info" in {d["rule"] for d in odd.deductions}
    assert lot("com.a/odd-type").record["remote"] == {"type": "", "url": "https://odd.example.com/mcp"}


def test_an_entry_far_larger_than_any_registry_listing_is_skipped(db: None) -> None:
    """The registry caps a description at 100 characters and the real snapshot's largest entry is about
    60 KiB; an entry of 2 MB (a mirror that does not check) was taken whole, and every enter and verify
    of its lot carried it twice, 4 MB a reply. Past ingest.ENTRY_BYTES an entry is skipped and counted."""
    at_most = listing("com.a/roomy")
    at_most["server"]["description"] = "r" * (ingest.ENTRY_BYTES - len(json.dumps(at_most)) - 200)
    huge = listing("com.a/huge", description="Reads rows of a PostgreSQL database. " * 60_000)
    tally, s = take([at_most, huge])
    assert (tally.received, tally.skipped, s.servers) == (2, 1, 1)
    assert lot("com.a/roomy").record["name"] == "com.a/roomy"


def test_a_sync_stops_where_a_registrys_cursors_go_round_in_a_circle(db: None) -> None:
    """A registry whose next cursor comes back again was read round and round for ever, and
    `./town up`, which syncs before it serves, never served. The sync stops there, said in words
    (ensure serves the census as it was); so does one whose cursor the town cannot keep."""
    asked: list[str] = []

    def circle(url: str) -> dict[str, Any]:
        asked.append(url)
        if len(asked) > 10:
            raise AssertionError("the sync went round in a circle")
        cursor = "b" if "cursor=a" in url else "a"
        return {"servers": [listing(f"com.a/page-{cursor}")], "metadata": {"nextCursor": cursor}}

    with pytest.raises(ingest.CensusError) as refused:
        ingest.sync("https://registry.example", fetch=circle)
    assert str(refused.value) == (
        "The registry at https://registry.example/v0.1/servers gave a cursor it had given before, so its "
        "list goes round in a circle; the sync stopped there."
    )
    assert len(asked) == 3

    def unkeepable(url: str) -> dict[str, Any]:
        return {"servers": [listing("com.a/odd")], "metadata": {"nextCursor": {"page": 2}}}

    with pytest.raises(ingest.CensusError, match="gave a next cursor the town cannot keep"):
        ingest.sync("https://registry.example", fetch=unkeepable)


def test_a_listing_dated_in_the_future_does_not_move_the_censuss_date(db: None) -> None:
    """The census's date is the newest updatedAt it holds; one entry dated 2099 made it 2099, so
    every other listing read as 73 years stale and every lamp went out. A listing dated later than
    now does not count."""
    take([listing("com.a/today", published="2026-05-01T10:00:00Z")])
    before = lot("com.a/today").record
    assert before["house"]["lampLit"] is True
    tally, s = take([listing("com.a/tomorrow", published="2099-01-01T00:00:00Z")])
    assert s.as_of is not None and s.as_of.isoformat() == "2026-05-01T10:00:00+00:00"
    assert tally.derived == 1  # the new lot's record alone
    assert lot("com.a/today").record == before
    assert "stale" not in [d["rule"] for d in lot("com.a/today").deductions]


def test_an_entry_nested_past_any_listing_is_skipped_and_the_census_goes_on(db: None) -> None:
    """A listing nested 1,500 deep (3 KB, well under ENTRY_BYTES) was taken in, and the integrity scan's
    walk overflowed the stack at its fold: that import and every later one stopped, and `./town up`
    with them. Past ingest.ENTRY_LEVELS an entry is skipped and counted; the scan walks any depth."""
    deep: Any = "bottom"
    for _ in range(1500):
        deep = [deep]
    nested = listing("com.a/deep", extra={"x": deep})
    tally, s = take([nested, listing("com.a/plain")])
    assert (tally.received, tally.skipped, s.servers) == (2, 1, 1)
    assert not Entry.objects.filter(folded=False).exists()
    assert list(integrity.strings({"a": ["one", {"b": deep}], "c": "two"})) == ["one", "bottom", "two"]
    tally, s = take([listing("com.a/next")])
    assert (tally.skipped, s.servers) == (0, 2)


def test_a_listing_of_the_year_one_is_written_as_rfc_3339_and_is_stale(db: None) -> None:
    take([listing("com.a/ancient", published="0001-01-01T00:00:00Z"), listing("com.a/recent")])
    record = lot("com.a/ancient").record
    assert record["firstSeen"] == "0001-01-01T00:00:00Z"
    # Written "1-01-01T00:00:00Z" before, which the stale rule could not read back: no deduction.
    assert any(r.endswith(", stale)") for r in record["integrity"]["reasons"]), record["integrity"]


def test_a_server_of_many_versions_names_its_newest_hundred(db: None) -> None:
    take(
        [
            listing("com.a/busy", version=f"1.0.{i}", published=f"2026-05-01T10:{i // 60:02d}:{i % 60:02d}Z")
            for i in range(150)
        ]
    )
    versions = lot("com.a/busy").record["versions"]
    assert len(versions) == ingest.VERSIONS_KEPT == 100 and versions[0] == "1.0.149" and versions[-1] == "1.0.50"


def test_an_emoji_does_not_spare_a_thin_description_its_check() -> None:
    """Wide letters (Chinese, Japanese) are not split into words, so a description in them is not
    counted by words; an emoji is wide but no letter, and one of them spared "Jotform MCP server"."""
    assert integrity.thin_description("Jotform MCP server 🚀", "io.github.probe/jotform")
    assert integrity.thin_description("Jotform MCP server ✅✅✅✅", "io.github.probe/jotform")
    assert not integrity.thin_description("日本語のファイルを検索して読み込むサーバー", "io.github.a/b")
    assert not integrity.thin_description("Search Jotform forms and submissions 🚀", "io.github.probe/jotform")


def test_ensure_seals_an_import_of_changed_listings_stopped_before_its_seal(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import again of listings the census holds, with changed words, stopped (kill -9) after its
    records were derived and before its seal: no entry waits and no lot is new, so the next ./town up
    said nothing was cut short and served a seal the lots' leaves no longer make."""
    items = [listing(f"com.a/s{i:02d}", published=f"2026-01-{i + 1:02d}T00:00:00Z") for i in range(12)]
    take(items)
    changed = [
        listing(f"com.a/s{i:02d}", published=f"2026-01-{i + 1:02d}T00:00:00Z", description="Other words.")
        for i in range(12)
    ]

    def stopped(*args: Any) -> CensusState:
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest, "seal", stopped)
    with pytest.raises(KeyboardInterrupt):
        take(changed)
    monkeypatch.undo()
    leaves = list(Lot.objects.order_by("number").values_list("leaf", flat=True))
    assert services.state().root != services.seal_root(leaves)

    said = ingest.ensure(None)
    assert "cut short" in said, said
    assert services.state().root == services.seal_root(leaves)
    assert "cut short" not in ingest.ensure(None)


def test_the_fold_parses_scans_and_hashes_before_its_write_transaction(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every listing's JSON parsed, scanned by the integrity rules and its record hashed, all before the
    transaction that writes the batch: inside it, a thousand of them held every other writer waiting.
    The seal's root and common words likewise, before the seal's transaction."""
    outside = len(connection.atomic_blocks)  # the test's own transaction, when it has one
    seen: list[tuple[str, bool]] = []
    real_scan, real_leaf = integrity.scan, services.leaf_of

    def scan(server: dict[str, Any]) -> dict[str, Any]:
        seen.append(("scan", len(connection.atomic_blocks) > outside))
        return real_scan(server)

    def leaf_of(record: dict[str, Any]) -> str:
        seen.append(("leaf", len(connection.atomic_blocks) > outside))
        return real_leaf(record)

    def watched(kind: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            seen.append((kind, len(connection.atomic_blocks) > outside))
            return real(*args)

        return call

    monkeypatch.setattr(integrity, "scan", scan)
    monkeypatch.setattr(services, "leaf_of", leaf_of)
    # The seal's root (a hash over every leaf) and its common words (every lot's words read) too.
    monkeypatch.setattr(services, "seal_root", watched("root", services.seal_root))
    monkeypatch.setattr(services, "common_words", watched("words", services.common_words))
    tally, s = take([listing(f"com.a/s{i:02d}", published=f"2026-01-{i + 1:02d}T00:00:00Z") for i in range(12)])
    assert tally.new_lots == 12 and s.servers == 12
    kinds = [kind for kind, _ in seen]
    assert (kinds.count("scan"), kinds.count("root"), kinds.count("words")) == (12, 1, 1) and kinds.count("leaf") >= 12
    assert [(kind, inside) for kind, inside in seen if inside] == []


@pytest.mark.parametrize("moves", [1, 5])
def test_a_fold_whose_census_moved_under_its_plan_plans_again(
    db: None, monkeypatch: pytest.MonkeyPatch, moves: int
) -> None:
    """Another run writing a newer version of a server between a batch's plan and its transaction (two
    imports at once on SQLite, where no lock keeps them apart): the batch is planned again, and the lot
    speaks for the newest version, with nothing left unfolded. Once the census has moved under every
    try but the last, the last plans inside its transaction."""
    items = [listing(f"com.a/s{i:02d}", published=f"2026-01-{i + 1:02d}T00:00:00Z") for i in range(3)]
    real_plan = ingest.plan_fold
    plans = {"n": 0}

    def plan_then_another_run_writes(chunk: list[str], as_of: Any) -> ingest.FoldPlan:
        plan = real_plan(chunk, as_of)
        plans["n"] += 1
        if plans["n"] <= moves and plans["n"] < ingest.FOLD_TRIES:
            newer = listing("com.a/s01", f"2.0.{plans['n']}", published=f"2026-03-0{plans['n']}T00:00:00Z")
            ingest.ingest([newer], ingest.Tally())
        return plan

    monkeypatch.setattr(ingest, "plan_fold", plan_then_another_run_writes)
    tally, s = take(items)
    newest = f"2.0.{min(moves, ingest.FOLD_TRIES - 1)}"
    assert plans["n"] == min(moves, ingest.FOLD_TRIES - 1) + 1
    assert lot("com.a/s01").facts["version"] == newest and lot("com.a/s01").record["version"] == newest
    assert not Entry.objects.filter(folded=False).exists() and not ingest.cut_short()
    assert [lot(f"com.a/s{i:02d}").number for i in range(3)] == [0, 1, 2]


def test_a_seal_whose_lots_moved_under_it_is_computed_again(db: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another run writing a lot between the seal's sums and its transaction: the seal is computed
    again, and its root is the root of the lots as they are."""
    take([listing(f"com.a/s{i:02d}", published=f"2026-01-{i + 1:02d}T00:00:00Z") for i in range(3)])
    real = ingest.sealing
    calls = {"n": 0}

    def sealing_then_a_lot_moves() -> tuple[list[str], str, dict[str, float]]:
        planned = real()
        calls["n"] += 1
        if calls["n"] == 1:
            Lot.objects.filter(number=1).update(leaf="00" * 32)
        return planned

    monkeypatch.setattr(ingest, "sealing", sealing_then_a_lot_moves)
    s = ingest.seal(None, None, None)
    leaves = list(Lot.objects.order_by("number").values_list("leaf", flat=True))
    assert calls["n"] == 2 and s.root == services.seal_root(leaves) == services.state().root
