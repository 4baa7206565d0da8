"""An agent's OAuth client and the person who approves it, spoken by hand, for tests of the hall's
authorization server: in process (Django's test client) or against a live town over real HTTP.

The person holds a software passkey (authenticator.py); the agent registers (RFC 7591), sends the
person to the consent page with PKCE (S256) and the town's resource, and redeems the code. The real
mcp client does the same in tests/browser/test_oauth_client.py.
"""

import base64
import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from hall.tests.authenticator import SoftAuthenticator

CALLBACK = "http://127.0.0.1:9/callback"


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


class Web:
    """The way a test's requests reach the hall: `post` sends a form when `form` is given, else JSON."""

    hall: str  # scheme://host:port of the hall (the issuer)

    def get(self, url: str, headers: dict[str, str] | None = None) -> Reply:
        raise NotImplementedError

    def post(
        self,
        url: str,
        *,
        json_body: Any = None,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        return self._post(url, form, json_body or {}, dict(headers or {}))

    def _post(self, url: str, form: dict[str, str] | None, json_body: Any, headers: dict[str, str]) -> Reply:
        raise NotImplementedError


def _reply(status: int, headers: Any, text: str) -> Reply:
    return Reply(status, {k.lower(): v for k, v in headers.items()}, text)


class DjangoWeb(Web):
    """Django's test client, addressing each request to the host its URL names."""

    def __init__(self, hall: str) -> None:
        from django.test import Client

        self.hall = hall
        self.client = Client()

    def _host(self, url: str) -> tuple[str, str]:
        parts = urlsplit(url)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        return (parts.netloc or urlsplit(self.hall).netloc), path

    def get(self, url: str, headers: dict[str, str] | None = None) -> Reply:
        host, path = self._host(url)
        r = self.client.get(path, HTTP_HOST=host, headers=headers or {})
        return _reply(r.status_code, r.headers, r.content.decode())

    def _post(self, url: str, form: dict[str, str] | None, json_body: Any, headers: dict[str, str]) -> Reply:
        host, path = self._host(url)
        h = {"Origin": self.hall, **headers}
        if form is not None:
            r = self.client.post(path, urlencode(form), "application/x-www-form-urlencoded", HTTP_HOST=host, headers=h)
        else:
            r = self.client.post(path, json.dumps(json_body), "application/json", HTTP_HOST=host, headers=h)
        return _reply(r.status_code, r.headers, r.content.decode())


class LiveWeb(Web):
    """Real HTTP to a live town, keeping cookies like a browser and sending the hall's CSRF token."""

    def __init__(self, hall: str) -> None:
        import httpx2

        self.hall = hall
        self.http = httpx2.Client(follow_redirects=False, timeout=30)

    def get(self, url: str, headers: dict[str, str] | None = None) -> Reply:
        r = self.http.get(url if "://" in url else self.hall + url, headers=headers)
        return _reply(r.status_code, r.headers, r.text)

    def _post(self, url: str, form: dict[str, str] | None, json_body: Any, headers: dict[str, str]) -> Reply:
        url = url if "://" in url else self.hall + url
        h = dict(headers)
        if url.startswith(self.hall + "/hall/") or url.startswith(self.hall + "/oauth/authorize"):
            if "csrftoken" not in self.http.cookies:
                self.http.get(self.hall + "/hall/")
            h |= {"Origin": self.hall, "X-CSRFToken": self.http.cookies["csrftoken"]}
        if form is not None:
            r = self.http.post(url, data=form, headers=h)
        else:
            r = self.http.post(url, json=json_body, headers=h)
        return _reply(r.status_code, r.headers, r.text)


class Person:
    """Someone in the hall with a software passkey."""

    def __init__(self, web: Web) -> None:
        self.web = web
        self.key = SoftAuthenticator(web.hall)

    def _ok(self, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        r = self.web.post(url, json_body=body or {})
        assert r.status == 200 and r.json()["ok"], (url, r.status, r.text)
        data: dict[str, Any] = r.json()
        return data

    def sign_up(self, name: str) -> "Person":
        options = self._ok("/hall/signup/begin", {"name": name})["options"]
        self._ok("/hall/signup/finish", {"credential": self.key.create(options)})
        return self

    def sign_in(self) -> "Person":
        options = self._ok("/hall/signin/begin")["options"]
        self._ok("/hall/signin/finish", {"credential": self.key.get(options)})
        return self

    def approve(self, authorize_url: str, **answer: Any) -> Reply:
        """Open the consent page, begin the approval and answer it with the passkey; the finish reply."""
        query = urlsplit(authorize_url).query
        page = self.web.get(authorize_url)
        assert page.status == 200, (page.status, page.text[:500])
        begun = self.web.post(f"/oauth/authorize/begin?{query}")
        if begun.status != 200:
            return begun
        credential = self.key.get(begun.json()["options"], **answer)
        return self.web.post(f"/oauth/authorize/finish?{query}", json_body={"credential": credential})


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(64)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


@dataclass
class Agent:
    """An MCP client's OAuth side: registration, the authorization request, the token requests."""

    web: Web
    resource: str
    name: str = "Errand Runner"
    redirect_uri: str = CALLBACK
    client_id: str = ""
    verifier: str = ""
    state: str = ""
    tokens: dict[str, Any] = field(default_factory=dict)

    def register(self, **extra: Any) -> Reply:
        body = {
            "redirect_uris": [self.redirect_uri],
            "client_name": self.name,
            "token_endpoint_auth_method": "none",
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "application_type": "native",
            **extra,
        }
        r = self.web.post(self.web.hall + "/oauth/register", json_body=body)
        if r.status == 201:
            self.client_id = r.json()["client_id"]
        return r

    def authorize_url(self, **params: str | None) -> str:
        self.verifier, challenge = pkce()
        self.state = secrets.token_urlsafe(16)
        query: dict[str, str | None] = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": self.redirect_uri,
            "state": self.state,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "scope": "town",
            "resource": self.resource,
        }
        query.update(params)
        return self.web.hall + "/oauth/authorize?" + urlencode({k: v for k, v in query.items() if v is not None})

    def code_from(self, redirect: str) -> dict[str, str]:
        assert redirect.startswith(self.redirect_uri + "?"), redirect
        return {k: v[0] for k, v in parse_qs(urlsplit(redirect).query).items()}

    def token(self, code: str, **extra: str) -> Reply:
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": self.redirect_uri,
            "client_id": self.client_id,
            "code_verifier": self.verifier,
            "resource": self.resource,
            **extra,
        }
        r = self.web.post(self.web.hall + "/oauth/token", form={k: v for k, v in form.items() if v is not None})
        if r.status == 200:
            self.tokens = r.json()
        return r

    def refresh(self, refresh_token: str | None = None, **extra: str) -> Reply:
        form = {
            "grant_type": "refresh_token",
            "refresh_token": refresh_token or self.tokens["refresh_token"],
            "client_id": self.client_id,
            "resource": self.resource,
            **extra,
        }
        r = self.web.post(self.web.hall + "/oauth/token", form={k: v for k, v in form.items() if v is not None})
        if r.status == 200:
            self.tokens = r.json()
        return r

    def connect(self, person: Person) -> dict[str, Any]:
        """The whole flow: register (once), approve with the person's passkey, redeem the code."""
        if not self.client_id:
            r = self.register()
            assert r.status == 201, (r.status, r.text)
        done = person.approve(self.authorize_url())
        assert done.status == 200, (done.status, done.text)
        back = self.code_from(done.json()["next"])
        assert back["state"] == self.state and back["iss"] == self.web.hall, back
        r = self.token(back["code"])
        assert r.status == 200, (r.status, r.text)
        return self.tokens
