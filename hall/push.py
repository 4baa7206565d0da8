"""Notifications on a person's devices (standard Web Push: RFC 8030, 8291 and 8292, with VAPID).

A person turns them on per device in the hall (/hall/account): the page's script subscribes with the
browser's push service, using the town's VAPID public key, and sends the subscription here. When a new
item waits for them (any row of the queue's one table, hall/queue.py), every one of their devices gets
one notification that names its kind and agent, never the words, with the deep link to the item.

Sending happens apart from calls: `notify_due` runs in a loop of the server (clockford/asgi.py, every
PUSH_SECONDS), reads the queue's new items (its keys since LATE before the newest it saw) as the page
reads the queue, after the desk's transaction committed, and marks each item sent in the database
(PushSent) before sending, so that no call ever waits on a push service and no item is sent twice by
two processes. A subscription is removed when its push service answers 404
or 410, and when it expires (EXPIRES_DAYS, or sooner when the browser says so). A subscription may
name only the push services of CLOCKFORD_PUSH_SERVICES (the browsers' own), and a push service's
redirect is never followed: the town posts nowhere a subscriber chooses.

The VAPID key is kept like the town key, in a file of var/ (never in the database, the Archive or an
export).
"""

import asyncio
import base64
import json
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from py_vapid import Vapid02

from clockford import keyfiles, plain
from hall.http import Refused, at_the_hall, json_body, page_only
from hall.models import Account, PushSent, PushSubscription
from hall.queue import Queue

log = logging.getLogger(__name__)

PUSH_SECONDS = 1.0  # how often the server looks for new items to notify
EXPIRES_DAYS = 90  # a subscription nobody renews is dropped after this
SEND_SECONDS = 5  # how long one push service may take to answer
TTL_SECONDS = 24 * 3600  # how long a push service keeps a notification for a device that is off
# How much older than the newest item seen a new one may be: its time is taken in its call, which commits
# later (other processes' clocks may differ a little too). One committed later than this is not notified.
LATE = timedelta(minutes=10)
GONE = (404, 410)
DEVICES_PER_ACCOUNT = 10
NOT_A_SUBSCRIPTION = "The hall could not read that subscription. Reload the page and try again."
NOT_A_PUSH_SERVICE = "The hall sends notifications only through the browsers' own push services."
TOO_MANY = f"Notifications are on for {DEVICES_PER_ACCOUNT} devices already. Turn one off first."


# -- The VAPID key ---------------------------------------------------------------------------------------


def key_file() -> Path:
    return Path(str(settings.CLOCKFORD_VAPID_KEY_FILE))


class VapidKeyError(RuntimeError):
    """The VAPID key's file holds no key: said in words by hall_ready, which reads it at start, so that
    the account page (which hands the key to the browser) never meets it as a 500."""


@cache
def vapid() -> Vapid02:
    """The town's VAPID key, made on first use, whole or not at all (keyfiles: when two processes start
    at once, one makes it and the other reads it)."""
    path = key_file()
    if not path.exists():  # a key is made only for a town that has none (kept, it would be thrown away)
        made = Vapid02()
        made.generate_keys()
        if keyfiles.write_new(path, made.private_pem()):
            return made
    try:
        # The town writes its key as PEM (above). Read here, not with Vapid02.from_file, which logs its
        # own error line and makes a key in place of a path that is not a file.
        return Vapid02.from_pem(path.read_bytes())
    except Exception as exc:  # a file that is no key fails deep in the parser, as one of many errors
        raise VapidKeyError(
            f"The hall's notification key in {path.name} cannot be read ({exc.__class__.__name__}). Move it "
            "away and start the town again: a new key is made, and each device turns its notifications on "
            "again on its account page."
        ) from None


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def public_key() -> str:
    """The applicationServerKey a page subscribes with: the uncompressed P-256 point, base64url."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return b64url(vapid().public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def subject() -> str:
    """VAPID's sub (RFC 8292 section 2.1): the hall's https address, or a mailto: for a local town."""
    hall = str(settings.HALL_URL)
    return hall if hall.startswith("https://") else str(settings.CLOCKFORD_VAPID_SUBJECT)


# -- Devices ---------------------------------------------------------------------------------------------


def _b64(value: Any, low: int, high: int) -> str:
    if not isinstance(value, str) or not low <= len(value) <= high:
        raise Refused(NOT_A_SUBSCRIPTION)
    try:
        base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        raise Refused(NOT_A_SUBSCRIPTION) from None
    return value


def _expiry(given: float) -> datetime:
    """The browser's expirationTime (milliseconds since 1970) as a time, or Refused when it names none
    (NaN, an infinity, or a year datetime cannot hold)."""
    try:
        return datetime.fromtimestamp(given / 1000, UTC)
    except (OverflowError, OSError, ValueError):
        raise Refused(NOT_A_SUBSCRIPTION) from None


def do_subscribe(account: Account, subscription: Any, device: str = "") -> PushSubscription:
    """Turn notifications on for one device: its subscription as the browser's PushManager gave it."""
    if not isinstance(subscription, dict) or not isinstance(subscription.get("keys"), dict):
        raise Refused(NOT_A_SUBSCRIPTION)
    endpoint = subscription.get("endpoint")
    if not isinstance(endpoint, str) or not plain.printable(endpoint) or len(endpoint) > 1000:
        raise Refused(NOT_A_SUBSCRIPTION)
    if not a_push_service(endpoint):
        raise Refused(NOT_A_PUSH_SERVICE)
    keys = subscription["keys"]
    now = timezone.now()
    expires = now + timedelta(days=EXPIRES_DAYS)
    given = subscription.get("expirationTime")
    if isinstance(given, int | float) and not isinstance(given, bool):
        expires = min(expires, _expiry(given))
    fields = {
        "account": account,
        "p256dh": _b64(keys.get("p256dh"), 80, 100),
        "auth": _b64(keys.get("auth"), 16, 40),
        "device": device[:80],
        "created_at": now,
        "expires_at": expires,
    }
    with transaction.atomic():
        others = PushSubscription.objects.filter(account=account).exclude(endpoint=endpoint)
        if others.count() >= DEVICES_PER_ACCOUNT:
            raise Refused(TOO_MANY)
        found, _ = PushSubscription.objects.update_or_create(endpoint=endpoint, defaults=fields)
    return found


