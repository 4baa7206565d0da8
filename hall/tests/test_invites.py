"""Invites (hall/invites.py): on a town run by its owner, nobody makes an account without an invite the
owner (or staff) made; an invite works once, for seven days, until revoked, and only its token's SHA-256
is kept. Towns without an owner let anyone sign up, as before."""

import hashlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from clockford.credentials import secret_digest
from hall import invites
from hall.claim import claim_link_if_unowned
from hall.http import Refused
from hall.models import Account, BrowserSession, Ceremony, Invite, Passkey
from hall.tests.conftest import Visitor, invite_from, invited, person
from tests.fixtures import racing
from tests.support import clear_of_a_window_edge

pytestmark = pytest.mark.django_db

ASK = (
    "This town is run by its owner, so making an account here takes an invite. Ask the town's owner for an invite link."
)
USED = "This invite was already used: an invite makes one account. Ask the town's owner for a new invite."
REVOKED = "This invite was withdrawn by the town. Ask the town's owner for a new invite."
EXPIRED = "This invite has expired. Ask the town's owner for a new invite."
UNKNOWN = (
    "This invite link is not one this town made. Check that you copied all of it, or ask the town's owner for a "
    "new invite."
)
NOT_STAFF = "Only the town's owner and staff make invites, and your account is neither."


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[-1]


def test_the_sentences_are_the_modules() -> None:
    assert (invites.ASK_FOR_INVITE, invites.NOT_STAFF) == (ASK, NOT_STAFF)
    assert invites.INVITE_SAYS == {"used": USED, "revoked": REVOKED, "expired": EXPIRED, "unknown": UNKNOWN}


def test_without_an_invite_a_town_run_by_its_owner_refuses_sign_up(olive: Visitor, visitor: Visitor) -> None:
    accounts = Account.objects.count()
    front = visitor.page("/hall/")
    assert "Make an account" not in front and "ask the town's owner for an invite link" in front
    page = visitor.page("/hall/signup", status=403)
    assert ASK in page and 'data-ceremony="create"' not in page
    assert visitor.post("/hall/signup/begin", {"name": "Mallory"}) == (403, {"ok": False, "say": ASK})
    assert not Ceremony.objects.filter(purpose=Ceremony.SIGN_UP).exists()
    assert Account.objects.count() == accounts


def test_the_owner_invites_and_the_invite_makes_one_account(olive: Visitor) -> None:
    assert "Invites" in olive.page("/hall/")  # in the owner's tabs
    assert "No invites yet." in olive.page("/hall/invites")
    link = invite_from(olive)
    assert link.startswith("http://localhost:7433/hall/invite/")
    token = token_of(link)
    assert len(token) >= 32

    # Only the token's digest is kept: not in the invite, not in the owner's session.
    invite = Invite.objects.get()
    assert invite.token_digest == hashlib.sha256(token.encode()).hexdigest()
    assert invite.made_by == olive.account
    assert invite.expires_at - invite.made_at == timedelta(days=7)
    kept = [str(v) for v in Invite.objects.values_list().get()] + [s.session_data for s in BrowserSession.objects.all()]
    assert not any(token in v for v in kept)
    listed = olive.page("/hall/invites")
    assert token not in listed and "Made by <strong>Olive</strong>" in listed and "waiting" in listed

    bea = Visitor()
    page = bea.page(f"/hall/invite/{token}")
    assert "<strong>Olive</strong> invited you to make an account here. The invite works once, until" in page
    assert f'data-begin="/hall/invite/{token}/begin"' in page
    status, done = bea.sign_up("Bea", invite=link)
    assert (status, done) == (200, {"ok": True, "next": "/hall/"})
    assert bea.account is not None and bea.account.name == "Bea"
    assert not (bea.account.is_owner or bea.account.is_staff)
    invite.refresh_from_db()
    assert (invite.used_by, invite.used_at is not None) == (bea.account, True)
    listed = olive.page("/hall/invites")
    assert "by <strong>Bea</strong>." in listed and "Revoke this invite" not in listed

    # The same link again, in another browser: spent, and it says so.
    cy = Visitor()
    page = cy.page(f"/hall/invite/{token}", status=410)
    assert USED in page and 'data-ceremony="create"' not in page
    assert cy.post(f"/hall/invite/{token}/begin", {"name": "Cy"}) == (410, {"ok": False, "say": USED})
    assert Account.objects.count() == 2


