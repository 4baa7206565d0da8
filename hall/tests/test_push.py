"""Web Push end to end (hall/push.py): a push service run here on loopback, which checks each request's
VAPID token (RFC 8292) and decrypts its payload with the device's key (RFC 8291), as a browser's push
service and the browser would. A new hold notifies within 2 seconds, naming its kind and agent, never
its words, with the deep link; a push service that answers 410 loses the subscription."""

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings

from clockford.town.models import Hold
from districts.testing import visit
from hall import push
from hall.models import PushSubscription
from hall.tests.conftest import agent_of, person

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

NOTICE = "Lamp oil at the mill, cheap today."


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
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                name = self.path.rsplit("/", 1)[-1]
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if name in service.gone:
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

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

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
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


def loop_turns(turns: int) -> None:
    """The server's push loop (hall/push.py loop), turn by turn in the test's own thread: each turn
    waits PUSH_SECONDS, then sends what is due. (A footstep cannot be flushed after a transactional
    test, so the loop runs here rather than in a thread with a connection of its own.)"""
    for _ in range(turns):
        time.sleep(push.PUSH_SECONDS)
        if PushSubscription.objects.exists():
            push.notify_due()


@pytest.fixture(autouse=True)
def _vapid_key(tmp_path: Any, settings: Any) -> Iterator[None]:
    settings.CLOCKFORD_VAPID_KEY_FILE = tmp_path / "vapid.pem"
    push.vapid.cache_clear()
    yield
    push.vapid.cache_clear()


def wait_for(service: PushService, n: int, seconds: float = 5.0) -> None:
    ends = time.monotonic() + seconds
    while len(service.got) < n and time.monotonic() < ends and not service.problems:
        time.sleep(0.02)
    assert not service.problems, service.problems
    assert len(service.got) >= n, f"{len(service.got)} notifications in {seconds} s"


def test_a_new_hold_notifies_within_two_seconds(service: PushService) -> None:
    alice, a = person("Alice")
    agent = agent_of(a)
    device = service.device("phone")
    r = alice.client.post(
        "/hall/push/subscribe", json.dumps({"subscription": device.subscription()}), content_type="application/json"
    )
    assert r.status_code == 200 and r.json()["ok"] is True, r.content
    assert "Notifications are on for 1 device" in alice.page("/hall/account")
    assert alice.page("/hall/account").count(push.public_key()) == 1

    began = time.monotonic()
    held = visit(agent, "post_notice", text=NOTICE)
    loop_turns(1)  # the worst case: the hold committed just after a turn looked
    wait_for(service, 1)
    at, name, note, claims = service.got[0]
    assert at - began < 2.0
    hold = Hold.objects.get(pk=held.structured["hold"]["id"])
    assert note == {
        "title": "A held call waits for you",
        "body": f"From your agent {agent.id}.",
        "kind": "hold",
        "url": f"{settings.HALL_URL}/hall/holds/{hold.id}",
    }
    assert NOTICE not in json.dumps(note) and "Lamp" not in json.dumps(note)
    assert claims["k"] == push.public_key()
    # Once only, however many turns of the loop see it.
    loop_turns(2)
    assert len(service.got) == 1


def test_a_410_removes_the_subscription(service: PushService) -> None:
    alice, a = person("Alice")
    agent = agent_of(a)
    phone, old = service.device("phone"), service.device("old-laptop")
    for d in (phone, old):
        push.do_subscribe(a, d.subscription())
    service.gone.add("old-laptop")
    visit(agent, "send_letter", subject="Done", body="The lamp is lit.")
    assert push.notify_due() == 1
    assert [n["kind"] for _, _, n, _ in service.got] == ["letter"]
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [phone.endpoint]
    assert push.notify_due() == 0  # nothing new waits


def test_an_expired_subscription_is_removed_and_nothing_old_is_sent(service: PushService) -> None:
    _, a = person("Alice")
    agent = agent_of(a)
    visit(agent, "post_notice", text=NOTICE)  # waits before the device was turned on
    sub = push.do_subscribe(a, service.device("phone").subscription())
    assert push.notify_due() == 0 and service.got == []
    PushSubscription.objects.filter(pk=sub.pk).update(expires_at=datetime(2000, 1, 1, tzinfo=UTC))
    visit(agent, "post_notice", text=NOTICE + " Again.")
    assert push.notify_due() == 0
    assert not PushSubscription.objects.exists()


def test_the_outsider_is_not_notified_and_a_bad_subscription_is_refused(service: PushService) -> None:
    _, a = person("Alice")
    bob, b = person("Bob")
    push.do_subscribe(b, service.device("bobs-phone").subscription())
    visit(agent_of(a), "post_notice", text=NOTICE)
    assert push.notify_due() == 0 and service.got == []
    r = bob.client.post(
        "/hall/push/subscribe", json.dumps({"subscription": {"endpoint": "x"}}), content_type="application/json"
    )
    assert r.status_code == 400 and r.json()["say"] == push.NOT_A_SUBSCRIPTION