def a_push_service(endpoint: str) -> bool:
    """Whether the endpoint is at one of the push services the town sends to (CLOCKFORD_PUSH_SERVICES):
    the town posts to whatever a subscription names, so a subscription may name only those."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 (a port that is no number raises here)
    except ValueError:
        return False
    if not host or parts.username is not None or parts.password is not None:
        return False
    for allowed in settings.CLOCKFORD_PUSH_SERVICES:
        scheme, _, name = str(allowed).lower().partition("://")
        if parts.scheme != scheme:
            continue
        if host == name or (name.startswith("*.") and host.endswith(name[1:])):
            return True
    return False


def do_unsubscribe(account: Account, endpoint: str) -> bool:
    return bool(PushSubscription.objects.filter(account=account, endpoint=endpoint).delete()[0])


def do_forget_devices(account: Account) -> int:
    """Turn notifications off on every device of the account (a passkey removed: a lost phone must not
    go on hearing what waits); returns how many had them on. A device turns them on again from the
    account page, signed in."""
    return int(PushSubscription.objects.filter(account=account).delete()[0])


def devices_of(account: Account) -> int:
    return PushSubscription.objects.filter(account=account, expires_at__gt=timezone.now()).count()


# -- Sending ---------------------------------------------------------------------------------------------


def payload(kind: str, what: str, agent: str, url: str) -> str:
    """What a notification says: the kind of item and which agent asks, and where it is. Never the
    words of the item (a push service and a lock screen are not the hall)."""
    return json.dumps(
        {
            "title": f"{what} waits for you",
            "body": f"From your agent {agent}." if agent else "",
            "kind": kind,
            "url": url,
        },
        separators=(",", ":"),
    )


@cache
def _no_redirects() -> Any:
    """A requests session that never follows a redirect: a push service's answer is its own, and a
    redirect would send the town's request on to an address the service chose (an internal one)."""
    import requests  # noqa: PLC0415 (with pywebpush, below)

    class NoRedirects(requests.Session):
        def get_redirect_target(self, resp: Any) -> None:
            return None

    return NoRedirects()


