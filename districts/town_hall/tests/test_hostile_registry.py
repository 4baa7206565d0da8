"""A registry that lies, breaks or attacks, over real HTTP on loopback: `census sync` stops with a
sentence that says why (never a traceback, which stopped `./town up` with it), reads no more than a
page can hold nor for longer than a page may take, draws the registry's own words in its line, and
leaves the census it sealed as it was."""

import base64
import gzip
import io
import json
import logging
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from districts.town_hall import ingest, services
from districts.town_hall.models import CensusState, Entry, Lot
from districts.town_hall.tests.base import listing, take
from tests.standins import Handler, serve, stop

pytestmark = pytest.mark.django_db

Answer = Callable[[BaseHTTPRequestHandler, dict[str, str]], None]


class Registry:
    """A registry on loopback whose every answer to GET /v0.1/servers is what `answer` writes."""

    def __init__(self) -> None:
        self.answer: Answer = lambda h, q: None
        self.asked: list[dict[str, str]] = []


@pytest.fixture
def registry() -> Iterator[tuple[Registry, str]]:
    reg = Registry()

    class RegistryHandler(Handler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            parts = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(parts.query))
            reg.asked.append(query)
            try:
                reg.answer(self, query)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the town stopped reading, as it should

    server = serve(RegistryHandler)
    yield reg, f"http://127.0.0.1:{server.server_address[1]}"
    stop(server)


def raw(h: BaseHTTPRequestHandler, head: bytes, body: bytes = b"") -> None:
    """Bytes as they are, status line and headers included: what no well-made server sends."""
    h.wfile.write(head + b"\r\n\r\n" + body)
    h.wfile.flush()
    h.close_connection = True


def sealed() -> tuple[str, int]:
    s = services.state()
    return s.root, s.servers


def refused(url: str) -> str:
    """The sentence a sync stops with; the census it sealed before is the same after."""
    before = sealed()
    with pytest.raises(ingest.CensusError) as stopped:
        ingest.sync(url)
    assert sealed() == before
    return str(stopped.value)


@pytest.fixture
def census(db: None) -> None:
    take([listing("com.a/first"), listing("com.a/second")])


def test_an_answer_that_breaks_the_reader_stops_the_sync_in_words(census: None, registry: tuple[Registry, str]) -> None:
    """Arrays nested past the JSON reader (RecursionError), an answer shorter than its Content-Length
    (IncompleteRead) and one of more than 100 header lines (HTTPException) each stopped the sync with
    a traceback, and `./town up` with it. Each is now a sentence, and ensure serves the census it had."""
    reg, url = registry
    endpoint = f"{url}/v0.1/servers?limit=100"
    reg.answer = lambda h, q: raw(h, b"HTTP/1.1 200 OK\r\nContent-Length: 400000", b"[" * 200_000 + b"]" * 200_000)
    assert refused(url) == (
        f"The registry did not answer {endpoint} with its list: maximum recursion depth exceeded while "
        "decoding a JSON array from a unicode string"
    )
    reg.answer = lambda h, q: raw(h, b"HTTP/1.1 200 OK\r\nContent-Length: 500", b'{"servers": []}')
    assert refused(url) == (
        f"The registry did not answer {endpoint} with its list: IncompleteRead(15 bytes read, 485 more expected)"
    )
    reg.answer = lambda h, q: raw(h, b"HTTP/1.1 200 OK\r\n" + b"\r\n".join(b"X-%d: a" % i for i in range(150)))
    assert refused(url) == f"The registry did not answer {endpoint} with its list: got more than 100 headers"
    assert ingest.ensure(url).startswith("Census sync failed, serving the census as it was: The registry did not")
    assert services.find_lot("com.a/first") is not None


def test_a_registrys_words_in_the_line_are_drawn(census: None, registry: tuple[Registry, str]) -> None:
    """An HTTP reason is the registry's words, printed to the operator's terminal and log: a terminal's
    escape in it recoloured the line (or retitled the window), a line break forged a log line."""
    reg, url = registry
    reg.answer = lambda h, q: raw(h, b"HTTP/1.1 503 Busy \x1b[2J\x1b]0;owned\x07 \x85now\r\nContent-Length: 0")
    said = refused(url)
    assert said.endswith("with its list: HTTP Error 503: Busy ⟦U+001B⟧[2J⟦U+001B⟧]0;owned⟦U+0007⟧ ⟦U+0085⟧now")
    assert "\x1b" not in said and "\x07" not in said


