"""Adding a passkey to an account that has one, and removing one, first asks for a passkey the account
already has (ASVS 5.0 V7.5.1): a session cookie copied into another browser does neither. Each
confirmation is answered once, for the one change it was begun for."""

import html
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from hall import passkey_changes, passkeys
from hall.lifetime import SIGNED_OUT_ELSEWHERE
from hall.models import Account, Ceremony, Passkey
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db

ANOTHER_REQUEST = (
    "This passkey answer was for another request, so it was refused. Nothing changed; press the button to start again."
)
NOT_VERIFIED = (
    "Your passkey did not verify you, so it was refused. The town needs a passkey that asks for your "
    "fingerprint, face, PIN or screen lock. Nothing changed."
)


USED, REPLACED = passkey_changes.CONFIRMATION_SAID
NEW_USED, NEW_REPLACED = passkey_changes.NEW_PASSKEY_SAID


def refused(say: str) -> dict[str, Any]:
    return {"ok": False, "say": say}


def names() -> list[str]:
    return list(Passkey.objects.order_by("pk").values_list("name", flat=True))


def with_cookies_of(owner: Visitor) -> Visitor:
    """Another browser, with a passkey of its own and the owner's cookies copied into it."""
    intruder = Visitor()
    for name, morsel in owner.client.cookies.items():
        intruder.client.cookies[name] = morsel.value
    account = owner.account
    assert account is not None and intruder.account == account
    # The intruder's passkey, made for this town and the owner's account, but never kept by the town.
    intruder.key.create(
        {"rp": {"id": settings.HALL_RP_ID}, "user": {"id": account.user_handle}, "challenge": "AAAAAAAAAAAAAAAAAAAAAA"}
    )
    return intruder


@pytest.fixture
def ada_two(ada: Visitor) -> Visitor:
    """Ada with two passkeys: her first (the authenticator's 0) and "Phone" (1)."""
    assert ada.add_passkey("Phone") == (200, {"ok": True, "next": "/hall/passkeys"})
    assert names() == ["Your first passkey", "Phone"]
    return ada


def test_a_session_cookie_alone_adds_no_passkey_and_removes_none(ada: Visitor) -> None:
    """The probe's repro: with a signed-in person's cookies in another client, add a passkey of one's
    own, then remove the owner's."""
    first = Passkey.objects.get()
    mallory = with_cookies_of(ada)

    # Adding: the cookie alone is refused before any passkey is made, and no add ceremony is begun.
    assert mallory.post("/hall/passkeys/add/begin", {"name": "Mine"}) == (403, refused(passkey_changes.ADD_NEEDS))
    assert not Ceremony.objects.filter(purpose=Ceremony.ADD).exists()
    # A registration sent straight to the finish has no ceremony to answer.
    made = mallory.key.create(Visitor().options("/hall/signup/begin", {"name": "Mallory"}))
    assert mallory.post("/hall/passkeys/add/finish", {"credential": made}) == (400, refused(passkeys.EXPIRED))
    # Asking for a confirmation is harmless: it names only Ada's passkeys, and one the town does not
    # keep does not answer it.
    asked = mallory.options("/hall/passkeys/add/confirm", {"name": "Mine"})
    assert [c["id"] for c in asked["allowCredentials"]] == [first.credential_id]
    assert asked["userVerification"] == "required"
    status, data = mallory.post("/hall/passkeys/add/begin", {"name": "Mine", "confirmation": mallory.key.get(asked)})
    assert (status, data) == (400, refused(passkeys.UNKNOWN_PASSKEY))
    assert not Ceremony.objects.filter(purpose=Ceremony.ADD).exists()

    # Removing: the cookie alone is refused, and so is an answer from a passkey the town does not keep.
    assert ada.add_passkey("Phone")[0] == 200
    url = f"/hall/passkeys/{first.pk}/remove"
    assert mallory.post(f"{url}/finish") == (403, refused(passkey_changes.REMOVE_NEEDS))
    assert mallory.post(f"{url}/finish", {"credential": None}) == (403, refused(passkey_changes.REMOVE_NEEDS))
    asked = mallory.options(f"{url}/begin")
    assert mallory.post(f"{url}/finish", {"credential": mallory.key.get(asked, which=0)}) == (
        400,
        refused(passkeys.UNKNOWN_PASSKEY),
    )
    # The form the page used to send, the cookie alone, now finds no such address.
    assert mallory.client.post(url).status_code == 404

    # Nothing was written: Ada's two passkeys, and only those, still sign her in.
    assert names() == ["Your first passkey", "Phone"]
    for which in (0, 1):
        ada.sign_out()
        assert ada.sign_in(which=which)[0] == 200


