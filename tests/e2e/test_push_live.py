"""Web Push in a live town (hall/push.py, its loop started by clockford/asgi.py): the owner claims the
town and turns notifications on through the hall's own endpoint, over HTTP with her session; an agent's
call over /mcp is held; the push service on loopback (tests/push_service.py), which checks the VAPID
token and decrypts the payload, gets the notification within 2 seconds, naming the kind and the agent,
never the words, with the deep link. When the service answers 410, the town removes the subscription
and sends it nothing more."""

import html
import re
import time
from collections.abc import Callable, Iterator

import pytest

from hall.tests.oauth_agent import LiveWeb, Person
from tests.push_service import PushService, wait_for
from tests.support import RawSession, Town

NOTICE = "Lamp oil at the mill, cheap today."
LATER = "The mill is closed on Sunday."
CLAIM = re.compile(r"This town has no owner yet\. Claim it once, with a passkey, at: \S+/hall/claim/(\S+)")


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


def owner_of(town: Town) -> Person:
    """Olive claims the town with a (software) passkey over real HTTP; her session stays in her web."""
    found = CLAIM.fullmatch(town.manage("hall_ready").stdout.splitlines()[-1])
    assert found, "no claim link"
    olive = Person(LiveWeb(f"http://localhost:{town.port}"))
    begun = olive.web.post(f"/hall/claim/{found.group(1)}/begin", json_body={"name": "Olive"})
    assert begun.status == 200, begun.text
    done = olive.web.post("/hall/claim-finish", json_body={"credential": olive.key.create(begun.json()["options"])})
    assert done.status == 200 and done.json()["ok"] is True, done.text
    return olive


def devices_on(olive: Person) -> str:
    page = olive.web.get("/hall/account")
    assert page.status == 200, page.status
    found = re.search(r"Notifications are on for (\d+) devices?", html.unescape(page.text))
    assert found, "the account page does not say how many devices"
    return found.group(1)


def until(check: Callable[[], bool], seconds: float) -> bool:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if check():
            return True
        time.sleep(0.05)
    return check()


def test_a_hold_over_mcp_notifies_within_two_seconds_and_a_410_removes_the_device(
    town_factory: Callable[..., Town], service: PushService
) -> None:
    town = town_factory(env={"CLOCKFORD_PUSH_SERVICES": "http://127.0.0.1"}).start()  # the service on loopback
    hall = f"http://localhost:{town.port}"
    agent = RawSession(town.mcp, client_name="notice-writer")
    passport = agent.call("look_around")["structuredContent"]["you"]["passport"]
    olive = owner_of(town)

    # Turned on for one device, through the hall's endpoint, as the account page's script does.
    account_page = olive.web.get("/hall/account").text
    key = re.search(r'data-key="([^"]+)"', account_page)
    assert key, "no VAPID key on the account page"
    phone = service.device("phone")
    r = olive.web.post("/hall/push/subscribe", json_body={"subscription": phone.subscription()})
    assert (r.status, r.json()) == (200, {"ok": True, "say": "Notifications are on for this device.", "devices": 1})
    assert devices_on(olive) == "1"

    began = time.monotonic()
    held = agent.call("post_notice", {"text": NOTICE})
    assert held["isError"] is True and held["structuredContent"]["hold"]["status"] == "held", held
    hold_id = held["structuredContent"]["hold"]["id"]
    wait_for(service, 1, seconds=2.0)
    at, name, note, claims = service.got[0]
    assert at - began < 2.0
    assert name == "phone"
    assert note == {
        "title": "A held call waits for you",
        "body": f"From your agent {passport}.",
        "kind": "hold",
        "url": f"{hall}/hall/holds/{hold_id}",
    }
    assert "Lamp" not in str(note)
    assert claims["k"] == key.group(1) and claims["aud"] == service.origin
    # Once only, however many turns of the town's loop see it.
    time.sleep(2.5)
    assert len(service.got) == 1

    # The push service says the subscription ended: the town removes it and sends nothing more to it.
    service.gone.add("phone")
    agent.call("post_notice", {"text": LATER})
    assert until(lambda: devices_on(olive) == "0", 5.0), "the subscription was not removed"
    assert service.answered_gone == ["phone"]
    agent.call("post_notice", {"text": LATER + " Truly."})
    time.sleep(2.5)
    assert service.answered_gone == ["phone"] and len(service.got) == 1
    assert not service.problems, service.problems
    agent.delete()
