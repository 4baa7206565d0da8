"""Bearer tokens on /mcp, for a town with sign-in: the checks of RFC 9068 section 4, then the passport.

`read` needs no database: the token's signature (the town's token key, EdDSA), its typ (at+jwt), iss
(the hall), aud (exactly this town's /mcp URL; a token without one is refused), exp (and a lifetime of
at most an hour), and its scope (town; without it, 403 insufficient_scope). `admit` then finds the
token's record, so a token revoked in the hall (or by the client) stops at once, and returns the
passport of the token's (account, client): the same one every time that pair comes back.

Refusals carry spec 001's bodies and a WWW-Authenticate header naming the protected-resource metadata.
"""

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from typing import Any

import jwt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model

from clockford.face import sessions
from clockford.town.models import Passport
from hall import oauth_tokens

SIGN_IN = "Sign in to enter the town."
NO_SCOPE = "This token cannot enter the town."
REQUIRED = "A bearer token is required."
NOT_VALID = "The token is not valid for this town."
HOUR = "Tokens for this town live at most an hour."
TYPES = ("at+jwt", "application/at+jwt")
CLAIMS = ["iss", "sub", "aud", "exp", "iat", "jti", "client_id"]


@dataclass(frozen=True)
class Refusal:
    status: int
    body: str
    challenge: str


@dataclass(frozen=True)
class Bearer:
    """A token whose signature and claims were checked; its record not yet."""

    raw: str
    sub: str
    client_id: str


@dataclass(frozen=True)
class Principal:
    """Whom a token names: an account and one of its connected clients (its pk and how to call it),
    and their passport once there is one."""

    account_id: int
    client_pk: int
    client_label: str
    passport: Passport | None

    @property
    def passport_id(self) -> str | None:
        return self.passport.id if self.passport is not None else None


def resource_metadata_url() -> str:
    return f"{settings.TOWN_URL}/.well-known/oauth-protected-resource/mcp"


def _challenge(error: str | None = None, description: str | None = None) -> str:
    parts = []
    if error:
        parts.append(f'error="{error}"')
    if description:
        parts.append(f'error_description="{description}"')
    parts += [f'resource_metadata="{resource_metadata_url()}"', f'scope="{oauth_tokens.SCOPE}"']
    return "Bearer " + ", ".join(parts)


def _refused(description: str) -> Refusal:
    return Refusal(401, SIGN_IN, _challenge("invalid_token", description))


def read(authorization: str | None) -> Bearer | Refusal:
    if not authorization or not authorization.strip():
        return Refusal(401, SIGN_IN, _challenge())
    scheme, _, raw = authorization.strip().partition(" ")
    raw = raw.strip()
    if scheme.lower() != "bearer" or not raw or " " in raw:
        return _refused(REQUIRED)
    try:
        header = jwt.get_unverified_header(raw)
    except jwt.PyJWTError:
        return _refused(NOT_VALID)
    if str(header.get("typ", "")).lower() not in TYPES:
        return _refused(NOT_VALID)
    # The algorithm is the town's, never the token's choice ("none" included).
    if header.get("alg") != oauth_tokens.ALG or header.get("kid") != oauth_tokens.key_id():
        return _refused(NOT_VALID)
    try:
        claims = jwt.decode(
            raw,
            oauth_tokens.public_key(),
            algorithms=[oauth_tokens.ALG],
            audience=oauth_tokens.resource(),
            issuer=oauth_tokens.issuer(),
            options={"require": CLAIMS, "strict_aud": True},
        )
    except jwt.ExpiredSignatureError:
        return _refused(HOUR)
    except jwt.PyJWTError:
        return _refused(NOT_VALID)
    exp, iat = claims["exp"], claims["iat"]
    if not isinstance(exp, int) or not isinstance(iat, int) or exp - iat > oauth_tokens.MAX_SECONDS:
        return _refused(HOUR)
    sub, client_id = claims["sub"], claims["client_id"]
    if not isinstance(sub, str) or not isinstance(client_id, str):
        return _refused(NOT_VALID)
    scope = claims.get("scope")
    if oauth_tokens.SCOPE not in (scope.split() if isinstance(scope, str) else []):
        return Refusal(403, NO_SCOPE, _challenge("insufficient_scope", "The token lacks the town scope."))
    return Bearer(raw=raw, sub=sub, client_id=client_id)


@cache
def _record_sql() -> str:
    """One statement for a token's record, its account and client, and their passport, if any."""
    token, account = get_access_token_model()._meta, get_user_model()._meta
    client, passport = get_application_model()._meta, Passport._meta
    qn = connection.ops.quote_name

    def col(meta: Any, field: str) -> str:
        return qn(meta.get_field(field).column)

    passport_columns = sessions.passport_columns("p")
    return (
        f"SELECT u.{col(account, 'id')}, u.{col(account, 'handle')}, u.{col(account, 'is_active')}, "  # noqa: S608 (names from the models; values are parameters)
        f"c.{col(client, 'id')}, c.{col(client, 'client_id')}, c.{col(client, 'name')}, "
        f"t.{col(token, 'resource')}, {passport_columns} "
        f"FROM {qn(token.db_table)} t "
        f"JOIN {qn(account.db_table)} u ON u.{col(account, 'id')} = t.{col(token, 'user')} "
        f"JOIN {qn(client.db_table)} c ON c.{col(client, 'id')} = t.{col(token, 'application')} "
        f"LEFT JOIN {qn(passport.db_table)} p ON p.{col(passport, 'account')} = t.{col(token, 'user')} "
        f"AND p.{col(passport, 'client')} = t.{col(token, 'application')} "
        f"WHERE t.{col(token, 'token_checksum')} = %s AND t.{col(token, 'expires')} > %s"
    )


def admit(bearer: Bearer) -> Principal | Refusal:
    """The token's record: there (not revoked), unexpired, for the same account and client as its
    claims and for this town's resource; with the id of that pair's passport, if it has one yet.
    One plain statement, because it runs before every signed-in request."""
    checksum = hashlib.sha256(bearer.raw.encode()).hexdigest()
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_record_sql(), [checksum, now])
        row = cursor.fetchone()
    if row is None:
        return _refused(NOT_VALID)
    account_id, handle, active, client_pk, client_id, client_name, resource = row[:7]
    if isinstance(resource, str | bytes):
        resource = json.loads(resource)
    if handle != bearer.sub or client_id != bearer.client_id or not active or resource != [oauth_tokens.resource()]:
        return _refused(NOT_VALID)
    return Principal(
        account_id=account_id,
        client_pk=client_pk,
        client_label=client_name or client_id,
        passport=sessions.passport_from_row(row[7:]) if row[7] is not None else None,
    )


def passport(principal: Principal) -> Passport:
    """The passport of the principal's (account, client), made the first time the pair enters."""
    if principal.passport is not None:
        return principal.passport
    return sessions.passport_for(principal.account_id, principal.client_pk, principal.client_label)


def admit_with_passport(bearer: Bearer) -> tuple[Refusal | None, Passport | None]:
    admitted = admit(bearer)
    if isinstance(admitted, Refusal):
        return admitted, None
    return None, passport(admitted)
