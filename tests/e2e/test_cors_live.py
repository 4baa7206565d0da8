"""CORS on a live town with sign-in, over real HTTP: what a browser-based MCP client (the MCP Inspector,
a web app signing in with an MCP SDK) asks before and while it signs in from a page of another origin.

The preflights carry the header sets browsers send: Chromium lists the requested headers in lower case,
sorted, comma-separated. The metadata documents and the keys answer GET and its preflight; registration,
tokens and revocation answer POST and its preflight; each answer says `Access-Control-Allow-Origin: *`
and never allows credentials (hall/cors.py). The consent page, the hall's pages and /mcp get no CORS.
"""

import http.client
import json
from collections.abc import Iterator
from urllib.parse import urlencode, urlsplit

import pytest

from hall.tests.oauth_agent import Agent, LiveWeb, Person
from tests.support import MCP_HEADERS, Town, hall_of, make_town, request

INSPECTOR = "http://localhost:6274"  # the MCP Inspector's page, on this machine
WEB_APP = "https://agents.example"  # a web app elsewhere
HEADERS = "Accept, Accept-Language, Authorization, Content-Language, Content-Type, MCP-Protocol-Version"
METADATA = (
    "/.well-known/oauth-protected-resource/mcp",
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-authorization-server",
    "/.well-known/jwks.json",
)
ENDPOINTS = ("/oauth/register", "/oauth/token", "/oauth/revoke")


@pytest.fixture(scope="module")
def town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    t = make_town(tmp_path_factory.mktemp("cors"), env={"CLOCKFORD_SIGN_IN": "1"}).start()
    yield t
    t.close()


def preflight(url: str, origin: str, method: str, headers: str | None) -> tuple[int, dict[str, str], str]:
    asked = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers is not None:
        asked["Access-Control-Request-Headers"] = headers
    return with_query("OPTIONS", url, asked)


