"""A software passkey for in-process tests: an ES256 authenticator that answers the hall's options
the way a browser and a platform authenticator would (attestation "none"), and can be told to lie
about user verification, the origin or the relying party, so each refusal can be shown.

The browser suite (tests/browser/) does the same with Chromium's own virtual authenticator.
"""

import hashlib
import json
import os
import struct
from dataclasses import dataclass
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

UP, UV, AT = 0x01, 0x04, 0x40


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    count: int = 0


def _public_key_credential(cred: Credential, response: dict[str, Any]) -> dict[str, Any]:
    """A PublicKeyCredential as the browser hands it to the page in JSON, around its `response`."""
    return {
        "id": bytes_to_base64url(cred.id),
        "rawId": bytes_to_base64url(cred.id),
        "type": "public-key",
        "authenticatorAttachment": "platform",
        "clientExtensionResults": {},
        "response": response,
    }


class SoftAuthenticator:
    def __init__(self, origin: str = "http://localhost:7433") -> None:
        self.origin = origin
        self.credentials: list[Credential] = []

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        ).encode()

    def create(
        self,
        options: dict[str, Any],
        *,
        uv: bool = True,
        origin: str | None = None,
        rp_id: str | None = None,
        cose: bytes | None = None,
    ) -> dict[str, Any]:
        """A new passkey's answer; `cose` replaces its public key's bytes, to send one that is no key."""
        rp = rp_id or options["rp"]["id"]
        cred = Credential(
            id=os.urandom(16),
            key=ec.generate_private_key(ec.SECP256R1()),
            rp_id=rp,
            user_handle=base64url_to_bytes(options["user"]["id"]),
        )
        numbers = cred.key.public_key().public_numbers()
        if cose is None:
            cose = cbor2.dumps(
                {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
            )
        auth_data = (
            hashlib.sha256(rp.encode()).digest()
            + bytes([UP | (UV if uv else 0) | AT])
            + struct.pack(">I", cred.count)
            + bytes(16)
            + struct.pack(">H", len(cred.id))
            + cred.id
            + cose
        )
        self.credentials.append(cred)
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        response = {
            "clientDataJSON": bytes_to_base64url(client_data),
            "attestationObject": bytes_to_base64url(cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})),
            "transports": ["internal"],
        }
        return _public_key_credential(cred, response)

    def get(
        self,
        options: dict[str, Any],
        *,
        which: int = -1,
        uv: bool = True,
        origin: str | None = None,
        rp_id: str | None = None,
        count: int | None = None,
    ) -> dict[str, Any]:
        cred = self.credentials[which]
        cred.count = cred.count + 1 if count is None else count
        rp = rp_id or options.get("rpId") or cred.rp_id
        auth_data = (
            hashlib.sha256(rp.encode()).digest() + bytes([UP | (UV if uv else 0)]) + struct.pack(">I", cred.count)
        )
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = cred.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        response = {
            "clientDataJSON": bytes_to_base64url(client_data),
            "authenticatorData": bytes_to_base64url(auth_data),
            "signature": bytes_to_base64url(signature),
            "userHandle": bytes_to_base64url(cred.user_handle),
        }
        return _public_key_credential(cred, response)
