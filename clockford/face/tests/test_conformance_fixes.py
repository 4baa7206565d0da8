"""Defects the MCP conformance suite found in the face (tests/e2e/test_conformance.py runs it), each
fixed and held here in process."""

import asyncio
import json
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from clockford.face import answers, checks, resources, server
from clockford.face.tests.test_checks import request


async def run_post(body: dict[str, Any], **headers: str) -> answers.Answer | None:
    r = request("POST", json.dumps(body).encode(), content_type="application/json", **headers)
    post = checks.ROUTES["POST"]
    for check in (checks.protocol_version, *post[post.index(checks.protocol_version) + 1 :]):
        if (answer := await check(r)) is not None:
            return answer
    return None


def test_an_unspoken_revision_is_refused_with_the_requests_id_and_the_revisions_spoken() -> None:
    # SEP-2575 (the suite's server-stateless scenario): every error carries the request's id, and an
    # unsupported version's error names the versions spoken and echoes the one asked for.
    message = {"jsonrpc": "2.0", "id": 301, "method": "server/discover", "params": {}}
    answer = asyncio.run(
        run_post(message, mcp_protocol_version="v999.0.0", accept="application/json, text/event-stream")
    )
    assert answer is not None and answer.status == 400
    assert json.loads(answer.body) == {
        "jsonrpc": "2.0",
        "id": 301,
        "error": {
            "code": -32000,
            "message": f"Bad Request: Unsupported protocol version: v999.0.0. Supported versions: {answers.SPOKEN}",
            "data": {"supported": ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], "requested": "v999.0.0"},
        },
    }
    # A GET has no id to carry: answered at once, as before.
    get = asyncio.run(checks.protocol_version(request("GET", mcp_protocol_version="v999.0.0")))
    assert get is not None and json.loads(get.body)["id"] is None


def test_the_revisions_named_supported_are_those_the_town_serves_its_caller(settings: Any) -> None:
    # A client that picks from data.supported must be served: signed in, the revisions server/discover
    # names; without sign-in a 2026-07-28 request is 400 (No valid session), so the handshake's.
    handshake = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    settings.CLOCKFORD_SIGN_IN = False
    assert json.loads(answers.unsupported_version("x").body)["error"]["data"]["supported"] == handshake
    settings.CLOCKFORD_SIGN_IN = True
    assert json.loads(answers.unsupported_version("x").body)["error"]["data"]["supported"] == ["2026-07-28"]


def test_resource_templates_are_listed_not_a_missing_method() -> None:
    # The suite's caching scenario: a server with the resources capability answers
    # resources/templates/list (with none: every course has its own address).
    assert resources.list_resource_templates().resource_templates == []
    assert server.build_server().get_request_handler("resources/templates/list") is not None


@pytest.mark.django_db
def test_a_resource_not_found_names_its_uri() -> None:
    # The suite's sep-2164-resource-not-found scenario: the error's data carries the URI asked for.
    from districts.testing import new_passport

    uri = "test://nonexistent-resource-for-conformance-testing"
    with pytest.raises(MCPError) as raised:
        resources.read_resource(uri, new_passport(), None)
    assert raised.value.error.code == -32602
    assert raised.value.error.message == f"No resource at {uri}. resources/list names every one."
    assert raised.value.error.data == {"uri": uri}
