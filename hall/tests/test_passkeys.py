"""Passkeys in the hall: sign up, sign in, add and remove, and every answer the hall refuses."""

from datetime import timedelta
from typing import Any

import cbor2
import pytest
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from hall import passkey_changes, passkeys
from hall.http import UNREADABLE
from hall.models import Account, Ceremony, Passkey
from hall.passkey_changes import THE_LAST
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db

NOT_VERIFIED = (
    "Your passkey did not verify you, so it was refused. The town needs a passkey that asks for your "
    "fingerprint, face, PIN or screen lock. Nothing changed."
)


def test_it_signs_up_with_a_passkey_that_must_verify_the_person(visitor: Visitor) -> None:
    options = visitor.options("/hall/signup/begin", {"name": "  Ada Lovelace "})
    assert options["rp"] == {"id": settings.HALL_RP_ID, "name": settings.HALL_NAME}
    assert options["user"]["name"] == "Ada Lovelace"
    assert options["authenticatorSelection"]["userVerification"] == "required"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["excludeCredentials"] == []
    # The challenge is kept by the town, in the database, and nowhere else.
    ceremony = Ceremony.objects.get()
    assert ceremony.purpose == "signup" and len(bytes(ceremony.challenge)) == 32
    assert timedelta(minutes=4) < ceremony.expires_at - timezone.now() <= timedelta(minutes=5)

    status, data = visitor.post("/hall/signup/finish", {"credential": visitor.key.create(options)})
    assert (status, data) == (200, {"ok": True, "next": "/hall/"})
    account = visitor.account
    assert account is not None and account.name == "Ada Lovelace" and not account.has_usable_password()
    assert not account.is_staff and not account.is_owner
    assert [k.name for k in account.passkeys.all()] == ["Your first passkey"]
    assert Ceremony.objects.count() == 0
    assert "Nothing waits for you." in visitor.client.get("/hall/").content.decode()


def test_it_signs_in_with_a_passkey_and_counts_its_uses(ada: Visitor) -> None:
    ada.sign_out()
    assert ada.account is None
    for expected in (1, 2, 3):
        status, data = ada.sign_in()
        assert (status, data) == (200, {"ok": True, "next": "/hall/"})
        assert ada.account is not None and ada.account.name == "Ada"
        key = Passkey.objects.get()
        assert key.sign_count == expected and key.last_used_at is not None
        ada.sign_out()


def test_a_passkey_that_did_not_verify_the_person_is_refused(visitor: Visitor) -> None:
    status, data = visitor.sign_up("Ada", uv=False)
    assert (status, data) == (400, {"ok": False, "say": NOT_VERIFIED})
    assert Account.objects.count() == 0 and Passkey.objects.count() == 0

    status, _ = visitor.sign_up("Ada")
    assert status == 200
    visitor.sign_out()
    status, data = visitor.sign_in(uv=False)
    assert (status, data) == (400, {"ok": False, "say": NOT_VERIFIED})
    assert visitor.account is None


def test_a_replayed_assertion_is_refused(ada: Visitor) -> None:
    ada.sign_out()
    options = ada.options("/hall/signin/begin")
    answer = ada.key.get(options)
    assert ada.post("/hall/signin/finish", {"credential": answer})[0] == 200
    ada.sign_out()
    # The same answer again: its ceremony was spent.
    assert ada.post("/hall/signin/finish", {"credential": answer}) == (400, {"ok": False, "say": passkeys.EXPIRED})
    # The same answer to a fresh ceremony: the challenge is not the one it signed.
    ada.options("/hall/signin/begin")
    status, data = ada.post("/hall/signin/finish", {"credential": answer})
    assert status == 400 and data["say"].startswith("This passkey answer was for another request, so it was refused.")
    assert ada.account is None


def test_a_wrong_answer_spends_the_ceremony_too(ada: Visitor) -> None:
    ada.sign_out()
    options = ada.options("/hall/signin/begin")
    assert ada.post("/hall/signin/finish", {"credential": ada.key.get(options, uv=False)})[0] == 400
    assert ada.post("/hall/signin/finish", {"credential": ada.key.get(options)}) == (
        400,
        {"ok": False, "say": passkeys.EXPIRED},
    )


def test_an_answer_made_for_another_site_is_refused(ada: Visitor) -> None:
    ada.sign_out()
    status, data = ada.sign_in(origin="http://evil.example")
    assert status == 400
    assert data["say"] == (
        f"This passkey answer came from another site, so it was refused. The hall answers only at {settings.HALL_URL}."
    )
    status, data = ada.sign_in(rp_id="evil.example")
    assert (status, data["say"]) == (
        400,
        f"This passkey belongs to another site, not {settings.HALL_RP_ID}, so it was refused.",
    )
    visitor = Visitor()
    status, data = visitor.sign_up("Eve", origin="http://localhost:9999")
    assert status == 400 and "came from another site" in data["say"]
    assert ada.account is None and Account.objects.count() == 1


