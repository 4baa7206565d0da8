"""The face's own road for a plain tools/call (clockford/face/http.py Face.call), in process: what it
answers when the call itself raises. tests/e2e/test_face_calls.py compares its replies with the SDK's
over HTTP."""

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import SynchronousOnlyOperation
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from clockford.face import http, server, sessions
from clockford.face.tests.test_checks import request
from clockford.town import desk, limits
from clockford.town.models import Passport, Tally


def test_a_call_that_raises_is_answered_as_the_sdks_dispatcher_answers_it() -> None:
    assert json.loads(server.call_error(7, RuntimeError("the lamp went out"))) == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {"code": 0, "message": "the lamp went out"},
    }
    # pydantic's ValidationError is the spec's INVALID_PARAMS, with no pydantic text on the wire.
    try:
        server.CallToolRequestParams.model_validate({"name": 5})
    except ValueError as invalid:
        assert json.loads(server.call_error("a", invalid))["error"] == {
            "code": -32602,
            "message": "Invalid request parameters",
            "data": "",
        }


async def test_the_face_answers_a_call_that_raised_with_a_jsonrpc_error_not_a_500(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def raising(*args: Any) -> Any:
        raise RuntimeError("the lamp went out")

    monkeypatch.setattr(http, "run_tool", raising)
    message = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "look_around"}}
    r = request("POST", json.dumps(message).encode(), mcp_protocol_version="2025-11-25")
    r.message = message
    face = http.Face(http.build_manager())
    start, body = await face.answer_call(r, server.Unchecked("S-1", "127.0.0.1"))
    assert start["status"] == 200 and (b"content-type", b"text/event-stream") in start["headers"]
    event = body["body"].decode()
    assert event.startswith("event: message\r\ndata: ") and event.endswith("\r\n\r\n")
    assert json.loads(event[len("event: message\r\ndata: ") :]) == {
        "jsonrpc": "2.0",
        "id": 9,
        "error": {"code": 0, "message": "the lamp went out"},
    }


# A call's work may open a connection (on a desk thread, or kept for the loop's calls), which only a
# test with the database may touch.
@pytest.mark.django_db
async def test_a_requests_work_runs_on_the_loops_thread() -> None:
    """On SQLite the hand-over to a desk thread and back was two to three fifths of a call's CPU beyond
    the bare server's (docs/scale.md, 2026-12-05); on PostgreSQL it runs there too, in a greenlet that
    lets the loop go while it waits for the server (tests/test_green.py)."""
    assert await server.in_db(threading.current_thread) is threading.current_thread()
    assert await server.in_db(Passport.objects.count) == 0  # Django's ORM, knowingly, on the loop
    # Outside that work the loop is the loop again: Django refuses its ORM here, as everywhere.
    with pytest.raises(SynchronousOnlyOperation):
        Passport.objects.count()


@pytest.mark.django_db
async def test_with_the_setting_off_every_request_takes_a_desk_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    # CLOCKFORD_DESK_ON_LOOP=0, read as the face loads
    monkeypatch.setattr(server, "ON_LOOP", False)
    monkeypatch.setattr(server, "IN_GREENLETS", None)
    assert (await server.in_db(threading.current_thread)).name.startswith("desk")


@pytest.mark.django_db
def test_a_call_run_again_after_giving_way_is_counted_once() -> None:
    """Work on the loop that gave way after the request's count (server.in_db) runs again from its start
    on a desk thread: the count it wrote is remembered on its Unchecked, and not taken again."""
    opened = sessions.open_session("10.9.8.7", "counted once")
    assert isinstance(opened, sessions.Opened)
    unchecked = server.Unchecked(opened.sid, "10.9.8.7")
    first = server.admit(unchecked)
    assert first is not None and unchecked.counted
    again = server.admit(unchecked)  # as the desk thread runs it
    assert again is not None and again[0].id == opened.session.id
    assert Tally.objects.get(pk=limits.address_key("10.9.8.7")).requests == 1


async def test_a_request_that_never_touches_the_database_opens_no_connection_for_it() -> None:
    """Without the django_db mark, any query would fail the test."""
    assert await server.in_db(lambda: 7) == 7


