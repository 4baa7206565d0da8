"""The hall as an authorization server, in process: metadata, registration, the consent a passkey signs,
PKCE with S256 only, the town's one resource, RFC 9068 tokens, refresh rotation with reuse protection,
8 clients per account, Client ID Metadata Documents, and the connected clients page."""

import base64
import hashlib
import html
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import jwt
import pytest
from django.conf import settings
from django.db import connections
from django.test import Client as DjangoClient
from oauth2_provider.models import AccessToken, Grant, RefreshToken

from clockford.town.models import McpSession, Passport
from hall import cors, oauth_register, oauth_tokens, oauth_urls
from hall.connected import clients_of
from hall.models import Account, Client, Connection
from hall.oauth_validator import TownValidator
from hall.tests.conftest import Visitor
from hall.tests.oauth_agent import CALLBACK, Agent, DjangoWeb, Person, Reply, pkce
from hall.tests.tls import DocumentServer
from tests.fixtures import racing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

HALL = settings.HALL_URL
RESOURCE = settings.MCP_RESOURCE_URL
TOO_MANY = (
    "This account already has 8 clients in town. Revoke one you no longer use under Clients in the hall, "
    "or reuse a client already connected, then try again."
)


@pytest.fixture
def web() -> DjangoWeb:
    return DjangoWeb(HALL)


@pytest.fixture
def ada(web: DjangoWeb) -> Person:
    return Person(web).sign_up("Ada")


@pytest.fixture
def agent(web: DjangoWeb) -> Agent:
    a = Agent(web, RESOURCE)
    assert a.register().status == 201
    return a


def sent_back(reply: Reply) -> dict[str, str]:
    """The parameters of a redirect to the client's callback."""
    assert reply.status == 302, (reply.status, reply.text[:300])
    location = reply.headers["location"]
    assert location.startswith(CALLBACK + "?"), location
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


RETURN_LINK = re.compile(r'<a class="return" href="([^"]*)" rel="noreferrer">Return to ([^<]*)</a>')


def shown_back(reply: Reply, callback: str = CALLBACK) -> dict[str, str]:
    """The parameters of the link back to the client's callback on the page that refuses a request:
    the town sends nobody there by itself."""
    assert reply.status == 400 and "location" not in reply.headers, (reply.status, reply.headers)
    found = RETURN_LINK.search(reply.text)
    assert found, reply.text
    link = html.unescape(found.group(1))
    assert link.startswith(callback + "?") and found.group(2) == urlsplit(callback).netloc, found.groups()
    return {k: v[0] for k, v in parse_qs(urlsplit(link).query).items()}


def test_the_metadata_documents() -> None:
    web = DjangoWeb(HALL)
    meta = web.get(f"{HALL}/.well-known/oauth-authorization-server").json()
    assert meta == {
        "issuer": HALL,
        "authorization_endpoint": f"{HALL}/oauth/authorize",
        "token_endpoint": f"{HALL}/oauth/token",
        "registration_endpoint": f"{HALL}/oauth/register",
        "revocation_endpoint": f"{HALL}/oauth/revoke",
        "jwks_uri": f"{HALL}/.well-known/jwks.json",
        "scopes_supported": ["town"],
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "code_challenge_methods_supported": ["S256"],
        "authorization_response_iss_parameter_supported": True,
        "client_id_metadata_document_supported": True,
    }
    expected = {
        "resource": "http://127.0.0.1:7433/mcp",
        "authorization_servers": [HALL],
        "scopes_supported": ["town"],
        "bearer_methods_supported": ["header"],
        "resource_name": "Clockford",
    }
    for path in ("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"):
        r = web.get("http://127.0.0.1:7433" + path)
        assert (r.status, r.json(), r.headers["access-control-allow-origin"]) == (200, expected, "*")
    assert web.get("http://127.0.0.1:7433/.well-known/oauth-protected-resource/other").status == 404
    key = web.get(f"{HALL}/.well-known/jwks.json").json()["keys"][0]
    assert (key["kty"], key["crv"], key["alg"], key["kid"]) == ("OKP", "Ed25519", "EdDSA", oauth_tokens.key_id())


def test_without_sign_in_there_is_no_authorization_server(settings: Any) -> None:
    settings.CLOCKFORD_SIGN_IN = False
    web = DjangoWeb(HALL)
    for url in (
        f"{HALL}/.well-known/oauth-authorization-server",
        "http://127.0.0.1:7433/.well-known/oauth-protected-resource/mcp",
        f"{HALL}/oauth/authorize?client_id=x",
    ):
        r = web.get(url)
        assert (r.status, r.text) == (404, "Not found."), url
    assert web.post(f"{HALL}/oauth/register", json_body={}).status == 404
    assert web.post(f"{HALL}/oauth/token", form={"grant_type": "refresh_token"}).status == 404
    # Over real HTTP, where Django's CSRF check runs before any view: still no such address, whatever
    # the method (it was the 405 of the consent's steps, or the hall's page about a form left open).
    browser = DjangoClient(enforce_csrf_checks=True, HTTP_HOST=urlsplit(HALL).netloc, HTTP_ORIGIN=HALL)
    for url in ("/oauth/authorize/begin", "/oauth/authorize/finish", "/oauth/authorize/deny", "/oauth/authorize"):
        for method in ("post", "put", "delete"):
            r = getattr(browser, method)(url)
            assert (r.status_code, r.content) == (404, b"Not found."), (method, url)


