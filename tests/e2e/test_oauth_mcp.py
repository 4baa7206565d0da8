"""/mcp signed in, over real HTTP on a live town with CLOCKFORD_SIGN_IN: spec 001's 401 and 403 rows,
the token checks of RFC 9068 section 4 (one test each for a wrong aud, no aud, an expired token, an
untrusted key and a typ that is not at+jwt), the passport of (account, client) returned on reconnect,
a session another account opened, the 2026-07-28 per-request envelope, and a client revoked in the hall.

The tokens come from the town's own authorization server: a person with a software passkey signs up
in the hall and approves the agent (hall/tests/oauth_agent.py); the forged ones are signed with the
town's real token key (derived from its key file), so each differs from a good token in one claim.
"""

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from clockford.town import signing
from hall import oauth_tokens
from hall.tests.oauth_agent import Agent, LiveWeb, Person
from tests.e2e import test_face_calls as face_calls
from tests.support import MCP_HEADERS, RawSession, Town, hall_of, make_town, request, sse_message

SIGN_IN = "Sign in to enter the town."


@pytest.fixture(scope="module")
def town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    t = make_town(tmp_path_factory.mktemp("signed-in"), env={"CLOCKFORD_SIGN_IN": "1"}).start()
    yield t
    t.close()


def connect(town: Town, person: Person, name: str = "Errand Runner") -> Agent:
    agent = Agent(person.web, town.mcp, name=name)
    agent.connect(person)
    return agent


@pytest.fixture(scope="module")
def ada(town: Town) -> Person:
    return Person(LiveWeb(hall_of(town))).sign_up("Ada")


@pytest.fixture(scope="module")
def ada_agent(town: Town, ada: Person) -> Agent:
    return connect(town, ada)


class SignedSession(RawSession):
    """A streamable HTTP session that sends a bearer token with every request."""

    def __init__(self, url: str, token: str, client_name: str = "signed-in") -> None:
        self.token = token
        super().__init__(url, client_name=client_name)

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", **super().headers(extra)}


def initialize_with(town: Town, authorization: str | None) -> tuple[int, dict[str, str], str]:
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    headers = dict(MCP_HEADERS) | ({"Authorization": authorization} if authorization is not None else {})
    return request("POST", town.mcp, json.dumps(message), headers)


def token_key(town: Town) -> Ed25519PrivateKey:
    return oauth_tokens.key_from_seed(bytes.fromhex(Path(town.env["CLOCKFORD_KEY_FILE"]).read_text().strip()))


def claims_of(token: str) -> dict[str, Any]:
    claims: dict[str, Any] = jwt.decode(token, options={"verify_signature": False})
    return claims


def forge(town: Town, good: str, *, key: Ed25519PrivateKey | None = None, typ: str = "at+jwt", **changes: Any) -> str:
    """A good token with one thing changed, signed with the town's key unless another is given."""
    real = token_key(town)
    claims = {k: v for k, v in {**claims_of(good), **changes}.items() if v is not None}
    kid = signing.key_id(oauth_tokens.raw_public(real.public_key()))
    return jwt.encode(claims, key or real, algorithm="EdDSA", headers={"typ": typ, "kid": kid})


def resource_metadata(town: Town) -> str:
    return f'resource_metadata="http://127.0.0.1:{town.port}/.well-known/oauth-protected-resource/mcp"'


def test_without_a_token_the_town_asks_to_sign_in(town: Town) -> None:
    status, headers, body = initialize_with(town, None)
    assert (status, body) == (401, SIGN_IN)
    assert headers["www-authenticate"] == f'Bearer {resource_metadata(town)}, scope="town"'
    # A credential that is not a bearer token is told what is required.
    status, headers, body = initialize_with(town, "Basic YWRhOnNlY3JldA==")
    assert (status, body) == (401, SIGN_IN)
    assert headers["www-authenticate"] == (
        f'Bearer error="invalid_token", error_description="A bearer token is required.", '
        f'{resource_metadata(town)}, scope="town"'
    )
    # The metadata the header names says where tokens come from.
    status, _, text = request("GET", f"{town.url}/.well-known/oauth-protected-resource/mcp")
    assert status == 200
    assert json.loads(text)["authorization_servers"] == [hall_of(town)]


def refused(town: Town, token: str) -> tuple[int, str, str]:
    status, headers, body = initialize_with(town, f"Bearer {token}")
    return status, body, headers.get("www-authenticate", "")


NOT_VALID = 'error="invalid_token", error_description="The token is not valid for this town."'
HOUR = 'error="invalid_token", error_description="Tokens for this town live at most an hour."'


def test_a_good_token_enters(town: Town, ada_agent: Agent) -> None:
    s = SignedSession(town.mcp, ada_agent.tokens["access_token"])
    shown = s.call("show_passport")["structuredContent"]
    assert shown["signIn"] is True and shown["passport"].startswith("PP-")
    s.delete()


