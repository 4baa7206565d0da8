"""Listings a registry that lies or attacks could send, taken from a file as `census import` takes them:
what the census keeps of them, and what it tells agents."""

import tracemalloc
from typing import Any

import pytest
from django.db import connection

from districts.town_hall import ingest
from districts.town_hall.models import Entry
from districts.town_hall.tests.base import listing, lot, take

pytestmark = pytest.mark.django_db


def test_a_remote_that_is_no_web_address_is_no_remote(db: None) -> None:
    """A javascript:, data: or file: URL reaches no MCP server: it was handed to every agent as the
    server's remote, and spared the listing the rule of no way to run it."""
    odd = ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd", "https:///mcp"]
    take(
        [
            listing(f"com.a/odd-{i}", remotes=[{"type": "streamable-http", "url": url}], packages=[])
            for i, url in enumerate(odd)
        ]
        + [
            listing(
                "com.a/second-is-web",
                remotes=[
                    {"type": "sse", "url": "javascript:alert(1)"},
                    {"type": "streamable-http", "url": "https://mcp.example.com/mcp"},
                ],
            )
        ]
    )
    for i in range(len(odd)):
        record = lot(f"com.a/odd-{i}").record
        assert record["remote"] is None and record["host"] is None
        assert any(r.endswith("(-10, no-launch-info)") for r in record["integrity"]["reasons"])
    web = lot("com.a/second-is-web").record
    assert web["remote"] == {"type": "streamable-http", "url": "https://mcp.example.com/mcp"}
    assert web["host"] == "mcp.example.com"


def test_a_password_in_a_remotes_url_is_not_handed_on(db: None) -> None:
    """The credential rule counted a password in a remote's URL and masked it in its evidence, while
    the record handed it whole to every agent as the remote's URL."""
    url = "https://admin:s3cr3tP4ssw0rdXyz9@mcp.acme-tools.com:8443/mcp?x=1"
    take([listing("com.a/cred", remotes=[{"type": "streamable-http", "url": url}])])
    found = lot("com.a/cred")
    assert found.record["remote"] == {"type": "streamable-http", "url": "https://…@mcp.acme-tools.com:8443/mcp?x=1"}
    assert found.record["host"] == "mcp.acme-tools.com"
    assert "s3cr3t" not in str(found.record)
    assert [d["rule"] for d in found.deductions if d["rule"] == "credential-in-listing"] == ["credential-in-listing"]


def test_a_listing_dated_in_the_future_keeps_no_lamp_lit(db: None) -> None:
    """A listing updated in 2999 (a registry's wrong clock, or one that lies) read as updated -354,000
    days before the census was taken, within the lamp's 90 days: its lamp was lit for ever."""
    take(
        [
            listing("com.a/today", published="2026-05-01T10:00:00Z"),
            listing("com.a/ahead", published="2999-01-01T00:00:00Z"),
        ]
    )
    assert lot("com.a/today").record["house"]["lampLit"] is True
    assert lot("com.a/ahead").record["house"]["lampLit"] is False
    assert lot("com.a/ahead").record["updatedAt"] == "2999-01-01T00:00:00Z"


def test_folding_a_server_of_many_large_versions_reads_one_body(db: None) -> None:
    """Folding read the body of every version of a server at once: a registry that lists one server in
    a hundred thousand versions of 256 KiB (ENTRY_BYTES) filled the town's memory. Only the newest
    version's body is read; the others' dates, status and versions are all a lot needs of them."""
    big = "Reads rows of a PostgreSQL database with read-only roles. " * 3000  # about 170 KiB
    take(
        [
            listing("com.a/many", f"1.0.{i}", description=big, published=f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}Z")
            for i in range(300)
        ]
    )
    Entry.objects.update(folded=False)
    tracemalloc.start()
    try:
        ingest.fold_pending(ingest.Tally(), ingest.Progress(), None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024, f"{peak / 1024 / 1024:.0f} MiB"
    record = lot("com.a/many").record
    assert record["version"] == "1.0.299" and len(record["versions"]) == 100


def test_a_batch_reads_back_only_the_versions_it_brings(db: None) -> None:
    """Taking a batch read back every version the census held of each server in it: a server listed in
    ten thousand versions had all of them read again for every page of a hundred more."""
    take([listing("com.a/many", f"1.{i}.0") for i in range(3000)])
    statements: list[tuple[str, Any]] = []

    def keep(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append((sql, params))
        return execute(sql, params, many, context)

    tally = ingest.Tally()
    with connection.execute_wrapper(keep):
        ingest.ingest([listing("com.a/many", f"2.{i}.0") for i in range(100)], tally)
    assert tally.new == 100
    (lookup,) = [(sql, p) for sql, p in statements if sql.lstrip().upper().startswith("SELECT") and "digest" in sql]
    with connection.cursor() as c:
        c.execute(*lookup)
        # Run again now, it finds the batch's own versions, just written; the 3,000 older ones it never reads.
        assert len(c.fetchall()) == 100
