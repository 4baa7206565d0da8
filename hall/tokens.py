"""Reading the town's access tokens, for whoever is asked to honour one (the face, on /mcp).

The hall issues the tokens (hall/oauth_tokens.py) and keeps their records; this module is the one place
that reads them, so the face never touches the OAuth models. Two steps, because the first needs no
database and the second must see a revocation at once:

- `verify(token, audience)`: the checks of RFC 9068 section 4. The signature (the town's token key,
  EdDSA), typ (at+jwt), iss (the hall), aud (exactly `audience`; a token without one is refused), exp
  (and a lifetime of at most an hour), and the scope (town).
- `admit(token, audience, passport_fields)`: the token's record, there (not revoked) and unexpired,
  for the same account and client as its claims and for `audience` alone; with the named columns of
  that pair's passport, read in the same statement, since it runs before every signed-in request.

A refusal says why in RFC 6750's words; the caller chooses its status and its body.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import jwt
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from oauth2_provider.models import get_access_token_model, get_application_model

from clockford.credentials import secret_digest
from clockford.town.models import Passport
from hall import oauth_tokens

SCOPE = oauth_tokens.SCOPE
TYPES = ("at+jwt", "application/at+jwt")
CLAIMS = ["iss", "sub", "aud", "exp", "iat", "jti", "client_id"]

INVALID = "invalid_token"
INSUFFICIENT_SCOPE = "insufficient_scope"


@dataclass(frozen=True)
class Refused:
    """Why a token is not honoured: RFC 6750's error code (INVALID or INSUFFICIENT_SCOPE) and a
    description for the one who presented it."""

    error: str
    description: str


NOT_VALID = Refused(INVALID, "The token is not valid for this town.")
HOUR = Refused(INVALID, "Tokens for this town live at most an hour.")
NO_SCOPE = Refused(INSUFFICIENT_SCOPE, "The token lacks the town scope.")


@dataclass(frozen=True)
class Token:
    """A token whose signature and claims were checked; its record not yet."""

    raw: str
    sub: str
    client_id: str


@dataclass(frozen=True)
class Holder:
    """Whom an admitted token names: an account and one of its connected clients (its pk and how to
    call it), and the columns of their passport asked for, or None when the pair has none yet."""

    account_id: int
    client_pk: int
    client_label: str
    passport_row: tuple[Any, ...] | None


def verify(token: str, audience: str) -> Token | Refused:
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        return NOT_VALID
    if str(header.get("typ", "")).lower() not in TYPES:
        return NOT_VALID
    # The algorithm is the town's, never the token's choice ("none" included).
    if header.get("alg") != oauth_tokens.ALG or header.get("kid") != oauth_tokens.key_id():
        return NOT_VALID
    try:
        claims = jwt.decode(
            token,
            oauth_tokens.public_key(),
            algorithms=[oauth_tokens.ALG],
            audience=audience,
            issuer=oauth_tokens.issuer(),
            options={"require": CLAIMS, "strict_aud": True},
        )
    except jwt.ExpiredSignatureError:
        return HOUR
    except jwt.PyJWTError:
        return NOT_VALID
    exp, iat = claims["exp"], claims["iat"]
    if not isinstance(exp, int) or not isinstance(iat, int) or exp - iat > oauth_tokens.MAX_SECONDS:
        return HOUR
    sub, client_id = claims["sub"], claims["client_id"]
    if not isinstance(sub, str) or not isinstance(client_id, str):
        return NOT_VALID
    scope = claims.get("scope")
    if SCOPE not in (scope.split() if isinstance(scope, str) else []):
        return NO_SCOPE
    return Token(raw=token, sub=sub, client_id=client_id)


@cache
def _record_sql(passport_fields: tuple[str, ...]) -> str:
    """One statement for a token's record, its account and client, and their passport's columns."""
    token, account = get_access_token_model()._meta, get_user_model()._meta
    client, passport = get_application_model()._meta, Passport._meta
    qn = connection.ops.quote_name

    def col(meta: Any, field: str) -> str:
        return qn(meta.get_field(field).column)

    passport_columns = ", ".join(f"p.{col(passport, f)}" for f in passport_fields)
    return (
        f"SELECT u.{col(account, 'id')}, u.{col(account, 'handle')}, u.{col(account, 'is_active')}, "  # noqa: S608 (names from the models; values are parameters)
        f"c.{col(client, 'id')}, c.{col(client, 'client_id')}, c.{col(client, 'name')}, "
        f"t.{col(token, 'resource')}, p.{col(passport, 'id')}, {passport_columns} "
        f"FROM {qn(token.db_table)} t "
        f"JOIN {qn(account.db_table)} u ON u.{col(account, 'id')} = t.{col(token, 'user')} "
        f"JOIN {qn(client.db_table)} c ON c.{col(client, 'id')} = t.{col(token, 'application')} "
        f"LEFT JOIN {qn(passport.db_table)} p ON p.{col(passport, 'account')} = t.{col(token, 'user')} "
        f"AND p.{col(passport, 'client')} = t.{col(token, 'application')} "
        f"WHERE t.{col(token, 'token_checksum')} = %s AND t.{col(token, 'expires')} > %s"
    )


def admit(token: Token, audience: str, passport_fields: Sequence[str]) -> Holder | Refused:
    checksum = secret_digest(token.raw)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_record_sql(tuple(passport_fields)), [checksum, now])
        row = cursor.fetchone()
    if row is None:
        return NOT_VALID
    account_id, handle, active, client_pk, client_id, client_name, resource, passport_id = row[:8]
    if isinstance(resource, str | bytes):
        resource = json.loads(resource)
    if handle != token.sub or client_id != token.client_id or not active or resource != [audience]:
        return NOT_VALID
    return Holder(
        account_id=account_id,
        client_pk=client_pk,
        client_label=client_name or client_id,
        passport_row=tuple(row[8:]) if passport_id is not None else None,
    )