def test_the_whole_flow_issues_an_rfc9068_access_token(ada: Person, agent: Agent) -> None:
    page = ada.web.get(agent.authorize_url())
    assert page.status == 200
    # The consent page names the client and the host the person returns to.
    assert (
        'Connect “<code class="client-name">Errand Runner</code>”?' in page.text
        and '<strong class="redirect-host">127.0.0.1:9</strong>' in page.text
    )
    assert f'<code class="id client-id">{agent.client_id}</code>' in page.text

    tokens = agent.connect(ada)
    assert (tokens["token_type"], tokens["expires_in"], tokens["scope"]) == ("Bearer", 3600, "town")
    raw = tokens["access_token"]
    header = jwt.get_unverified_header(raw)
    assert header == {"alg": "EdDSA", "typ": "at+jwt", "kid": oauth_tokens.key_id()}
    claims = jwt.decode(raw, oauth_tokens.public_key(), algorithms=["EdDSA"], audience=RESOURCE, issuer=HALL)
    account = Account.objects.get(name="Ada")
    assert set(claims) == {"iss", "sub", "aud", "client_id", "iat", "exp", "jti", "scope"}
    assert (claims["sub"], claims["aud"], claims["client_id"], claims["scope"]) == (
        account.handle,
        RESOURCE,
        agent.client_id,
        "town",
    )
    assert claims["exp"] - claims["iat"] == 3600
    # Stored hashed, for the town's one resource.
    stored = AccessToken.objects.get()
    assert stored.token == "" and stored.token_checksum == hashlib.sha256(raw.encode()).hexdigest()
    assert stored.resource == [RESOURCE] and stored.user == account
    assert not AccessToken.objects.filter(resource=[]).exists()


def test_the_passkey_signs_the_consent_it_was_shown(ada: Person, agent: Agent) -> None:
    agent.connect(ada)
    connection = Connection.objects.get()
    statement = json.loads(connection.statement)
    assert statement["client_id"] == agent.client_id and statement["client_name"] == "Errand Runner"
    assert (statement["redirect_host"], statement["scope"], statement["resource"]) == ("127.0.0.1:9", "town", RESOURCE)
    # The challenge the passkey signed begins with the SHA-256 of that very statement.
    client_data = json.loads(base64.urlsafe_b64decode(connection.assertion["clientDataJSON"] + "=="))
    challenge = base64.urlsafe_b64decode(client_data["challenge"] + "==")
    assert challenge[:32] == hashlib.sha256(connection.statement.encode()).digest() and len(challenge) == 48
    assert connection.passkey is not None and connection.passkey.account.name == "Ada"


def test_an_approval_begun_for_one_request_cannot_finish_another(ada: Person, agent: Agent) -> None:
    first = urlsplit(agent.authorize_url()).query
    options = ada.web.post(f"/oauth/authorize/begin?{first}").json()["options"]
    second = urlsplit(agent.authorize_url()).query  # a new state and PKCE challenge
    r = ada.web.post(f"/oauth/authorize/finish?{second}", json_body={"credential": ada.key.get(options)})
    assert r.status == 400 and r.json()["say"].startswith("What you approved is not what the app asks now")
    assert not Connection.objects.exists() and not Grant.objects.exists()


def test_a_passkey_that_does_not_verify_the_person_approves_nothing(ada: Person, agent: Agent) -> None:
    r = ada.approve(agent.authorize_url(), uv=False)
    assert r.status == 400 and r.json()["say"].startswith("Your passkey did not verify you")
    assert not Connection.objects.exists() and not Grant.objects.exists()


def test_signed_out_the_passkey_decides_the_account(web: DjangoWeb, agent: Agent) -> None:
    person = Person(web).sign_up("Bea")
    web.post("/hall/signout")
    tokens = agent.connect(person)
    assert jwt.decode(tokens["access_token"], options={"verify_signature": False})["sub"] == (
        Account.objects.get(name="Bea").handle
    )


def test_declining_sends_the_client_access_denied(ada: Person, agent: Agent) -> None:
    query = urlsplit(agent.authorize_url()).query
    back = sent_back(ada.web.post(f"/oauth/authorize/deny?{query}", form={}))
    assert back == {
        "error": "access_denied",
        "error_description": "The person declined.",
        "state": agent.state,
        "iss": HALL,
    }


def test_pkce_with_s256_is_required(ada: Person, agent: Agent) -> None:
    for change in ({"code_challenge_method": "plain"}, {"code_challenge_method": None}, {"code_challenge": None}):
        back = shown_back(ada.web.get(agent.authorize_url(**change)))
        assert back["error"] == "invalid_request" and back["iss"] == HALL, (change, back)
        assert back["state"] == agent.state
    # An S256 challenge is a SHA-256 digest in base64url (RFC 7636 section 4.2): one of any other shape
    # could never be redeemed, and is refused before the person is asked.
    for challenge in ("abc", "!" * 43, "A" * 42, "A" * 44, "A" * 42 + "="):
        back = shown_back(ada.web.get(agent.authorize_url(code_challenge=challenge)))
        assert back["error"] == "invalid_request" and "43 base64url characters" in back["error_description"], back
    # The code is redeemed only with its verifier.
    done = ada.approve(agent.authorize_url())
    code = agent.code_from(done.json()["next"])["code"]
    r = agent.token(code, code_verifier="x" * 64)
    assert r.status == 400 and r.json()["error"] == "invalid_grant"


def test_only_the_grants_the_metadata_names_are_served(ada: Person, agent: Agent) -> None:
    """The metadata names the code grant and refresh tokens. The password grant was read and answered
    "Invalid credentials given." (it asked the account backends), the client credentials grant
    "unauthorized_client", the device grant "device_not_found" (a 500 without its code), and the
    response types other than code "unauthorized_client": what the town never serves, refused as
    unsupported (RFC 6749 sections 4.1.2.1 and 5.2)."""
    for form in (
        {"grant_type": "password", "username": "ada", "password": "x"},
        {"grant_type": "client_credentials"},
        {"grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": "x"},
        # Without its device_code, the toolkit's device flow was a KeyError: an HTTP 500.
        {"grant_type": "urn:ietf:params:oauth:grant-type:device_code"},
        {"grant_type": "implicit"},
    ):
        r = agent.web.post(f"{HALL}/oauth/token", form={**form, "client_id": agent.client_id})
        assert (r.status, r.json()["error"]) == (400, "unsupported_grant_type"), (form, r.text)
    for response_type in ("token", "none", "code token", "id_token"):
        back = shown_back(ada.web.get(agent.authorize_url(response_type=response_type)))
        assert back["error"] == "unsupported_response_type" and back["state"] == agent.state, (response_type, back)
        assert back["error_description"] == "This town answers with a code only.", back
    # The two it serves still work.
    agent.connect(ada)
    assert agent.refresh().status == 200


