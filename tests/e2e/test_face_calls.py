"""The face answers a plain tools/call itself (clockford/face/http.py Face.call), without the SDK's
machinery for one request: its reply must be the SDK's own, byte for byte, at every revision the town
speaks. Over real HTTP, each call is sent twice: once plain, once with a key the face does not know
of, which sends it through the SDK (server.plain_call); the two replies differ only in the footstep.
"""

import http.client
import json
import re
import time
from typing import Any

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from tests.support import MCP_HEADERS, RawSession, Town, request, sse_message

# What a reply carries that differs between two calls of the same thing: its footstep's number, and
# the passport's count of footsteps (look_around), in the structured content and in the text's JSON.
FOOTSTEP = re.compile(rb'"footsteps?\\?":\d+|footstep #\d+')

CALLS: list[tuple[str, dict[str, Any] | None]] = [
    ("remember", {"key": "face.same", "value": "Les mots d'un agent \u2028 \U0001f600 \x01 \\ \""}),
    ("recall", {"key": "face.same"}),
    ("recall", {"key": "face.nothing-here"}),  # a refusal: isError, with a footstep
    ("look_around", None),  # no arguments at all
    ("remember", {"key": 5}),  # outside the schema: a protocol error, no footstep
    ("no_such_tool", {}),
]


