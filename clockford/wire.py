"""The town's HTTP/1.1 connections under uvicorn (`--http clockford.wire:Protocol`, clockford/serve.py):
uvicorn's httptools protocol, with three things the town needs of a connection before any request
reaches the application.

- **A request's head has limits.** httptools sets none: a bare `./town up` on a reachable address
  could be held for ever by a request line sent a byte a minute, or made to keep megabytes of
  headers. The head has CLOCKFORD_HEADER_SECONDS to arrive (from its first byte, or for a
  connection's first request from the connection's start) and may be CLOCKFORD_HEADER_BYTES long;
  past either the connection is answered (408, 431) and closed. A reverse
  proxy in front (the deployment's Caddy, `read_header 10s`) cuts them first.
- **A target in the absolute form names the request's host** (RFC 9112, section 3.2.2), which
  uvicorn would have left to the Host header: the town's checks of the Host see the target's.
- **uvicorn's own answers carry the town's security headers.** A request httptools cannot read (a
  made-up method, a NUL in a header) is answered by uvicorn, never reaching the town; that answer now
  carries the headers every page has, and the town's words ("Bad request.", spec 001). A method HTTP
  does not have is answered as 001 answers a method /mcp does not take, 405 with its Allow header,
  when it asks for /mcp; elsewhere 501, as RFC 9110 (15.6.2) answers a method a server does not know.

(A reply's head and body leaving in one write instead of uvicorn's two was tried and measured no
faster: docs/scale.md, 2026-12-04.)

Only uvicorn's workers import this module, before the application: it reads Django's settings (set
by the environment), never its models.
"""

import asyncio
import os
import sys
from http import HTTPStatus

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clockford.settings")

TOO_LARGE = (431, "The request's headers are too large.")
TOO_SLOW = (408, "The request's headers did not arrive in time.")
BAD_REQUEST = (400, "Bad request.")
# 001's row for /mcp (clockford/face/answers.py METHOD_NOT_ALLOWED says the same), and RFC 9110's for
# any other path: httptools stops at the method, before the target, so the target is read from the
# request line's bytes as they came.
NOT_ALLOWED_ON_MCP = (405, "Method not allowed.", [(b"allow", b"POST, GET, DELETE")])
NOT_IMPLEMENTED = (501, "Not implemented.")
# How much of a request's first bytes is kept to read its target from: a method, a target and the
# version, with room for a long made-up method.
LINE_KEPT = 512


def security_headers() -> list[tuple[bytes, bytes]]:
    """The headers every page of the town carries (the settings' middleware sets them on Django's
    pages; clockford/asgi.py on every other answer, and this module on uvicorn's own)."""
    from django.conf import settings

    csp = "; ".join(f"{k} {' '.join(v)}" for k, v in settings.SECURE_CSP.items())
    return [
        (b"x-frame-options", b"DENY"),
        (b"content-security-policy", csp.encode()),
        (b"x-content-type-options", b"nosniff"),
    ]


def closing_answer(status: int, words: str, more: list[tuple[bytes, bytes]] | None = None) -> bytes:
    """An HTTP/1.1 answer in the town's plain-text form, which closes its connection."""
    body = words.encode()
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode()]
    lines += [
        b"content-type: text/plain; charset=utf-8",
        b"content-length: " + str(len(body)).encode(),
        b"connection: close",
    ]
    lines += [name + b": " + value for name, value in [*security_headers(), *(more or [])]]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


class _Refused(Exception):
    """Raised from a parser's callback to stop the parser: httptools hands it to uvicorn as a request it
    could not read (send_400_response), which then answers with `refusing`."""