def test_a_request_naming_another_resource_or_none_is_refused(ada: Person, agent: Agent) -> None:
    for resource in (None, "https://elsewhere.example/mcp", "http://127.0.0.1:7433/"):
        back = shown_back(ada.web.get(agent.authorize_url(resource=resource)))
        assert back["error"] == "invalid_target", (resource, back)
    # A token request for another resource is refused too; the code stays unused and good.
    done = ada.approve(agent.authorize_url())
    code = agent.code_from(done.json()["next"])["code"]
    r = agent.token(code, resource="https://elsewhere.example/mcp")
    assert (r.status, r.json()["error"]) == (400, "invalid_target")
    assert agent.token(code).status == 200
    r = agent.refresh(resource="https://elsewhere.example/mcp")
    assert (r.status, r.json()["error"]) == (400, "invalid_target")
    assert not AccessToken.objects.filter(resource=[]).exists()


def test_a_code_is_redeemed_once_and_a_second_try_revokes_its_tokens(ada: Person, agent: Agent) -> None:
    done = ada.approve(agent.authorize_url())
    code = agent.code_from(done.json()["next"])["code"]
    assert agent.token(code).status == 200
    assert AccessToken.objects.count() == 1
    r = agent.token(code)
    assert (r.status, r.json()["error"]) == (400, "invalid_grant")
    # One of the two was not the app: what the code gave is taken back.
    assert not AccessToken.objects.exists() and not RefreshToken.objects.filter(revoked__isnull=True).exists()
    assert agent.refresh().status == 400


def test_refresh_tokens_rotate_and_a_reused_one_revokes_its_family(ada: Person, agent: Agent) -> None:
    first = dict(agent.connect(ada))
    r = agent.refresh()
    assert r.status == 200
    second = r.json()
    assert second["refresh_token"] != first["refresh_token"] and second["access_token"] != first["access_token"]
    # The first refresh token again: refused, and the whole family with it.
    r = agent.refresh(first["refresh_token"])
    assert (r.status, r.json()["error"]) == (400, "invalid_grant")
    assert agent.refresh(second["refresh_token"]).status == 400
    assert not RefreshToken.objects.filter(revoked__isnull=True).exists()
    assert not AccessToken.objects.exists()


