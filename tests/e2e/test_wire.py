"""The town's connections under uvicorn, as `./town up` serves it (clockford/wire.py): a request's head
has a time and a size limit, and uvicorn's own answers carry the town's words and security headers."""

import socket
import time
from collections.abc import Callable

from tests.support import Town

TownFactory = Callable[..., Town]

SECURITY = (b"x-frame-options: DENY", b"content-security-policy: ", b"x-content-type-options: nosniff")


def answer_to(town: Town, sent: list[bytes], pause: float = 0.0) -> tuple[bytes, bytes, bytes, float]:
    """Send these pieces (`pause` seconds apart) on one connection, then read the answer to the
    connection's end: its status line, its headers, its body, and how long after the last piece."""
    with socket.create_connection(("127.0.0.1", town.port), timeout=15) as conn:
        for piece in sent:
            try:
                conn.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break  # the town closed the connection; its answer is read below
            time.sleep(pause)
        began = time.monotonic()
        reply = b""
        try:
            while chunk := conn.recv(65536):
                reply += chunk
        except ConnectionResetError:
            pass
        took = time.monotonic() - began
    status, _, rest = reply.partition(b"\r\n")
    head, _, body = rest.partition(b"\r\n\r\n")
    return status, head, body, took


def assert_the_towns(head: bytes) -> None:
    lower = head.lower()
    for header in SECURITY:
        assert header.lower() in lower, head
    assert b"connection: close" in lower


def test_a_request_head_too_slow_or_too_large_is_answered_and_closed(town_factory: TownFactory) -> None:
    t = town_factory(env={"CLOCKFORD_HEADER_SECONDS": "1", "CLOCKFORD_HEADER_BYTES": "8192"}, server="uvicorn")
    t.start()
    before = t.log.read_text(errors="replace")
    host = f"Host: localhost:{t.port}\r\n".encode()

    # A head that never finishes: answered once its time is up, not held for ever.
    status, head, body, took = answer_to(t, [b"GET /status HTTP/1.1\r\n", host, b"X-Slow: a"])
    assert status == b"HTTP/1.1 408 Request Timeout", (status, body)
    assert body == b"The request's headers did not arrive in time."
    assert_the_towns(head)
    assert took < 3, took

    # A connection opened and left silent is closed: nothing was asked, so nothing is answered.
    with socket.create_connection(("127.0.0.1", t.port), timeout=15) as conn:
        began = time.monotonic()
        assert conn.recv(100) == b""
        assert 0.9 <= time.monotonic() - began < 3

    # Sent a byte at a time, still within the time of a head: the limit is on the head, not a read.
    start = b"GET /status HTTP/1.1\r\n"
    status, _, body, _ = answer_to(t, [start[i : i + 1] for i in range(len(start))] + [b"X-Slow: a"], pause=0.1)
    assert status == b"HTTP/1.1 408 Request Timeout", (status, body)

    # A head over its size, in one piece or many: refused, the rest never kept.
    big = b"X-Big: " + b"a" * 20000 + b"\r\n"
    for pieces in ([start + host + big + b"\r\n"], [start, host, big[:5000], big[5000:], b"\r\n"]):
        status, head, body, _ = answer_to(t, pieces)
        assert status == b"HTTP/1.1 431 Request Header Fields Too Large", (status, body)
        assert body == b"The request's headers are too large."
        assert_the_towns(head)

    # A head within both limits, on a connection kept alive: served, and the next one too.
    with socket.create_connection(("127.0.0.1", t.port), timeout=15) as conn:
        for _ in range(2):
            conn.sendall(start + host + b"X-Fine: " + b"b" * 6000 + b"\r\n\r\n")
            reply = b""
            while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
                reply += conn.recv(65536)
            assert reply.startswith(b"HTTP/1.1 200 OK"), reply[:300]
            time.sleep(1.2)  # longer than a head may take: the time is a head's, not the connection's
    assert "Traceback" not in t.log.read_text(errors="replace")[len(before) :]


def test_a_request_uvicorn_cannot_read_gets_the_towns_words_and_headers(town_factory: TownFactory) -> None:
    t = town_factory(server="uvicorn").start()
    host = f"Host: localhost:{t.port}\r\n".encode()
    for bad in (
        b"GET /status HTTP/1.1\r\n" + host + b"X-Nul: a\x00b\r\n\r\n",  # a NUL in a header
        b"GET /status HTTP/9.9\r\n" + host + b"\r\n",
    ):
        status, head, body, _ = answer_to(t, [bad])
        assert status == b"HTTP/1.1 400 Bad Request", (bad, status, body)
        assert body == b"Bad request.", (bad, body)
        assert_the_towns(head)


