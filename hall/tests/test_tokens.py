"""hall/tokens.py in process: what /mcp asks of a token, the audience the caller names included."""

import datetime as dt
import secrets
import time
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from oauth2_provider.models import AccessToken

from clockford.town.models import Passport
from hall import oauth_tokens, tokens
from hall.models import Account, Client

pytestmark = pytest.mark.django_db

AUDIENCE = str(settings.MCP_RESOURCE_URL)


def claims(**changed: Any) -> dict[str, Any]:
    now = int(time.time())
    base = {
        "iss": oauth_tokens.issuer(),
        "sub": "ada-handle",
        "aud": AUDIENCE,
        "client_id": "agent-1",
        "iat": now,
        "exp": now + 600,
        "jti": secrets.token_urlsafe(8),
        "scope": "town",
    }
    return {**base, **changed}


def test_a_token_of_this_town_for_this_audience_is_verified() -> None:
    raw = oauth_tokens.sign(claims())
    assert tokens.verify(raw, AUDIENCE) == tokens.Token(raw=raw, sub="ada-handle", client_id="agent-1")


def test_a_token_for_another_audience_is_not_valid() -> None:
    raw = oauth_tokens.sign(claims())
    assert tokens.verify(raw, "https://elsewhere.example/mcp") == tokens.NOT_VALID
    assert tokens.verify(oauth_tokens.sign(claims(aud="https://elsewhere.example/mcp")), AUDIENCE) == tokens.NOT_VALID


def test_a_token_without_the_town_scope_has_insufficient_scope() -> None:
    assert tokens.verify(oauth_tokens.sign(claims(scope="profile")), AUDIENCE) == tokens.NO_SCOPE


def test_a_token_living_past_an_hour_is_refused() -> None:
    now = int(time.time())
    assert tokens.verify(oauth_tokens.sign(claims(iat=now, exp=now + 7200)), AUDIENCE) == tokens.HOUR
    assert tokens.verify(oauth_tokens.sign(claims(iat=now - 900, exp=now - 300)), AUDIENCE) == tokens.HOUR


def test_a_token_of_another_type_or_key_is_not_valid() -> None:
    wrong_type = oauth_tokens.sign(claims(), headers={"typ": "JWT", "kid": oauth_tokens.key_id()})
    wrong_key = oauth_tokens.sign(claims(), headers={"typ": "at+jwt", "kid": "another"})
    for raw in (wrong_type, wrong_key, "not.a.token"):
        assert tokens.verify(raw, AUDIENCE) == tokens.NOT_VALID


def _stored(raw: str, resource: list[str]) -> tuple[Account, Client]:
    ada = Account.objects.create_account("Ada")
    client = Client.objects.create(
        client_id="agent-1", name="Errand", client_type="public", authorization_grant_type="authorization-code"
    )
    ada.handle = "ada-handle"
    ada.save()
    AccessToken.objects.create(
        user=ada,
        application=client,
        token=raw,
        expires=timezone.now() + dt.timedelta(minutes=10),
        scope="town",
        resource=resource,
    )
    return ada, client


def test_admit_finds_the_record_and_the_pairs_passport_in_one_statement(
    django_assert_num_queries: Any,
) -> None:
    raw = oauth_tokens.sign(claims())
    ada, client = _stored(raw, [AUDIENCE])
    token = tokens.verify(raw, AUDIENCE)
    assert isinstance(token, tokens.Token)
    held = tokens.admit(token, AUDIENCE, ("id", "place"))
    assert held == tokens.Holder(ada.pk, client.pk, "Errand", None)
    now = timezone.now()
    passport = Passport.objects.create(account=ada, client=client, sign_in=True, issued_at=now, last_seen=now)
    with django_assert_num_queries(1):
        held = tokens.admit(token, AUDIENCE, ("id", "place"))
    assert isinstance(held, tokens.Holder) and held.passport_row == (passport.id, passport.place)


def test_admit_refuses_a_record_for_another_audience_or_one_revoked() -> None:
    raw = oauth_tokens.sign(claims())
    _stored(raw, ["https://elsewhere.example/mcp"])
    token = tokens.verify(raw, AUDIENCE)
    assert isinstance(token, tokens.Token)
    assert tokens.admit(token, AUDIENCE, ("id",)) == tokens.NOT_VALID
    AccessToken.objects.all().delete()
    assert tokens.admit(token, AUDIENCE, ("id",)) == tokens.NOT_VALID
