"""The reliability battery's clients, in a process of their own: `python -m tests.bench.battery_clients
MODE JSON`, where JSON holds the mode's settings. Each mode speaks streamable HTTP by hand (the standard
library's http.client, as the rest of the bench does, so that malformed requests can be sent too) and
prints one JSON line of counts on stdout when it is done; `writes` also prints a line before each call,
so that the battery can kill the town while the call is in flight.

Every client may bind its own loopback source address (127.0.x.y: Linux routes all of 127.0.0.0/8 to
this machine), so that the town sees many addresses, as it would see many people's agents, and its
per-address limits stay at their shipped defaults.
"""

import http.client
import json
import random
import re
import string
import sys
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

PROTOCOL = "2025-11-25"
HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": PROTOCOL,
}
CLOSED_BODY = "The town is closed for now. Try again later."


def address(i: int, block: int = 1) -> str:
    """The i-th client's own loopback address, in a block of 250 x 250 addresses (127.block.x.y)."""
    return f"127.{block + i // 62500}.{1 + (i // 250) % 250}.{1 + i % 250}"


def message(mid: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    m: dict[str, Any] = {"jsonrpc": "2.0", "id": mid, "method": method}
    if params is not None:
        m["params"] = params
    return json.dumps(m).encode()


def reply_of(body: bytes) -> dict[str, Any] | None:
    """The one JSON-RPC message of a reply (an event stream or plain JSON), or None."""
    text = body.decode("utf-8", "replace")
    data = [line[6:] for line in re.split(r"\r\n|\r|\n", text) if line.startswith("data: ")]
    try:
        m = json.loads(data[-1] if data else text)
    except ValueError:
        return None
    return m if isinstance(m, dict) else None


class Conn:
    """One keep-alive connection from one source address, opened again after the server closes it."""

    def __init__(self, url: str, source: str | None, timeout: float = 60) -> None:
        parts = urllib.parse.urlsplit(url)
        assert parts.hostname and parts.port
        self.host, self.port, self.path = parts.hostname, parts.port, parts.path or "/"
        self.source = source
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def _conn(self) -> http.client.HTTPConnection:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(
                self.host, self.port, timeout=self.timeout, source_address=(self.source, 0) if self.source else None
            )
        return self.conn

    def send(
        self, method: str, body: bytes | None, headers: dict[str, str], path: str | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """One request; an OSError or a broken reply is raised after the connection is dropped."""
        c = self._conn()
        try:
            c.putrequest(method, path or self.path, skip_host="Host" in headers, skip_accept_encoding=True)
            for k, v in headers.items():
                c.putheader(k, v)
            if body is not None and "Content-Length" not in headers:
                c.putheader("Content-Length", str(len(body)))
            c.endheaders(body)
            resp = c.getresponse()
            data = resp.read()
            if resp.will_close:
                self.close()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
        except (OSError, http.client.HTTPException):
            self.close()
            raise

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Client:
    """An MCP session over one Conn."""

    def __init__(self, url: str, source: str | None, name: str = "battery") -> None:
        self.url = url
        self.conn = Conn(url, source)
        self.name = name
        self.sid: str | None = None
        self.next_id = 0

    def headers(self) -> dict[str, str]:
        h = dict(HEADERS)
        if self.sid:
            h["Mcp-Session-Id"] = self.sid
        return h

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id

    def initialize(self) -> tuple[int, dict[str, str], bytes]:
        self.sid = None
        params = {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": self.name, "version": "1"}}
        status, headers, body = self.conn.send("POST", message(self._id(), "initialize", params), self.headers())
        if status == 200 and "mcp-session-id" in headers:
            self.sid = headers["mcp-session-id"]
            done = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()
            self.conn.send("POST", done, self.headers())
        return status, headers, body

    def call(self, tool: str, arguments: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        body = message(self._id(), "tools/call", {"name": tool, "arguments": arguments})
        return self.conn.send("POST", body, self.headers())

    def delete(self) -> tuple[int, dict[str, str], bytes]:
        return self.conn.send("DELETE", None, self.headers())


def result_of(body: bytes) -> dict[str, Any] | None:
    m = reply_of(body)
    r = m.get("result") if m else None
    return r if isinstance(r, dict) else None


def kind_of(status: int, body: bytes) -> str:
    """How a reply is counted: ok, busy (retryAfterSeconds), refused (another isError), or its status."""
    if status == 0:
        return "no answer"
    if status != 200:
        return str(status)
    m = reply_of(body)
    r = m.get("result") if m else None
    if not isinstance(r, dict):
        return "rpc error" if m and "error" in m else "no result"
    if not r.get("isError"):
        return "ok"
    sc = r.get("structuredContent") or {}
    return "busy" if "retryAfterSeconds" in sc else "refused"


@dataclass
class Tally:
    kinds: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)  # the first few 5xx and transport errors
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, latency: float | None = None, sample: str | None = None) -> None:
        with self.lock:
            self.kinds[kind] += 1
            if latency is not None:
                self.latencies.append(latency)
            if sample is not None and len(self.samples) < 10:
                self.samples.append(sample[:300])

    def summary(self) -> dict[str, Any]:
        xs = sorted(self.latencies)

        def p(q: float) -> float:
            return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))] if xs else 0.0

        fivexx = sum(n for k, n in self.kinds.items() if k.isdigit() and k.startswith("5"))
        return {
            "kinds": dict(self.kinds),
            "5xx": fivexx,
            "500": self.kinds.get("500", 0),
            "p50": p(0.5),
            "p95": p(0.95),
            "samples": self.samples,
        }