# As above, the mark for the desk's threads.
@pytest.mark.django_db
async def test_a_slow_reply_waits_on_the_face_while_every_desk_thread_is_free(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Dice House's slow reply (Rendered.delay) is waited for after the desk is done, on the event
    loop: the desk's threads, and on PostgreSQL the calls a worker runs at once, are few (DESK_THREADS),
    and one asleep would be one fewer for every call."""
    slow = desk.Rendered(structured={"say": "A slow reply."}, text="A slow reply.", is_error=False, footstep=1)
    slow.delay = 0.4
    monkeypatch.setattr(server.desk, "run", lambda *args: slow)
    t0 = time.monotonic()
    reply = asyncio.create_task(server.run_tool(server.Visitor(Passport(), None), "look_around", {}))
    await asyncio.sleep(0.05)
    threads = django_settings.CLOCKFORD["DESK_THREADS"]
    assert await asyncio.gather(*(server.on_desk_thread(time.sleep, 0.05) for _ in range(threads))) == [None] * threads
    assert time.monotonic() - t0 < 0.3 and not reply.done()  # every thread was there meanwhile
    calls = server.IN_GREENLETS
    assert calls is None or len(calls.free) == calls.made  # and every call's connection
    assert await reply is slow and time.monotonic() - t0 >= 0.4


# Values a reply's structured content can hold, odd ones included: text with escapes, controls and
# characters outside the BMP, NaN and infinities, integers past 64 bits, tuples, non-string keys.
_leaf = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
)
_value = st.recursive(
    _leaf,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6) | st.integers(min_value=-5, max_value=5), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(  # found by this test: keys that only JSON makes alike
    request_id=0, version="2024-11-05", structured={"": {"3": None, 3: None}}, text="", blocks=[], is_error=False
)
@given(
    request_id=st.integers(min_value=-(2**53), max_value=2**53) | st.text(max_size=10),
    version=st.sampled_from(HANDSHAKE_PROTOCOL_VERSIONS),
    structured=st.dictionaries(st.text(max_size=8), _value, max_size=5),
    text=st.text(max_size=40),
    blocks=st.lists(st.text(max_size=10), max_size=3),
    is_error=st.booleans(),
)
def test_a_rendered_reply_is_the_sdks_dump_of_it_to_the_byte(
    request_id: int | str, version: str, structured: dict[str, Any], text: str, blocks: list[str], is_error: bool
) -> None:
    """server.rendered_reply fills a template the SDK's own dump made, where call_reply builds, checks
    and dumps the whole result: the two must never differ, whatever the reply holds."""
    r = desk.Rendered(structured=structured, text=text, is_error=is_error, footstep=None, blocks=tuple(blocks))
    assert server.rendered_reply(request_id, version, r) == server.call_reply(request_id, version, server.to_result(r))


async def test_a_signed_in_plain_call_is_answered_by_the_face_not_the_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a session whose token the checks have let through (Face.on_session), a plain tools/call takes
    the face's own road, as one without sign-in does: the SDK's machinery for one request cost more than
    the call (a signed-in remember took twice as long as one without sign-in)."""
    passport = Passport(id="PP-SIGNEDFACE")
    session = sessions.McpSession(id="S-signed", passport=passport)
    ran: list[Any] = []

    here = desk.Rendered(structured={"say": "Here."}, text="Here.", is_error=False, footstep=12)

    async def run(visitor: Any, name: str, arguments: Any) -> desk.Rendered:
        ran.append((visitor.passport, visitor.session_id, name))
        return here

    async def not_the_sdk(*args: Any) -> Any:
        raise AssertionError("the SDK was handed a plain call")

    monkeypatch.setattr(http, "run_tool", run)
    face = http.Face(http.build_manager())
    monkeypatch.setattr(face, "forward", not_the_sdk)
    monkeypatch.setattr(face, "held_reply", not_the_sdk)
    message = {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "look_around"}}
    r = request("POST", json.dumps(message).encode(), mcp_protocol_version="2025-11-25")
    r.message, r.sid, r.session = message, session.id, session
    sent: list[Any] = []

    async def send(m: Any) -> None:
        sent.append(m)

    await face.on_session(r, send)
    assert ran == [(passport, "S-signed", "look_around")]
    assert sent[0]["status"] == 200
    event = sent[1]["body"].decode()
    assert json.loads(event[len("event: message\r\ndata: ") :]) == json.loads(
        server.rendered_reply(4, "2025-11-25", here)
    )


def test_arguments_refused_name_each_field_of_the_schema_never_pydantics_names_for_a_union() -> None:
    from pydantic import ValidationError

    from districts.registry import TOOLS

    said = {}
    for arguments in ({"lot": [1]}, {"lot": ""}, {}):
        try:
            TOOLS["enter"].args.model_validate(arguments)
        except ValidationError as err:
            said[json.dumps(arguments)] = server.validation_text(err)
    # enter's lot is a number or a name: one problem, with why each would not do.
    assert said == {
        '{"lot": [1]}': "MCP error -32602: Input validation error: lot: Input should be a valid integer, or: Input "
        "should be a valid string",
        '{"lot": ""}': "MCP error -32602: Input validation error: lot: Input should be a valid integer, or: String "
        "should have at least 1 character",
        "{}": "MCP error -32602: Input validation error: lot: Field required",
    }


def test_an_unknown_tools_name_is_said_back_cut_short() -> None:
    for name, said in (("walk_too", "walk_too"), ("x" * 100_000, "x" * 100 + "…")):
        ran = asyncio.run(server.run_tool(server.Unchecked("sid", "127.0.0.1"), name, {}))
        assert not isinstance(ran, desk.Rendered)
        assert ran.is_error and ran.content[0].text == f"MCP error -32602: Tool {said} not found"
