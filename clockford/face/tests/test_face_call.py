"""The face's own road for a plain tools/call (clockford/face/http.py Face.call), in process: what it
answers when the call itself raises. tests/e2e/test_face_calls.py compares its replies with the SDK's
over HTTP."""

import json
from typing import Any

import pytest

from clockford.face import http, server
from clockford.face.tests.test_checks import request


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

    monkeypatch.setattr(http, "call_tool", raising)
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
