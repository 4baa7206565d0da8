"""Bearer tokens on /mcp, for a town with sign-in: the checks of RFC 9068 section 4, then the passport.

`read` needs no database: the token's signature (the town's token key, EdDSA), its typ (at+jwt), iss
(the hall), aud (exactly this town's /mcp URL; a token without one is refused), exp (and a lifetime of
at most an hour), and its scope (town; without it, 403 insufficient_scope). `admit` then finds the
token's record, so a token revoked in the hall (or by the client) stops at once, and returns the
passport of the token's (account, client): the same one every time that pair comes back.

Refusals carry spec 001's bodies and a WWW-Authenticate header naming the protected-resource metadata.
"""

import hashlib
from dataclasses import dataclass

import jwt
from django.conf import settings
from oauth2_provider.models import get_access_token_model

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
    account_id: int
    client_id: str
    passport: Passport


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


def admit(bearer: Bearer) -> Principal | Refusal:
    """The token's record (not revoked, not expired, the same account and client as its claims) and
    the passport of that (account, client)."""
    checksum = hashlib.sha256(bearer.raw.encode()).hexdigest()
    token = (
        get_access_token_model().objects.select_related("user", "application").filter(token_checksum=checksum).first()
    )
    if token is None or token.is_expired() or token.user is None or token.application is None:
        return _refused(NOT_VALID)
    account, client = token.user, token.application
    if (
        getattr(account, "handle", None) != bearer.sub
        or client.client_id != bearer.client_id
        or not account.is_active
        or list(token.resource or []) != [oauth_tokens.resource()]
    ):
        return _refused(NOT_VALID)
    passport = sessions.passport_for(account, client)
    return Principal(account_id=account.pk, client_id=client.client_id, passport=passport)