def test_the_account_s_own_passkey_confirms_adding_and_removing(ada_two: Visitor) -> None:
    ada = ada_two
    first, phone = Passkey.objects.order_by("pk")
    # The new passkey's options come only after the confirmation verified, and spent it.
    asked = ada.options("/hall/passkeys/add/confirm", {"name": "Tablet"})
    options = ada.options("/hall/passkeys/add/begin", {"name": "Tablet", "confirmation": ada.key.get(asked, which=1)})
    assert not Ceremony.objects.filter(purpose=Ceremony.CONFIRM).exists()
    assert ada.post("/hall/passkeys/add/finish", {"credential": ada.key.create(options)})[0] == 200
    assert names() == ["Your first passkey", "Phone", "Tablet"]
    # Removing one, confirmed with another, or with itself.
    assert ada.remove_passkey(phone.pk, confirm=0) == (200, {"ok": True, "next": "/hall/passkeys"})
    assert ada.remove_passkey(first.pk, confirm=0) == (200, {"ok": True, "next": "/hall/passkeys"})
    assert names() == ["Tablet"]
    assert "Removed the passkey “Your first passkey”." in ada.page("/hall/passkeys")


def test_a_confirmation_for_another_purpose_is_refused(ada_two: Visitor) -> None:
    ada = ada_two
    assert ada.add_passkey("Tablet")[0] == 200
    _, phone, tablet = Passkey.objects.order_by("pk")

    # Begun for adding a passkey, answered at removing one: refused, and spent.
    answer = ada.key.get(ada.options("/hall/passkeys/add/confirm"))
    finish = f"/hall/passkeys/{phone.pk}/remove/finish"
    assert ada.post(finish, {"credential": answer}) == (403, refused(passkey_changes.CONFIRMED_ELSEWHERE))
    assert ada.post("/hall/passkeys/add/begin", {"confirmation": answer}) == (409, refused(USED))

    # Begun for removing the phone, answered at removing the tablet, or at adding a passkey.
    answer = ada.key.get(ada.options(f"/hall/passkeys/{phone.pk}/remove/begin"))
    status, data = ada.post(f"/hall/passkeys/{tablet.pk}/remove/finish", {"credential": answer})
    assert (status, data) == (403, refused(passkey_changes.CONFIRMED_ELSEWHERE))
    answer = ada.key.get(ada.options(f"/hall/passkeys/{phone.pk}/remove/begin"))
    status, data = ada.post("/hall/passkeys/add/begin", {"name": "X", "confirmation": answer})
    assert (status, data) == (403, refused(passkey_changes.CONFIRMED_ELSEWHERE))

    # Another ceremony's answer (a sign-in's) sent as the confirmation: not the challenge asked.
    ada.options("/hall/passkeys/add/confirm")
    signing_in = ada.key.get(ada.options("/hall/signin/begin"))
    assert ada.post("/hall/passkeys/add/begin", {"confirmation": signing_in}) == (400, refused(ANOTHER_REQUEST))
    # ...and a confirmation's answer is no sign-in: the sign-in ceremony takes only its own.
    ada.options("/hall/signin/begin")
    confirming = ada.key.get(ada.options("/hall/passkeys/add/confirm"))
    assert ada.post("/hall/signin/finish", {"credential": confirming}) == (400, refused(ANOTHER_REQUEST))

    assert names() == ["Your first passkey", "Phone", "Tablet"]
    assert not Ceremony.objects.filter(purpose=Ceremony.ADD).exists()


