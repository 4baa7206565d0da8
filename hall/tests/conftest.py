"""Personas for the hall's in-process tests: a Visitor is a browser (Django's test client at the
hall's own address) holding a software passkey (authenticator.py)."""

import html
import json
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from clockford.town.models import Passport
from hall.claim import claim_link_if_unowned
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

    def sign_up(self, name: str = "Ada", invite: str | None = None, **answer: Any) -> tuple[int, dict[str, Any]]:
        """Make an account, through `invite` (a link or its token) when one is given."""
        begin = f"/hall/invite/{invite.rsplit('/', 1)[-1]}/begin" if invite else "/hall/signup/begin"
        options = self.options(begin, {"name": name})
        return self.post("/hall/signup/finish", {"credential": self.key.create(options, **answer)})

    def sign_in(self, **answer: Any) -> tuple[int, dict[str, Any]]:
        options = self.options("/hall/signin/begin")
        return self.post("/hall/signin/finish", {"credential": self.key.get(options, **answer)})

    def add_passkey(self, name: str = "", confirm: int | None = 0, **answer: Any) -> tuple[int, dict[str, Any]]:
        """Add a passkey, first confirming with the passkey at `confirm` on this visitor's authenticator
        (None: no confirmation, as for an account's first passkey)."""
        body: dict[str, Any] = {"name": name}
        if confirm is not None:
            asked = self.options("/hall/passkeys/add/confirm", {"name": name})
            body["confirmation"] = self.key.get(asked, which=confirm)
        options = self.options("/hall/passkeys/add/begin", body)
        return self.post("/hall/passkeys/add/finish", {"credential": self.key.create(options, **answer)})

    def remove_passkey(self, passkey_id: int, confirm: int = 0, **answer: Any) -> tuple[int, dict[str, Any]]:
        """Remove one of the account's passkeys, confirming with the passkey at `confirm`."""
        asked = self.options(f"/hall/passkeys/{passkey_id}/remove/begin")
        credential = self.key.get(asked, which=confirm, **answer)
        return self.post(f"/hall/passkeys/{passkey_id}/remove/finish", {"credential": credential})

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


INVITE_LINK = re.compile(r'<input id="invite-link" type="text" readonly value="([^"]+)"')


def invite_from(maker: Visitor) -> str:
    """An invite link, made the way the owner (or staff) makes one in the hall: the page shows it once."""
    r = maker.client.post("/hall/invites/make")
    assert r.status_code == 200, r.status_code
    found = INVITE_LINK.search(r.content.decode())
    assert found, "the new invite's link is not on the page"
    return html.unescape(found.group(1))


def invited(maker: Visitor, name: str) -> Visitor:
    """Someone `maker` invited, who made an account with the invite and is signed in."""
    visitor = Visitor()
    status, data = visitor.sign_up(name, invite=invite_from(maker))
    assert status == 200 and data["ok"] is True, data
    return visitor


def agent_of(owner: Account) -> Passport:
    """A signed-in agent of `owner`'s, at the Post Office."""
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now, last_seen=now, account=owner, client_name="errand-runner", sign_in=True, place="The Post Office"
    )


@pytest.fixture
def sign_in(settings: Any) -> None:
    """The town runs with sign-in (CLOCKFORD_SIGN_IN), for the pages and endpoints that need it; a
    module asks for it with `pytest.mark.usefixtures("sign_in")`."""
    settings.CLOCKFORD_SIGN_IN = True


@pytest.fixture
def visitor(db: None) -> Visitor:
    return Visitor()


@pytest.fixture
def ada(visitor: Visitor) -> Visitor:
    """Ada has signed up: one account, one passkey, signed in."""
    status, data = visitor.sign_up("Ada")
    assert status == 200 and data == {"ok": True, "next": "/hall/"}, data
    return visitor


@pytest.fixture
def olive(db: None) -> Visitor:
    """Olive claimed the town: the owner, and staff (a browser of her own)."""
    visitor = Visitor()
    code = (claim_link_if_unowned() or "").rsplit("/", 1)[1]
    _, begun = visitor.post(f"/hall/claim/{code}/begin", {"name": "Olive"})
    assert visitor.post("/hall/claim-finish", {"credential": visitor.key.create(begun["options"])})[0] == 200
    return visitor


@pytest.fixture
def staff(db: None) -> Visitor:
    """Sam has signed up and the town made Sam's account staff. Sam is a visitor of its own, so a test
    can have Sam and `ada` side by side."""
    sam, account = person("Sam")
    Account.objects.filter(pk=account.pk).update(is_staff=True)
    return sam
