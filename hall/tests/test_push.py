"""Web Push end to end (hall/push.py): a push service run here on loopback (tests/push_service.py), which
checks each request's VAPID token (RFC 8292) and decrypts its payload with the device's key (RFC 8291),
as a browser's push service and the browser would. A new hold notifies within 2 seconds, naming its kind and agent, never
its words, with the deep link; a push service that answers 410 loses the subscription."""

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from clockford import settings as shipped
from clockford.town.models import Hold
from districts.testing import visit
from hall import push
from hall.models import PushSubscription
from hall.tests.conftest import agent_of, person
from tests.push_service import PushService

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

NOTICE = "Lamp oil at the mill, cheap today."


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
    settings.CLOCKFORD_PUSH_SERVICES = ["http://127.0.0.1"]  # the service on loopback, and only that
    push.vapid.cache_clear()
    yield
    push.vapid.cache_clear()


def subscribing(person: Any, subscription: dict[str, Any]) -> tuple[int, Any]:
    """The hall's answer to a person turning notifications on with this subscription, as the page's
    script sends it: its status and its JSON."""
    r = person.client.post("/hall/push/subscribe", json.dumps({"subscription": subscription}), "application/json")
    return r.status_code, r.json()


def test_a_new_hold_notifies_within_two_seconds(service: PushService) -> None:
    alice, a = person("Alice")
    agent = agent_of(a)
    device = service.device("phone")
    status, answer = subscribing(alice, device.subscription())
    assert status == 200 and answer["ok"] is True, answer
    assert "Notifications are on for 1 device" in alice.page("/hall/account")
    assert alice.page("/hall/account").count(push.public_key()) == 1

    held = visit(agent, "post_notice", text=NOTICE)
    assert service.got == []
    # The worst case: the hold committed just after a turn looked. The next turn, PUSH_SECONDS later,
    # sends it before it ends (the service has it once the send returns): within two seconds on a quiet
    # machine. Counted in turns, not timed, so a busy machine cannot fail what the loop does right.
    loop_turns(1)
    assert len(service.got) == 1
    at, name, note, claims = service.got[0]
    hold = Hold.objects.get(pk=held.structured["hold"]["id"])
    assert note == {
        "title": "A held call waits for you",
        "body": f"From your agent {agent.id}.",
        "kind": "hold",
        "url": f"{settings.HALL_URL}/hall/holds/{hold.id}",
    }
    assert NOTICE not in json.dumps(note) and "Lamp" not in json.dumps(note)
    assert claims["k"] == push.public_key()
    # Once only, however many turns of the loop see it (the turns' waits add nothing to that).
    for _ in range(2):
        push.notify_due()
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
    status, answer = subscribing(bob, {"endpoint": "x"})
    assert status == 400 and answer["say"] == push.NOT_A_SUBSCRIPTION


async def test_the_push_loop_waits_on_push_services_on_no_desk_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sending waits on each push service for up to SEND_SECONDS: on a thread of its own (server.aside),
    never one of the desk's few (DESK_THREADS), which every call needs."""
    from clockford.face import server

    ran_on: list[str] = []
    released = threading.Event()
    timed_out: list[bool] = []

    def slow_notify() -> int:
        # A push service that answers only once the desk's work below is done (or after 5 s).
        ran_on.append(threading.current_thread().name)
        timed_out.append(not released.wait(5))
        return 0

    monkeypatch.setattr(push, "PUSH_SECONDS", 0.01)
    monkeypatch.setattr(push, "notify_due", slow_notify)
    monkeypatch.setattr(PushSubscription.objects, "exists", lambda: True)
    loop = asyncio.create_task(push.loop())
    try:
        while not ran_on:
            await asyncio.sleep(0.01)
        threads = settings.CLOCKFORD["DESK_THREADS"]
        # Every desk thread was free while the push waited: all of them at once met at a barrier (one
        # held by the push would leave the barrier a party short, broken after 5 s), and the push was
        # still waiting when they had: read from the threads themselves rather than from a time bound
        # a busy machine stretches.
        everyone = threading.Barrier(threads)
        met = await asyncio.gather(*(server.on_desk_thread(everyone.wait, 5) for _ in range(threads)))
        assert sorted(met) == list(range(threads))
        assert not timed_out
        assert ran_on[0].startswith("aside")
    finally:
        released.set()
        loop.cancel()