def test_a_method_http_does_not_have(town_factory: TownFactory) -> None:
    """httptools refuses a method it does not know before the town sees the request: on /mcp the answer
    is 001's 405 with its Allow header, as for a method HTTP has (tests/e2e/test_http_rows.py), and
    elsewhere RFC 9110's 501; both in the town's words, with its headers, and no traceback."""
    t = town_factory(server="uvicorn").start()
    before = t.log.read_text(errors="replace")
    host = f"Host: localhost:{t.port}\r\n".encode()
    for method in (b"FOO", b"BREW", b"get"):
        for target in (b"/mcp", b"/mcp/", b"/mcp?x=1"):
            status, head, body, _ = answer_to(t, [method + b" " + target + b" HTTP/1.1\r\n" + host + b"\r\n"])
            assert status == b"HTTP/1.1 405 Method Not Allowed", (method, target, status, body)
            assert body == b"Method not allowed."
            assert b"allow: POST, GET, DELETE" in head
            assert_the_towns(head)
        for target in (b"/status", b"/mcpx", b"/hall/"):
            status, head, body, _ = answer_to(t, [method + b" " + target + b" HTTP/1.1\r\n" + host + b"\r\n"])
            assert status == b"HTTP/1.1 501 Not Implemented", (method, target, status, body)
            assert body == b"Not implemented."
            assert b"allow:" not in head.lower()
            assert_the_towns(head)
    # A long made-up method, a request line in pieces, a tab, the absolute form: still /mcp's 405.
    for pieces in (
        [b"X" * 100 + b" /mcp HTTP/1.1\r\n" + host + b"\r\n"],
        [b"F", b"OO /mcp HTTP/1.1\r\n" + host + b"\r\n"],
        [b"FOO\t/mcp HTTP/1.1\r\n" + host + b"\r\n"],
        [b"FOO http://localhost:%d/mcp HTTP/1.1\r\n" % t.port + host + b"\r\n"],
    ):
        status, _, body, _ = answer_to(t, pieces, pause=0.3)
        assert status == b"HTTP/1.1 405 Method Not Allowed", (pieces, status, body)
    # A request sent after a whole one on the same connection is read from where it begins.
    ok = b"GET /status HTTP/1.1\r\n" + host + b"\r\n"
    status, _, body, _ = answer_to(t, [ok, b"FOO /mcp HTTP/1.1\r\n" + host + b"\r\n"], pause=0.3)
    assert status == b"HTTP/1.1 200 OK", (status, body)
    assert b"HTTP/1.1 405 Method Not Allowed" in body, body
    assert "Traceback" not in t.log.read_text(errors="replace")[len(before) :]


def test_a_content_length_written_with_thousands_of_leading_zeros_is_read_as_its_number(
    town_factory: TownFactory,
) -> None:
    """HTTP writes Content-Length as 1*DIGIT, so 000…0123 is 123, and httptools lets any number of
    leading zeros by. Python's int() refuses a text of more than 4,300 digits whatever its value: every
    such request was answered 500 with a traceback, on every path. Now it is read as its number: a body
    within the limit is served, one over it refused as any other."""
    t = town_factory(server="uvicorn").start()
    before = t.log.read_text(errors="replace")
    host = f"Host: localhost:{t.port}\r\nConnection: close\r\n".encode()
    mcp = host + b"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
    message = (
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        b'"capabilities":{},"clientInfo":{"name":"zeros","version":"1"}}}'
    )

    def length(n: int) -> bytes:
        return b"Content-Length: " + b"0" * 5000 + str(n).encode() + b"\r\n"

    status, head, body, _ = answer_to(t, [b"POST /mcp HTTP/1.1\r\n" + mcp + length(len(message)) + b"\r\n" + message])
    assert status == b"HTTP/1.1 200 OK", (status, body)
    assert b"mcp-session-id: " in head.lower() and b'"result"' in body, (head, body)

    status, head, body, _ = answer_to(t, [b"POST /mcp HTTP/1.1\r\n" + mcp + length(200_000) + b"\r\n"])
    assert (status, body) == (b"HTTP/1.1 413 Content Too Large", b"Too large."), (status, body)
    assert_the_towns(head)

    # Every other path reads the length in the same place (clockford/asgi.py): the public map takes
    # only GET, and says so.
    status, head, body, _ = answer_to(t, [b"POST / HTTP/1.1\r\n" + host + length(2) + b"\r\nab"])
    assert status == b"HTTP/1.1 405 Method Not Allowed", (status, body)
    assert body == b"This address is only to be read: use GET. Nothing sent to it is taken."
    assert "Traceback" not in t.log.read_text(errors="replace")[len(before) :]


