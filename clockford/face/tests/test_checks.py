"""The face's checks in process: the order they run in keeps its promises, and the checks that need
no database answer as spec 001 section 02 says (tests/e2e/test_http_rows.py sends every row over HTTP)."""

import json
from typing import Any

import pytest

from clockford.face import answers, checks
from clockford.face.checks import Check, Request


def request(method: str = "POST", body: bytes = b"", **headers: str) -> Request:
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    raw = [(k.replace("_", "-").encode(), v.encode()) for k, v in {"host": "127.0.0.1", **headers}.items()]
    return Request.of({"type": "http", "method": method, "headers": raw}, receive)


def every_road() -> list[tuple[Check, ...]]:
    post = checks.ROUTES["POST"]
    return [*checks.ROUTES.values(), checks.OTHER_METHODS, *(post + road for road in checks.ROADS.values())]


def test_where_a_request_comes_from_is_checked_before_anything_it_says() -> None:
    for road in every_road():
        assert road[: len(checks.WHERE_FROM)] == checks.WHERE_FROM


def test_the_token_is_read_before_any_session_is_named_or_looked_up() -> None:
    sessions = {checks.session_named, checks.token_owns_session, checks.session_there, checks.token_passport}
    for road in every_road():
        named = [i for i, check in enumerate(road) if check in sessions]
        if named:
            assert road.index(checks.token) < min(named)
            assert road.index(checks.town_open) < road.index(checks.token)


def test_a_body_is_measured_before_it_is_read_and_read_before_it_is_parsed() -> None:
    post = checks.ROUTES["POST"]
    order = [
        checks.body_as_is,
        checks.declared_size,
        checks.whole_body,
        checks.json_content,
        checks.one_json_object,
        checks.well_formed,
    ]
    assert [post.index(c) for c in order] == sorted(post.index(c) for c in order)


async def test_a_host_or_origin_of_elsewhere_is_refused_first() -> None:
    assert await checks.run(checks.OTHER_METHODS, request("PUT", host="evil.example")) is answers.WRONG_HOST
    assert await checks.run(checks.OTHER_METHODS, request("PUT", origin="http://evil.example")) is answers.WRONG_ORIGIN
    assert await checks.run(checks.OTHER_METHODS, request("PUT")) is answers.METHOD_NOT_ALLOWED


async def test_a_port_or_a_length_is_ascii_digits_alone() -> None:
    # str.isdigit takes a superscript two (latin-1's 0xb2, as a header's byte reads) and other scripts'
    # digits, and int() then refuses some of them: neither is a port or a length.
    assert checks.host_ok("127.0.0.1:7433") and checks.host_ok("[::1]:7433")
    for host in ("127.0.0.1:\xb2", "127.0.0.1:\uff17\uff14\uff13\uff13", "[::1]:\u0667"):
        assert not checks.host_ok(host), host
    assert await checks.declared_size(request(content_length="12")) is None
    odd = request()
    odd.headers["content-length"] = "\xb2"
    assert await checks.declared_size(odd) is answers.BAD_REQUEST


def test_a_host_is_read_as_django_reads_it_with_one_trailing_dot_at_most() -> None:
    # A fully qualified name ends with one dot, before its port: the town's own names so written are
    # served. Anything more (two dots, a dot after the port) passed here and then met Django's
    # DisallowedHost: a 400 with a traceback on the hall's pages, where every other name gets the 403.
    for fine in ("localhost.", "localhost.:7433", "127.0.0.1.:7433", "LOCALHOST.:7433"):
        assert checks.host_ok(fine), fine
    for odd in ("localhost..", "localhost..:7433", "localhost.....", "127.0.0.1:7433.", "[::1]:7433.", "[::1]."):
        assert not checks.host_ok(odd), odd
    assert not checks.origin_ok("http://localhost..:7433") and checks.origin_ok("http://localhost.:7433")


async def test_the_body_is_application_json_and_nothing_that_begins_like_it() -> None:
    for fine in ("application/json", "Application/JSON; charset=utf-8", " application/json ;charset=UTF-8"):
        assert await checks.json_content(request(content_type=fine)) is None, fine
    for odd in ("application/jsonx", "application/json-seq", "application/json+x", "text/json", ""):
        assert await checks.json_content(request(content_type=odd)) is answers.BAD_REQUEST, odd


async def test_a_public_town_lets_in_only_what_came_through_its_front_door(settings: Any) -> None:
    door = checks.front_door
    settings.TOWN_URL = "https://town.example:8443"
    assert await door(request(host="127.0.0.1:7433")) is answers.FRONT_DOOR
    assert await door(request(host="town.example:8443")) is answers.FRONT_DOOR
    assert await door(request(host="town.example:8443", x_forwarded_proto="http")) is answers.FRONT_DOOR
    assert await door(request(host="town.example:8443", x_forwarded_proto="https")) is None
    assert await door(request(host="Town.Example.", x_forwarded_proto="https, http")) is None
    served_https = request(host="town.example")
    served_https.scope["scheme"] = "https"
    assert await door(served_https) is None
    settings.TOWN_URL = "http://[2001:db8::7]:7433"
    assert await door(request(host="[2001:db8::7]:7433")) is None
    assert await door(request(host="[::1]:7433")) is answers.FRONT_DOOR
    for here in ("http://127.0.0.1:7433", "http://localhost:7433", "http://[::1]:7433", "http://127.0.0.2"):
        settings.TOWN_URL = here
        assert await door(request(host="127.0.0.1:7433")) is None, here