def test_two_browsers_answering_one_invite_make_one_account(olive: Visitor) -> None:
    link = invite_from(olive)
    bea, cy = Visitor(), Visitor()
    # Both begin while the invite is live; the first to finish spends it.
    begun = [v.options(f"/hall/invite/{token_of(link)}/begin", {"name": n}) for v, n in ((bea, "Bea"), (cy, "Cy"))]
    assert bea.post("/hall/signup/finish", {"credential": bea.key.create(begun[0])})[0] == 200
    assert cy.post("/hall/signup/finish", {"credential": cy.key.create(begun[1])}) == (410, {"ok": False, "say": USED})
    # The second account was not kept, nor its passkey.
    assert sorted(Account.objects.values_list("name", flat=True)) == ["Bea", "Olive"]
    assert Passkey.objects.count() == 2 and cy.account is None


@pytest.mark.django_db(transaction=True)
def test_eight_sign_ups_at_once_with_one_invite_make_one_account() -> None:
    # The transaction finish_signup runs, at the same instant in eight threads: the conditional
    # UPDATE lets one spend the invite; every other account is rolled back with its refusal.
    maker = Account.objects.create_account("Olive", is_owner=True, is_staff=True)
    invite, _ = invites.make_invite(maker)

    def sign_up(i: int) -> Callable[[], str]:
        def call() -> str:
            account = Account.objects.create_account(f"Person {i}")
            invites.spend_invite(invite, account)
            return "made"

        return call

    made, refused = racing(8, sign_up, Refused)
    said = made + [exc.say for exc in refused]
    assert sorted(said) == sorted(["made"] + [USED] * 7)
    assert Account.objects.count() == 2
    invite.refresh_from_db()
    assert invite.used_by is not None and invite.used_by.name.startswith("Person ")


def test_a_revoked_invite_and_an_expired_one_make_no_account(olive: Visitor) -> None:
    revoked, expired = invite_from(olive), invite_from(olive)
    first = Invite.objects.get(token_digest=secret_digest(token_of(revoked)))
    r = olive.client.post(f"/hall/invites/{first.pk}/revoke", follow=True)
    assert "The invite is revoked: its link no longer makes an account." in r.content.decode()
    first.refresh_from_db()
    assert (first.revoked_by, first.used_at) == (olive.account, None)
    r = olive.client.post(f"/hall/invites/{first.pk}/revoke", follow=True)
    assert "This invite was already revoked. Nothing changed." in r.content.decode()
    Invite.objects.filter(token_digest=secret_digest(token_of(expired))).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    listed = olive.page("/hall/invites")
    assert "Revoked" in listed and "by Olive." in listed and ", unused." in listed

    bea = Visitor()
    for link, say in ((revoked, REVOKED), (expired, EXPIRED), ("/hall/invite/" + "x" * 32, UNKNOWN)):
        status = 404 if say == UNKNOWN else 410
        assert say in bea.page(f"/hall/invite/{token_of(link)}", status=status)
        assert bea.post(f"/hall/invite/{token_of(link)}/begin", {"name": "Bea"}) == (
            status,
            {"ok": False, "say": say},
        )
    assert Account.objects.count() == 1


def test_an_invite_revoked_between_the_two_halves_makes_no_account(olive: Visitor) -> None:
    link = invite_from(olive)
    bea = Visitor()
    options = bea.options(f"/hall/invite/{token_of(link)}/begin", {"name": "Bea"})
    invites.do_revoke(olive.account, Invite.objects.get().pk)  # type: ignore[arg-type]
    assert bea.post("/hall/signup/finish", {"credential": bea.key.create(options)}) == (
        410,
        {"ok": False, "say": REVOKED},
    )
    assert Account.objects.count() == 1 and Passkey.objects.count() == 1