def test_an_expired_ceremony_is_refused(ada: Visitor) -> None:
    ada.sign_out()
    options = ada.options("/hall/signin/begin")
    Ceremony.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert ada.post("/hall/signin/finish", {"credential": ada.key.get(options)}) == (
        400,
        {"ok": False, "say": passkeys.EXPIRED},
    )


def test_a_passkey_whose_counter_went_backwards_is_refused(ada: Visitor) -> None:
    ada.sign_out()
    assert ada.sign_in(count=5)[0] == 200
    ada.sign_out()
    status, data = ada.sign_in(count=5)
    assert status == 400 and data["say"].startswith("This passkey's counter went backwards")
    assert Passkey.objects.get().sign_count == 5


def test_a_passkey_the_town_does_not_know_is_refused(ada: Visitor) -> None:
    ada.sign_out()
    stranger = Visitor()
    stranger.key.create(ada.options("/hall/signup/begin", {"name": "Mallory"}))  # made, never finished
    options = stranger.options("/hall/signin/begin")
    status, data = stranger.post("/hall/signin/finish", {"credential": stranger.key.get(options)})
    assert (status, data["say"]) == (400, passkeys.UNKNOWN_PASSKEY)


def test_nonsense_is_not_an_answer(ada: Visitor) -> None:
    ada.sign_out()
    ada.options("/hall/signin/begin")
    assert ada.post("/hall/signin/finish", {"credential": "hello"}) == (
        400,
        {"ok": False, "say": passkeys.NOT_AN_ANSWER},
    )
    r = ada.client.post("/hall/signin/finish", b"not json", content_type="application/json")
    assert r.status_code == 400 and r.json()["ok"] is False


def test_a_name_is_checked_before_any_passkey_is_made(visitor: Visitor) -> None:
    for name, say in [
        ("   ", "Your name cannot be empty."),
        ("x" * 41, "Your name can be at most 40 characters; this one has 41."),
        ("Ada\u200bL", "Your name cannot hold hidden or control characters (⟦U+200B⟧)."),
        ("Ada\nL", "Your name cannot hold hidden or control characters (a line break or control character)."),
    ]:
        assert visitor.post("/hall/signup/begin", {"name": name}) == (400, {"ok": False, "say": say})
    assert Ceremony.objects.count() == 0


def test_a_second_passkey_signs_in_as_well_as_the_first(ada: Visitor) -> None:
    asked = ada.options("/hall/passkeys/add/confirm", {"name": "Phone"})
    confirmation = ada.key.get(asked)
    options = ada.options("/hall/passkeys/add/begin", {"name": "Phone", "confirmation": confirmation})
    first = Passkey.objects.get()
    assert [c["id"] for c in options["excludeCredentials"]] == [first.credential_id]
    account = ada.account
    assert account is not None and options["user"]["id"] == account.user_handle
    status, data = ada.post("/hall/passkeys/add/finish", {"credential": ada.key.create(options)})
    assert (status, data) == (200, {"ok": True, "next": "/hall/passkeys"})
    assert sorted(Passkey.objects.values_list("name", flat=True)) == ["Phone", "Your first passkey"]
    page = ada.client.get("/hall/passkeys").content.decode()
    assert "Phone" in page and "Remove “Phone”" in page
    for which in (0, 1, 0):
        ada.sign_out()
        assert ada.sign_in(which=which)[0] == 200
        assert ada.account is not None and ada.account.name == "Ada"


def test_a_passkey_is_removed_but_never_the_last(ada: Visitor) -> None:
    assert ada.add_passkey("Phone")[0] == 200
    phone = Passkey.objects.get(name="Phone")
    first = Passkey.objects.get(name="Your first passkey")
    assert ada.remove_passkey(phone.pk, confirm=1) == (200, {"ok": True, "next": "/hall/passkeys"})
    assert (
        "Removed the passkey “Phone”. It can no longer sign in to this account, and every other browser signed in "
        "to it is signed out." in ada.client.get("/hall/passkeys").content.decode()
    )
    # The last one is refused before any passkey is asked for.
    assert ada.post(f"/hall/passkeys/{first.pk}/remove/begin") == (409, {"ok": False, "say": THE_LAST})
    assert not Ceremony.objects.exists()
    assert list(Passkey.objects.values_list("pk", flat=True)) == [first.pk]
    assert "This is your only passkey, so it cannot be removed" in ada.client.get("/hall/passkeys").content.decode()
    # The removed passkey no longer signs in.
    ada.sign_out()
    assert ada.sign_in(which=1) == (400, {"ok": False, "say": passkeys.UNKNOWN_PASSKEY})