@pytest.mark.parametrize("expiration", [1e20, -1e20, float("nan"), float("inf"), 253402300800000])
def test_an_expiration_time_that_names_no_time_is_refused(service: PushService, expiration: float) -> None:
    alice, _ = person("Alice")
    subscription = {**service.device("phone").subscription(), "expirationTime": expiration}
    assert subscribing(alice, subscription) == (400, {"ok": False, "say": push.NOT_A_SUBSCRIPTION})
    assert not PushSubscription.objects.exists()


def test_an_endpoint_that_is_not_plain_text_is_refused(service: PushService) -> None:
    alice, a = person("Alice")
    push.do_subscribe(a, service.device("phone").subscription())
    subscription = {**service.device("laptop").subscription(), "endpoint": "https://push.example/\ud800"}
    assert subscribing(alice, subscription) == (400, {"ok": False, "say": push.NOT_A_SUBSCRIPTION})
    r = alice.client.post("/hall/push/unsubscribe", json.dumps({"endpoint": "\ud800"}), "application/json")
    assert (r.status_code, r.json()) == (400, {"ok": False, "say": push.NOT_A_SUBSCRIPTION})
    assert PushSubscription.objects.count() == 1


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://127.0.0.2:9999/internal-admin",
        "https://127.0.0.1/push/phone",  # the scheme is part of the service
        "http://localhost:9999/push/phone",
        "http://user@127.0.0.1:9999/push/phone",
        "http://127.0.0.1:notaport/push/phone",
        "https://fcm.googleapis.com.example/send/x",
        "ftp://127.0.0.1/push/phone",
    ],
)
def test_an_endpoint_at_no_push_service_is_refused(service: PushService, endpoint: str) -> None:
    """The town posts to whatever a subscription names: only the push services it knows may be named,
    never an address of the subscriber's choosing (one inside the town's network above all)."""
    alice, _ = person("Alice")
    subscription = {**service.device("phone").subscription(), "endpoint": endpoint}
    assert subscribing(alice, subscription) == (400, {"ok": False, "say": push.NOT_A_PUSH_SERVICE})
    assert not PushSubscription.objects.exists()


def test_the_browsers_push_services_are_the_default(settings: Any) -> None:
    settings.CLOCKFORD_PUSH_SERVICES = shipped.CLOCKFORD_PUSH_SERVICES  # as the town ships, not the tests'
    for endpoint in (
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/abc",
        "https://wns2-by3p.notify.windows.com/w/?token=abc",
        "https://web.push.apple.com/abc",
    ):
        assert push.a_push_service(endpoint), endpoint
    for endpoint in ("http://fcm.googleapis.com/fcm/send/abc", "https://push.services.mozilla.com.evil.example/x"):
        assert not push.a_push_service(endpoint), endpoint


def test_a_push_services_redirect_is_not_followed(service: PushService) -> None:
    """A redirect would send the town's request on to an address the service chose: it stays unsent."""
    alice, a = person("Alice")
    agent = agent_of(a)
    push.do_subscribe(a, service.device("phone").subscription())
    service.device("elsewhere")
    service.moved["phone"] = "elsewhere"
    visit(agent, "post_notice", text=NOTICE)
    push.notify_due()
    assert service.asked == ["phone"], service.asked
    assert service.got == [] and service.problems == []
    assert PushSubscription.objects.count() == 1  # a redirect is no "gone": the device stays


