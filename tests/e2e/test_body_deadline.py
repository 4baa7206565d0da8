"""CLOCKFORD_BODY_SECONDS on every path, not only /mcp (clockford/face/deadline.py), as `./town up`
serves the town: uvicorn alone, which hands the town a body as it comes and sets no time limit of its
own. tests/e2e/test_http_rows.py holds /mcp's own row."""

import contextlib
import socket
import time
from collections.abc import Callable

from hall.tests.oauth_agent import LiveWeb
from tests import support
from tests.support import Town, hall_of

TownFactory = Callable[..., Town]


def never_finished(town: Town, path: str, content_type: str) -> tuple[bytes, bytes, bytes, float]:
    """A hall page's (or /oauth's) POST whose body stops short, from the hall's own origin."""
    return support.never_finished(town, path, f"Content-Type: {content_type}\r\nOrigin: {hall_of(town)}\r\n", b"a=1&b=")


def test_a_hall_or_oauth_body_never_finished_is_answered_408_and_its_connection_closed(
    town_factory: TownFactory,
) -> None:
    """A hall page's POST, or /oauth's, whose body never finishes held its connection for ever under
    uvicorn; it now gets /mcp's answer in the same time. Whole bodies are served as before."""
    t = town_factory(env={"CLOCKFORD_BODY_SECONDS": "1"}, server="uvicorn").start()
    before = t.log.read_text(errors="replace")
    for path, content_type in (
        ("/hall/signin/begin", "application/x-www-form-urlencoded"),
        ("/oauth/register", "application/json"),
        ("/hall/no-such-page", "application/x-www-form-urlencoded"),  # Django reads a body before it routes
    ):
        status, headers, body, took = never_finished(t, path, content_type)
        assert status == b"HTTP/1.1 408 Request Timeout", (path, status, body[:200])
        assert body == b"The request's body did not arrive in time."
        assert b"connection: close" in headers.lower()
        assert 0.9 <= took < 5, (path, took)
    # A whole body, on the same town, is served as ever: the hall's sign-in ceremony begins.
    web = LiveWeb(hall_of(t))
    r = web.post("/hall/signin/begin")
    assert r.status == 200, r.text[:500]
    assert "Traceback" not in t.log.read_text(errors="replace")[len(before) :]


def test_a_body_never_finished_at_an_address_open_to_browsers_is_answered_with_cors(
    town_factory: TownFactory,
) -> None:
    """The 408 is the ASGI wrapper's (clockford/face/deadline.py), made before any view: at the OAuth
    endpoints a page of another origin may call (hall/cors.py) it carries their CORS, so the page reads
    it; at a hall page it carries none."""
    t = town_factory(env={"CLOCKFORD_BODY_SECONDS": "1", "CLOCKFORD_SIGN_IN": "1"}, server="uvicorn").start()
    page = "Origin: http://localhost:6274\r\n"
    opened = {"access-control-allow-origin": "*", "access-control-expose-headers": "Retry-After"}
    for path, cors in (("/oauth/token", opened), ("/oauth/register", opened), ("/hall/signin/begin", {})):
        status, headers, body, _ = support.never_finished(
            t, path, f"Content-Type: application/x-www-form-urlencoded\r\n{page}", b"a=1&b="
        )
        assert (status, body) == (b"HTTP/1.1 408 Request Timeout", b"The request's body did not arrive in time.")
        named = dict(line.decode().split(": ", 1) for line in headers.split(b"\r\n") if b": " in line)
        said = {k.lower(): v for k, v in named.items() if k.lower().startswith("access-control-")}
        assert said == cors, (path, headers)


def refused_at(town: Town, path: str, head: str, sent: bytes) -> tuple[bytes, bytes, bytes, float]:
    """A POST to `path` whose body (`sent`, after the header lines `head`) goes on past what the town
    reads, and never ends: what the town answers, read to the connection's end, and how long it took."""
    with socket.create_connection(("127.0.0.1", town.port), timeout=20) as conn:
        began = time.monotonic()
        conn.sendall(f"POST {path} HTTP/1.1\r\nHost: localhost:{town.port}\r\n{head}\r\n".encode())
        with contextlib.suppress(OSError):  # the town may close the connection before all of it is sent
            conn.sendall(sent)
        reply = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := conn.recv(65536):
                reply += chunk
        took = time.monotonic() - began
    status, _, rest = reply.partition(b"\r\n")
    answered, _, body = rest.partition(b"\r\n\r\n")
    return status, answered, body, took


def test_a_body_longer_than_django_reads_is_refused_as_it_comes_not_written_to_disk(
    town_factory: TownFactory,
) -> None:
    """Django reads a request's whole body before it routes it, into a file on disk past 2.5 MB, and
    only then refuses one past DATA_UPLOAD_MAX_MEMORY_SIZE: one request could write gigabytes within
    its seconds. A body that says it is longer, or grows longer in chunks, is refused as soon as that
    is known, in the words Django's refusal has (clockford/nul.py), and its connection closed; the
    rest is never read. Before, each of these waited for the rest of its body, and was answered 408."""
    t = town_factory(env={"CLOCKFORD_BODY_SECONDS": "8"}, server="uvicorn").start()
    before = t.log.read_text(errors="replace")
    most = 2_621_440  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE, which the town keeps
    origin = f"Origin: {hall_of(t)}\r\n"
    chunk = b"a" * 65536
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(most // len(chunk) + 2))
    for path, words in (
        ("/hall/signin/begin", b"Bad request."),
        ("/hall/no-such-page", b"Bad request."),  # Django reads a body before it routes
        ("/oauth/register", b'{"error": "invalid_request", "error_description": "The request is too large."}'),
    ):
        for head, sent in (
            (f"{origin}Content-Type: application/json\r\nContent-Length: {1 << 30}\r\n", b"{" * 1000),
            (f"{origin}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n", chunked),
        ):
            status, headers, body, took = refused_at(t, path, head, sent)
            assert (status, body) == (b"HTTP/1.1 400 Bad Request", words), (path, head, status, body[:200])
            assert b"connection: close" in headers.lower() and b"x-frame-options: DENY" in headers
            assert took < 4, (path, head, took)
    # A body within the limit is read and served as ever.
    web = LiveWeb(hall_of(t))
    r = web.post("/hall/signin/begin", json_body={"padding": "a" * (most - 100)})
    assert r.status == 200, r.text[:500]
    assert "Traceback" not in t.log.read_text(errors="replace")[len(before) :]
