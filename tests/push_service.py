"""A Web Push service on loopback, standing in for a browser's (hall/push.py): it checks each request's
VAPID token (RFC 8292) and decrypts its payload with the device's key (RFC 8291), as a browser's push
service and the browser would, and keeps what it got for the test to read. A device whose name is in
`gone` is answered 410, as a service answers for a subscription that ended. Used in process
(hall/tests/test_push.py) and against a live town (tests/e2e/test_push_live.py)."""

import base64
import json
import os
import time
from datetime import UTC, datetime
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.standins import Handler, serve, stop


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Device:
    """A browser's side of a subscription: its P-256 key and auth secret (RFC 8291 section 3)."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }


class PushService:
    """A push service on loopback: POST /push/<name> is checked and decrypted for the device of that
    name; names in `gone` answer 410 as a service does for a subscription that ended."""

    def __init__(self) -> None:
        self.devices: dict[str, Device] = {}
        self.gone: set[str] = set()
        self.got: list[tuple[float, str, dict[str, Any], dict[str, Any]]] = []
        self.problems: list[str] = []
        self.answered_gone: list[str] = []  # the devices answered 410, one entry a request
        self.moved: dict[str, str] = {}  # a device's name: the device its requests are redirected to
        self.asked: list[str] = []  # every device a request named, in order
        service = self

        class PushHandler(Handler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                name = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                service.asked.append(name)
                if name in service.moved:  # 307: the same POST, body and all, to another address
                    self.send_response(307)
                    self.send_header("Location", f"{service.origin}/push/{service.moved[name]}")
                    self.end_headers()
                    return
                if name in service.gone:
                    service.answered_gone.append(name)
                    self.send_response(410)
                    self.end_headers()
                    return
                try:
                    claims = service.check_vapid(self.headers.get("Authorization", ""))
                    assert self.headers.get("Content-Encoding") == "aes128gcm"
                    assert int(self.headers.get("TTL", "-1")) >= 0
                    device = service.devices[name]
                    plain = http_ece.decrypt(body, private_key=device.key, auth_secret=device.auth, version="aes128gcm")
                    service.got.append((time.monotonic(), name, json.loads(plain), claims))
                    self.send_response(201)
                except Exception as error:  # noqa: BLE001 (every failure is the test's to read)
                    service.problems.append(repr(error))
                    self.send_response(400)
                self.end_headers()

        self.server = serve(PushHandler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"

    def device(self, name: str) -> Device:
        self.devices[name] = Device(f"{self.origin}/push/{name}")
        return self.devices[name]

    def check_vapid(self, header: str) -> dict[str, Any]:
        """RFC 8292: `vapid t=<JWT>, k=<key>`, the JWT ES256-signed by k, for this service's origin."""
        assert header.startswith("vapid "), header
        parts = dict(p.strip().split("=", 1) for p in header[len("vapid ") :].split(","))
        token, key = parts["t"], parts["k"]
        head, claims, signature = token.split(".")
        assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
        raw = unb64(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
        der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if not signed by k
        said = json.loads(unb64(claims))
        now = datetime.now(UTC).timestamp()
        assert said["aud"] == self.origin, said
        assert now < said["exp"] <= now + 24 * 3600, said
        assert said["sub"].startswith(("mailto:", "https://")), said
        return {**said, "k": key}

    def close(self) -> None:
        stop(self.server)


def wait_for(service: PushService, n: int, seconds: float = 5.0) -> None:
    ends = time.monotonic() + seconds
    while len(service.got) < n and time.monotonic() < ends and not service.problems:
        time.sleep(0.02)
    assert not service.problems, service.problems
    assert len(service.got) >= n, f"{len(service.got)} notifications in {seconds} s"