def test_a_sign_up_begun_before_the_claim_is_refused_after_it(visitor: Visitor) -> None:
    options = visitor.options("/hall/signup/begin", {"name": "Mallory"})
    owner = Visitor()
    code = token_of(claim_link_if_unowned() or "")
    _, begun = owner.post(f"/hall/claim/{code}/begin", {"name": "Olive"})
    assert owner.post("/hall/claim-finish", {"credential": owner.key.create(begun["options"])})[0] == 200
    assert visitor.post("/hall/signup/finish", {"credential": visitor.key.create(options)}) == (
        403,
        {"ok": False, "say": ASK},
    )
    assert list(Account.objects.values_list("name", flat=True)) == ["Olive"]


def test_only_the_owner_and_staff_make_and_revoke_invites(staff: Visitor, olive: Visitor) -> None:
    # Sam (staff, signed up before Olive claimed the town) invites too; the list says who made each.
    assert staff.page("/hall/invites")
    invite_from(staff)
    bea = invited(olive, "Bea")
    assert "Invites" not in bea.page("/hall/")
    r = bea.client.get("/hall/invites")
    assert r.status_code == 403 and NOT_STAFF in r.content.decode().replace("&#x27;", "'")
    r = bea.client.post("/hall/invites/make")
    assert r.status_code == 403 and Invite.objects.filter(made_by=bea.account).count() == 0
    sams = Invite.objects.get(made_by=staff.account)
    assert bea.client.post(f"/hall/invites/{sams.pk}/revoke").status_code == 403
    sams.refresh_from_db()
    assert sams.revoked_at is None
    listed = olive.page("/hall/invites")
    assert "Made by <strong>Sam</strong>" in listed and "Made by <strong>Olive</strong>" in listed
    r = olive.client.post("/hall/invites/999/revoke")
    assert r.status_code == 404 and "No invite has that number." in r.content.decode()


def test_invites_wait_at_most_fifty_at_once(olive: Visitor, settings: Any) -> None:
    for _ in range(invites.OPEN_INVITES):
        invite_from(olive)
    r = olive.client.post("/hall/invites/make", follow=True)
    said = r.content.decode().replace("&#x27;", "'")
    assert "50 invites already wait unused. Revoke one, or wait for one to be used or expire." in said
    assert 'id="invite-link"' not in said
    assert Invite.objects.count() == invites.OPEN_INVITES


def test_towns_without_an_owner_let_anyone_sign_up(settings: Any) -> None:
    # Nobody has claimed the town yet: as before.
    assert person("Ada")[1].name == "Ada"
    assert "Make an account" in Visitor().page("/hall/signup")
    # A town with sign-in: each person brings their own agents, whoever owns the machine.
    Account.objects.create_account("Olive", is_owner=True, is_staff=True)
    settings.CLOCKFORD_SIGN_IN = True
    assert person("Bea")[1].name == "Bea"


def test_guessing_invite_links_is_held_back(olive: Visitor, settings: Any) -> None:
    # A link the town never made counts against the address like a wrong passkey; a spent one does not.
    settings.CLOCKFORD = {**settings.CLOCKFORD, "FAILURES_PER_ADDRESS": 2, "FAILURE_HOLD_SECONDS": 120}
    link = invite_from(olive)
    bea = Visitor()
    assert bea.sign_up("Bea", invite=link)[0] == 200
    for _ in range(3):
        assert bea.post(f"/hall/invite/{token_of(link)}/begin", {"name": "Cy"}) == (410, {"ok": False, "say": USED})
    guesser = Visitor()
    clear_of_a_window_edge(settings.CLOCKFORD["REQUEST_WINDOW_SECONDS"], 5)  # the two guesses in one window
    assert guesser.post("/hall/invite/" + "x" * 32 + "/begin", {"name": "Cy"}) == (404, {"ok": False, "say": UNKNOWN})
    status, said = guesser.post("/hall/invite/" + "y" * 32 + "/begin", {"name": "Cy"})
    assert (status, said) == (429, {"ok": False, "say": "Too many requests. Try again later."})
    # Held back now, even with the right link.
    assert guesser.post(f"/hall/invite/{token_of(invite_from(olive))}/begin", {"name": "Cy"})[0] == 429