@pytest.mark.parametrize("version", HANDSHAKE_PROTOCOL_VERSIONS)
def test_a_signed_in_plain_call_is_answered_in_the_sdks_own_bytes(town: Town, ada_agent: Agent, version: str) -> None:
    """Signed in, a plain tools/call is answered by the face itself too (Face.on_session), once its token
    and session are checked: the same bytes as the SDK's (tests/e2e/test_face_calls.py)."""
    token = ada_agent.tokens["access_token"]
    s = SignedSession(town.mcp, token)
    try:
        for name, arguments in face_calls.CALLS:
            sdk, face = face_calls.through_both(
                town, s.sid or "", version, name, arguments, {"Authorization": f"Bearer {token}"}
            )
            assert face == sdk, (name, version)
            assert face[0] == 200 and face[1]["content-type"] == "text/event-stream"
    finally:
        s.delete()


def test_a_token_for_another_audience_is_refused(town: Town, ada_agent: Agent) -> None:
    token = forge(town, ada_agent.tokens["access_token"], aud="http://127.0.0.1:1/mcp")
    status, body, challenge = refused(town, token)
    assert (status, body) == (401, SIGN_IN) and NOT_VALID in challenge and resource_metadata(town) in challenge


def test_a_token_without_an_audience_is_refused(town: Town, ada_agent: Agent) -> None:
    token = forge(town, ada_agent.tokens["access_token"], aud=None)
    assert "aud" not in claims_of(token)
    status, body, challenge = refused(town, token)
    assert (status, body) == (401, SIGN_IN) and NOT_VALID in challenge


def test_an_expired_token_is_refused(town: Town, ada_agent: Agent) -> None:
    now = int(time.time())
    token = forge(town, ada_agent.tokens["access_token"], iat=now - 3700, exp=now - 100)
    status, body, challenge = refused(town, token)
    assert (status, body) == (401, SIGN_IN) and HOUR in challenge
    # Nor does a token live longer than an hour, whatever it says.
    token = forge(town, ada_agent.tokens["access_token"], iat=now, exp=now + 7200)
    assert refused(town, token)[:2] == (401, SIGN_IN) and HOUR in refused(town, token)[2]


def test_a_token_signed_by_an_untrusted_key_is_refused(town: Town, ada_agent: Agent) -> None:
    token = forge(town, ada_agent.tokens["access_token"], key=Ed25519PrivateKey.generate())
    status, body, challenge = refused(town, token)
    assert (status, body) == (401, SIGN_IN) and NOT_VALID in challenge


def test_a_token_whose_typ_is_not_at_jwt_is_refused(town: Town, ada_agent: Agent) -> None:
    token = forge(town, ada_agent.tokens["access_token"], typ="JWT")
    status, body, challenge = refused(town, token)
    assert (status, body) == (401, SIGN_IN) and NOT_VALID in challenge


def test_a_token_without_the_town_scope_cannot_enter(town: Town, ada_agent: Agent) -> None:
    token = forge(town, ada_agent.tokens["access_token"], scope="profile")
    status, body, challenge = refused(town, token)
    assert (status, body) == (403, "This token cannot enter the town.")
    assert challenge == (
        'Bearer error="insufficient_scope", error_description="The token lacks the town scope.", '
        f'{resource_metadata(town)}, scope="town"'
    )


def test_reconnecting_returns_the_same_passport(town: Town, ada: Person, ada_agent: Agent) -> None:
    first = SignedSession(town.mcp, ada_agent.tokens["access_token"])
    passport = first.call("look_around")["structuredContent"]["you"]["passport"]
    first.delete()
    # A fresh token (refreshed) and a fresh session: the same passport.
    assert ada_agent.refresh().status == 200
    second = SignedSession(town.mcp, ada_agent.tokens["access_token"])
    shown = second.call("show_passport")["structuredContent"]
    assert shown["passport"] == passport and shown["signIn"] is True
    # Another client of the same person is another agent.
    other = connect(town, ada, name="Second App")
    third = SignedSession(town.mcp, other.tokens["access_token"])
    assert third.call("show_passport")["structuredContent"]["passport"] != passport
    for s in (second, third):
        s.delete()


def test_a_session_of_another_account_is_refused(town: Town, ada_agent: Agent) -> None:
    bea = connect(town, Person(LiveWeb(hall_of(town))).sign_up("Bea"))
    ada_session = SignedSession(town.mcp, ada_agent.tokens["access_token"])
    intruder = {"Authorization": f"Bearer {bea.tokens['access_token']}"}
    call = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "show_passport", "arguments": {}}}
    for method, body in (("POST", json.dumps(call)), ("DELETE", None), ("GET", None)):
        status, _, text = request(method, town.mcp, body, ada_session.headers(intruder))
        assert (status, text) == (403, "This session belongs to someone else."), method
    # The session is still Ada's.
    assert ada_session.call("show_passport")["structuredContent"]["signIn"] is True
    ada_session.delete()


