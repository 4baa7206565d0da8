"""The exchange between accounts in the hall (000 section 02, "Cross-account work"): the page lists the
accounts a person's agents met on the Switchboard and any exchange either side opened; opening one's
side is signed with a passkey over {"kind": "clockford-exchange-1", ...}; closing is a plain POST with
its CSRF token and takes effect at once; the exchange is open only once both people opened it. On a
town without sign-in there is one person and nothing to exchange.

Persons are Django test clients at the hall's address with a software passkey (authenticator.py).
"""

import html
import json
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from clockford.town import clock
from clockford.town.models import Passport
from districts.switchboard import common
from districts.switchboard.models import Answer, Attempt, Beacon, Channel, Exchange, Parcel
from districts.testing import visit
from hall import exchange, live
from hall.models import Account, Ceremony
from hall.tests.conftest import Visitor, invited

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

NOT_VERIFIED = (
    "Your passkey did not verify you, so it was refused. The town needs a passkey that asks for your "
    "fingerprint, face, PIN or screen lock. Nothing changed."
)
BEGUN_ELSEWHERE = (
    "This passkey request was for another decision, or has expired. Nothing changed; press the button to start again."
)
NO_SIGN_IN_OWNER = (
    "This town has no sign-in, so every agent that visits it is yours, as its owner: no other person "
    "has agents here, and there is nothing to exchange."
)
NO_SIGN_IN_INVITED = (
    "This town has no sign-in, so every agent that visits it belongs to its owner, Olive, not to you: you "
    "have no agents here, and there is nothing to exchange."
)
NO_OTHER_ACCOUNT = (
    "No other account has that handle. Ask its person for the handle shown at the foot of their hall "
    "pages: it begins with AC-."
)
OWN_HANDLE = "That is your own handle. Your own agents always work together: there is nothing to open."


def person(name: str, enforce_csrf: bool = False) -> Visitor:
    visitor = Visitor()
    status, data = visitor.sign_up(name)
    assert status == 200 and data["ok"] is True, data
    # Signed up, the browser checks CSRF tokens from here on as a real one's requests are checked.
    visitor.client.handler.enforce_csrf_checks = enforce_csrf
    return visitor


@pytest.fixture
def alice(db: None) -> Visitor:
    return person("Alice")


@pytest.fixture
def bob(db: None) -> Visitor:
    return person("Bob")


def account(visitor: Visitor) -> Account:
    found = visitor.account
    assert found is not None
    return found


def page(visitor: Visitor, url: str = "/hall/exchange", status: int = 200) -> str:
    r = visitor.client.get(url)
    assert r.status_code == status, (url, r.status_code)
    return html.unescape(r.content.decode())


def open_side(visitor: Visitor, handle: str, **answer: Any) -> tuple[int, dict[str, Any]]:
    """Both halves of opening, as the page's form sends them."""
    status, begun = visitor.post("/hall/exchange/open/begin", {"handle": handle})
    if status != 200:
        return status, begun
    return visitor.post("/hall/exchange/open/finish", {"credential": visitor.key.get(begun["options"], **answer)})


def sides(one: Account, other: Account) -> tuple[bool, bool]:
    return exchange.sides(one, other)


def agent_of(owner: Account, client_name: str) -> Passport:
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now, last_seen=now, account=owner, client_name=client_name, sign_in=True, place="The Switchboard"
    )


# -- Opening, with a passkey --------------------------------------------------------------------------------


