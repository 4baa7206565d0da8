"""The owner of a town without sign-in: one claim link, printed by ./town up, that works once."""

import io
import re

import pytest
from django.core.management import call_command

from hall.claim import CLAIM_SAYS, claim_link_if_unowned
from hall.models import Account, Claim
from hall.tests.conftest import Visitor

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


def test_a_signed_in_person_claims_with_their_own_account(ada: Visitor) -> None:
    code = code_of(claim_link_if_unowned() or "")
    assert "Claiming adds a new passkey to this account" in ada.client.get(f"/hall/claim/{code}").content.decode()
    assert claim(ada, code) == (200, {"ok": True, "next": "/hall/"})
    account = Account.objects.get()
    assert account.name == "Ada" and account.is_owner and account.passkeys.count() == 2


def test_the_front_door_says_when_the_town_has_no_owner(visitor: Visitor) -> None:
    page = visitor.client.get("/hall/").content.decode()
    assert "This town has no owner yet" in page and "./town up" in page
    code = code_of(claim_link_if_unowned() or "")
    assert claim(visitor, code)[0] == 200
    visitor.sign_out()
    assert "This town has no owner yet" not in visitor.client.get("/hall/").content.decode()