def record(t: Tally, status: int, body: bytes, latency: float | None, what: str) -> str:
    kind = kind_of(status, body)
    sample = None
    if status >= 500:
        sample = f"{what}: HTTP {status} {body[:200]!r}"
    t.add(kind, latency, sample)
    if status == 503 and body.decode("utf-8", "replace") == CLOSED_BODY:
        t.add("closed answers")
    return kind


class Watch(threading.Thread):
    """Reads GET /status every half second: how often the town was seen closed, and its last mode."""

    def __init__(self, base: str) -> None:
        super().__init__(daemon=True)
        self.conn = Conn(base, None, timeout=10)
        self.stop = threading.Event()
        self.closed_seen = 0
        self.closures = 0
        self.modes: Counter[str] = Counter()

    def mode(self) -> str:
        try:
            status, _, body = self.conn.send("GET", None, {}, path="/status")
            if status != 200:
                return f"HTTP {status}"
            return str(json.loads(body).get("mode"))
        except (OSError, http.client.HTTPException, ValueError):
            return "unreachable"

    def run(self) -> None:
        last = "open"
        while not self.stop.wait(0.5):
            m = self.mode()
            self.modes[m] += 1
            if m == "closed":
                self.closed_seen += 1
                if last != "closed":
                    self.closures += 1
            last = m


def base_of(url: str) -> str:
    p = urllib.parse.urlsplit(url)
    return f"{p.scheme}://{p.netloc}"


# ---------------------------------------------------------------------------------------------
# load: many clients at once for a while


def _load_client(i: int, s: dict[str, Any], deadline: float, t: Tally, rng: random.Random) -> None:
    c = Client(s["url"], address(i), f"battery-load-{i}")
    keys = [f"load.{n}" for n in range(8)]
    while time.monotonic() < deadline:
        try:
            if c.sid is None:
                t0 = time.perf_counter()
                status, _, body = c.initialize()
                record(t, status, body, time.perf_counter() - t0, "initialize")
                if c.sid is None:
                    time.sleep(1)
                continue
            roll = rng.random()
            if roll < 0.35:
                tool, args = "look_around", {}
            elif roll < 0.65:
                tool, args = "remember", {"key": rng.choice(keys), "value": f"A note from client {i}, {rng.random()}."}
            elif roll < 0.8:
                tool, args = "recall", {"key": rng.choice(keys)} if rng.random() < 0.5 else {}
            elif roll < 0.9:
                tool, args = "show_balance", {}
            else:
                tool, args = "context_gauge", {}
            t0 = time.perf_counter()
            status, _, body = c.call(tool, args)
            kind = record(t, status, body, time.perf_counter() - t0, tool)
            if status == 404:
                c.sid = None
            elif kind == "busy":
                t.add("busy waits")
                time.sleep(
                    min(5.0, float((result_of(body) or {}).get("structuredContent", {}).get("retryAfterSeconds", 1)))
                )
            elif status == 429:
                time.sleep(1)
        except (OSError, http.client.HTTPException) as e:
            t.add("transport errors", sample=f"{type(e).__name__}: {e}")
            time.sleep(0.5)
    c.conn.close()


