"""The public map, live, over a real town: the socket at /town/live needs no sign-in, says the map's
stamp, says a new one within 2 s of an agent's walk_to (and the map's live part then shows its pennant
where it walked), and says nothing after a private call, which changes nothing on the map."""

import base64
import json
import os
import re
import socket
import struct
import time
from collections.abc import Callable, Iterator

import pytest

from clockford.public.live import SOCKETS_PER_VISITOR
from tests.support import RawSession, Town, get


class Socket:
    """Just enough of a websocket client (RFC 6455) to read a server's text frames."""

    def __init__(self, town: Town, path: str, origin: str | None = None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", town.port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: 127.0.0.1:{town.port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ] + ([f"Origin: {origin}"] if origin else [])
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                break
            head += chunk
        self.status = int(head.split(b" ", 2)[1]) if head else 0
        self.buffer = b""

    def _read(self, n: int, deadline: float) -> bytes | None:
        while len(self.buffer) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(4096)
            except TimeoutError:
                return None
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def message(self, within: float) -> dict | None:  # type: ignore[type-arg]
        """The next text frame's JSON, or None when none came within `within` seconds."""
        deadline = time.monotonic() + within
        head = self._read(2, deadline)
        if head is None:
            return None
        opcode, length = head[0] & 0x0F, head[1] & 0x7F
        if length == 126:
            length = int.from_bytes(self._read(2, deadline + 5) or b"", "big")
        elif length == 127:
            length = int.from_bytes(self._read(8, deadline + 5) or b"", "big")
        payload = self._read(length, deadline + 5) or b""
        assert opcode == 1, (opcode, payload)
        return json.loads(payload)  # type: ignore[no-any-return]

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def town(town_factory: Callable[..., Town]) -> Town:
    """A town of this test's own: the shared one may have other tests' agents present on its map."""
    return town_factory().start()


@pytest.fixture
def live(town: Town) -> Iterator[Socket]:
    s = Socket(town, "/town/live", origin="https://elsewhere.example")  # any origin: it is public
    yield s
    s.close()


def tavern_label(town: Town) -> str:
    """What a screen reader hears for the Tavern's block on the map's live part."""
    status, _, html = get(town.url + "/town/now")
    assert status == 200
    labels = re.findall(r'aria-label="(The Tavern: [^"]*)" data-district="The Tavern"', html)
    assert len(labels) == 2, html[:2000]  # the wide drawing and the narrow one
    return str(labels[0])


def test_the_public_socket_tells_a_walk_within_two_seconds_and_a_private_call_never(town: Town, live: Socket) -> None:
    assert live.status == 101
    first = live.message(10)
    assert first is not None and re.fullmatch(r"[0-9a-f]{20}", first["stamp"])
    agent = RawSession(town.mcp, client_name="map-walker")
    agent.call("look_around")
    seen = live.message(5)  # the agent is present now: a new stamp
    assert seen is not None and seen["stamp"] != first["stamp"]
    while (more := live.message(1.5)) is not None:  # settle
        seen = more

    walked = time.monotonic()
    assert agent.call("walk_to", {"to": "The Tavern"})["isError"] is False
    moved = live.message(2.0)
    took = time.monotonic() - walked
    assert moved is not None, "no stamp within 2 s of walk_to"
    assert moved["stamp"] != seen["stamp"] and took < 2.0
    assert tavern_label(town) == "The Tavern: open; 1 agent here (1 with no pennant)."
    _, _, before = get(town.url + "/town/now")

    for tool in ("context_gauge", "studios", "market", "embassy"):
        assert agent.call(tool)["isError"] is False
    assert live.message(2.5) is None  # the map did not change, so the socket said nothing
    _, _, after = get(town.url + "/town/now")
    strip = lambda html: re.sub(r"<time[^>]*>[^<]*</time>", "", html)  # noqa: E731 (the moment it was drawn)
    assert strip(after) == strip(before)


def test_a_socket_elsewhere_is_refused(town: Town) -> None:
    s = Socket(town, "/town/elsewhere")
    assert s.status != 101 or s.message(2) is None
    s.close()


def test_a_page_that_sends_a_large_message_is_closed_and_holds_no_worker_memory(
    town_factory: Callable[..., Town],
) -> None:
    """The socket takes no words from a page: a message past a few KiB closes it (1009, too big) at once,
    not after 16 MiB held in a worker's memory; the map's other sockets go on being told. Served as
    `./town up` serves it (uvicorn, clockford/serve.py)."""
    town = town_factory(server="uvicorn").start()
    big = Socket(town, "/town/live")
    other = Socket(town, "/town/live")
    assert big.message(10) is not None and other.message(10) is not None
    length, key = 1 << 20, os.urandom(4)
    big.sock.sendall(bytes([0x82, 0x80 | 127]) + struct.pack(">Q", length) + key)  # binary, masked, 1 MiB
    try:
        big.sock.sendall(b"\0" * 65536)  # 64 KiB of it, never finished
    except OSError:
        pass  # closed already
    head = big._read(2, time.monotonic() + 5)
    assert head is not None, "the socket was not closed"
    assert head[0] & 0x0F == 8  # a close frame
    payload = big._read(head[1] & 0x7F, time.monotonic() + 5) or b""
    assert int.from_bytes(payload[:2], "big") == 1009
    big.close()
    RawSession(town.mcp, client_name="after-the-big-one").call("look_around")
    assert other.message(5) is not None  # the map's other socket still hears the new stamp
    other.close()


def test_one_visitor_takes_at_most_its_share_of_the_sockets(town: Town) -> None:
    """One address holds at most SOCKETS_PER_VISITOR sockets of a process: the next is asked to come back
    later, and once one of its own closes, it may open another. Other visitors' maps stay live."""
    held = [Socket(town, "/town/live") for _ in range(SOCKETS_PER_VISITOR)]
    try:
        assert [s.status for s in held] == [101] * SOCKETS_PER_VISITOR
        assert all(s.message(10) is not None for s in held[:2])
        more = Socket(town, "/town/live")
        assert more.status != 101 or more.message(2) is None
        more.close()
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:  # the town sees the close a moment later
            again = Socket(town, "/town/live")
            if again.status == 101:
                break
            again.close()
            assert time.monotonic() < deadline, "no socket again after one closed"
            time.sleep(0.2)
        held.append(again)
        assert again.message(10) is not None
    finally:
        for s in held:
            s.close()
