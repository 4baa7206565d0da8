"""Personas for the hall's in-process tests: a Visitor is a browser (Django's test client at the
hall's own address) holding a software passkey (authenticator.py)."""

import html
import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from clockford.town.models import Passport
from hall.models import Account
from hall.tests.authenticator import SoftAuthenticator

HOST = urlsplit(settings.HALL_URL).netloc
ORIGIN = settings.HALL_URL


class Visitor:
    def __init__(self, enforce_csrf: bool = False) -> None:
        self.client = Client(enforce_csrf_checks=enforce_csrf, HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
        self.key = SoftAuthenticator(ORIGIN)

    def post(self, url: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        r = self.client.post(url, json.dumps(body or {}), content_type="application/json")
        return r.status_code, r.json()

    def options(self, url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        status, data = self.post(url, body)
        assert status == 200 and data["ok"], (status, data)
        return data["options"]

    def sign_up(self, name: str = "Ada", **answer: Any) -> tuple[int, dict[str, Any]]:
        options = self.options("/hall/signup/begin", {"name": name})
        return self.post("/hall/signup/finish", {"credential": self.key.create(options, **answer)})

    def sign_in(self, **answer: Any) -> tuple[int, dict[str, Any]]:
        options = self.options("/hall/signin/begin")
        return self.post("/hall/signin/finish", {"credential": self.key.get(options, **answer)})

    def add_passkey(self, name: str = "", **answer: Any) -> tuple[int, dict[str, Any]]:
        options = self.options("/hall/passkeys/add/begin", {"name": name})
        return self.post("/hall/passkeys/add/finish", {"credential": self.key.create(options, **answer)})

    def sign_out(self) -> None:
        assert self.client.post("/hall/signout").status_code == 302

    @property
    def account(self) -> Account | None:
        user_id = self.client.session.get("_auth_user_id")
        return Account.objects.filter(pk=user_id).first() if user_id else None

    def page(self, url: str, status: int = 200) -> str:
        """A page's text as a person reads it (entities decoded), after checking its status."""
        r = self.client.get(url)
        assert r.status_code == status, (url, r.status_code)
        return html.unescape(r.content.decode())


def person(name: str) -> tuple[Visitor, Account]:
    """Someone who signed up (one account, one passkey) and is signed in."""
    visitor = Visitor()
    status, data = visitor.sign_up(name)
    assert status == 200 and data["ok"] is True, data
    assert visitor.account is not None
    return visitor, visitor.account


def agent_of(owner: Account) -> Passport:
    """A signed-in agent of `owner`'s, at the Post Office."""
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now, last_seen=now, account=owner, client_name="errand-runner", sign_in=True, place="The Post Office"
    )


@pytest.fixture
def visitor(db: None) -> Visitor:
    return Visitor()


@pytest.fixture
def ada(visitor: Visitor) -> Visitor:
    """Ada has signed up: one account, one passkey, signed in."""
    status, data = visitor.sign_up("Ada")
    assert status == 200 and data == {"ok": True, "next": "/hall/"}, data
    return visitor