def test_registration_refuses_what_the_town_does_not_serve(web: DjangoWeb) -> None:
    agent = Agent(web, RESOURCE)
    for extra, error in (
        ({"redirect_uris": ["http://evil.example/cb"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["ftp://127.0.0.1/cb"]}, "invalid_redirect_uri"),
        ({"redirect_uris": []}, "invalid_redirect_uri"),
        ({"grant_types": ["client_credentials"]}, "invalid_client_metadata"),
        ({"response_types": ["token"]}, "invalid_client_metadata"),
        ({"client_name": "Errand\u202eRunner"}, "invalid_client_metadata"),
    ):
        r = agent.register(**extra)
        assert (r.status, r.json()["error"]) == (400, error), (extra, r.text)
    # Whatever authentication it asks for, a client is public: it keeps no secret.
    r = agent.register(token_endpoint_auth_method="client_secret_basic")
    assert r.status == 201 and r.json()["token_endpoint_auth_method"] == "none" and "client_secret" not in r.json()
    assert Client.objects.get().client_type == "public"


def test_the_endpoints_programs_post_to_refuse_other_methods_in_plain_words() -> None:
    """Registration, tokens and revocation take only POST: any other method is the town's own 405, as
    /mcp's (001 section 02), with its Allow header; Django's was an empty HTML page. OPTIONS is a
    browser's preflight (hall/cors.py, tests/e2e/test_cors_live.py)."""
    client = DjangoClient(HTTP_HOST=urlsplit(HALL).netloc)
    for url in ("/oauth/register", "/oauth/token", "/oauth/revoke"):
        for method in ("get", "head", "put", "delete", "patch"):
            r = getattr(client, method)(url)
            assert r.status_code == 405, (method, url)
            assert r["Allow"] == "POST, OPTIONS" and r["Content-Type"] == "text/plain; charset=utf-8", (method, url)
            assert r.content == (b"" if method == "head" else b"Method not allowed."), (method, url)
        r = client.options(url)
        assert (r.status_code, r["Allow"], r["Access-Control-Allow-Methods"]) == (204, "POST, OPTIONS", "POST, OPTIONS")


def test_the_metadata_documents_refuse_other_methods_in_plain_words() -> None:
    """The metadata and the keys are only read. Any other method is the 405 of the town's addresses
    that only read (clockford/reads.py), with its Allow header: over real HTTP a PUT, a DELETE or a POST
    met Django's CSRF check first and got the hall's page about a form left open too long (403), and an
    OPTIONS Django's empty 405; it is now a browser's preflight (hall/cors.py)."""
    client = DjangoClient(enforce_csrf_checks=True, HTTP_HOST=urlsplit(HALL).netloc)
    for url in (
        "/.well-known/oauth-authorization-server",
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/jwks.json",
    ):
        assert client.get(url).status_code == 200, url
        for method in ("post", "put", "delete", "patch"):
            r = getattr(client, method)(url)
            assert (r.status_code, r["Allow"], r["Content-Type"]) == (
                405,
                "GET, HEAD, OPTIONS",
                "text/plain; charset=utf-8",
            )
            assert r.content == b"This address is only to be read: use GET. Nothing sent to it is taken.", (method, url)
        r = client.options(url)
        assert (r.status_code, r["Allow"], r["Access-Control-Allow-Methods"]) == (
            204,
            "GET, HEAD, OPTIONS",
            "GET, OPTIONS",
        )


def test_registration_is_rate_limited_per_address(web: DjangoWeb, settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "REGISTRATIONS_PER_ADDRESS": 2}
    agent = Agent(web, RESOURCE)
    assert [agent.register().status for _ in range(2)] == [201, 201]
    r = agent.register()
    assert r.status == 429 and r.headers["retry-after"] == "3600"
    assert r.json() == {"error": "temporarily_unavailable", "error_description": "Too many requests. Try again later."}


@pytest.mark.django_db(transaction=True)
def test_registrations_at_once_from_one_address_keep_to_its_limit(settings: Any) -> None:
    """Thirty registrations from one address at the same instant: its limit (here 5) admits five. Each
    counted the address's registrations before any had been kept, and 29 of 40 went through live."""
    settings.CLOCKFORD = {**settings.CLOCKFORD, "REGISTRATIONS_PER_ADDRESS": 5}
    body = {"redirect_uris": [CALLBACK], "client_name": "Errand Runner"}

    def prepare(i: int) -> Any:
        return lambda: oauth_register.register(body, "203.0.113.7").client_id

    made, refused = racing(30, prepare, oauth_register.OAuthRefused)
    assert len(made) == 5 and len(refused) == 25, (len(made), len(refused))
    assert {r.status for r in refused} == {429}
    assert Client.objects.filter(registered_from="203.0.113.7").count() == 5


def test_an_unknown_client_or_redirect_is_told_on_the_page_not_sent_back(ada: Person, agent: Agent) -> None:
    r = ada.web.get(agent.authorize_url(client_id="no-such-client"))
    assert r.status == 400 and "The app that sent you here is not registered with this town." in r.text
    r = ada.web.get(agent.authorize_url(redirect_uri="http://127.0.0.1:9/elsewhere"))
    assert r.status == 400 and "asked to return you to an address it did not register" in r.text


BROKEN_ESCAPE = (
    "The request the app sent you with is not a well-formed address (a % is not followed by two hex digits), "
    "so the town cannot read it. Nothing was connected. Go back to the app and start again."
)


@pytest.mark.parametrize("broken", ["%zz=1", "x=%GG", "x=a%4", "x=%"])
def test_an_authorization_request_with_a_broken_percent_escape_is_told_on_the_page(
    ada: Person, agent: Agent, broken: str
) -> None:
    """oauthlib reads the query itself and raised ValueError on an escape such as %zz, which the consent
    page, its begin and finish and the decline answered with a 500. The town cannot read such a request,
    so it says so on its own page and sends the person nowhere."""
    url = agent.authorize_url() + "&" + broken
    query = urlsplit(url).query
    for r in (
        ada.web.get(url),
        ada.web.post(f"/oauth/authorize/deny?{query}", form={}),
    ):
        assert r.status == 400 and "location" not in r.headers, (broken, r.status, r.headers)
        assert f"<p>{html.escape(BROKEN_ESCAPE)}</p>" in r.text, (broken, r.text)
    for step in ("begin", "finish"):
        r = ada.web.post(f"/oauth/authorize/{step}?{query}", json_body={})
        assert (r.status, r.json()) == (400, {"ok": False, "say": BROKEN_ESCAPE}), (broken, step, r.text)
    assert not Grant.objects.exists()


def test_a_bad_request_from_a_known_client_is_shown_to_the_person_not_sent_on(web: DjangoWeb) -> None:
    """Anyone may register a client with any https redirect URI: a request wrong once its client and
    redirect URI are known was answered with a 302 to that URI, so a link to the hall sent a person on
    to an address of the link maker's choosing with no action of theirs (RFC 9700 section 4.11.2). The
    town shows its own page instead, saying what was wrong, with a link back the person may follow;
    it sends them on by itself only once they have decided (above)."""
    phish = "https://evil.example/phish"
    agent = Agent(web, RESOURCE, redirect_uri=phish)
    assert agent.register().status == 201
    for change, error, say in (
        (
            {"scope": "nothing"},
            "invalid_scope",
            "The app that sent you here asked for more than entering this town. "
            "If you return, it is told: “This town grants the scope town only.”",
        ),
        (
            {"code_challenge_method": "plain"},
            "invalid_request",
            "The app that sent you here made a request this town cannot use. "
            "If you return, it is told: “PKCE with S256 is required.”",
        ),
        (
            {"response_type": "token"},
            "unsupported_response_type",
            "The app that sent you here asked to be answered in a way this town does not use. "
            "If you return, it is told: “This town answers with a code only.”",
        ),
        (
            {"resource": "https://elsewhere.example/mcp"},
            "invalid_target",
            "The app that sent you here did not ask to enter this town. "
            f"If you return, it is told: “Name this town's resource, and only it: resource={RESOURCE}”",
        ),
    ):
        r = web.get(agent.authorize_url(**change))
        assert "<h1>Not done</h1>" in r.text and f"<p>{html.escape(say)}</p>" in r.text, (change, r.text)
        assert "<p>Nothing was connected.</p>" in r.text
        back = shown_back(r, phish)
        assert back == {
            "error": error,
            "error_description": say.split("it is told: ")[1][1:-1],
            "state": agent.state,
            "iss": HALL,
        }, change
    # Declining is the person's act: the app hears of it at once.
    query = urlsplit(agent.authorize_url()).query
    r = web.post(f"/oauth/authorize/deny?{query}", form={})
    assert r.status == 302 and r.headers["location"].startswith(phish + "?error=access_denied&"), r.headers


def test_a_ninth_client_is_refused(ada: Person, web: DjangoWeb) -> None:
    agents = [Agent(web, RESOURCE, name=f"App {n}") for n in range(1, 10)]
    for a in agents[:8]:
        a.connect(ada)
    ninth = agents[8]
    assert ninth.register().status == 201
    url = ninth.authorize_url()
    page = web.get(url)
    assert page.status == 200 and TOO_MANY in page.text and "Allow with your passkey" not in page.text
    r = web.post(f"/oauth/authorize/begin?{urlsplit(url).query}")
    assert (r.status, r.json()) == (409, {"ok": False, "say": TOO_MANY})
    # Signed out, the passkey names the account only at the end: refused there, nothing granted.
    web.post("/hall/signout")
    r = ada.approve(ninth.authorize_url())
    assert (r.status, r.json()) == (409, {"ok": False, "say": TOO_MANY})
    assert Connection.objects.filter(revoked_at__isnull=True).count() == 8 and Grant.objects.count() == 0
    # An app already connected may come back.
    assert agents[0].connect(ada)["access_token"]
    # Disconnecting one makes room.
    ada.sign_in()
    first = Connection.objects.get(client__client_id=agents[1].client_id)
    assert web.post(f"/hall/clients/{first.pk}/revoke", form={}).status == 302
    assert ninth.connect(ada)["access_token"]


def test_the_connected_clients_page_lists_and_revokes(ada: Person, agent: Agent) -> None:
    agent.connect(ada)
    account = Account.objects.get(name="Ada")
    client = Client.objects.get(client_id=agent.client_id)
    passport = Passport.objects.create(
        account=account,
        client=client,
        sign_in=True,
        client_name="Errand Runner",
        issued_at=client.created,
        last_seen=client.created,
    )
    session = McpSession.objects.create(
        id="s" * 64, passport=passport, address="127.0.0.1", created_at=client.created, last_seen=client.created
    )
    page = ada.web.get("/hall/clients")
    assert page.status == 200
    assert "Errand Runner" in page.text and passport.id in page.text and "127.0.0.1:9" in page.text
    connection = Connection.objects.get()
    r = ada.web.post(f"/hall/clients/{connection.pk}/revoke", form={})
    assert r.status == 302 and r.headers["location"] == "/hall/clients"
    assert not AccessToken.objects.exists() and not RefreshToken.objects.filter(revoked__isnull=True).exists()
    session.refresh_from_db()
    assert session.ended_at is not None
    after = ada.web.get("/hall/clients").text
    assert "No app is connected to your account." in after
    # The message says what was done in the hall's words alone: the app's name is its own.
    assert "Disconnected the app. Its tokens stopped working now;" in after and "Errand Runner" not in after
    # The passport stays on record, among the person's agents, and nobody else's.
    assert passport.id in ada.web.get("/hall/agents").text
    # Another person cannot revoke it (nor see it).
    bea = Person(DjangoWeb(HALL)).sign_up("Bea")
    assert bea.web.post(f"/hall/clients/{connection.pk}/revoke", form={}).status == 404
    assert passport.id not in bea.web.get("/hall/agents").text
    assert "No agent of yours has entered the town yet." in bea.web.get("/hall/agents").text
    # Allowed again, the app gets its passport back.
    agent.connect(ada)
    assert Connection.objects.get().revoked_at is None
    assert clients_of(account)[0].passport == passport


def test_the_consent_pages_need_csrf_and_deny_frames(ada: Person, agent: Agent) -> None:
    url = agent.authorize_url()
    query = urlsplit(url).query
    strict = DjangoClient(enforce_csrf_checks=True, HTTP_HOST=urlsplit(HALL).netloc, HTTP_ORIGIN=HALL)
    page = strict.get(urlsplit(url).path + "?" + query)
    assert page.status_code == 200
    replies = [page]
    for path in ("begin", "finish", "deny"):
        r = strict.post(f"/oauth/authorize/{path}?{query}", "{}", content_type="application/json")
        assert r.status_code == 403, path
        replies.append(r)
    for r in replies:
        csp = [d.strip() for d in r.headers["Content-Security-Policy"].split(";")]
        assert r.headers["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in csp


@pytest.fixture
def documents(tmp_path: Path, settings: Any) -> Iterator[DocumentServer]:
    server = DocumentServer(tmp_path)
    settings.CIMD_LOOPBACK_CA = str(server.ca)
    yield server
    server.close()


def test_a_client_known_by_its_metadata_document(ada: Person, documents: DocumentServer) -> None:
    url = documents.url("/errand-runner/client.json")
    documents.documents["/errand-runner/client.json"] = {
        "client_id": url,
        "client_name": "Errand Runner (published)",
        "redirect_uris": [CALLBACK],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }
    agent = Agent(ada.web, RESOURCE, client_id=url)
    page = ada.web.get(agent.authorize_url())
    assert page.status == 200 and "Errand Runner (published)" in page.text and "It is published at" in page.text
    tokens = agent.connect(ada)
    assert jwt.decode(tokens["access_token"], options={"verify_signature": False})["client_id"] == url
    assert Client.objects.get(client_id=url).registration_source == "cimd"
    assert documents.fetches == ["/errand-runner/client.json"]


def test_a_metadata_document_is_parsed_once(
    ada: Person, documents: DocumentServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The toolkit parsed the document, then the town parsed its bytes again to find a member named
    twice (hall/oauth_cimd.py): one parse does both now."""
    path = "/once/client.json"
    url = documents.url(path)
    documents.documents[path] = {
        "client_id": url,
        "client_name": "Parsed Once",
        "redirect_uris": [CALLBACK],
        "grant_types": ["authorization_code"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    }
    parses: list[bytes] = []
    loads = json.loads

    def counted(text: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(text, bytes) and b"Parsed Once" in text:
            parses.append(text)
        return loads(text, *args, **kwargs)

    monkeypatch.setattr(json, "loads", counted)
    page = ada.web.get(Agent(ada.web, RESOURCE, client_id=url).authorize_url())
    assert page.status == 200 and "Parsed Once" in page.text
    assert (documents.fetches, len(parses)) == ([path], 1)


def test_a_metadata_document_naming_a_member_twice_is_refused(ada: Person, documents: DocumentServer) -> None:
    """Read as a registration's body is: a document naming redirect_uris twice meant its last one to the
    toolkit's parser (the client was made, its consent page shown), and its first to a reader that
    takes the first."""
    path = "/twice/client.json"
    url = documents.url(path)
    documents.documents[path] = (
        f'{{"client_id": "{url}", "client_name": "Twice", "redirect_uris": ["http://127.0.0.1:9/elsewhere"], '
        f'"redirect_uris": ["{CALLBACK}"], "grant_types": ["authorization_code"], '
        '"response_types": ["code"], "token_endpoint_auth_method": "none"}'
    ).encode()
    r = ada.web.get(Agent(ada.web, RESOURCE, client_id=url).authorize_url())
    assert r.status == 400 and "not registered with this town" in r.text
    assert documents.fetches == [path]
    assert not Client.objects.filter(client_id=url).exists()


def test_metadata_documents_are_fetched_only_from_allowed_hosts(ada: Person, documents: DocumentServer) -> None:
    path = "/bad/client.json"
    url = documents.url(path)
    documents.documents[path] = {"client_id": url, "redirect_uris": ["http://evil.example/cb"]}
    # A document whose redirect is plain http off this machine is refused after the fetch...
    r = ada.web.get(Agent(ada.web, RESOURCE, client_id=url, redirect_uri="http://evil.example/cb").authorize_url())
    assert r.status == 400 and "not registered with this town" in r.text
    # ...and a host the town does not fetch from is never asked at all.
    for elsewhere in ("https://clients.example/app.json", "https://10.0.0.1/app.json"):
        r = ada.web.get(Agent(ada.web, RESOURCE, client_id=elsewhere).authorize_url())
        assert r.status == 400 and "not registered with this town" in r.text
    assert documents.fetches == [path]


def test_a_signed_out_person_on_the_consent_page_comes_back_to_it_after_sign_up(agent: Agent) -> None:
    """No account yet: the consent page's link to make one brings the person back to the same consent."""
    visitor = Visitor()
    consent = urlsplit(agent.authorize_url())
    where = f"{consent.path}?{consent.query}"
    page = html.unescape(visitor.client.get(where).content.decode())
    link = re.search(r'<a href="(/hall/signup\?next=[^"]+)">Make one</a>', page)
    assert link, "no link to make an account"
    signup = html.unescape(visitor.client.get(link.group(1)).content.decode())
    finish = re.search(r'data-finish="([^"]+)"', signup)
    assert finish and finish.group(1).startswith("/hall/signup/finish?next=")
    options = visitor.options("/hall/signup/begin", {"name": "Ada"})
    status, done = visitor.post(finish.group(1), {"credential": visitor.key.create(options)})
    assert status == 200 and done == {"ok": True, "next": where}


def test_a_token_request_naming_a_parameter_twice_is_invalid(ada: Person, agent: Agent) -> None:
    """RFC 6749 section 3.2: a parameter may be sent once. Two grant_types were read as a grant the town
    does not serve; two codes or verifiers must not be read as either."""
    done = ada.approve(agent.authorize_url())
    code = agent.code_from(done.json()["next"])["code"]
    host = urlsplit(HALL).netloc
    for twice in (
        "grant_type=authorization_code&grant_type=refresh_token",
        f"grant_type=authorization_code&code={code}",
    ):
        body = f"{twice}&code={code}&redirect_uri={CALLBACK}&client_id={agent.client_id}&code_verifier={agent.verifier}"
        r = DjangoClient().post("/oauth/token", body, "application/x-www-form-urlencoded", HTTP_HOST=host)
        assert r.status_code == 400 and r.json()["error"] == "invalid_request", (twice, r.content)
    # The code was not spent by either: sent once, it is redeemed.
    assert agent.token(code).status == 200


def test_no_code_or_token_reaches_the_log_even_at_debug(
    ada: Person, agent: Agent, caplog: pytest.LogCaptureFixture
) -> None:
    """An operator who sets CLOCKFORD_LOG_LEVEL=DEBUG gets the town's own details, never its secrets:
    oauthlib logs each grant it makes and each refresh token it checks, in full, at DEBUG."""
    caplog.set_level("DEBUG")
    done = ada.approve(agent.authorize_url())
    code = agent.code_from(done.json()["next"])["code"]
    first = agent.token(code).json()
    second = agent.refresh().json()
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    for secret in (code, first["refresh_token"], first["access_token"], second["refresh_token"]):
        assert secret not in logged, secret
    assert agent.verifier not in logged


def test_a_code_verifier_rfc_7636_would_not_make_is_refused(ada: Person, agent: Agent) -> None:
    """A verifier is 43 to 128 unreserved characters (RFC 7636 section 4.1). One of a letter hides
    nothing (its challenge is a lookup away), and oauthlib redeemed a code with any string that hashed
    to its challenge."""
    for verifier in ("a", "A" * 42, "A" * 129, "a verifier with spaces in it and far too plain!!!"):
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        done = ada.approve(agent.authorize_url(code_challenge=challenge))
        code = agent.code_from(done.json()["next"])["code"]
        r = agent.token(code, code_verifier=verifier)
        assert (r.status, r.json()["error"]) == (400, "invalid_request"), (verifier, r.text)
        assert "RFC 7636" in r.json()["error_description"]
    # The longest and shortest verifiers it allows still redeem their codes.
    for verifier in ("A" * 43, "a-._~" * 25 + "abc"):
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        done = ada.approve(agent.authorize_url(code_challenge=challenge))
        code = agent.code_from(done.json()["next"])["code"]
        assert agent.token(code, code_verifier=verifier).status == 200, verifier


def redeemed_twice_at_once(
    monkeypatch: pytest.MonkeyPatch, check: str, form: dict[str, str], *, second_after_first: bool = False
) -> list[tuple[int, dict[str, Any]]]:
    """Two token requests sent with the same form from two threads, which meet once both are past the
    validator's `check` (a request that waits its turn for a lock does not come there until the first
    is done; the first then goes on alone): each one's status and JSON, a 500 as its error's repr.
    With `second_after_first`, the second past the check goes on only once the first is answered."""
    both_checked = threading.Barrier(2)
    first_answered = threading.Event()
    past_the_check = iter(range(2))
    checking = getattr(TownValidator, check)

    def checked_then_wait(self: TownValidator, *args: Any, **kwargs: Any) -> bool:
        valid = checking(self, *args, **kwargs)
        if second_after_first:
            if next(past_the_check, 1) == 1:
                first_answered.wait(timeout=30)
            return bool(valid)
        try:
            both_checked.wait(timeout=2)
        except threading.BrokenBarrierError:
            pass
        return bool(valid)

    monkeypatch.setattr(TownValidator, check, checked_then_wait)
    answers: list[tuple[int, dict[str, Any]]] = []

    def redeem() -> None:
        try:
            r = DjangoClient(HTTP_HOST=urlsplit(HALL).netloc).post("/oauth/token", form)
            assert (r["Content-Type"], r["Cache-Control"]) == ("application/json", "no-store"), r
            answers.append((r.status_code, r.json()))
        except Exception as error:  # the test client raises what escaped the view: a 500
            answers.append((500, {"error": repr(error)}))
        finally:
            connections.close_all()
            first_answered.set()

    threads = [threading.Thread(target=redeem) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(answers, key=lambda a: a[0])


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connections["default"].vendor != "postgresql", reason="threads need connections of their own (PostgreSQL)"
)
@pytest.mark.parametrize("second_after_first", [False, True], ids=["together", "one-after-the-other"])
def test_one_refresh_token_presented_twice_at_once_is_reuse(
    ada: Person, agent: Agent, monkeypatch: pytest.MonkeyPatch, second_after_first: bool
) -> None:
    """Two requests redeem one refresh token at the same instant (both have checked it before either
    rotates it, and go on together or the second once the first is answered): one gets new tokens, the
    other invalid_grant, and the family ends, as when the two come one after the other. The second was
    a 500, and the family lived on."""
    tokens = agent.connect(ada)
    form = {
        "grant_type": "refresh_token",
        "refresh_token": tokens["refresh_token"],
        "client_id": agent.client_id,
        "resource": RESOURCE,
    }
    (first, given), (second, refused) = redeemed_twice_at_once(
        monkeypatch, "validate_refresh_token", form, second_after_first=second_after_first
    )
    assert (first, second, refused.get("error")) == (200, 400, "invalid_grant"), (given, refused)
    assert agent.refresh(given["refresh_token"]).status == 400
    assert not RefreshToken.objects.filter(revoked__isnull=True).exists()
    assert not AccessToken.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connections["default"].vendor != "postgresql", reason="threads need connections of their own (PostgreSQL)"
)
@pytest.mark.parametrize("second_after_first", [False, True], ids=["together", "one-after-the-other"])
def test_one_code_redeemed_twice_at_once_is_reuse(
    ada: Person, agent: Agent, monkeypatch: pytest.MonkeyPatch, second_after_first: bool
) -> None:
    """Two requests redeem one authorization code at the same instant (both have checked it before
    either spends it): one gets tokens, the other invalid_grant, and what the code gave is revoked, as
    when the two come one after the other. Both requests' tokens were saved and lived on: the one
    sent back, and the refused request's, which nobody held; and the refusal came as text/html.
    The second going on once the first is answered read the spent code's grant again for its PKCE
    challenge and redirect URI: a 500, the first's tokens left alive (a CI run on a busy machine met it)."""
    done = ada.approve(agent.authorize_url())
    form = {
        "grant_type": "authorization_code",
        "code": agent.code_from(done.json()["next"])["code"],
        "redirect_uri": agent.redirect_uri,
        "client_id": agent.client_id,
        "code_verifier": agent.verifier,
        "resource": RESOURCE,
    }
    (first, given), (second, refused) = redeemed_twice_at_once(
        monkeypatch, "validate_code", form, second_after_first=second_after_first
    )
    assert (first, second, refused.get("error")) == (200, 400, "invalid_grant"), (given, refused)
    assert not AccessToken.objects.exists()
    assert not RefreshToken.objects.filter(revoked__isnull=True).exists()


def test_a_client_forgotten_while_its_person_decides_is_said_so_and_nothing_is_connected(
    ada: Person, agent: Agent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registration making room forgets the oldest clients nobody connected; one forgotten between the
    consent's check and its connection was connected to a client that no longer existed (a 500 at the
    commit). The consent locks its client's row and finds it gone."""
    from hall import oauth

    locking = oauth.lock

    def lock_then_forget(rows: Any) -> None:
        locking(rows)
        Client.objects.filter(client_id=agent.client_id).delete()  # as the registration's room does

    monkeypatch.setattr(oauth, "lock", lock_then_forget)
    r = ada.approve(agent.authorize_url())
    assert (r.status, r.json()) == (409, {"ok": False, "say": oauth.FORGOTTEN})
    assert not Connection.objects.exists() and not Grant.objects.exists()


SENT_TWICE = "Send each parameter once: {} was sent more than once (RFC 6749 section 3.1)."


def test_an_authorization_request_naming_a_parameter_twice_is_refused(ada: Person, agent: Agent) -> None:
    """RFC 6749 section 3.1: a request parameter is sent once. A code_challenge or code_challenge_method
    sent twice was read as the last, and the consent page asked the person to approve it. The town refuses
    it as invalid_request on its own page, with the link back; a client_id, redirect_uri or state sent twice
    leaves nobody to answer, so that page links to the hall only."""
    url = agent.authorize_url()
    _, other_challenge = pkce()
    for extra, name in (
        (f"&code_challenge={other_challenge}", "code_challenge"),
        ("&code_challenge_method=S256", "code_challenge_method"),
        ("&code_challenge_method=plain", "code_challenge_method"),
        ("&prompt=consent&prompt=consent", "prompt"),
    ):
        r = ada.web.get(url + extra)
        say = SENT_TWICE.format(name)
        words = f"The app that sent you here made a request this town cannot use. If you return, it is told: “{say}”"
        assert "<h1>Not done</h1>" in r.text and f"<p>{html.escape(words)}</p>" in r.text, (extra, r.text)
        assert shown_back(r) == {
            "error": "invalid_request",
            "error_description": say,
            "state": agent.state,
            "iss": HALL,
        }
        # Nor can the request be approved by posting to the ceremony without the page.
        begun = ada.web.post(f"/oauth/authorize/begin?{urlsplit(url + extra).query}")
        assert begun.status == 400 and "This request can no longer be approved" in begun.json()["say"]
    for name, value in (("client_id", agent.client_id), ("redirect_uri", CALLBACK), ("state", "again")):
        for where in (url, f"{HALL}/oauth/authorize/deny?{urlsplit(url).query}"):
            twice = f"{where}&{name}={value}"
            r = ada.web.get(twice) if where == url else ada.web.post(twice, form={})
            assert r.status == 400 and "location" not in r.headers and RETURN_LINK.search(r.text) is None, (name, where)
            assert f"names {name} more than once, so the town cannot tell which it meant." in html.unescape(r.text)
    assert not Connection.objects.exists() and not Grant.objects.exists()
    # Sent once, the same request is approved.
    assert agent.code_from(ada.approve(url).json()["next"])["state"] == agent.state


def test_a_revocation_naming_its_token_twice_is_invalid(ada: Person, agent: Agent) -> None:
    """RFC 6749 section 3.2, at the revocation endpoint too: two tokens were read as the last, and the
    first was left alone while the client was told it was revoked. Any parameter of a token request sent
    twice is refused as well, not only the seven the town listed; a query there oauthlib refuses itself."""
    host = urlsplit(HALL).netloc
    assert agent.token(agent.code_from(ada.approve(agent.authorize_url()).json()["next"])["code"]).status == 200
    token = agent.tokens["refresh_token"]
    form = "application/x-www-form-urlencoded"
    r = DjangoClient().post(
        "/oauth/revoke", f"token={token}&token=other&client_id={agent.client_id}", form, HTTP_HOST=host
    )
    assert (r.status_code, r.json()) == (400, {"error": "invalid_request", "error_description": "Send token once."})
    body = f"grant_type=refresh_token&refresh_token={token}&client_id={agent.client_id}"
    for extra, named in (
        ("&code_challenge=a&code_challenge=b", "code_challenge"),
        ("&%E2%80%AE=1&%E2%80%AE=2", "each parameter"),
    ):
        r = DjangoClient().post("/oauth/token", body + extra, form, HTTP_HOST=host)
        assert (r.status_code, r.json()) == (
            400,
            {"error": "invalid_request", "error_description": f"Send {named} once."},
        ), extra
    # A query, refused by oauthlib too, is said in JSON (the toolkit's answer was labelled text/html).
    said = "Send the parameters in the body, not in the query (RFC 6749 section 3.2)."
    for url in (f"/oauth/token?client_id={agent.client_id}", "/oauth/revoke?token_type_hint=refresh_token"):
        r = DjangoClient().post(url, body, form, HTTP_HOST=host)
        assert (r.status_code, r.json()) == (400, {"error": "invalid_request", "error_description": said}), url
    # None of them spent or revoked the refresh token: it rotates once.
    assert agent.refresh().status == 200


def test_a_registration_naming_a_member_twice_is_refused(web: DjangoWeb) -> None:
    """Python's JSON parser kept the last of two members of one name, where another reader of the same body
    (a proxy, a log) may keep the first: the registration kept redirect URIs nobody had read."""
    good = json.dumps([CALLBACK])
    for body, named in (
        (f'{{"redirect_uris": ["https://evil.example/cb"], "redirect_uris": {good}}}', "redirect_uris"),
        (f'{{"redirect_uris": {good}, "client_name": "A", "client_name": "B"}}', "client_name"),
        (f'{{"redirect_uris": {good}, "x": {{"\\u202e": 1, "\\u202e": 2}}}}', "a member"),
    ):
        r = DjangoClient().post(
            "/oauth/register", body, "application/json", HTTP_HOST=urlsplit(HALL).netloc, REMOTE_ADDR="198.51.100.9"
        )
        assert (r.status_code, r.json()) == (
            400,
            {"error": "invalid_client_metadata", "error_description": f"The body names {named} more than once."},
        ), body
    assert not Client.objects.exists()


def test_the_answer_keeps_the_redirect_uri_s_own_query_byte_for_byte(web: DjangoWeb) -> None:
    """oauthlib decoded a redirect URI's own query and wrote it again: a registered `?y=a%20b&z` came back as
    `?y=a+b&z=` on the refusal page's link, the decline's redirect and the code's. RFC 6749 section 3.1.2
    retains the query; the answer is added after it."""
    ada = Person(web).sign_up("Ada")
    iss = quote(HALL, safe="")
    for own in ("http://127.0.0.1:9/cb?y=a%20b&z", "http://127.0.0.1:9/cb?", "http://127.0.0.1:9/cb?a=1&"):
        agent = Agent(web, RESOURCE, redirect_uri=own)
        assert agent.register().status == 201
        r = web.get(agent.authorize_url(scope="nothing"))
        found = RETURN_LINK.search(r.text)
        assert r.status == 400 and found, r.text
        said = "This%20town%20grants%20the%20scope%20town%20only."
        assert html.unescape(found.group(1)) == (
            f"{own}error=invalid_scope&error_description={said}&state={agent.state}&iss={iss}"
            if own.endswith(("?", "&"))
            else f"{own}&error=invalid_scope&error_description={said}&state={agent.state}&iss={iss}"
        )
        joint = "" if own.endswith(("?", "&")) else "&"
        r = web.post(f"/oauth/authorize/deny?{urlsplit(agent.authorize_url()).query}", form={})
        assert r.status == 302 and r.headers["location"] == (
            f"{own}{joint}error=access_denied&error_description=The%20person%20declined.&state={agent.state}&iss={iss}"
        )
        done = ada.approve(agent.authorize_url()).json()["next"]
        answer = re.escape(own + joint) + r"code=(\w+)&state=" + re.escape(f"{agent.state}&iss={iss}")
        sent = re.fullmatch(answer, done)
        assert sent, done
        assert agent.token(sent.group(1)).status == 200


def test_a_redirect_uri_naming_an_answer_s_parameter_is_refused(web: DjangoWeb) -> None:
    """A redirect URI registered with its own state= or error= got a second one with the town's answer, and
    a client that reads the first read its own: a fixed state that always matches, an error on every code.
    Registration refuses such a URI; one kept before is answered on the hall's page only."""
    for uri, named in (
        ("https://app.example/cb?state=fixed", "state"),
        ("https://app.example/cb?a=1&error=x", "error"),
        ("https://app.example/cb?st%61te=1&iss", "state, iss"),
        ("http://127.0.0.1:9/cb?code=1&error_description=&error_uri=u", "code, error_description, error_uri"),
    ):
        r = Agent(web, RESOURCE, redirect_uri=uri).register()
        assert (r.status, r.json()) == (
            400,
            {
                "error": "invalid_redirect_uri",
                "error_description": f"{uri}: a redirect URI's own query may not name {named}: the town adds code, "
                "state, error, error_description and iss to it when it answers, and a second one would be read in "
                "place of the town's.",
            },
        ), uri
    assert not Client.objects.exists()
    agent = Agent(web, RESOURCE, redirect_uri="http://127.0.0.1:9/cb?state=fixed")
    agent.client_id = Client.objects.create(
        name="Old",
        redirect_uris=agent.redirect_uri,
        client_type=Client.CLIENT_PUBLIC,
        authorization_grant_type=Client.GRANT_AUTHORIZATION_CODE,
        client_secret="",
        hash_client_secret=False,
    ).client_id
    for url in (agent.authorize_url(), agent.authorize_url(scope="nothing")):
        r = web.get(url)
        assert r.status == 400 and RETURN_LINK.search(r.text) is None
        assert "registered an address to return you to that already carries an answer (state)" in html.unescape(r.text)


def test_the_addresses_open_to_browsers_are_those_the_door_knows() -> None:
    """hall/cors.py's OPEN, which the town's ASGI application reads (every answer there gets CORS), is
    every address whose view answers browsers."""
    marked = {f"/{p.pattern}" for p in oauth_urls.urlpatterns if getattr(p.callback, cors.MARK, False)}
    assert marked == cors.OPEN
