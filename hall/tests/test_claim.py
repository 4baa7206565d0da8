"""The owner of a town without sign-in: one claim link, printed by ./town up, that works once."""

import io
import re

import pytest
from django.conf import settings
from django.core.management import call_command

from hall import passkey_changes, passkeys
from hall.claim import CLAIM_SAYS, claim_link_if_unowned
from hall.models import Account, Claim, Passkey
from hall.tests.conftest import Visitor
from hall.tests.test_passkey_confirm import refused, with_cookies_of

pytestmark = pytest.mark.django_db


def code_of(link: str) -> str:
    m = re.fullmatch(r"http://localhost:7433/hall/claim/([A-Za-z0-9_-]{32})", link)
    assert m, link
    return m.group(1)


def claim(visitor: Visitor, code: str, name: str = "Olive") -> tuple[int, dict]:
    status, data = visitor.post(f"/hall/claim/{code}/begin", {"name": name})
    if status != 200:
        return status, data
    return visitor.post("/hall/claim-finish", {"credential": visitor.key.create(data["options"])})


def test_hall_ready_prints_a_claim_link_until_the_town_has_an_owner(visitor: Visitor) -> None:
    out = io.StringIO()
    call_command("hall_ready", stdout=out)
    line = out.getvalue().splitlines()[-1]
    assert line.startswith("This town has no owner yet. Claim it once, with a passkey, at: ")
    code = code_of(line.rsplit(" ", 1)[1])
    # Only the code's digest is kept.
    assert not Claim.objects.filter(code_digest__contains=code).exists()
    assert claim(visitor, code) == (200, {"ok": True, "next": "/hall/"})
    out = io.StringIO()
    call_command("hall_ready", stdout=out)
    assert out.getvalue().splitlines()[-1] == "The hall: http://localhost:7433/hall/"
    assert claim_link_if_unowned() is None


def test_the_claim_makes_the_owner_once(visitor: Visitor) -> None:
    link = claim_link_if_unowned()
    assert link
    code = code_of(link)
    page = visitor.client.get(f"/hall/claim/{code}")
    assert page.status_code == 200
    assert "This link makes you the owner of this town. It works once." in page.content.decode()

    assert claim(visitor, code, "Olive") == (200, {"ok": True, "next": "/hall/"})
    owner = Account.objects.get()
    assert owner.is_owner and owner.is_staff and owner.name == "Olive"
    assert visitor.account == owner
    assert Claim.objects.get().account == owner

    # The link again, in the owner's browser and in anyone else's: spent.
    used = CLAIM_SAYS["used"]
    for who in (visitor, Visitor()):
        page = who.client.get(f"/hall/claim/{code}")
        assert page.status_code == 410 and used in page.content.decode()
        assert claim(who, code, "Mallory") == (409, {"ok": False, "say": used})
    assert Account.objects.filter(is_owner=True).count() == 1


def test_a_wrong_or_replaced_link_says_so(visitor: Visitor) -> None:
    first = code_of(claim_link_if_unowned() or "")
    second = code_of(claim_link_if_unowned() or "")
    page = visitor.client.get(f"/hall/claim/{first}")
    assert page.status_code == 410 and CLAIM_SAYS["replaced"] in page.content.decode()
    assert claim(visitor, first) == (409, {"ok": False, "say": CLAIM_SAYS["replaced"]})
    wrong = second[:-1] + ("A" if second[-1] != "A" else "B")
    page = visitor.client.get(f"/hall/claim/{wrong}")
    assert page.status_code == 404 and CLAIM_SAYS["unknown"] in page.content.decode()
    assert claim(visitor, wrong) == (404, {"ok": False, "say": CLAIM_SAYS["unknown"]})
    assert Account.objects.count() == 0


def test_two_answers_racing_for_one_link_make_one_owner() -> None:
    code = code_of(claim_link_if_unowned() or "")
    a, b = Visitor(), Visitor()
    _, begun_a = a.post(f"/hall/claim/{code}/begin", {"name": "A"})
    _, begun_b = b.post(f"/hall/claim/{code}/begin", {"name": "B"})
    assert a.post("/hall/claim-finish", {"credential": a.key.create(begun_a["options"])})[0] == 200
    assert b.post("/hall/claim-finish", {"credential": b.key.create(begun_b["options"])}) == (
        409,
        {"ok": False, "say": CLAIM_SAYS["owned"]},
    )
    assert list(Account.objects.values_list("name", "is_owner")) == [("A", True)]