def send(subscription: PushSubscription, data: str) -> bool:
    """One notification to one device; False (and the subscription removed) when its service says it
    is gone."""
    # Imported here: pywebpush brings aiohttp, a fifth of a second of every process's start, and most
    # processes never send a notification.
    from pywebpush import WebPushException, webpush  # noqa: PLC0415

    if not a_push_service(subscription.endpoint):
        subscription.delete()  # kept before the town knew better, or the settings changed since
        return False
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        webpush(
            info,
            requests_session=_no_redirects(),
            data=data,
            vapid_private_key=vapid(),
            vapid_claims={"sub": subject()},
            ttl=TTL_SECONDS,
            timeout=SEND_SECONDS,
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            subscription.delete()
            return False
        log.warning("a push service refused a notification: %s", status)
    except Exception:
        log.exception("could not reach a push service")
    return True


@dataclass
class Looked:
    """What this process remembers of an account's queue between turns, only where to look from: whether
    an item was notified is decided in the database (PushSent), between all of the town's processes."""

    since: datetime  # when the account's first device (of those now) turned notifications on
    newest: datetime  # the newest time of an item seen waiting
    handled: dict[tuple[int, str], datetime] = field(default_factory=dict)  # (source, id): its time


LOOKED: dict[int, Looked] = {}


def notify_due() -> int:
    """Send one notification per new item that waits, to each device of its person. Returns how many
    notifications were sent."""
    now = timezone.now()
    PushSubscription.objects.filter(expires_at__lte=now).delete()
    sent = 0
    accounts = list(Account.objects.filter(push_subscriptions__isnull=False, is_active=True).distinct())
    for account in accounts:
        devices = list(account.push_subscriptions.all())
        since = min(d.created_at for d in devices)
        # Keys of what began to wait lately, rows of what was not looked at yet (the whole queue, every second,
        # cost 85 to 120 ms for 600 things waiting): a first look is from when the first device came.
        looked = LOOKED.get(account.pk)
        if looked is None or looked.since != since:
            looked = LOOKED[account.pk] = Looked(since, since)
        floor = max(since, looked.newest - LATE)
        queue = Queue(account, floor)
        fresh = [key for key in queue.keys_of() if key not in looked.handled]
        if not fresh:
            continue
        found = queue.rows_by_key(fresh)
        # A key decided since it was read keeps the newest time seen: out of the window soon enough.
        looked.handled.update({key: found[key].at if key in found else looked.newest for key in fresh})
        looked.newest = max([looked.newest, *(row.at for row in found.values())])
        looked.handled = {key: at for key, at in looked.handled.items() if at >= looked.newest - LATE}
        rows = [found[key] for key in fresh if key in found]  # newest first, as the queue
        # What was notified already, read once: each mark was made after its item's time (the INSERT still
        # decides between two processes that both see a new item, and a mark this misses).
        marks = PushSent.objects.filter(account=account, at__gte=floor - LATE)
        notified = set(marks.values_list("kind", "item"))
        for row in rows:
            if (row.kind, row.id) in notified:
                continue
            try:
                with transaction.atomic():
                    PushSent.objects.create(account=account, kind=row.kind, item=row.id, at=now)
            except IntegrityError:
                continue  # sent already, by this process or another
            agent = row.passport.id if row.passport is not None else ""
            data = payload(row.kind, row.what, agent, str(settings.HALL_URL) + row.url)
            for device in devices:
                if device.pk is not None and device.created_at <= row.at and send(device, data):
                    sent += 1
    for gone in set(LOOKED) - {account.pk for account in accounts}:
        del LOOKED[gone]
    return sent


def tidy(now: datetime) -> dict[str, int]:
    """The sweep: a notified mark is needed only while its item may still wait (a day, or a letter's
    longer wait: kept a month)."""
    return {"hall_pushsent": PushSent.objects.filter(at__lt=now - timedelta(days=31)).delete()[0]}


async def loop() -> None:
    """The server's loop (clockford/asgi.py): look for new items to notify every PUSH_SECONDS."""
    from clockford.face.server import aside, in_db

    while True:
        await asyncio.sleep(PUSH_SECONDS)
        try:
            if await in_db(PushSubscription.objects.exists):
                await aside(notify_due)  # it waits on push services, up to SEND_SECONDS each
        except Exception:
            log.exception("could not send notifications")


# -- The hall's JSON endpoints ----------------------------------------------------------------------------


def _endpoint(view: Any) -> Any:
    from hall.http import person, post_only, refuse

    def wrapped(request: HttpRequest) -> Any:
        account = person(request)
        if account is None:
            return refuse(request, "You are signed out. Sign in with your passkey and try again.", 403)
        try:
            return JsonResponse({"ok": True, **view(account, json_body(request, NOT_A_SUBSCRIPTION), request)})
        except Refused as refused:
            return JsonResponse({"ok": False, "say": refused.say}, status=refused.status)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return at_the_hall(post_only(wrapped))


@_endpoint
def subscribe(account: Account, data: dict[str, Any], request: HttpRequest) -> dict[str, Any]:
    """Turn notifications on for this device: {subscription} as PushManager.subscribe() gave it."""
    device = request.headers.get("User-Agent", "")
    do_subscribe(account, data.get("subscription"), device)
    return {"say": "Notifications are on for this device.", "devices": devices_of(account)}


@_endpoint
def unsubscribe(account: Account, data: dict[str, Any], request: HttpRequest) -> dict[str, Any]:
    """Turn notifications off for this device: {endpoint}."""
    endpoint = data.get("endpoint")
    if isinstance(endpoint, str) and not plain.printable(endpoint):
        raise Refused(NOT_A_SUBSCRIPTION)
    do_unsubscribe(account, endpoint if isinstance(endpoint, str) else "")
    return {"say": "Notifications are off for this device.", "devices": devices_of(account)}


WORKER = """self.addEventListener("push", (event) => {
  const n = event.data ? event.data.json() : {title: "Something waits for you", body: "", url: "/hall/"};
  event.waitUntil(self.registration.showNotification(n.title, {body: n.body, tag: n.kind, data: {url: n.url}}));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/hall/";
  if (new URL(url, self.location.origin).origin !== self.location.origin) return;
  event.waitUntil(clients.openWindow(url));
});
"""


@page_only
def worker(request: HttpRequest) -> HttpResponse:
    """/hall/push-worker.js: the service worker that shows a notification and opens its deep link."""
    response = HttpResponse(WORKER, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