def test_a_replayed_confirmation_is_refused(ada_two: Visitor) -> None:
    ada = ada_two
    _, phone = Passkey.objects.order_by("pk")
    asked = ada.options("/hall/passkeys/add/confirm", {"name": "Tablet"})
    answer = ada.key.get(asked)
    options = ada.options("/hall/passkeys/add/begin", {"name": "Tablet", "confirmation": answer})
    assert ada.post("/hall/passkeys/add/finish", {"credential": ada.key.create(options)})[0] == 200

    # The same answer again: told it was used; then, with a fresh one begun, the same, and the fresh one
    # is left for its own answer.
    assert ada.post("/hall/passkeys/add/begin", {"confirmation": answer}) == (409, refused(USED))
    asked = ada.options("/hall/passkeys/add/confirm")
    assert ada.post("/hall/passkeys/add/begin", {"confirmation": answer}) == (409, refused(USED))
    assert ada.post("/hall/passkeys/add/begin", {"confirmation": ada.key.get(asked)})[0] == 200

    # Removing: the answer that removed the phone does not remove another.
    asked = ada.options(f"/hall/passkeys/{phone.pk}/remove/begin")
    answer = ada.key.get(asked)
    assert ada.post(f"/hall/passkeys/{phone.pk}/remove/finish", {"credential": answer})[0] == 200
    tablet = Passkey.objects.get(name="Tablet")
    for url in (f"/hall/passkeys/{tablet.pk}/remove/finish", f"/hall/passkeys/{phone.pk}/remove/finish"):
        assert ada.post(url, {"credential": answer}) == (409, refused(USED))
    # Nor does it from another browser, whose session began nothing: an answer for no request waiting.
    other = Visitor()
    other.client.force_login(ada.account, backend=settings.AUTHENTICATION_BACKENDS[0])
    status, data = other.post(f"/hall/passkeys/{tablet.pk}/remove/finish", {"credential": answer})
    assert (status, data) == (400, refused(passkeys.EXPIRED))
    assert names() == ["Your first passkey", "Tablet"]


def test_a_confirmation_must_verify_the_person_and_be_the_account_s_own(ada_two: Visitor) -> None:
    ada = ada_two
    first, _ = Passkey.objects.order_by("pk")
    answer = ada.key.get(ada.options("/hall/passkeys/add/confirm"), uv=False)
    assert ada.post("/hall/passkeys/add/begin", {"confirmation": answer}) == (400, refused(NOT_VERIFIED))
    answer = ada.key.get(ada.options(f"/hall/passkeys/{first.pk}/remove/begin"), uv=False)
    status, data = ada.post(f"/hall/passkeys/{first.pk}/remove/finish", {"credential": answer})
    assert (status, data) == (400, refused(NOT_VERIFIED))

    # Bob's passkey, answering Ada's confirmation.
    bob = Visitor()
    assert bob.sign_up("Bob")[0] == 200
    ada.key.credentials.append(bob.key.credentials[0])
    answer = ada.key.get(ada.options(f"/hall/passkeys/{first.pk}/remove/begin"), which=-1)
    status, data = ada.post(f"/hall/passkeys/{first.pk}/remove/finish", {"credential": answer})
    assert (status, data) == (400, refused(passkeys.NOT_YOURS))

    # A confirmation left too long.
    asked = ada.options("/hall/passkeys/add/confirm")
    Ceremony.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    status, data = ada.post("/hall/passkeys/add/begin", {"confirmation": ada.key.get(asked)})
    assert (status, data) == (400, refused(passkeys.EXPIRED))
    assert names() == ["Your first passkey", "Phone", "Your first passkey"]


def test_an_account_s_first_passkey_needs_no_confirmation(visitor: Visitor) -> None:
    account = Account.objects.create_account("Zed")
    visitor.client.force_login(account, backend=settings.AUTHENTICATION_BACKENDS[0])
    assert visitor.add_passkey("Laptop", confirm=None) == (200, {"ok": True, "next": "/hall/passkeys"})
    # The second is another matter.
    status, data = visitor.post("/hall/passkeys/add/begin", {"name": "Phone"})
    assert (status, data) == (403, refused(passkey_changes.ADD_NEEDS))
    assert visitor.add_passkey("Phone")[0] == 200
    assert names() == ["Laptop", "Phone"]


def test_the_page_says_what_it_asks_for_and_why(ada_two: Visitor) -> None:
    page = ada_two.page("/hall/passkeys")
    assert "Confirm with a passkey you already have first" in page
    assert "nobody who only borrowed this browser can add their own" in page
    assert "the town first asks you to confirm with a passkey you already have (this one or another)" in page