def post(
    town: Town, sid: str, version: str, message: dict[str, Any], extra: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", town.port, timeout=30)
    try:
        headers = {**MCP_HEADERS, "MCP-Protocol-Version": version, "Mcp-Session-Id": sid, **(extra or {})}
        conn.request("POST", "/mcp", body=json.dumps(message), headers=headers)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()
    finally:
        conn.close()


def through_both(
    town: Town,
    sid: str,
    version: str,
    name: str,
    arguments: dict[str, Any] | None,
    extra: dict[str, str] | None = None,
) -> list[Any]:
    """The call's reply through the SDK and through the face (with `extra` headers: a token)."""
    params: dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    replies = []
    for message in (
        {"jsonrpc": "2.0", "id": f"sdk-{name}", "method": "tools/call", "params": params, "x-road": "sdk"},
        {"jsonrpc": "2.0", "id": f"sdk-{name}", "method": "tools/call", "params": params},
    ):
        status, headers, body = post(town, sid, version, message, extra)
        kept = {k: headers.get(k) for k in ("content-type", "cache-control", "x-accel-buffering")}
        # The SDK streams its event in chunks; the face, whole, says its length: the event is the same.
        replies.append((status, kept, FOOTSTEP.sub(b"<footstep>", body)))
    return replies


@pytest.mark.parametrize("version", HANDSHAKE_PROTOCOL_VERSIONS)
def test_a_plain_call_is_answered_in_the_sdks_own_bytes(town: Town, version: str) -> None:
    s = RawSession(town.mcp)
    try:
        for name, arguments in CALLS:
            sdk, face = through_both(town, s.sid or "", version, name, arguments)
            assert face == sdk, (name, version)
            assert face[0] == 200 and face[1]["content-type"] == "text/event-stream"
    finally:
        s.delete()


def test_a_call_the_face_does_not_answer_goes_through_the_sdk(town: Town) -> None:
    """Shapes plain_call leaves to the SDK are answered in its own words, never dropped or guessed."""
    s = RawSession(town.mcp)
    try:
        # Params the SDK's check for tools/call refuses: its JSON-RPC error, not a call.
        status, _, body = post(
            town, s.sid or "", "2025-11-25", {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": 7}}
        )
        reply = sse_message(body.decode())
        assert status == 200 and reply["id"] == 3 and reply["error"]["code"] == -32602, reply
        # A JSON-RPC version that is not 2.0: refused by the SDK as it would refuse it anywhere.
        status, _, body = post(
            town,
            s.sid or "",
            "2025-11-25",
            {"jsonrpc": "1.0", "id": 4, "method": "tools/call", "params": {"name": "look_around"}},
        )
        assert status == 400 or "error" in sse_message(body.decode()), (status, body)
        # A tools/call without an id is a notification by JSON-RPC's reading: it runs nothing, so no
        # footstep, and is answered 202 with no reply, as the SDK answers a notification it does not
        # know. (The face once ran the tool, then met no id to answer with: an HTTP 500.)
        # Counted by the passport's footsteps, not by their numbers: on PostgreSQL a request takes its
        # number ahead, and a number taken for a call that never ran is a gap (archive.NUMBER_AHEAD).
        before = s.call("look_around")["structuredContent"]["you"]["footsteps"]
        for params in ({"name": "look_around"}, {"name": "look_around", "arguments": None}, {"name": "remember"}):
            status, _, body = post(
                town, s.sid or "", "2025-11-25", {"jsonrpc": "2.0", "method": "tools/call", "params": params}
            )
            assert (status, body) == (202, b""), (params, status, body)
        assert s.call("look_around")["structuredContent"]["you"]["footsteps"] == before + 1
    finally:
        s.delete()


def test_a_body_the_sdk_could_not_read_is_bad_request_and_runs_nothing(town: Town) -> None:
    """The face reads a body as the SDK's parser does: UTF-8 without a byte-order mark, and no lone
    surrogate. Python's json would read the rest (UTF-16 and UTF-32 bytes, the mark, a lone surrogate
    into a str that cannot be written out again), and the face once ran a tool on such a body and
    then failed to write its reply's id (an HTTP 500 after a footstep), or failed to keep a client's
    name at initialize (a 500). Now each is 001's "Bad request.", and nothing runs."""
    s = RawSession(town.mcp)
    try:
        before = s.call("look_around")["structuredContent"]["you"]["footsteps"]

        def remember(**envelope: Any) -> dict[str, Any]:
            return {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "remember", **envelope}}

        kept = {"arguments": {"key": "face.ghost", "value": "ran"}}
        bodies = [
            json.dumps(remember(**kept)).encode("utf-16"),
            json.dumps(remember(**kept)).encode("utf-32"),
            b"\xef\xbb\xbf" + json.dumps(remember(**kept)).encode(),
            json.dumps({**remember(**kept), "id": "\ud800"}).encode(),  # the escape, in ASCII bytes
            json.dumps(remember(arguments={"key": "face.ghost", "value": "\udc00 alone"})).encode(),
            json.dumps(remember(**kept)).encode().replace(b'"ran"', b'"r\xed\xa0\x80n"'),  # a surrogate's UTF-8
        ]
        for body in bodies:
            status, _, text = request("POST", s.url, body, s.headers())
            assert (status, text) == (400, "Bad request."), (body[:60], status, text[:200])
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "\ud800", "version": "1"}}
        status, headers, text = request(
            "POST",
            town.mcp,
            json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}).encode(),
            MCP_HEADERS,
        )
        assert (status, text) == (400, "Bad request.") and "mcp-session-id" not in headers, (status, text[:200])
        # Nothing ran: the passport's next footstep follows the one before, and the key was never kept.
        assert s.call("look_around")["structuredContent"]["you"]["footsteps"] == before + 1
        assert s.call("recall", {"key": "face.ghost"})["isError"] is True
        # An escaped pair (an emoji) is a character like any other.
        body = json.dumps(remember(arguments={"key": "face.pair", "value": "lamp \U0001f56f lit"})).encode()
        assert b"\\ud83d\\udd6f" in body
        status, _, text = request("POST", s.url, body, s.headers())
        assert status == 200 and sse_message(text)["result"]["isError"] is False, text[:300]
        assert s.call("recall", {"key": "face.pair"})["structuredContent"]["value"] == "lamp \U0001f56f lit"
    finally:
        s.delete()


def test_a_plain_calls_log_line_is_written_once_its_reply_is_out(town: Town) -> None:
    """The face holds a plain call's JSON line until the reply is sent (counting.lines_after), and then
    writes it: one line per call, with the reply's footstep, never dropped."""
    s = RawSession(town.mcp)
    try:
        numbers = [s.call("look_around")["structuredContent"]["you"]["footsteps"] for _ in range(3)]
        refused = s.call("recall", {"key": "face.never-kept"})
        assert refused["isError"] is True and numbers == sorted(numbers)
        footstep = refused["structuredContent"]["footstep"]
        deadline = time.monotonic() + 10
        while True:
            lines = [json.loads(x) for x in town.log.read_text().splitlines() if x.startswith('{"at":')]
            mine = [x for x in lines if x["footstep"] == footstep]
            if mine or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert len(mine) == 1 and mine[0]["tool"] == "recall" and mine[0]["outcome"].startswith("refused"), mine
        assert sum(1 for x in lines if x["tool"] == "look_around") >= 3
    finally:
        s.delete()