def load(s: dict[str, Any]) -> dict[str, Any]:
    t = Tally()
    watch = Watch(base_of(s["url"]))
    watch.start()
    deadline = time.monotonic() + s["seconds"]
    start = time.monotonic()
    rng = random.Random(s.get("seed", 1))
    threads = [
        threading.Thread(target=_load_client, args=(i, s, deadline, t, random.Random(rng.random())), daemon=True)
        for i in range(s["clients"])
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join(s["seconds"] + 120)
    wall = time.monotonic() - start
    watch.stop.set()
    watch.join()
    out = t.summary()
    calls = sum(
        n for k, n in t.kinds.items() if k in ("ok", "busy", "refused", "rpc error", "no result") or k.isdigit()
    )
    out.update(
        calls=calls,
        wall=wall,
        closures=watch.closures,
        closed_seen=watch.closed_seen,
        mode_after=watch.mode(),
        hung=sum(th.is_alive() for th in threads),
    )
    return out


# ---------------------------------------------------------------------------------------------
# writes: numbered remember calls, each retried until acknowledged (the battery kills the town
# meanwhile), then every acknowledged note read back


def _say(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _wait_up(base: str, deadline: float) -> None:
    conn = Conn(base, None, timeout=5)
    while time.monotonic() < deadline:
        try:
            if conn.send("GET", None, {}, path="/status")[0] == 200:
                conn.close()
                return
        except (OSError, http.client.HTTPException):
            pass
        time.sleep(0.1)
    raise RuntimeError("the town did not come back within the deadline")


def writes(s: dict[str, Any]) -> dict[str, Any]:
    base = base_of(s["url"])
    n, per = s["calls"], s["keys_per_session"]
    run = s.get("run", "r")
    clients: list[Client] = []
    t = Tally()
    acks: list[dict[str, Any]] = []
    reinits = 0
    for i in range((n + per - 1) // per):
        c = Client(s["url"], address(i, block=3), f"battery-writes-{i}")
        while c.sid is None:
            try:
                c.initialize()
            except (OSError, http.client.HTTPException):
                _wait_up(base, time.monotonic() + 60)
        clients.append(c)
    for i in range(n):
        c = clients[i // per]
        key, value = f"w{run}.{i:03d}", f"Write {i} of battery run {run}."
        attempt = 0
        while True:
            attempt += 1
            _say({"sent": i, "attempt": attempt})
            try:
                status, _, body = c.call("remember", {"key": key, "value": value})
            except (OSError, http.client.HTTPException):
                t.add("transport errors")
                _wait_up(base, time.monotonic() + 120)
                continue
            kind = record(t, status, body, None, "remember")
            if kind == "ok":
                r = result_of(body) or {}
                acks.append({"i": i, "key": key, "value": value, "footstep": r["structuredContent"]["footstep"]})
                break
            if status == 404:  # the session was lost: a defect of its own, counted; start another
                reinits += 1
                c.initialize()
                continue
            if kind == "busy" or status in (429, 503):
                time.sleep(0.5)
                continue
            # A refusal or an error that retrying will not mend: counted, and the write is given up.
            t.add("given up", sample=f"{i}: HTTP {status} {body[:200]!r}")
            break
    _say({"done": True})
    # Read every note back, on its own session, once the town is settled.
    _wait_up(base, time.monotonic() + 120)
    lost: list[str] = []
    dup_keys = 0

    def read(c: Client, args: dict[str, Any]) -> dict[str, Any]:
        """A recall, tried again while the town is not answering or busy."""
        for _ in range(50):
            try:
                status, _, body = c.call("recall", args)
            except (OSError, http.client.HTTPException):
                _wait_up(base, time.monotonic() + 120)
                continue
            if kind_of(status, body) == "busy" or status in (429, 503):
                time.sleep(0.5)
                continue
            return (result_of(body) or {}).get("structuredContent") or {}
        return {}

    for ci, c in enumerate(clients):
        keys = read(c, {}).get("keys", [])
        dup_keys += len(keys) - len(set(keys))
        for a in [a for a in acks if a["i"] // per == ci]:
            got = read(c, {"key": a["key"]}).get("value")
            if got != a["value"]:
                lost.append(f"{a['key']}: {got!r}")
    numbers = [a["footstep"] for a in acks]
    out = t.summary()
    out.update(
        calls=n,
        acknowledged=len(acks),
        lost=len(lost),
        lost_samples=lost[:5],
        duplicated=dup_keys + len(numbers) - len(set(numbers)),
        footsteps=numbers,
        reinits=reinits,
    )
    return out


# ---------------------------------------------------------------------------------------------
# cycle: one client, DELETE then initialize, over and over


def cycle(s: dict[str, Any]) -> dict[str, Any]:
    c = Client(s["url"], address(s.get("client", 0), block=5), "battery-cycle")
    t = Tally()
    opened = 0
    first_refusal: int | None = None
    bodies: Counter[str] = Counter()
    for i in range(s["cycles"]):
        try:
            if c.sid is not None:
                status, _, body = c.delete()
                record(t, status, body, None, "DELETE")
                c.sid = None
            status, headers, body = c.initialize()
        except (OSError, http.client.HTTPException) as e:
            t.add("transport errors", sample=f"{type(e).__name__}: {e}")
            continue
        record(t, status, body, None, "initialize")
        if status == 200 and c.sid is not None:
            opened += 1
        elif status == 429:
            if first_refusal is None:
                first_refusal = i
            bodies[
                f"{body.decode('utf-8', 'replace')} (Retry-After {'retry-after' in headers and 'set' or 'missing'})"
            ] += 1
    out = t.summary()
    out.update(cycles=s["cycles"], opened=opened, first_refusal=first_refusal, refusals=dict(bodies))
    return out


# ---------------------------------------------------------------------------------------------
# fuzz: malformed and odd requests of every kind


ODD = [
    "\u0000",
    "\ud800",  # a lone surrogate: json.dumps writes it as an escape, which no UTF-8 can carry
    "\udfff\ud800",
    "\u202e",
    "\u200b\u200d\ufeff",
    "\U0001f600" * 50,
    "e\u0301" * 100,
    "\uffff\ufffe",
    "\x1b[31m",
    "a\r\nb",
    "\u2028\u2029\u0085",
    "\U000e0041\U000e0042",  # tag characters
    "ｆｕｌｌｗｉｄｔｈ",
    "<script>alert(1)</script>",
    "'; DROP TABLE town_footstep; --",
    "%s%s%n",
    "../../etc/passwd",
    "{{7*7}}",
]


def odd_string(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(ODD)
    if roll < 0.4:
        return rng.choice(ODD) * rng.randint(100, 5000)
    if roll < 0.5:
        return "".join(chr(rng.randint(0, 0x10FFFF)) for _ in range(rng.randint(1, 200)))
    if roll < 0.6:
        return "x" * rng.choice([0, 1, 64, 65, 280, 4000, 4001, 20_000, 120_000])
    if roll < 0.7:
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 300)))
    return "".join(rng.choice(string.ascii_lowercase + ".-_/:") for _ in range(rng.randint(1, 70)))


def odd_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.35 or depth > 3:
        return odd_string(rng)
    if roll < 0.45:
        return rng.choice([0, -1, 1, 2**31, 2**63, -(2**64), 10**30, 1.5, -0.0, 1e308])
    if roll < 0.5:
        return rng.choice([True, False, None])
    if roll < 0.7:
        return [odd_value(rng, depth + 1) for _ in range(rng.randint(0, 20))]
    return {odd_string(rng)[:40]: odd_value(rng, depth + 1) for _ in range(rng.randint(0, 6))}


def fuzz_arguments(rng: random.Random, schema: dict[str, Any]) -> Any:
    props: dict[str, Any] = schema.get("properties") or {}
    roll = rng.random()
    if roll < 0.05:
        return odd_value(rng)  # not even an object
    args: dict[str, Any] = {}
    for name, p in props.items():
        r = rng.random()
        if r < 0.3:
            continue
        if r < 0.6:
            args[name] = odd_value(rng)
        elif p.get("type") == "string" or "string" in str(p.get("type")):
            args[name] = odd_string(rng)
        elif p.get("type") == "integer":
            args[name] = rng.choice([-1, 0, 1, 5, 100, 10**9, 2**63])
        elif p.get("type") == "array":
            args[name] = [odd_string(rng) for _ in range(rng.randint(0, 40))]
        elif p.get("type") == "boolean":
            args[name] = rng.choice([True, False])
        else:
            args[name] = odd_value(rng)
    if rng.random() < 0.2:
        args[odd_string(rng)[:30]] = odd_value(rng)
    return args


def fuzz_request(
    rng: random.Random, tools: list[dict[str, Any]], sid: str
) -> tuple[str, str, bytes | None, dict[str, str]]:
    """(case, method, body, headers): one odd request, on the session `sid` more often than not."""
    h = dict(HEADERS)
    h["Mcp-Session-Id"] = sid
    mid: Any = rng.randint(1, 10**6)
    roll = rng.random()
    if roll < 0.4:
        tool = rng.choice(tools)
        args = fuzz_arguments(rng, tool.get("inputSchema") or {})
        body = json.dumps(
            {"jsonrpc": "2.0", "id": mid, "method": "tools/call", "params": {"name": tool["name"], "arguments": args}}
        )
        return f"arguments of {tool['name']}", "POST", body.encode(), h
    if roll < 0.5:
        name = rng.choice([odd_string(rng), "look_around ", "LOOK_AROUND", "", "x" * 10_000, "tools/call"])
        body = json.dumps(
            {"jsonrpc": "2.0", "id": mid, "method": "tools/call", "params": {"name": name, "arguments": {}}}
        )
        return "unknown tool", "POST", body.encode(), h
    if roll < 0.62:
        raw = rng.choice(
            [
                b"",
                b"{",
                b"null",
                b"[]",
                b"[1,2]",
                b'"string"',
                b"{}",
                b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"look_around"',
                b"\xff\xfe\x00garbage",
                b'{"jsonrpc":"2.0","id":1,"method":"ping"}' * 3,
                b"[" * 50_000 + b"]" * 50_000,
                b'{"a":' * 20_000 + b"1" + b"}" * 20_000,
                b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
                b'{"jsonrpc":"2.0","id":1e999,"method":"ping"}',
                b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":{"key":"k","value":"\\ud800"}}}',
                b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":{"key":"k","value":"\xed\xa0\x80"}}}',
                bytes(rng.randint(0, 255) for _ in range(rng.randint(1, 2000))),
                json.dumps([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]).encode(),
                b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"look_around","arguments":{}},"id":2}',
            ]
        )
        return "malformed JSON", "POST", raw, h
    if roll < 0.77:
        m: dict[str, Any] = {"jsonrpc": rng.choice(["2.0", "1.0", 2, None]), "id": mid}
        m["id"] = rng.choice([mid, None, 1.5, True, {"a": 1}, [1], "x" * 5000, -1, 2**70])
        m["method"] = rng.choice(
            [
                "tools/call",
                "tools/list",
                "ping",
                "initialize",
                "resources/list",
                "resources/read",
                "prompts/list",
                "prompts/get",
                "completion/complete",
                "logging/setLevel",
                "notifications/initialized",
                "notifications/cancelled",
                "sampling/createMessage",
                "nope",
                "",
                5,
                None,
            ]
        )
        if rng.random() < 0.7:
            m["params"] = rng.choice(
                [
                    {},
                    [],
                    "x",
                    None,
                    3,
                    odd_value(rng),
                    {"name": "look_around", "arguments": []},
                    {"name": "look_around"},
                ]
            )
        if rng.random() < 0.1:
            m["result"] = {}
        if rng.random() < 0.1:
            del m["id"]
        return "odd JSON-RPC", "POST", json.dumps(m).encode(), h
    # Bad headers and methods.
    body = json.dumps(
        {"jsonrpc": "2.0", "id": mid, "method": "tools/call", "params": {"name": "look_around", "arguments": {}}}
    ).encode()
    choice = rng.randint(0, 15)
    method = "POST"
    if choice == 0:
        h.pop("Content-Type")
    elif choice == 1:
        h["Content-Type"] = rng.choice(
            ["text/plain", "application/json; charset=latin-1", "application/jsonx", "", "*/*"]
        )
    elif choice == 2:
        h["Accept"] = rng.choice(["", "text/html", "application/json", "text/event-stream", "*/*;q=0"])
    elif choice == 3:
        h["MCP-Protocol-Version"] = rng.choice(["", "1999-01-01", "2026-07-28", "x" * 300, "2025-11-25, 2025-06-18"])
    elif choice == 4:
        h["Mcp-Session-Id"] = rng.choice(
            ["", "x" * 5000, "00000000000000000000000000000000", "é\u00ff", sid + "x", " " + sid]
        )
    elif choice == 5:
        h.pop("Mcp-Session-Id")
    elif choice == 6:
        h["Host"] = rng.choice(["evil.example", "", "127.0.0.1:1:2", "[::1", "x" * 3000, "localhost."])
    elif choice == 7:
        h["Origin"] = rng.choice(["null", "http://evil.example", "", "http://127.0.0.1:1/x", "file://"])
    elif choice == 8:
        h["Authorization"] = rng.choice(["Bearer", "Bearer " + "x" * 4000, "Basic Zm9vOmJhcg==", "Bearer a.b.c"])
    elif choice == 9:
        h["Content-Length"] = rng.choice(["-1", "abc", "99999999999999999999", "1e3"])
        body = b"" if h["Content-Length"] != "1e3" else body
    elif choice == 10:
        method = rng.choice(["PUT", "PATCH", "OPTIONS", "HEAD", "TRACE", "FOO"])
    elif choice == 11:
        method = "GET"
        body = None
    elif choice == 12:
        method = "DELETE"
        body = None
        h["Mcp-Session-Id"] = rng.choice(["nope", "x" * 200, ""])
    elif choice == 13:
        h["X-Forwarded-For"] = "1.2.3.4, " * 200
        h["X-Forwarded-Proto"] = "gopher"
    elif choice == 14:
        h["Cookie"] = "sessionid=" + "x" * 4000 + "; csrftoken=\x7f"
    else:
        body = body + b" " * 140_000  # over the body limit
    return f"headers {choice}", method, body, h


def _fuzz_worker(
    w: int, s: dict[str, Any], tools: list[dict[str, Any]], share: int, t: Tally, cases: Counter[str]
) -> None:
    rng = random.Random(s.get("seed", 7) * 1000 + w)
    client = Client(s["url"], address(w, block=7), f"battery-fuzz-{w}")
    client.initialize()
    for _ in range(share):
        if client.sid is None:
            try:
                client.initialize()
            except (OSError, http.client.HTTPException):
                time.sleep(0.5)
                continue
            if client.sid is None:
                time.sleep(1)
                continue
        case, method, body, headers = fuzz_request(rng, tools, client.sid)
        try:
            status, _, data = client.conn.send(method, body, headers)
        except (OSError, http.client.HTTPException) as e:
            t.add("transport errors", sample=f"{case}: {type(e).__name__}: {e}")
            continue
        with t.lock:
            cases[case.split(" of ")[0]] += 1
        record(t, status, data, None, case)
    client.conn.close()


def fuzz(s: dict[str, Any]) -> dict[str, Any]:
    probe = Client(s["url"], address(0, block=9), "battery-fuzz-probe")
    probe.initialize()
    status, _, body = probe.conn.send("POST", message(99, "tools/list", {}), probe.headers())
    tools = ((result_of(body) or {}).get("tools")) or []
    if not tools:
        raise RuntimeError(f"tools/list answered {status}: {body[:200]!r}")
    t = Tally()
    cases: Counter[str] = Counter()
    watch = Watch(base_of(s["url"]))
    watch.start()
    workers = s["workers"]
    shares = [s["calls"] // workers + (1 if w < s["calls"] % workers else 0) for w in range(workers)]
    threads = [threading.Thread(target=_fuzz_worker, args=(w, s, tools, shares[w], t, cases)) for w in range(workers)]
    start = time.monotonic()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    watch.stop.set()
    watch.join()
    probe.conn.close()  # its keep-alive connection has long been idle
    try:
        after = probe.call("look_around", {})
    except (OSError, http.client.HTTPException) as e:
        after = (0, {}, f"{type(e).__name__}: {e}".encode())
    out = t.summary()
    out.update(
        calls=sum(cases.values()),
        wall=time.monotonic() - start,
        cases=dict(cases),
        closures=watch.closures,
        mode_after=watch.mode(),
        look_around_after=kind_of(after[0], after[2]),
        tools=len(tools),
    )
    return out


MODES = {"load": load, "writes": writes, "cycle": cycle, "fuzz": fuzz}


def main() -> None:
    mode, settings = sys.argv[1], json.loads(sys.argv[2])
    out = MODES[mode](settings)
    _say({"result": out})


if __name__ == "__main__":
    main()