async def test_a_declared_or_read_size_past_the_limit_is_too_large(settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "MAX_BODY_BYTES": 10}
    assert await checks.declared_size(request(content_length="11")) is answers.TOO_LARGE
    assert await checks.declared_size(request(content_length="-1")) is answers.BAD_REQUEST
    assert await checks.declared_size(request(content_length="10")) is None
    assert await checks.whole_body(request(body=b"x" * 11)) is answers.TOO_LARGE
    r = request(body=b"x" * 10)
    assert await checks.whole_body(r) is None and r.body == b"x" * 10


async def test_only_one_well_formed_json_rpc_object_goes_on() -> None:
    async def form(body: object) -> answers.Answer | None:
        r = request(body=body if isinstance(body, bytes) else json.dumps(body).encode())
        return await checks.run((checks.whole_body, checks.one_json_object, checks.well_formed), r)

    assert await form(b"NaN") is answers.BAD_REQUEST
    assert await form([{"jsonrpc": "2.0", "id": 1, "method": "ping"}]) is answers.ONE_MESSAGE
    assert await form("ping") is answers.BAD_REQUEST
    assert await form({"jsonrpc": "2.0", "id": True, "method": "ping"}) is answers.INVALID_REQUEST
    assert await form({"jsonrpc": "2.0", "id": 1, "method": "ping", "result": {}}) is answers.INVALID_REQUEST
    for not_json_rpc_2 in ({"id": 1, "method": "ping"}, {"jsonrpc": "1.0", "id": 1, "method": "ping"}):
        assert await form(not_json_rpc_2) is answers.INVALID_REQUEST
    assert await form({"jsonrpc": 2, "id": 1, "method": "ping"}) is answers.INVALID_REQUEST
    assert await form({"jsonrpc": "2.0", "id": 99, "error": "x"}) is answers.INVALID_REQUEST
    assert await form({"jsonrpc": "2.0", "id": 99, "error": {"code": 1, "message": "x"}}) is None
    assert await form({"jsonrpc": "2.0", "id": 1, "method": "ping"}) is None
    assert await form({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {}}) is None


async def test_params_that_are_no_object_get_invalid_params_with_the_id() -> None:
    for params in ([{"name": "look_around"}], "look_around", 5, None):
        for mid in (7, "seven"):
            message = {"jsonrpc": "2.0", "id": mid, "method": "tools/call", "params": params}
            r = request(body=json.dumps(message).encode())
            answer = await checks.run((checks.whole_body, checks.one_json_object, checks.well_formed), r)
            assert answer is not None and answer.status == 400, params
            assert json.loads(answer.body) == {
                "jsonrpc": "2.0",
                "id": mid,
                "error": {"code": -32602, "message": "Invalid params: params must be an object."},
            }


async def test_a_client_must_accept_json_and_an_event_stream() -> None:
    assert await checks.accepts_both(request(accept="application/json")) is answers.NOT_ACCEPTABLE
    assert await checks.accepts_both(request(accept="application/json, text/event-stream")) is None
    assert await checks.accepts_both(request(accept="*/*")) is None


@pytest.mark.parametrize(
    ("accept", "accepted"),
    [
        ("application/json, text/event-stream;q=0", False),
        ("application/json;q=0.000, text/event-stream", False),
        ("application/json, text/event-stream; Q = 0.0", False),
        ("*/*, text/event-stream;q=0", False),  # the most specific range counts
        ("application/*;q=0, */*", False),
        ("application/json, text/*;q=0, text/event-stream", True),
        ("application/json;q=0.1, text/event-stream;q=0.001", True),
        ("application/json;q=1, text/event-stream;q=banana", True),  # a weight that is no number is not 0
        ("application/json, text/event-stream;q=0, text/event-stream", True),  # named twice: the kinder
        ("application/json, text/event-stream;charset=utf-8", True),
    ],
)
async def test_a_type_refused_with_q_0_is_not_accepted(accept: str, accepted: bool) -> None:
    answer = await checks.accepts_both(request(accept=accept))
    assert answer is (None if accepted else answers.NOT_ACCEPTABLE)


def test_a_post_takes_the_road_its_message_names() -> None:
    def road(message: dict[str, Any], **headers: str) -> str:
        r = request(**headers)
        r.message = message
        return checks.road(r)

    assert road({"id": 1, "method": "initialize"}) == "initialize"
    assert road({"method": "initialize"}, mcp_session_id="s") == "session"
    assert road({"id": 1, "method": "tools/call"}, mcp_session_id="s") == "call"
    assert road({"id": 1, "method": "tools/list"}, mcp_session_id="s") == "session"