def test_a_websocket_handshake_refused_gets_the_towns_words_and_headers(town_factory: TownFactory) -> None:
    """A websocket asked for with a Host of elsewhere, or at a path with no socket, was refused with
    uvicorn's bare 403 (no words, none of the town's headers), where the same request without the
    Upgrade gets the town's answer. uvicorn takes ASGI's websocket.http.response: the town's answer."""
    t = town_factory(server="uvicorn").start()
    before = t.log.read_text(errors="replace")
    upgrade = (
        b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    for path in (b"/town/live", b"/hall/live", b"/nope"):
        status, head, body, _ = answer_to(t, [b"GET " + path + b" HTTP/1.1\r\nHost: evil.example\r\n" + upgrade])
        assert status.startswith(b"HTTP/1.1 403"), (path, status, body)
        assert body == b"This town answers only on this machine.", (path, body)
        for header in SECURITY:
            assert header.lower() in head.lower(), (path, head)
    host = f"Host: localhost:{t.port}\r\n".encode()
    status, head, body, _ = answer_to(t, [b"GET /nope HTTP/1.1\r\n" + host + upgrade])
    assert status.startswith(b"HTTP/1.1 404"), (status, body)
    assert body == b"Not found."
    # The public map's socket is still served.
    with socket.create_connection(("127.0.0.1", t.port), timeout=15) as conn:
        conn.sendall(b"GET /town/live HTTP/1.1\r\n" + host + upgrade)
        assert conn.recv(100).startswith(b"HTTP/1.1 101")
    assert "Traceback" not in t.log.read_text(errors="replace")[len(before) :]


def test_a_target_in_the_absolute_form_names_the_requests_host(town_factory: TownFactory) -> None:
    """`POST http://elsewhere/mcp` is a request for elsewhere, whatever its Host header says (RFC 9112,
    section 3.2.2). uvicorn kept only the target's path, and the town served it as a request for the
    Host it named; now the town's Host checks read the target's host, on /mcp and every other path."""
    t = town_factory(server="uvicorn").start()
    before = t.log.read_text(errors="replace")
    ours = f"Host: localhost:{t.port}\r\nConnection: close\r\n".encode()
    elsewhere = b"Host: evil.example\r\nConnection: close\r\n"
    mcp = b"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
    message = (
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
        b'"capabilities":{},"clientInfo":{"name":"absolute","version":"1"}}}'
    )
    body = b"Content-Length: " + str(len(message)).encode() + b"\r\n\r\n" + message
    for target in (b"http://evil.example/mcp", b"HTTP://evil.example:%d/mcp" % t.port, b"http://[::2]:80/mcp"):
        status, head, got, _ = answer_to(t, [b"POST " + target + b" HTTP/1.1\r\n" + ours + mcp + body])
        assert status.startswith(b"HTTP/1.1 403"), (target, status, got)
        assert b"mcp-session-id" not in head.lower(), target
    for target in (b"http://evil.example/status", b"http://evil.example/hall/"):
        status, _, got, _ = answer_to(t, [b"GET " + target + b" HTTP/1.1\r\n" + ours + b"\r\n"])
        assert status.startswith(b"HTTP/1.1 4"), (target, status, got)
    # The target's host is the town's: served, whatever the Host header says.
    target = b"http://localhost:%d/mcp" % t.port
    status, head, got, _ = answer_to(t, [b"POST " + target + b" HTTP/1.1\r\n" + elsewhere + mcp + body])
    assert status == b"HTTP/1.1 200 OK", (status, got)
    assert b"mcp-session-id: " in head.lower() and b'"result"' in got
    status, _, got, _ = answer_to(t, [b"GET http://127.0.0.1:%d/status HTTP/1.1\r\n" % t.port + elsewhere + b"\r\n"])
    assert status == b"HTTP/1.1 200 OK", (status, got)
    assert "Traceback" not in t.log.read_text(errors="replace")[len(before) :]