def test_nobody_removes_another_persons_passkey(ada: Visitor) -> None:
    assert ada.add_passkey("Phone")[0] == 200
    bob = Visitor()
    assert bob.sign_up("Bob")[0] == 200
    target = Passkey.objects.get(name="Phone")
    mine = {"ok": False, "say": "That passkey is not one of yours."}
    assert bob.post(f"/hall/passkeys/{target.pk}/remove/begin") == (404, mine)
    # Bob confirms with his own passkey for removing his own, then names Ada's.
    bob_key = Passkey.objects.get(account__name="Bob")
    asked = bob.options("/hall/passkeys/add/confirm")  # Bob has one passkey, so removing it is refused
    assert bob.post(f"/hall/passkeys/{bob_key.pk}/remove/begin")[0] == 409
    answer = bob.key.get(asked)
    assert bob.post(f"/hall/passkeys/{target.pk}/remove/finish", {"credential": answer}) == (
        403,
        {"ok": False, "say": passkey_changes.CONFIRMED_ELSEWHERE},
    )
    assert Passkey.objects.filter(pk=target.pk).exists()


def test_adding_a_passkey_needs_a_signed_in_person(visitor: Visitor) -> None:
    say = "You are signed out. Sign in with your passkey and try again."
    assert visitor.post("/hall/passkeys/add/begin", {"name": "x"}) == (403, {"ok": False, "say": say})
    assert visitor.client.get("/hall/passkeys").url == "/hall/?next=/hall/passkeys"


def test_a_ceremony_begun_by_one_account_is_not_finished_by_another(ada: Visitor) -> None:
    asked = ada.options("/hall/passkeys/add/confirm", {"name": "Phone"})
    options = ada.options("/hall/passkeys/add/begin", {"name": "Phone", "confirmation": ada.key.get(asked)})
    answer = ada.key.create(options)
    ada.sign_out()
    # Bob's browser is not Ada's: the ceremony lives in Ada's session, so Bob has none to finish.
    bob = Visitor()
    assert bob.sign_up("Bob")[0] == 200
    assert bob.post("/hall/passkeys/add/finish", {"credential": answer}) == (
        400,
        {"ok": False, "say": passkeys.EXPIRED},
    )
    assert Passkey.objects.filter(name="Phone").count() == 0


COULD_NOT = "The town could not verify this passkey's answer. Nothing changed; press the button to start again."


def test_a_passkey_whose_public_key_is_no_key_is_refused(visitor: Visitor) -> None:
    # py_webauthn fails on an empty CBOR array with an IndexError of its own: still a failed answer.
    assert visitor.sign_up("Ada", cose=cbor2.dumps([])) == (400, {"ok": False, "say": COULD_NOT})
    assert Account.objects.count() == 0 and Passkey.objects.count() == 0
    assert visitor.sign_up("Ada")[0] == 200
    # Confirmed with the passkey the town kept (the authenticator's second: the first was never kept).
    assert visitor.add_passkey("Spare", confirm=1, cose=cbor2.dumps([])) == (400, {"ok": False, "say": COULD_NOT})
    assert Passkey.objects.count() == 1


def test_a_database_error_while_verifying_is_not_taken_for_a_bad_answer(
    ada: Visitor, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**_: Any) -> None:
        raise DatabaseError("the database went away")

    monkeypatch.setattr(passkeys, "verify_authentication_response", broken)
    monkeypatch.setattr(passkeys, "verify_registration_response", broken)
    with pytest.raises(DatabaseError):
        ada.add_passkey("Spare")
    ada.sign_out()
    with pytest.raises(DatabaseError):
        ada.sign_in(which=0)  # the passkey ada has, not the one the town never kept


@pytest.mark.parametrize("credential_id", ["\ud800", "AAAA=", "Zm9v.YmFy"])
def test_a_credential_id_that_is_not_base64url_is_unknown(ada: Visitor, credential_id: str) -> None:
    ada.sign_out()
    ada.options("/hall/signin/begin")
    status, data = ada.post("/hall/signin/finish", {"credential": {"id": credential_id}})
    assert (status, data["say"]) == (400, passkeys.UNKNOWN_PASSKEY)


@pytest.mark.parametrize("url", ["/hall/signup/begin", "/hall/signin/begin", "/hall/signin/finish"])
def test_json_nested_too_deep_to_read_is_unreadable(visitor: Visitor, url: str) -> None:
    r = visitor.client.post(url, "[" * 20_000, content_type="application/json")
    assert (r.status_code, r.json()) == (400, {"ok": False, "say": UNREADABLE})


def test_a_signature_that_does_not_verify_is_not_blamed_on_the_person() -> None:
    """py_webauthn says "verify" for a forged or broken signature too: only its words for a person not
    verified (no fingerprint, face, PIN or screen lock) read as that."""
    assert passkeys.explain(ValueError("User verification is required but user was not verified")) == NOT_VERIFIED
    for why in ("Could not verify authentication signature", "Attestation statement could not be verified"):
        assert passkeys.explain(ValueError(why)) == (
            "The town could not verify this passkey's answer. Nothing changed; press the button to start again."
        )