def test_removing_a_passkey_signs_every_other_browser_out(ada_two: Visitor) -> None:
    """A browser signed in with a passkey since removed (a lost phone) stayed signed in for up to 7 days.
    Removing a passkey now signs out every other browser of the account; the one that removed it stays."""
    ada = ada_two
    first, phone = Passkey.objects.order_by("pk")
    lost = Visitor()
    lost.key = ada.key
    assert lost.sign_in(which=1)[0] == 200 and lost.account == ada.account
    assert lost.client.get("/hall/passkeys").status_code == 200
    assert ada.remove_passkey(phone.pk, confirm=0) == (200, {"ok": True, "next": "/hall/passkeys"})
    assert lost.client.get("/hall/passkeys").status_code == 302  # to the front door, signed out
    assert "every other browser signed in to it is signed out" in ada.page("/hall/passkeys")


def test_a_browser_signed_out_by_a_removal_is_told_why_at_the_front_door(ada_two: Visitor) -> None:
    """The browser signed out by a passkey removed elsewhere landed on the front door with no word of why:
    its person saw only the sign-in button, as if the hall had forgotten them."""
    ada = ada_two
    _, phone = Passkey.objects.order_by("pk")
    lost = Visitor()
    lost.key = ada.key
    assert lost.sign_in(which=1)[0] == 200
    assert ada.remove_passkey(phone.pk, confirm=0)[0] == 200
    r = lost.client.get("/hall/passkeys", follow=True)
    assert r.redirect_chain[-1][0].startswith("/hall/?next=")
    assert SIGNED_OUT_ELSEWHERE in html.unescape(r.content.decode())
    # Said once, and never to the browser that removed it.
    assert SIGNED_OUT_ELSEWHERE not in lost.page("/hall/")
    assert SIGNED_OUT_ELSEWHERE not in ada.page("/hall/passkeys")


def test_a_passkey_that_only_confirmed_is_not_said_to_have_signed_in(ada_two: Visitor) -> None:
    """Every passkey answer counts as a use (a sign-in, a confirmation, a decision): the page said a passkey
    that had only confirmed adding another was "last signed in" a moment ago."""
    ada = ada_two
    asked = ada.options("/hall/passkeys/add/confirm", {"name": "Tablet"})
    options = ada.options("/hall/passkeys/add/begin", {"name": "Tablet", "confirmation": ada.key.get(asked, which=1)})
    assert ada.post("/hall/passkeys/add/finish", {"credential": ada.key.create(options)})[0] == 200
    page = ada.page("/hall/passkeys")
    phone = page.split("<strong>Phone</strong>", 1)[1].split("</li>", 1)[0]
    assert "signed in" not in phone and "last used" in phone
    assert "not used yet" in page.split("<strong>Tablet</strong>", 1)[1].split("</li>", 1)[0]


def test_a_third_passkey_added_is_not_said_to_be_one_of_either(ada_two: Visitor) -> None:
    """With three passkeys, "Either of your passkeys now signs you in." counted them as two."""
    ada = ada_two
    ada.page("/hall/passkeys")  # the second's sentence read
    assert ada.add_passkey("Tablet")[0] == 200
    page = ada.page("/hall/passkeys")
    assert "Added the passkey “Tablet”. Any of your 3 passkeys now signs you in." in page
    assert "Either" not in page


def test_removing_a_passkey_turns_notifications_off_on_every_device(ada_two: Visitor) -> None:
    """Notifications belong to the account, not to a sign-in: a lost phone signed out by the removal went
    on being told what waits. Every device's are turned off, and the person is told how to turn them on."""
    from hall.models import PushSubscription

    ada = ada_two
    _, phone = Passkey.objects.order_by("pk")
    now = timezone.now()
    for n in range(2):
        PushSubscription.objects.create(
            account=ada.account,
            endpoint=f"https://push.example/{n}",
            p256dh="k",
            auth="a",
            created_at=now,
            expires_at=now + timedelta(days=30),
        )
    assert ada.remove_passkey(phone.pk, confirm=0)[0] == 200
    assert not PushSubscription.objects.exists()
    assert (
        "Notifications are off on the 2 devices that had them: turn them on again on the Account page of each "
        "device you keep." in ada.page("/hall/passkeys")
    )