def test_opening_is_signed_with_a_passkey_and_open_only_once_both_opened(alice: Visitor, bob: Visitor) -> None:
    a, b = account(alice), account(bob)
    status, begun = alice.post("/hall/exchange/open/begin", {"handle": f"  {b.handle} "})
    assert status == 200 and begun["ok"] is True
    # The passkey signs exactly the statement: her account, his handle, open.
    ceremony = Ceremony.objects.get(account=a, purpose=Ceremony.APPROVE)
    assert json.loads(ceremony.statement) == {
        "kind": "clockford-exchange-1",
        "account": a.handle,
        "with": b.handle,
        "open": True,
    }
    assert ceremony.statement == json.dumps(json.loads(ceremony.statement), sort_keys=True, separators=(",", ":"))
    assert not Exchange.objects.exists()
    status, done = alice.post("/hall/exchange/open/finish", {"credential": alice.key.get(begun["options"])})
    assert (status, done) == (200, {"ok": True, "next": "/hall/exchange"})
    assert sides(a, b) == (True, False) and sides(b, a) == (False, True)
    # The decision is kept with what the passkey signed, so it can be checked later.
    kept = Exchange.objects.get().decisions
    assert [(d["account"], d["open"], d["statement"]) for d in kept] == [(a.handle, True, ceremony.statement)]
    assert set(kept[0]["assertion"]) == {"id", "clientDataJSON", "authenticatorData", "signature"}
    # One side is not enough: nothing passes yet.
    assert common.exchange_open(a.pk, b.pk) is False

    text = page(alice)
    assert (
        f"Opened your side. The exchange with Bob ({b.handle}) opens once their person opens their side too; until "
        "then nothing passes between your agents and theirs." in text
    )
    assert "You opened your side; Bob has not opened theirs yet, so nothing passes until they do." in text
    assert "Close your side now" in text
    text = page(bob)
    assert "Alice opened their side. Nothing passes until you open yours." in text
    assert f'data-handle="{a.handle}"' in text

    assert open_side(bob, a.handle) == (200, {"ok": True, "next": "/hall/exchange"})
    assert common.exchange_open(a.pk, b.pk) is True and common.exchange_open(b.pk, a.pk) is True
    text = page(bob)
    assert (
        f"Opened. The exchange with Alice ({a.handle}) is open now: parcels and beacon answers pass between your "
        "agents and theirs. You can close it here at any time." in text
    )
    assert "Open: you and Alice both opened it. Parcels and beacon answers pass between your agents and theirs." in text
    # Opening a side that is already open asks for nothing and changes nothing.
    status, said = bob.post("/hall/exchange/open/begin", {"handle": a.handle})
    assert (status, said) == (
        409,
        {"ok": False, "say": f"Your side of the exchange with Alice ({a.handle}) is already open. Nothing changed."},
    )


def test_the_page_says_what_the_exchange_allows_before_anything_is_opened(alice: Visitor) -> None:
    text = page(alice)
    assert "<title>The exchange · Clockford</title>" in text
    assert '<a href="/hall/exchange" aria-current="page">Exchange</a>' in text
    assert "It is open only once both of you have opened it" in text
    assert "parcels and beacon answers pass between the two accounts' agents" in text
    assert "Closing takes effect at once." in text
    assert f'Your handle is <code class="handle">{account(alice).handle}</code>.' in text
    assert 'id="no-neighbours"' in text
    assert 'data-begin="/hall/exchange/open/begin"' in text and "hall/passkeys.js" in text


def test_a_passkey_that_does_not_verify_opens_nothing(alice: Visitor, bob: Visitor) -> None:
    a, b = account(alice), account(bob)
    assert open_side(alice, b.handle, uv=False) == (400, {"ok": False, "say": NOT_VERIFIED})
    assert sides(a, b) == (False, False) and not Exchange.objects.exists()
    # The ceremony is spent: answering again needs a new begin.
    status, said = alice.post("/hall/exchange/open/finish", {"credential": {"id": "x"}})
    assert status == 400 and said["ok"] is False
    assert sides(a, b) == (False, False)


def test_a_passkey_begun_for_another_decision_does_not_open_the_exchange(alice: Visitor, bob: Visitor) -> None:
    a, b = account(alice), account(bob)
    agent = agent_of(a, "alice-agent")
    plan = visit(agent, "declare_plan", steps=[{"tool": "post_notice", "times": 1}], hours=1).structured["plan"]
    status, begun = alice.post(f"/hall/plans/{plan['id']}/begin", {"decision": "approve"})
    assert status == 200
    # The plan's passkey answer, sent to the exchange's finish, decides nothing there.
    status, said = alice.post("/hall/exchange/open/finish", {"credential": alice.key.get(begun["options"])})
    assert (status, said) == (400, {"ok": False, "say": BEGUN_ELSEWHERE})
    assert sides(a, b) == (False, False)


def test_naming_an_unknown_handle_or_ones_own(alice: Visitor, bob: Visitor) -> None:
    a = account(alice)
    for handle in ("AC-nobody0000", "", "x" * 500, "AC-" + "\u200b" * 3):
        status, said = alice.post("/hall/exchange/open/begin", {"handle": handle})
        assert (status, said) == (404, {"ok": False, "say": NO_OTHER_ACCOUNT}), handle
    assert alice.post("/hall/exchange/open/begin", {"handle": a.handle}) == (400, {"ok": False, "say": OWN_HANDLE})
    assert not Ceremony.objects.filter(purpose=Ceremony.APPROVE).exists()
    r = alice.client.post("/hall/exchange/close", {"handle": "AC-nobody0000"})
    assert r.status_code == 404 and NO_OTHER_ACCOUNT in html.unescape(r.content.decode())
    assert not Exchange.objects.exists()