def with_query(method: str, url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
    """A request to the whole URL, its query too (tests.support.request sends the path alone)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request(method, f"{parts.path}?{parts.query}" if parts.query else parts.path, headers=headers)
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read().decode()
    finally:
        conn.close()


def cors_of(headers: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.startswith("access-control-")}


def opened(headers: dict[str, str]) -> None:
    """An answer a page of any origin may read, without credentials."""
    assert cors_of(headers) == {
        "access-control-allow-origin": "*",
        "access-control-expose-headers": "Retry-After",
    }, headers


@pytest.mark.parametrize("path", METADATA)
@pytest.mark.parametrize("origin", [INSPECTOR, WEB_APP])
def test_the_metadata_answer_a_browsers_preflight_and_its_get(town: Town, path: str, origin: str) -> None:
    """The TypeScript SDK's discovery sends MCP-Protocol-Version (and Accept); a client that sends its
    token with every request adds Authorization."""
    for asked in ("mcp-protocol-version", "accept,mcp-protocol-version", "authorization,mcp-protocol-version", None):
        status, headers, body = preflight(town.url + path, origin, "GET", asked)
        assert (status, body) == (204, ""), (path, asked, status, body)
        assert cors_of(headers) == {
            "access-control-allow-origin": "*",
            "access-control-allow-methods": "GET, OPTIONS",
            "access-control-allow-headers": HEADERS,
            "access-control-max-age": "86400",
            "access-control-expose-headers": "Retry-After",
        }, (path, asked)
        assert headers["allow"] == "GET, HEAD, OPTIONS"
    status, headers, body = request(
        "GET", town.url + path, headers={"Origin": origin, "MCP-Protocol-Version": "2025-11-25", "Accept": "*/*"}
    )
    assert status == 200 and json.loads(body), (path, status)
    opened(headers)
    # Read by the hall's name too (the issuer is the hall's URL): the same answer.
    status, headers, _ = request("GET", hall_of(town) + path, headers={"Origin": origin})
    assert status == 200
    opened(headers)


@pytest.mark.parametrize("path", METADATA)
def test_the_metadata_refuse_a_write_in_plain_words_a_page_may_read(town: Town, path: str) -> None:
    status, headers, body = request("POST", town.url + path, "{}", {"Origin": WEB_APP})
    assert (status, body) == (405, "This address is only to be read: use GET. Nothing sent to it is taken.")
    assert headers["allow"] == "GET, HEAD, OPTIONS"
    opened(headers)


@pytest.mark.parametrize("path", ENDPOINTS)
def test_the_oauth_endpoints_answer_a_preflight_for_post(town: Town, path: str) -> None:
    """Registration sends JSON (a preflight for Content-Type); a token or revocation request is a form,
    which needs none, unless the client adds MCP-Protocol-Version or Authorization."""
    for asked in ("content-type", "content-type,mcp-protocol-version", "authorization,content-type", None):
        status, headers, body = preflight(town.url + path, INSPECTOR, "POST", asked)
        assert (status, body) == (204, ""), (path, asked, status, body)
        assert cors_of(headers) == {
            "access-control-allow-origin": "*",
            "access-control-allow-methods": "POST, OPTIONS",
            "access-control-allow-headers": HEADERS,
            "access-control-max-age": "86400",
            "access-control-expose-headers": "Retry-After",
        }, (path, asked)
        assert headers["allow"] == "POST, OPTIONS"
    # Any other method is still 001's 405, and a page may read it.
    status, headers, body = request("GET", town.url + path, headers={"Origin": INSPECTOR})
    assert (status, body, headers["allow"]) == (405, "Method not allowed.", "POST, OPTIONS")
    opened(headers)


def test_a_browser_client_signs_in_from_another_origin(town: Town) -> None:
    """Register, redeem the code the person's passkey approved, refresh, revoke: every answer, the
    refusals too, carries CORS for the page that asked, and none allows credentials."""
    hall = hall_of(town)
    body = {
        "redirect_uris": [f"{INSPECTOR}/oauth/callback"],
        "client_name": "Inspector",
        "token_endpoint_auth_method": "none",
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
    }
    browser = {"Origin": INSPECTOR, "Content-Type": "application/json", "MCP-Protocol-Version": "2025-11-25"}
    status, headers, text = request("POST", hall + "/oauth/register", json.dumps(body), browser)
    assert status == 201, text
    opened(headers)
    client_id = json.loads(text)["client_id"]
    status, headers, text = request("POST", hall + "/oauth/register", "{", browser)
    assert (status, json.loads(text)["error"]) == (400, "invalid_client_metadata")
    opened(headers)

    person = Person(LiveWeb(hall)).sign_up("Ada")
    agent = Agent(person.web, town.mcp, redirect_uri=f"{INSPECTOR}/oauth/callback", client_id=client_id)
    done = person.approve(agent.authorize_url())
    assert done.status == 200, done.text
    code = agent.code_from(done.json()["next"])["code"]

    form = {"Origin": INSPECTOR, "Content-Type": "application/x-www-form-urlencoded"}
    redeem = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": agent.redirect_uri,
        "client_id": agent.client_id,
        "code_verifier": agent.verifier,
        "resource": town.mcp,
    }
    status, headers, text = request("POST", hall + "/oauth/token", urlencode(redeem), form)
    assert status == 200, text
    opened(headers)
    tokens = json.loads(text)
    refresh = {
        "grant_type": "refresh_token",
        "refresh_token": tokens["refresh_token"],
        "client_id": agent.client_id,
        "resource": town.mcp,
    }
    status, headers, text = request("POST", hall + "/oauth/token", urlencode(refresh), form)
    assert status == 200, text
    opened(headers)
    revoke = {"token": json.loads(text)["refresh_token"], "client_id": agent.client_id}
    status, headers, _ = request("POST", hall + "/oauth/revoke", urlencode(revoke), form)
    assert status == 200
    opened(headers)
    # The same code again: refused, in words the page can read.
    status, headers, text = request("POST", hall + "/oauth/token", urlencode(redeem), form)
    assert (status, json.loads(text)["error"]) == (400, "invalid_grant")
    opened(headers)


def test_the_consent_page_the_hall_and_mcp_get_no_cors(town: Town) -> None:
    """The consent page and the hall's pages are a person's, with cookies and CSRF: no answer of theirs,
    a preflight's neither, lets a page of another origin read it. /mcp keeps its Origin check (a foreign
    Origin is 403) and answers no preflight: the town has no list of other origins it trusts."""
    hall = hall_of(town)
    agent = Agent(LiveWeb(hall), town.mcp, redirect_uri=f"{INSPECTOR}/oauth/callback")
    assert agent.register().status == 201
    consent = agent.authorize_url()
    for url in (consent, hall + "/hall/", hall + "/hall/signin/begin", hall + "/oauth/authorize/begin"):
        status, headers, _ = with_query("GET", url, {"Origin": WEB_APP})
        assert status < 500 and cors_of(headers) == {}, (url, status, headers)
        for method in ("GET", "POST"):
            status, headers, _ = preflight(url, WEB_APP, method, "content-type,x-csrftoken")
            assert cors_of(headers) == {}, (url, method, status, headers)
    status, headers, text = with_query("GET", consent, {"Origin": WEB_APP})
    assert status == 200 and "Errand Runner" in text, text
    # /mcp: a foreign Origin is refused before anything else, a loopback one's preflight is a 405.
    status, headers, body = preflight(town.mcp, WEB_APP, "POST", "authorization,content-type,mcp-protocol-version")
    assert (status, body, cors_of(headers)) == (403, "Forbidden origin.", {})
    status, headers, body = preflight(town.mcp, INSPECTOR, "POST", "authorization,content-type,mcp-protocol-version")
    assert (status, body, cors_of(headers)) == (405, "Method not allowed.", {})
    status, headers, body = request("POST", town.mcp, "{}", {**MCP_HEADERS, "Origin": INSPECTOR})
    assert status == 401 and cors_of(headers) == {}, (status, body)


@pytest.mark.parametrize("path", ENDPOINTS)
def test_the_doors_refusals_of_a_browsers_request_carry_cors_too(town: Town, path: str) -> None:
    """A NUL in a form, a body past the town's limit: refused at the door before any view
    (clockford/nul.py), in OAuth's JSON, and a page of another origin reads why."""
    form = {"Origin": INSPECTOR, "Content-Type": "application/x-www-form-urlencoded"}
    status, headers, body = request("POST", town.url + path, "client_id=a%00b", form)
    assert (status, json.loads(body)) == (
        400,
        {"error": "invalid_request", "error_description": "A request may hold no NUL character."},
    )
    opened(headers)
    status, headers, body = request("POST", town.url + path, "x=" + "a" * 3_000_000, form)
    assert (status, json.loads(body)) == (
        400,
        {"error": "invalid_request", "error_description": "The request is too large."},
    )
    opened(headers)


def test_a_nul_in_the_metadatas_query_is_refused_with_cors_but_not_at_the_consent_page(town: Town) -> None:
    for path in METADATA:
        status, headers, body = with_query("GET", f"{town.url}{path}?x=%00", {"Origin": INSPECTOR})
        assert (status, body) == (400, "Bad request."), path
        opened(headers)
    status, headers, body = with_query("GET", f"{town.url}/oauth/authorize?x=%00", {"Origin": INSPECTOR})
    assert status == 400 and cors_of(headers) == {}, (status, headers)