def test_a_page_larger_than_a_hundred_entries_can_be_is_not_read_whole(
    census: None, registry: tuple[Registry, str]
) -> None:
    """A page's bytes were read whole, however many: a registry could fill the town's memory. Past
    ingest.PAGE_BYTES (a hundred of the largest entries the census takes) the sync stops, having read
    no more than that, whether the page says its length or not."""
    reg, url = registry
    pad = b"x" * (ingest.PAGE_BYTES + 1024)
    body = b'{"servers": [], "pad": "' + pad + b'"}'
    reg.answer = lambda h, q: raw(h, b"HTTP/1.1 200 OK\r\nContent-Length: %d" % len(body), body)
    sentence = (
        f"The registry sent more than 25 MiB for one page of its list ({url}/v0.1/servers?limit=100), more than "
        "100 entries can hold; the sync stopped there."
    )
    assert refused(url) == sentence
    # No length said, the answer ends when the connection closes: counted as it comes.
    reg.answer = lambda h, q: raw(h, b"HTTP/1.1 200 OK\r\nConnection: close", body)
    assert refused(url) == sentence


def test_a_compressed_page_the_town_did_not_ask_for_is_refused_unread(
    census: None, registry: tuple[Registry, str]
) -> None:
    """The town asks for identity. A gzip bomb (a few KiB that open into gigabytes) is never opened:
    it was read as bytes that are not UTF-8, said as a codec's error."""
    reg, url = registry
    bomb = gzip.compress(b"[" * 4_000_000)
    reg.answer = lambda h, q: raw(
        h, b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d" % len(bomb), bomb
    )
    assert refused(url) == (
        f"The registry answered {url}/v0.1/servers?limit=100 with its list encoded as gzip, which the town did "
        "not ask for (it asks for identity); the sync stopped there."
    )