def test_a_second_press_is_told_its_confirmation_was_used(ada_two: Visitor) -> None:
    """A double submit, or a confirmation spent in another tab, was told "Adding a passkey to your account
    needs a passkey you already have" though the person had just confirmed with one. It is told the
    confirmation was used, and nothing more changes."""
    ada = ada_two
    _, phone = Passkey.objects.order_by("pk")
    body = {
        "name": "Tablet",
        "confirmation": ada.key.get(ada.options("/hall/passkeys/add/confirm", {"name": "Tablet"})),
    }
    options = ada.options("/hall/passkeys/add/begin", body)
    assert ada.post("/hall/passkeys/add/begin", body) == (409, refused(USED))
    made = ada.key.create(options)
    assert ada.post("/hall/passkeys/add/finish", {"credential": made})[0] == 200
    assert ada.post("/hall/passkeys/add/finish", {"credential": made}) == (409, refused(NEW_USED))
    url = f"/hall/passkeys/{phone.pk}/remove"
    answer = ada.key.get(ada.options(f"{url}/begin"))
    assert ada.post(f"{url}/finish", {"credential": answer})[0] == 200
    assert ada.post(f"{url}/finish", {"credential": answer}) == (409, refused(USED))
    assert names() == ["Your first passkey", "Tablet"]
    assert USED == (
        "That confirmation was already used (a second press, or another tab or window), and a confirmation counts "
        "once. Nothing more changed; reload the page to see where things stand."
    )


def test_of_two_tabs_the_later_confirmation_goes_on(ada_two: Visitor) -> None:
    """Confirmations begun in two tabs both failed: the second replaced the first, whose answer then spent
    the second's and was refused, and the second's answer found nothing waiting. The earlier is told it was
    replaced, and the later goes on; each answer still counts once."""
    ada = ada_two
    first, phone = Passkey.objects.order_by("pk")
    # Adding, from two tabs: the earlier's answer comes first, or last.
    for earlier_first in (True, False):
        earlier = ada.key.get(ada.options("/hall/passkeys/add/confirm", {"name": "Tablet"}), which=1)
        later = ada.key.get(ada.options("/hall/passkeys/add/confirm", {"name": "Tablet"}), which=1)
        if earlier_first:
            assert ada.post("/hall/passkeys/add/begin", {"confirmation": earlier}) == (409, refused(REPLACED))
        options = ada.options("/hall/passkeys/add/begin", {"name": "Tablet", "confirmation": later})
        if not earlier_first:
            assert ada.post("/hall/passkeys/add/begin", {"confirmation": earlier}) == (409, refused(REPLACED))
        assert ada.post("/hall/passkeys/add/begin", {"confirmation": later}) == (409, refused(USED))
        assert ada.post("/hall/passkeys/add/finish", {"credential": ada.key.create(options)})[0] == 200
    assert names() == ["Your first passkey", "Phone", "Tablet", "Tablet"]

    # The new passkey's own request, begun in two tabs once each had confirmed.
    asked = ada.options("/hall/passkeys/add/confirm", {"name": "Laptop"})
    in_a = ada.options("/hall/passkeys/add/begin", {"name": "Laptop", "confirmation": ada.key.get(asked)})
    asked = ada.options("/hall/passkeys/add/confirm", {"name": "Laptop"})
    in_b = ada.options("/hall/passkeys/add/begin", {"name": "Laptop", "confirmation": ada.key.get(asked)})
    assert ada.post("/hall/passkeys/add/finish", {"credential": ada.key.create(in_a)}) == (409, refused(NEW_REPLACED))
    assert ada.post("/hall/passkeys/add/finish", {"credential": ada.key.create(in_b)})[0] == 200

    # Removing the phone in one tab and the first passkey in another: the later removal is made.
    earlier = ada.key.get(ada.options(f"/hall/passkeys/{phone.pk}/remove/begin"))
    later = ada.key.get(ada.options(f"/hall/passkeys/{first.pk}/remove/begin"))
    assert ada.post(f"/hall/passkeys/{phone.pk}/remove/finish", {"credential": earlier}) == (409, refused(REPLACED))
    assert ada.post(f"/hall/passkeys/{first.pk}/remove/finish", {"credential": later})[0] == 200
    assert names() == ["Phone", "Tablet", "Tablet", "Laptop"]
    assert not Ceremony.objects.exists()
