"""Personas for the hall's in-process tests: a Visitor is a browser (Django's test client at the
hall's own address) holding a software passkey (authenticator.py)."""

import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client

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


@pytest.fixture
def visitor(db: None) -> Visitor:
    return Visitor()


@pytest.fixture
def ada(visitor: Visitor) -> Visitor:
    """Ada has signed up: one account, one passkey, signed in."""
    status, data = visitor.sign_up("Ada")
    assert status == 200 and data == {"ok": True, "next": "/hall/"}, data
    return visitor