def test_a_page_that_comes_a_byte_at_a_time_is_given_up(
    census: None, registry: tuple[Registry, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each byte inside the socket's timeout, the whole never: the sync waited for ever, and `./town up`
    with it. A page that takes longer than ingest.PAGE_SECONDS is given up."""
    monkeypatch.setattr(ingest, "PAGE_SECONDS", 1.0)
    reg, url = registry

    def trickle(h: BaseHTTPRequestHandler, q: dict[str, str]) -> None:
        h.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
        for _ in range(40):
            h.wfile.write(b" ")
            h.wfile.flush()
            time.sleep(0.1)

    reg.answer = trickle
    began = time.monotonic()
    assert refused(url) == (
        f"The registry took more than 1 seconds to send one page of its list ({url}/v0.1/servers?limit=100); "
        "the sync stopped there."
    )
    assert time.monotonic() - began < 3


class Dribbler:
    """A registry on loopback that is only a raw socket in a thread: it reads the request, sends `first`,
    then one more byte of the same header line every `every` seconds, until it is stopped (at most
    `most` seconds). No HTTP server's framework can be made to answer that slowly."""

    def __init__(self, first: bytes, every: float = 0.2, most: float = 8.0) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.first, self.every, self.most = first, every, most
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        conn, _ = self.listener.accept()
        with conn:
            conn.recv(65536)
            began = time.monotonic()
            try:
                conn.sendall(self.first)
                while not self.stopped.wait(self.every) and time.monotonic() - began < self.most:
                    conn.sendall(b"a")
            except OSError:
                pass  # the town hung up, as it should

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(10)
        self.listener.close()


@pytest.mark.parametrize(
    ("scheme", "first"),
    [
        ("http", b"HTTP/1.1 2"),
        ("http", b"HTTP/1.1 200 OK\r\nX-Slow: "),
        ("http", b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\nX-Slow: "),
        # A TLS record's header (a handshake of 16 KiB), then its body a byte at a time.
        ("https", b"\x16\x03\x03\x40\x00"),
    ],
    ids=["status line", "header line", "header after a length", "tls handshake"],
)
def test_a_registry_that_sends_its_status_or_headers_a_byte_at_a_time_is_given_up_at_the_deadline(
    census: None, monkeypatch: pytest.MonkeyPatch, scheme: str, first: bytes
) -> None:
    """Each byte inside the socket's timeout (60 seconds), the status line or a header line never ending:
    only the body was timed, and a registry that sent a header byte every 59 seconds held the sync, and
    `./town up` with it, for ever. The whole answer, its TLS handshake, status and headers too, has
    PAGE_SECONDS."""
    monkeypatch.setattr(ingest, "PAGE_SECONDS", 1.0)
    slow = Dribbler(first)
    url = f"{scheme}://127.0.0.1:{slow.port}"
    try:
        began = time.monotonic()
        said = refused(url)
        took = time.monotonic() - began
    finally:
        slow.close()
    assert said == (
        f"The registry took more than 1 seconds to send one page of its list ({url}/v0.1/servers?limit=100); "
        "the sync stopped there."
    )
    assert took < 3, f"the sync waited {took:.1f} s"


def test_a_redirect_is_followed_only_to_the_web(census: None, registry: tuple[Registry, str]) -> None:
    """urllib follows a redirect to ftp:// as well: a registry could send the town to any FTP service
    its network reaches. Only http and https are followed."""
    reg, url = registry
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    reg.answer = lambda h, q: raw(
        h, b"HTTP/1.1 302 Found\r\nLocation: ftp://127.0.0.1:%d/list\r\nContent-Length: 0" % port
    )
    try:
        said = refused(url)
        with pytest.raises(TimeoutError):
            listener.accept()  # nothing came
    finally:
        listener.close()
    assert said.endswith("with its list: HTTP Error 302: a redirect to an address that is not http or https")


def page(names: list[str], nxt: str | None) -> dict[str, Any]:
    return {"servers": [listing(n) for n in names], "metadata": {"nextCursor": nxt} if nxt else {}}


def test_a_list_that_never_ends_is_read_no_further_than_a_sync_reads(
    census: None, registry: tuple[Registry, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new cursor every page, for ever: the circle check never fires, and the sync read on without
    end. It stops after ingest.SYNC_PAGES, keeps its cursor, and the next sync goes on from it."""
    monkeypatch.setattr(ingest, "SYNC_PAGES", 5)
    reg, url = registry

    def endless(h: Handler, q: dict[str, str]) -> None:  # type: ignore[override]
        n = int(q.get("cursor", "0"))
        if n > 50:
            raise AssertionError("the sync read on without end")
        h.send_json(200, page([f"com.b/endless-{n}"], str(n + 1)))

    reg.answer = endless  # type: ignore[assignment]
    assert refused(url) == (
        f"The registry at {url}/v0.1/servers had more to give after 5 pages, 5 entries and 0 seconds, more than "
        "one sync reads (5 pages, 1,000,000 entries, 60 minutes); the sync stopped there, and the next one goes "
        "on from where it stopped."
    )
    assert services.state().sync_cursor == "5"
    refused(url)
    assert reg.asked[5]["cursor"] == "5" and services.state().sync_cursor == "10"


def test_a_sync_reads_no_more_entries_than_it_can_remember(
    census: None, registry: tuple[Registry, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page may hold far more entries than the hundred asked for, and a sync remembers every entry it
    reads: pages of thousands of small entries each, within the page and time limits, would fill the
    town's memory. It stops after ingest.SYNC_ENTRIES."""
    monkeypatch.setattr(ingest, "SYNC_ENTRIES", 500)
    reg, url = registry

    def crowded(h: Handler, q: dict[str, str]) -> None:  # type: ignore[override]
        n = int(q.get("cursor", "0"))
        h.send_json(200, page([f"com.d/s{n}-{i}" for i in range(300)], str(n + 1)))

    reg.answer = crowded  # type: ignore[assignment]
    assert "after 2 pages, 600 entries and" in refused(url)


def test_a_page_of_no_entries_that_names_a_next_is_not_the_end(census: None, registry: tuple[Registry, str]) -> None:
    """The sync took an empty page as the end, whatever its next cursor said, and sealed the census
    as whole with the rest of the list unread."""
    reg, url = registry
    pages = {"": page([], "a"), "a": page([], "b"), "b": page(["com.b/after-empty-pages"], None)}
    reg.answer = lambda h, q: h.send_json(200, pages[q.get("cursor", "")])  # type: ignore[attr-defined]
    tally, s = ingest.sync(url)
    assert (tally.pages, tally.received) == (3, 1)
    assert Lot.objects.filter(name="com.b/after-empty-pages").exists() and s.servers == 3
    # An empty page whose cursor comes again goes round in a circle like any other.
    pages = {"": page([], "a"), "a": page([], "a")}
    assert refused(url).endswith(
        "gave a cursor it had given before, so its list goes round in a circle; the sync stopped there."
    )


@pytest.mark.django_db(transaction=True)
def test_a_pages_entries_are_read_outside_the_transaction_that_writes_them(
    registry: tuple[Registry, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each entry is walked, written as canonical JSON and hashed: for a page of thousands of small
    entries (a registry need not keep to the hundred asked for), that held the write transaction, and
    on SQLite every other writer of the town, for seconds."""
    reg, url = registry
    reg.answer = lambda h, q: h.send_json(200, page([f"com.c/s{i}" for i in range(300)], None))  # type: ignore[attr-defined]
    inside: list[bool] = []
    real = ingest.read_entry

    def watched(item: Any) -> Any:
        inside.append(connection.in_atomic_block)
        return real(item)

    monkeypatch.setattr(ingest, "read_entry", watched)
    try:
        tally, s = ingest.sync(url)
    finally:
        ingest.wipe()  # the search index's table is not one the test database's flush empties
    assert (tally.received, s.servers) == (300, 300)
    assert inside == [False] * 300


def test_a_registry_broken_from_its_first_page_leaves_the_demo_census(
    demo: Any, registry: tuple[Registry, str]
) -> None:
    """The demo census was wiped before the registry was asked anything: a registry that never
    answered with its list left the town with no census, while ensure said it served the census as
    it was. The demo gives way only once the first page has come."""
    reg, url = registry
    reg.answer = lambda h, q: raw(h, b"HTTP/1.1 200 OK\r\nContent-Length: 8", b"not json")
    said = ingest.ensure(url)
    assert said.startswith("Census sync failed, serving the census as it was: The registry did not answer")
    assert services.state().demo is True and Lot.objects.count() == 34
    # Once it answers, real data replaces the demo, and the sync's place is kept as it goes.
    reg.answer = lambda h, q: h.send_json(200, page(["com.real/one"], None))  # type: ignore[attr-defined]
    tally, s = ingest.sync(url)
    assert (s.demo, s.servers, s.sync_url) == (False, 1, f"{url}/v0.1/servers")
    assert list(Lot.objects.values_list("number", "name")) == [(0, "com.real/one")]


def test_a_sync_stopped_after_the_demo_gave_way_says_the_census_is_empty(
    demo: Any, registry: tuple[Registry, str]
) -> None:
    """The demo gives way at the registry's first page; a later page that breaks leaves the census
    empty until a sync finishes, and ensure said it served the census as it was."""
    reg, url = registry

    def second_breaks(h: Handler, q: dict[str, str]) -> None:  # type: ignore[override]
        if q.get("cursor"):
            raw(h, b"HTTP/1.1 200 OK\r\nContent-Length: 8", b"not json")
        else:
            h.send_json(200, page(["com.real/one"], "more"))

    reg.answer = second_breaks  # type: ignore[assignment]
    said = ingest.ensure(url)
    assert said.startswith("Census sync failed, and the census is empty until a sync finishes: The registry did not")
    assert Lot.objects.count() == 0 and services.state().sync_cursor == "more"


def doubled_key_page(*entries: str, metadata: str = "{}") -> bytes:
    return ('{"servers": [' + ", ".join(entries) + '], "metadata": ' + metadata + "}").encode()


def test_an_entry_that_names_a_key_twice_is_skipped_and_counted(census: None, registry: tuple[Registry, str]) -> None:
    """Python's reader kept a repeated key's last value, where another reader keeps the first: a listing
    could show one name (or one status, or one remote) to the town and another to an agent checking
    it. Such an entry is skipped, and the count says why; the page's other entries are taken."""
    reg, url = registry
    meta = '"_meta": {"io.modelcontextprotocol.registry/official": {"status": "active", "status": "deleted"}}'
    entries = (
        json.dumps(listing("com.b/plain")),
        '{"server": {"name": "com.b/shown", "name": "com.b/hidden", "version": "1.0.0"}}',
        '{"server": {"name": "com.b/status", "version": "1.0.0"}, ' + meta + "}",
    )
    reg.answer = lambda h, q: raw(h, b"HTTP/1.1 200 OK\r\nConnection: close", doubled_key_page(*entries))
    tally, s = ingest.sync(url)
    names = set(Lot.objects.values_list("name", flat=True))
    assert names == {"com.a/first", "com.a/second", "com.b/plain"} and s.servers == 3
    assert tally.line().startswith("3 entries read (2 skipped, 2 of them naming a key twice), 1 new, 0 changed;")


@pytest.mark.parametrize(
    "body",
    [
        b'{"servers": [], "servers": []}',
        doubled_key_page(metadata='{"nextCursor": "a", "nextCursor": "b"}'),
    ],
    ids=["two lists", "two next cursors"],
)
def test_a_page_that_names_a_key_twice_outside_its_entries_is_refused(
    census: None, registry: tuple[Registry, str], body: bytes
) -> None:
    reg, url = registry
    reg.answer = lambda h, q: raw(h, b"HTTP/1.1 200 OK\r\nContent-Length: %d" % len(body), body)
    assert refused(url) == (
        f"The registry's answer to {url}/v0.1/servers?limit=100 names a key twice in one object outside its "
        "entries, so that one reader could take one value and the next another; the sync stopped there."
    )


def test_a_file_that_names_a_key_twice_is_read_as_a_registrys_answer_is(census: None, tmp_path: Path) -> None:
    entry = '{"server": {"name": "com.b/shown", "version": "1.0.0", "name": "com.b/hidden"}}'
    path = tmp_path / "census.json"
    path.write_text(doubled_key_page(entry, json.dumps(listing("com.b/plain"))).decode())
    tally, s = ingest.import_file(path)
    assert s.servers == 3 and not Lot.objects.filter(name="com.b/hidden").exists()
    assert tally.line().startswith("2 entries read (1 skipped, 1 of them naming a key twice), 1 new, 0 changed;")
    path.write_text('{"servers": [], "servers": []}')
    with pytest.raises(ingest.CensusError) as refused_file:
        ingest.import_file(path)
    assert str(refused_file.value) == (
        "census.json names a key twice in its outermost object, so that one reader could take one value and "
        "the next another."
    )


USER, SECRET = "reader-7a1", "s3cr3t-t0ken-9f2c"


def test_a_registrys_credentials_are_sent_and_never_shown(
    census: None, registry: tuple[Registry, str], caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLOCKFORD_REGISTRY_URL may carry a registry's credentials (https://user:token@host/, ?api_key=).
    urllib took "user:token@host" for a host name, which no DNS knows, so the sync failed, and said the
    address, token and all, in its line; the census kept it as its sync address. The user and password
    now go as HTTP Basic authorization, and every line, log record and stored row shows the address
    with them withheld."""
    reg, url = registry
    basic = "Basic " + base64.b64encode(f"{USER}:{SECRET}".encode()).decode()
    pages = {"": page(["com.s/one"], "next"), "next": page(["com.s/two"], None)}

    def guarded(h: Handler, q: dict[str, str]) -> None:  # type: ignore[override]
        if h.headers.get("Authorization") != basic or q.get("api_key") != SECRET:
            h.send_json(401, {"error": f"not {h.headers.get('Authorization')} with {q.get('api_key')}"})
        else:
            h.send_json(200, pages[q.get("cursor", "")])

    reg.answer = guarded  # type: ignore[assignment]
    host = url.removeprefix("http://")
    caplog.set_level(logging.DEBUG)
    bar = io.StringIO()
    said = ingest.ensure(f"http://{USER}:{SECRET}@{host}/?api_key={SECRET}", bar)
    assert said.startswith(f"Census synced from http://…@{host}/v0.1/servers?api_key=…: 4 servers.")
    assert [q.get("cursor", "") for q in reg.asked] == ["", "next"]
    # Refused: the registry's own answer is said, the address as shown.
    refused = ingest.ensure(f"http://{USER}:{SECRET}-old@{host}/?api_key={SECRET}", bar)
    assert refused.startswith(
        f"Census sync failed, serving the census as it was: The registry did not answer http://…@{host}"
        "/v0.1/servers?api_key=…&limit=100&updated_since="
    )
    assert refused.endswith("with its list: HTTP Error 401: Unauthorized")
    out = io.StringIO()
    call_command("census", "ensure", "--url", f"http://{USER}:{SECRET}@{host}/?api_key={SECRET}", stdout=out)
    status = io.StringIO()
    call_command("census", "status", stdout=status)
    assert json.loads(status.getvalue())["source"] == f"the registry at http://…@{host}/v0.1/servers?api_key=…"
    stored = json.dumps(
        [list(CensusState.objects.values()), list(Entry.objects.values()), list(Lot.objects.values())], default=str
    )
    printed = capsys.readouterr()
    for where in (
        said,
        refused,
        bar.getvalue(),
        out.getvalue(),
        status.getvalue(),
        caplog.text,
        printed.out,
        printed.err,
        stored,
    ):
        assert SECRET not in where and USER not in where


def test_ensure_syncs_from_the_setting_and_no_start_puts_the_address_on_a_command_line(
    census: None, registry: tuple[Registry, str]
) -> None:
    """The address may carry the registry's credentials: ./town up and the container's start ran
    `census ensure --url "$CLOCKFORD_REGISTRY_URL"`, where any user of the machine could read it in the
    process list while the sync ran. The settings read it (CENSUS_REGISTRY_URL), `ensure` without --url
    syncs from it, and neither start names it."""
    reg, url = registry
    basic = "Basic " + base64.b64encode(f"{USER}:{SECRET}".encode()).decode()
    reg.answer = lambda h, q: (  # type: ignore[assignment]
        h.send_json(200, page(["com.s/one"], None)) if h.headers.get("Authorization") == basic else h.send_json(401, {})
    )
    out = io.StringIO()
    with override_settings(CENSUS_REGISTRY_URL=f"http://{USER}:{SECRET}@{url.removeprefix('http://')}/"):
        call_command("census", "ensure", stdout=out)
    assert out.getvalue().startswith(f"Census synced from http://…@{url.removeprefix('http://')}/v0.1/servers: ")
    assert SECRET not in out.getvalue()
    root = Path(__file__).resolve().parents[3]
    for start in (root / "town", root / "deploy" / "town-start.sh"):
        ensure = [line for line in start.read_text().splitlines() if "census ensure" in line and "#" not in line]
        assert [line.strip() for line in ensure] in (["manage census ensure"], ["python manage.py census ensure"])


def test_a_registrys_credentials_do_not_follow_a_redirect_elsewhere(
    census: None, registry: tuple[Registry, str]
) -> None:
    reg, url = registry
    seen: list[str | None] = []

    class Elsewhere(Handler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            seen.append(self.headers.get("Authorization"))
            self.send_json(200, page(["com.s/elsewhere"], None))

    other = serve(Elsewhere)
    try:
        where = f"http://127.0.0.1:{other.server_address[1]}/v0.1/servers"
        reg.answer = lambda h, q: raw(
            h, b"HTTP/1.1 302 Found\r\nLocation: " + where.encode() + b"\r\nContent-Length: 0"
        )
        tally, s = ingest.sync(f"http://{USER}:{SECRET}@{url.removeprefix('http://')}")
    finally:
        stop(other)
    assert seen == [None] and s.servers == 3


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://user:tok@host.example/", "https://…@host.example/"),
        (
            "https://tok@host.example:8443/v0.1/servers?limit=100&access_token=abc&cursor=x%3D",
            "https://…@host.example:8443/v0.1/servers?limit=100&access_token=…&cursor=x%3D",
        ),
        ("https://host.example?token=abc#top", "https://host.example?token=…#top"),
        ("https://a@b@host.example/x@y", "https://…@host.example/x@y"),
        (
            "https://host.example/v0.1/servers?limit=100&cursor=a",
            "https://host.example/v0.1/servers?limit=100&cursor=a",
        ),
    ],
)
def test_a_registrys_address_is_shown_with_its_secrets_withheld(url: str, shown: str) -> None:
    assert ingest.shown_url(url) == shown