def test_a_signed_in_person_claims_with_their_own_account_confirmed_by_its_passkey(ada: Visitor) -> None:
    """A person signed in who opened the claim link had a new passkey added to their account with no
    confirmation from one it had, the only way to add one without it. The claim now makes the account the
    owner once one of its own passkeys, user-verified, confirms it, and adds none."""
    code = code_of(claim_link_if_unowned() or "")
    page = ada.page(f"/hall/claim/{code}")
    assert (
        "You are signed in as <strong>Ada</strong>. Claiming makes this account the owner: confirm with one of its passkeys when "
        "your device asks. No passkey is added." in page
    )
    assert "To claim the town with a new account instead, sign out first and open this link again." in page
    assert "Confirm with a passkey and claim the town" in page and "Make a passkey" not in page
    first = Passkey.objects.get()
    asked = ada.options(f"/hall/claim/{code}/begin")
    assert "user" not in asked and [c["id"] for c in asked["allowCredentials"]] == [first.credential_id]
    assert asked["userVerification"] == "required"
    answer = ada.key.get(asked)
    assert ada.post("/hall/claim-finish", {"credential": answer}) == (200, {"ok": True, "next": "/hall/"})
    # A second press: the confirmation was used, and the claim with it.
    assert ada.post("/hall/claim-finish", {"credential": answer}) == (
        409,
        refused(passkey_changes.CONFIRMATION_SAID[0]),
    )
    account = Account.objects.get()
    assert account.name == "Ada" and account.is_owner and account.is_staff
    assert list(Passkey.objects.all()) == [first]
    assert Claim.objects.get().account == account and ada.account == account
    assert "You own this town now, Ada." in ada.page("/hall/")


def test_a_session_cookie_alone_neither_claims_nor_adds_a_passkey(ada: Visitor) -> None:
    """With a signed-in person's cookies copied into another browser, the claim link added the intruder's
    passkey to the person's account."""
    code = code_of(claim_link_if_unowned() or "")
    first = Passkey.objects.get()
    mallory = with_cookies_of(ada)
    asked = mallory.options(f"/hall/claim/{code}/begin", {"name": "Mallory"})
    assert "user" not in asked and [c["id"] for c in asked["allowCredentials"]] == [first.credential_id]
    assert mallory.post("/hall/claim-finish") == (403, refused(passkey_changes.CLAIM_NEEDS))
    # The intruder's own passkey answers it: not one of the account's.
    assert mallory.post("/hall/claim-finish", {"credential": mallory.key.get(asked)}) == (
        400,
        refused(passkeys.UNKNOWN_PASSKEY),
    )
    assert list(Passkey.objects.all()) == [first]
    assert not Account.objects.filter(is_owner=True).exists()
    assert Claim.objects.get().state == "ready"
    # Ada, with her own passkey, still claims it.
    asked = ada.options(f"/hall/claim/{code}/begin")
    assert ada.post("/hall/claim-finish", {"credential": ada.key.get(asked)})[0] == 200
    assert Account.objects.get(is_owner=True).name == "Ada" and list(Passkey.objects.all()) == [first]


def test_a_signed_in_account_without_a_passkey_is_told_to_sign_out(visitor: Visitor) -> None:
    code = code_of(claim_link_if_unowned() or "")
    visitor.client.force_login(Account.objects.create_account("Zed"), backend=settings.AUTHENTICATION_BACKENDS[0])
    status, data = visitor.post(f"/hall/claim/{code}/begin")
    assert (status, data) == (409, refused(passkey_changes.CLAIM_NO_PASSKEY))
    assert not Passkey.objects.exists() and not Account.objects.filter(is_owner=True).exists()


def test_the_front_door_says_when_the_town_has_no_owner(visitor: Visitor) -> None:
    page = visitor.client.get("/hall/").content.decode()
    assert "This town has no owner yet" in page and "./town up" in page
    code = code_of(claim_link_if_unowned() or "")
    assert claim(visitor, code)[0] == 200
    visitor.sign_out()
    assert "This town has no owner yet" not in visitor.client.get("/hall/").content.decode()