@pytest.mark.parametrize("held", [b"garbage", b"", b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"])
def test_a_vapid_key_file_that_holds_no_key_is_said_in_words_at_start(held: bytes) -> None:
    """The account page hands the key to the browser: a file that holds no key made it a 500 for every
    person; hall_ready (run by ./town up) now reads it first and says what to do."""
    path = settings.CLOCKFORD_VAPID_KEY_FILE
    path.write_bytes(held)
    with pytest.raises(CommandError) as refused:
        call_command("hall_ready")
    assert str(refused.value) == (
        "The hall's notification key in vapid.pem cannot be read (ValueError). Move it away and start the town "
        "again: a new key is made, and each device turns its notifications on again on its account page."
    )
    assert path.read_bytes() == held  # never replaced behind the person's back
    path.unlink()
    call_command("hall_ready")  # moved away: a new key is made
    assert path.read_bytes().startswith(b"-----BEGIN")


def test_a_kept_vapid_key_is_read_and_no_new_one_is_made(monkeypatch: Any) -> None:
    """A town that has its key reads it: a key made anyway (a few milliseconds at every start) would be
    thrown away."""
    made = push.vapid()
    push.vapid.cache_clear()
    made_again: list[bool] = []
    monkeypatch.setattr(push.Vapid02, "generate_keys", lambda self: made_again.append(True))
    assert push.vapid().private_pem() == made.private_pem()
    assert made_again == []


def test_what_was_notified_is_not_tried_again_every_turn(service: PushService) -> None:
    """The loop looks every second: a thing notified already costs it nothing more, however many wait.
    Each turn tried to mark every one anew (an INSERT refused by the database, in a savepoint of its
    own), three statements a thing: 1,710 a second, 277 ms, for a person with 566 things waiting."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    alice, a = person("Alice")
    agent = agent_of(a)
    push.do_subscribe(a, service.device("phone").subscription())
    for i in range(6):
        visit(agent, "send_letter", subject=f"Done {i}", body="The lamp is lit.")
    assert push.notify_due() == 6
    with CaptureQueriesContext(connection) as turn:
        assert push.notify_due() == 0
    assert len(turn.captured_queries) <= 12, [q["sql"][:80] for q in turn.captured_queries]


def waiting_letters(agent: Any, n: int, start: datetime, gap: timedelta) -> list[str]:
    """n letters waiting for the agent's person, `gap` apart from `start` (as if sent over the days)."""
    from districts.post_office.models import Letter

    Letter.objects.bulk_create(
        [
            Letter(
                id=f"L-WAIT{i:06d}",
                passport=agent,
                account=agent.account,
                subject=f"Errand {i}",
                body="The lamp is lit.",
                status="held",
                sent_at=start + i * gap,
            )
            for i in range(n)
        ]
    )
    return [f"L-WAIT{i:06d}" for i in range(n)]


def test_a_turn_reads_only_what_is_new(service: PushService) -> None:
    """A turn read and drew a person's whole queue every second: 85 to 137 ms for 600 things waiting, when
    nothing had changed. It reads the keys of what began to wait lately, and the rows of what it had not
    looked at yet, however many wait."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    _, a = person("Alice")
    agent = agent_of(a)
    sub = push.do_subscribe(a, service.device("phone").subscription())
    PushSubscription.objects.filter(pk=sub.pk).update(created_at=timezone.now() - timedelta(days=3))
    letters = waiting_letters(agent, 40, timezone.now() - timedelta(days=2), timedelta(hours=1))
    assert push.notify_due() == 40
    with CaptureQueriesContext(connection) as turn:
        assert push.notify_due() == 0
    read = [q["sql"] for q in turn.captured_queries if '"post_office_letter"."body"' in q["sql"]]
    assert read == [] and len(turn.captured_queries) <= 5, [q["sql"][:90] for q in turn.captured_queries]
    new = visit(agent, "post_notice", text=NOTICE).structured["hold"]["id"]
    with CaptureQueriesContext(connection) as turn:
        assert push.notify_due() == 1
    assert not any('"post_office_letter"."body"' in q["sql"] for q in turn.captured_queries)
    assert [n["url"].rsplit("/", 1)[1] for _, _, n, _ in service.got] == [*reversed(letters), new]


def test_no_item_is_missed_or_sent_twice_by_turns_and_processes(service: PushService) -> None:
    """An item whose call committed after a newer one was seen (its time is older) is still notified;
    each item is sent once, whichever process looks (each keeps its own memory of where to look from),
    and after a process starts again."""
    from django.utils import timezone

    _, a = person("Alice")
    agent = agent_of(a)
    sub = push.do_subscribe(a, service.device("phone").subscription())
    PushSubscription.objects.filter(pk=sub.pk).update(created_at=timezone.now() - timedelta(hours=1))
    first = visit(agent, "send_letter", subject="Done", body="The lamp is lit.").structured["id"]
    assert push.notify_due() == 1
    # Committed late: its time is five minutes before the newest seen.
    late = waiting_letters(agent, 1, timezone.now() - push.LATE / 2, timedelta(0))
    hold = visit(agent, "post_notice", text=NOTICE).structured["hold"]["id"]
    other: dict[int, Any] = {}  # a second process's memory: it has looked at nothing yet
    mine, push.LOOKED = push.LOOKED, other
    assert push.notify_due() == 2  # the second process sends what is new: the late letter and the hold
    push.LOOKED = mine
    assert push.notify_due() == 0  # this process looks at them too: the database says they were sent
    push.LOOKED = {}  # a process started again
    assert push.notify_due() == 0
    got = sorted(n["url"].rsplit("/", 1)[1] for _, _, n, _ in service.got)
    assert got == sorted([first, *late, hold])