class Protocol(HttpToolsProtocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        from django.conf import settings

        self.head_seconds: float = settings.CLOCKFORD["HEADER_SECONDS"]
        self.head_most: int = settings.CLOCKFORD["HEADER_BYTES"]
        # While a head is being read: its bytes the parser has handed over (the target and each whole
        # header), and the bytes received since it began (a header still arriving is in the parser only).
        self.head_bytes: int | None = None
        self.head_received = 0
        self.head_timer: asyncio.TimerHandle | None = None
        self.refusing: tuple[int, str] | None = None
        # The first bytes of the data a request began in, for the target of a method httptools refuses.
        self.line_start = b""
        super().connection_made(transport)
        # A connection's first request has the same time to begin and be read (as Go's servers, Caddy's
        # among them, count ReadHeaderTimeout): one opened and left silent is closed.
        self.head_timer = self.loop.call_later(self.head_seconds, self.head_too_slow)

    def data_received(self, data: bytes) -> None:
        if self.head_bytes is None and (self.cycle is None or self.cycle.response_complete):
            self.line_start = data[:LINE_KEPT]  # between requests: this data begins the next one
        elif b"\n" not in self.line_start and len(self.line_start) < LINE_KEPT:
            self.line_start += data[: LINE_KEPT - len(self.line_start)]  # a request line sent in pieces
        super().data_received(data)
        if self.head_bytes is not None:
            self.head_received += len(data)
            if max(self.head_received, self.head_bytes) > self.head_most:
                self.refuse(*TOO_LARGE)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_bytes = self.head_received = 0
        self.end_head_timer()
        self.head_timer = self.loop.call_later(self.head_seconds, self.head_too_slow)

    def on_url(self, url: bytes) -> None:
        self.head_bytes = (self.head_bytes or 0) + len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.head_bytes = (self.head_bytes or 0) + len(name) + len(value) + 4  # ": " and CRLF
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        over = (self.head_bytes or 0) > self.head_most
        self.head_bytes = None
        self.end_head_timer()
        if over:
            # The whole head came in one read: refused before the request starts.
            self.refusing = TOO_LARGE
            raise _Refused
        if self.url[:8].lower().startswith((b"http://", b"https://")):
            self.host_from_target()
        super().on_headers_complete()

    def host_from_target(self) -> None:
        """A request whose target is in the absolute form (`POST http://elsewhere/mcp`) is for the
        target's host, whatever its Host header says (RFC 9112, section 3.2.2): uvicorn keeps only the
        target's path, so the Host the town checks is made the target's, and a request for elsewhere is
        refused as one naming elsewhere in its Host is."""
        try:
            target = httptools.parse_url(self.url)
        except httptools.HttpParserInvalidURLError:
            self.refusing = BAD_REQUEST
            raise _Refused from None
        host = target.host or b""
        if b":" in host:
            host = b"[" + host + b"]"  # an IPv6 address, as a Host writes it
        if target.port is not None:
            host += b":" + str(target.port).encode()
        # In place: the scope uvicorn made at the message's start holds this list.
        self.headers[:] = [(name, value) for name, value in self.headers if name != b"host"] + [(b"host", host)]

    def connection_lost(self, exc: Exception | None) -> None:
        self.end_head_timer()
        super().connection_lost(exc)

    def end_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_too_slow(self) -> None:
        self.head_timer = None
        if self.head_bytes is not None:
            self.refuse(*TOO_SLOW)
        elif self.cycle is None and not self.transport.is_closing():
            self.transport.close()  # nothing was asked, so nothing is answered

    def send_400_response(self, msg: str) -> None:
        # uvicorn's own, for a request httptools could not read: in the town's words, with its headers.
        # uvicorn calls it from its handler of the parser's error, which is the one being handled.
        if self.refusing is None and isinstance(sys.exc_info()[1], httptools.HttpParserInvalidMethodError):
            self.refuse(*self.unknown_method())
        else:
            self.refuse(*(self.refusing or BAD_REQUEST))

    def unknown_method(self) -> tuple[int, str, list[tuple[bytes, bytes]]] | tuple[int, str]:
        """The answer to a method httptools does not know: 001's 405 on /mcp (as the face routes it,
        asgi.py: the path with or without its last slash), RFC 9110's 501 elsewhere."""
        parts = self.line_start.split(b"\n", 1)[0].split(None, 2)
        target = parts[1] if len(parts) > 1 else b""
        if b"://" in target:  # the absolute form: http://host/mcp
            target = b"/" + target.split(b"://", 1)[1].partition(b"/")[2]
        path = target.split(b"?", 1)[0]
        return NOT_ALLOWED_ON_MCP if path.rstrip(b"/") == b"/mcp" else NOT_IMPLEMENTED

    def refuse(self, status: int, words: str, more: list[tuple[bytes, bytes]] | None = None) -> None:
        """Answer the request being read, before the town has seen it, and close the connection."""
        self.head_bytes = None
        self.end_head_timer()
        if self.transport.is_closing():
            return
        self.transport.write(closing_answer(status, words, more))
        self.transport.close()
