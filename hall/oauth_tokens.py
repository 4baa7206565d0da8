"""The town's access tokens: RFC 9068 JWTs (typ at+jwt), signed with Ed25519 (EdDSA).

The signing key is derived from the town key (clockford/town/signing.py) through a label of its own,
so a token and a checkpoint never share a key, and the key needs no file of its own: every worker of
one town derives the same key. Tokens are read, for /mcp, in hall/tokens.py.

django-oauth-toolkit calls `mint` (ACCESS_TOKEN_GENERATOR) before it stores the token, and settles the
request's `resource` only afterwards; so the audience here is the town's one resource, a constant, and
hall/oauth_validator.py refuses any request that names another.
"""

import base64
import hashlib
import secrets
import time
from functools import cache
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings

from clockford.town import signing

SCOPE = "town"
# The grants and the one response type the town serves: its metadata names them, registration takes
# nothing else, and oauthlib's WebApplicationServer (settings) with the validator serves no other.
# The code grant comes first: every client must hold it.
GRANT_TYPES = ("authorization_code", "refresh_token")
RESPONSE_TYPE = "code"
MAX_SECONDS = 3600
TYP = "at+jwt"
ALG = "EdDSA"
LABEL = b"clockford access tokens\x00"


def resource() -> str:
    """The audience of every token: the town's own /mcp URL."""
    return str(settings.MCP_RESOURCE_URL)


def issuer() -> str:
    return str(settings.OAUTH_ISSUER)


def key_from_seed(seed: bytes) -> Ed25519PrivateKey:
    """The token key of the town whose key has this 32-byte seed."""
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(LABEL + seed).digest())


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


@cache
def private_key() -> Ed25519PrivateKey:
    return key_from_seed(signing.signing_key().encode())


@cache
def public_key() -> Ed25519PublicKey:
    return private_key().public_key()


@cache
def key_id() -> str:
    return signing.key_id(raw_public(public_key()))


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def jwks() -> dict[str, Any]:
    return {
        "keys": [
            {
                "kty": "OKP",
                "crv": "Ed25519",
                "x": _b64url(raw_public(public_key())),
                "kid": key_id(),
                "use": "sig",
                "alg": ALG,
            }
        ]
    }


def sign(claims: dict[str, Any], *, key: Ed25519PrivateKey | None = None, headers: dict[str, Any] | None = None) -> str:
    return jwt.encode(claims, key or private_key(), algorithm=ALG, headers=headers or {"typ": TYP, "kid": key_id()})


def mint(request: Any) -> str:
    """ACCESS_TOKEN_GENERATOR: the access token for an oauthlib request whose user and client are known
    (an authorization code or a refresh token redeemed)."""
    now = int(time.time())
    lifetime = min(int(request.expires_in), MAX_SECONDS)
    claims = {
        "iss": issuer(),
        "sub": request.user.handle,
        "aud": resource(),
        "client_id": request.client.client_id,
        "iat": now,
        "exp": now + lifetime,
        "jti": secrets.token_urlsafe(16),
        "scope": " ".join(request.scopes or [SCOPE]),
    }
    return sign(claims)
