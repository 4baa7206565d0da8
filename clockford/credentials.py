"""How the town keeps a credential it must recognise but never hold.

A session's id, a browser session's key, an invite's token, a claim code, an authorization code and an
access token each let whoever holds them act. The town keeps none of them: it keeps the SHA-256 of the
text, in hex, and looks a presented credential up by the same digest. Anyone reading the database or a
backup learns nothing that can be presented. These credentials are long random strings, so an unsalted
digest is as good as a slow one here (nothing to guess), and a lookup by it is an ordinary index lookup.
django-oauth-toolkit keeps its tokens' `token_checksum` the same way, so a digest made here finds them."""

import hashlib


def secret_digest(secret: str) -> str:
    """The SHA-256 of `secret`'s UTF-8 text, in hex (64 characters): what the town keeps in its place."""
    return hashlib.sha256(secret.encode()).hexdigest()