# -- Closing, a plain POST ----------------------------------------------------------------------------------


def test_closing_is_a_post_with_its_csrf_token_and_takes_effect_at_once(bob: Visitor) -> None:
    alice = person("Alice", enforce_csrf=True)
    a, b = account(alice), account(bob)
    common.do_set_exchange(b, a.handle, True)
    # Alice opens her side with her passkey: the ceremony's JSON carries the CSRF token in a header.
    alice.client.get("/hall/exchange")
    token = alice.client.cookies[settings.CSRF_COOKIE_NAME].value
    r = alice.client.post(
        "/hall/exchange/open/begin",
        json.dumps({"handle": b.handle}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert r.status_code == 200
    r = alice.client.post(
        "/hall/exchange/open/finish",
        json.dumps({"credential": alice.key.get(r.json()["options"])}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert r.status_code == 200 and common.exchange_open(a.pk, b.pk) is True

    # Without its token, the close is refused and nothing changes.
    r = alice.client.post("/hall/exchange/close", {"handle": b.handle})
    assert r.status_code == 403 and "the town did not act on it" in html.unescape(r.content.decode())
    assert common.exchange_open(a.pk, b.pk) is True
    # No passkey is asked for: the form's token is enough, and the exchange is closed at once.
    form_token = page(alice).split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    r = alice.client.post("/hall/exchange/close", {"handle": b.handle, "csrfmiddlewaretoken": form_token}, follow=True)
    assert r.redirect_chain == [(f"/hall/exchange#{b.handle}", 302)]
    text = html.unescape(r.content.decode())
    assert (
        f"Closed. From now on, parcels and beacon answers no longer pass between your agents and those of Bob "
        f"({b.handle})." in text
    )
    assert common.exchange_open(a.pk, b.pk) is False
    assert sides(a, b) == (False, True)
    assert "Bob opened their side. Nothing passes until you open yours." in text
    assert not Ceremony.objects.filter(account=a, purpose=Ceremony.APPROVE).exists()
    # Closing again says so, and changes nothing.
    r = alice.client.post("/hall/exchange/close", {"handle": b.handle, "csrfmiddlewaretoken": form_token}, follow=True)
    assert f"Your side of the exchange with Bob ({b.handle}) was already closed. Nothing changed." in html.unescape(
        r.content.decode()
    )


def test_a_person_signed_out_is_sent_to_the_front_door(alice: Visitor, bob: Visitor) -> None:
    b = account(bob)
    alice.sign_out()
    r = alice.client.get("/hall/exchange")
    assert r.status_code == 302 and r["Location"] == "/hall/?next=/hall/exchange"
    r = alice.client.post("/hall/exchange/close", {"handle": b.handle})
    assert r.status_code == 403
    status, said = alice.post("/hall/exchange/open/begin", {"handle": b.handle})
    assert (status, said) == (403, {"ok": False, "say": "You are signed out. Sign in with your passkey and try again."})
    assert not Exchange.objects.exists()


# -- A town without sign-in ----------------------------------------------------------------------------------


def test_a_town_without_sign_in_has_nothing_to_exchange_said_truly_to_its_owner_and_to_who_they_invited(
    settings: Any,
) -> None:
    settings.CLOCKFORD_SIGN_IN = False
    olive = Visitor()
    olive.client.force_login(Account.objects.create_account("Olive", is_owner=True, is_staff=True))
    ivy = invited(olive, "Ivy")
    for who, said in ((olive, NO_SIGN_IN_OWNER), (ivy, NO_SIGN_IN_INVITED)):
        text = page(who)
        assert said in text and 'id="one-person"' in text and "only one person" not in text
        assert "Open your side with your passkey" not in text and "hall/passkeys.js" not in text
        # The bar does not offer the page where there is nothing to exchange.
        assert 'href="/hall/exchange"' not in page(who, "/hall/")
    other = Account.objects.get(name="Olive")
    status, said = ivy.post("/hall/exchange/open/begin", {"handle": other.handle})
    assert (status, said) == (409, {"ok": False, "say": NO_SIGN_IN_INVITED})
    r = ivy.client.post("/hall/exchange/close", {"handle": other.handle})
    assert r.status_code == 409 and NO_SIGN_IN_INVITED in html.unescape(r.content.decode())
    assert not Exchange.objects.exists()


# -- Who the agents met ----------------------------------------------------------------------------------------


def test_the_page_lists_the_accounts_the_agents_met_on_the_switchboard(alice: Visitor, bob: Visitor) -> None:
    a, b = account(alice), account(bob)
    dora = Account.objects.create_account("Dora")
    eve = Account.objects.create_account("Eve")
    Account.objects.create_account("Stranger")
    mine, bobs, doras, eves = (agent_of(x, f"{x.name.lower()}-agent") for x in (a, b, dora, eve))
    now = clock.now()
    channel = Channel.objects.create(name="lanterns", opened_at=now, opened_by=mine, account=a)

    def parcel(pid: str, publisher: Passport) -> Parcel:
        return Parcel.objects.create(
            id=pid,
            channel=channel,
            publisher=publisher,
            account=publisher.account,
            title="t",
            brief="b",
            done_when="d",
            posted_at=now,
            expires_at=now + timedelta(days=7),
        )

    # Bob's agent took Alice's parcel; Alice's agent took Dora's; Eve answered Alice's beacon.
    Attempt.objects.create(parcel=parcel("P-alice1", mine), number=1, claimant=bobs, account=b, taken_at=now)
    Attempt.objects.create(
        parcel=parcel("P-dora1", doras), number=1, claimant=mine, account=a, taken_at=now + timedelta(minutes=1)
    )
    beacon = Beacon.objects.create(
        id="B-alice1", channel=channel, asker=mine, account=a, question="q", opened_at=now, lapses_at=now
    )
    Answer.objects.create(beacon=beacon, number=1, passport=eves, account=eve, answer="a", at=now)
    # Alice's own second agent on her own parcel is not another account.
    Attempt.objects.create(
        parcel=parcel("P-alice2", mine), number=1, claimant=agent_of(a, "alice-second"), account=a, taken_at=now
    )

    met = {n.other.name: n for n in exchange.neighbours(a)}
    assert set(met) == {"Bob", "Dora", "Eve"}
    assert (met["Bob"].records, met["Dora"].records, met["Eve"].records) == (["P-alice1"], ["P-dora1"], ["B-alice1"])
    assert not any(n.mine or n.theirs for n in met.values())
    text = page(alice)
    for other in (b, dora, eve):
        assert f'id="{other.handle}"' in text
    assert "Stranger" not in text
    assert "Closed on both sides: nothing passes between your agents and theirs." in text
    assert "Your agents and theirs shared: <code>P-alice1</code>." in text
    # Bob sees Alice from his side of the same parcel.
    assert [(n.other.name, n.records) for n in exchange.neighbours(b)] == [("Alice", ["P-alice1"])]
    # An exchange opened with someone the agents never met is listed first.
    common.do_set_exchange(a, Account.objects.get(name="Stranger").handle, True)
    assert [n.other.name for n in exchange.neighbours(a)][0] == "Stranger"


def test_an_exchange_opened_by_the_other_person_waits_in_the_queue(alice: Visitor, bob: Visitor) -> None:
    a, b = account(alice), account(bob)
    waiting, before = live.stamp_for(b)
    assert waiting == 0 and "opened the exchange" not in page(bob, "/hall/")
    assert open_side(alice, b.handle)[0] == 200
    # Bob's queue (and its live stamp) shows Alice's request; Alice's own does not.
    text = page(bob, "/hall/")
    assert (
        f"Alice ({a.handle}) opened the exchange with your account: once you open your side, parcels and beacon "
        "answers pass between your agents and theirs" in text
    )
    assert f'data-item="X-{a.handle}"' in text and 'href="/hall/exchange"' in text
    assert "<title>(1) Waiting for you" in text
    assert live.stamp_for(b)[0] == 1 and live.stamp_for(b)[1] != before
    assert "opened the exchange" not in page(alice, "/hall/")
    # Once Bob opens his side, nothing waits any more.
    assert open_side(bob, a.handle)[0] == 200
    assert "opened the exchange" not in page(bob, "/hall/") and live.stamp_for(b)[0] == 0


@pytest.mark.parametrize("handle", ["\ud800", "AC-\udfff"])
def test_a_handle_that_is_not_plain_text_names_nobody(alice: Visitor, handle: str) -> None:
    assert alice.post("/hall/exchange/open/begin", {"handle": handle}) == (
        404,
        {"ok": False, "say": exchange.NO_OTHER_ACCOUNT},
    )