def modern(town: Town, token: str | None, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "modern-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    headers = {
        **MCP_HEADERS,
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
        **({"Authorization": f"Bearer {token}"} if token else {}),
        **({"Mcp-Name": params["name"]} if method == "tools/call" else {}),
    }
    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
    status, _, text = request("POST", town.mcp, json.dumps(message), headers)
    return status, (sse_message(text) if status == 200 else {"text": text})


def test_the_2026_envelope_is_served_signed_in(town: Town, ada_agent: Agent) -> None:
    token = ada_agent.tokens["access_token"]
    status, reply = modern(town, token, "server/discover", {})
    assert status == 200 and "2026-07-28" in reply["result"]["supportedVersions"], reply
    status, reply = modern(town, token, "tools/call", {"name": "show_passport", "arguments": {}})
    assert status == 200, reply
    shown = reply["result"]["structuredContent"]
    session = SignedSession(town.mcp, token)
    assert shown["passport"] == session.call("show_passport")["structuredContent"]["passport"]
    assert shown["signIn"] is True
    session.delete()
    # arguments that are no object are refused in words, as over a session (the SDK's modern road,
    # which answers a request it refuses with a 400, said only "Invalid request parameters").
    status, reply = modern(town, token, "tools/call", {"name": "show_passport", "arguments": [1, 2]})
    assert status == 400 and json.loads(reply["text"])["error"] == {
        "code": -32602,
        "message": "Invalid params: arguments must be an object.",
    }
    # Without a token: the 401, like any request.
    assert modern(town, None, "server/discover", {}) == (401, {"text": SIGN_IN})
    # A modern envelope without its version header is told so (001: -32020).
    message = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/list",
        "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}},
    }
    headers = {k: v for k, v in MCP_HEADERS.items() if k != "MCP-Protocol-Version"} | {
        "Authorization": f"Bearer {token}"
    }
    status, _, text = request("POST", town.mcp, json.dumps(message), headers)
    error = json.loads(text)["error"]
    assert status == 400 and error["code"] == -32020 and "MCP-Protocol-Version header is absent" in error["message"]


@pytest.mark.parametrize("header", [None, "2025-11-25"])
def test_a_modern_envelope_whose_header_is_absent_or_another_revision_is_told_which(
    town: Town, ada_agent: Agent, header: str | None
) -> None:
    """A 2026-07-28 envelope without a session, its MCP-Protocol-Version header absent or naming a
    handshake revision: -32020 with the request's id, and words that say which (the town said "absent"
    of a header it had just read, with a null id)."""
    message = {
        "jsonrpc": "2.0",
        "id": 31,
        "method": "tools/call",
        "params": {
            "name": "show_passport",
            "arguments": {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }
    headers = {k: v for k, v in MCP_HEADERS.items() if k != "MCP-Protocol-Version"} | {
        "Authorization": f"Bearer {ada_agent.tokens['access_token']}",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "show_passport",
        **({"MCP-Protocol-Version": header} if header else {}),
    }
    status, _, text = request("POST", town.mcp, json.dumps(message), headers)
    words = (
        "Bad Request: MCP-Protocol-Version header is absent; a 2026-07-28 request carries it on every request."
        if header is None
        # The SDK's own words for a header that disagrees with the envelope, as the town answers the
        # other way round (a 2026-07-28 header on an envelope naming 2025-11-25).
        else "mcp-protocol-version header does not match the request envelope's protocol version"
    )
    assert status == 400
    assert json.loads(text) == {"jsonrpc": "2.0", "id": 31, "error": {"code": -32020, "message": words}}


def test_a_client_revoked_in_the_hall_loses_its_token_and_sessions(town: Town) -> None:
    cy = Person(LiveWeb(hall_of(town))).sign_up("Cy")
    agent = connect(town, cy)
    session = SignedSession(town.mcp, agent.tokens["access_token"])
    assert session.call("show_passport")["structuredContent"]["signIn"] is True
    page = cy.web.get("/hall/clients")
    assert page.status == 200 and "Errand Runner" in page.text
    connection = page.text.split('action="/hall/clients/')[1].split("/revoke")[0]
    r = cy.web.post(f"/hall/clients/{connection}/revoke", form={})
    assert r.status == 302
    status, _, body = session.post({"jsonrpc": "2.0", "id": 50, "method": "tools/list"})
    assert (status, body) == (401, SIGN_IN)
    assert agent.refresh().status == 400
    assert "No app is connected to your account." in cy.web.get("/hall/clients").text
