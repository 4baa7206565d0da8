"""Signing is one module (ARCHITECTURE invariant 8).

Ed25519 through PyNaCl; canonical JSON is keys sorted, no spaces, UTF-8; a key id is the first 16 hex
characters of the sha256 of the public key's 32 bytes. The town key's seed also keys the Archive's
argument digests (HMAC-SHA256), through a derivation of its own so the two uses never share bytes.
"""

import hashlib
import hmac
import importlib.util
import json
import os
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from django.conf import settings
from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from clockford import keyfiles


def canonical_json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def canonical_text(value: Any) -> str:
    """The canonical JSON as text: what a person's passkey signs in the hall (a decision's statement)."""
    return canonical_json(value).decode("utf-8")


def make_key(path: Path) -> bool:
    """Create the town key if there is none, whole or not at all (keyfiles). Returns whether it was made now."""
    return keyfiles.write_new(path, (os.urandom(32).hex() + "\n").encode("ascii"))


class KeyFileError(RuntimeError):
    """The town key's file holds no key: said in words by the commands that start a town (town_ready)."""


@cache
def _seed() -> bytes:
    path = Path(str(settings.CLOCKFORD["KEY_FILE"]))
    make_key(path)
    text = path.read_text(errors="replace").strip()
    try:
        if len(text) == 64:
            return bytes.fromhex(text)
    except ValueError:
        pass
    raise KeyFileError(
        f"The town key in {path.name} is not 32 bytes of hex. Put back the copy kept apart (docs/backup.md): "
        "a new key cannot vouch for what the old one signed."
    )


def signing_key() -> SigningKey:
    return SigningKey(_seed())


def public_key_hex() -> str:
    return signing_key().verify_key.encode().hex()


def key_id(public_key: bytes | None = None) -> str:
    raw = public_key if public_key is not None else signing_key().verify_key.encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def derived_key(label: bytes) -> SigningKey:
    """A key of its own for one kind of statement (courses, certificates), derived from the town key
    through `label`: it changes when the town key is rotated, and needs no file of its own."""
    return SigningKey(hashlib.sha256(label + b"\x00" + _seed()).digest())


def sign_with(key: SigningKey, statement: dict[str, Any]) -> dict[str, Any]:
    """{statement, signature, alg, publicKey} signed with `key` over the statement's canonical JSON."""
    return {
        "statement": statement,
        "signature": key.sign(canonical_json(statement)).signature.hex(),
        "alg": "Ed25519",
        "publicKey": key.verify_key.encode().hex(),
    }


def verify_signed(signed: Any) -> bool:
    """Whether {statement, signature, alg, publicKey} is well formed and its signature checks."""
    if not isinstance(signed, dict) or signed.get("alg") != "Ed25519":
        return False
    statement, signature, public = signed.get("statement"), signed.get("signature"), signed.get("publicKey")
    if not (isinstance(statement, dict) and isinstance(signature, str) and isinstance(public, str)):
        return False
    return verify_bytes(canonical_json(statement), signature, public)


def sign_bytes(message: bytes) -> str:
    return signing_key().sign(message).signature.hex()


def sign_statement(statement: dict[str, Any]) -> dict[str, Any]:
    """{statement, signature, alg, publicKey}: checkable offline with the public key alone."""
    return {
        "statement": statement,
        "signature": sign_bytes(canonical_json(statement)),
        "alg": "Ed25519",
        "publicKey": public_key_hex(),
    }


def verify_bytes(message: bytes, signature_hex: str, public_key_hex_: str) -> bool:
    try:
        VerifyKey(bytes.fromhex(public_key_hex_)).verify(message, bytes.fromhex(signature_hex))
    except (BadSignatureError, ValueError):
        return False
    return True


@cache
def _digest_key() -> bytes:
    return hashlib.sha256(b"clockford archive argument digests\x00" + _seed()).digest()


def keyed_digest(value: Any) -> str:
    """The Archive's record of a call's arguments: an HMAC of their canonical JSON, never the text."""
    return hmac.new(_digest_key(), canonical_json(value), hashlib.sha256).hexdigest()


def offline_verifier_path() -> Path:
    """Where docs/verify_signature.py is: the file the town runs, and serves to people who check."""
    return Path(settings.BASE_DIR) / "docs" / "verify_signature.py"


@cache
def offline_verifier() -> ModuleType:
    """docs/verify_signature.py, the one offline checker of everything the town signs. The town runs the
    very file a person downloads (it imports nothing of the town's), so their check and the town's
    cannot drift apart."""
    spec = importlib.util.spec_from_file_location("verify_signature", offline_verifier_path())
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
