"""claim_deed (000 section 16): an ask for one's own signed-in account, the lot back never the name,
the same reply byte for byte whether the lot is deeded to someone else or to nobody, at most 4 asks
waiting per account, the holder's deed, and the outsider without sign-in who is refused."""

import json
from typing import Any

import pytest

from clockford.town import handoff
from clockford.town.models import Passport
from districts.realty import services
from districts.realty.models import Ask, Deed
from districts.realty.tests.conftest import NAMES, number
from districts.testing import outcome, visit
from districts.town_hall.models import CensusState
from tests.fixtures import agent

pytestmark = pytest.mark.django_db


def give_deed(passport: Passport, lot: int) -> Deed:
    """A deed as the hall issues it once the proof was found and the passkey signed (hall/tests cover
    the passkey; here only what the Realty Office records)."""
    lot_, _, asked = services.do_ask(passport, lot)
    assert asked
    ask = Ask.objects.get(account_id=passport.account_id, lot=lot, status="waiting")
    evidence = {"domain": "example.com", "record": "TXT"}
    statement = services.take_statement(ask, "dns", evidence)
    return services.do_issue(ask, passport.account, "dns", evidence, statement, {"signed": "in a test"})


def without_footstep(structured: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in structured.items() if k != "footstep"}


def text_without_footstep(text: str, footstep: int) -> str:
    assert f"footstep #{footstep}" in text
    return text.replace(f"footstep #{footstep}", "footstep #N")


def test_it_asks_and_gives_the_lot_never_the_name(realty_census: CensusState) -> None:
    ada, painter = agent("ada"), number(NAMES[0])
    r = visit(ada, "claim_deed", server="com.example/painter")
    assert r.is_error is False, r.structured
    assert without_footstep(r.structured) == {
        "say": r.structured["say"],
        "lot": painter,
        "deed": None,
        "asked": True,
        "hallUrl": services.deeds_page(),
        "provenance": r.structured["provenance"],
    }
    assert r.structured["hallUrl"].endswith("/hall/deeds")
    assert "com.example" not in r.text and "painter" not in r.text
    assert r.structured["say"] == (
        f"Your account holds no deed to lot {painter}. Your ask waits for your person, who can prove ownership "
        "in the hall at hallUrl with their own sign-in. You cannot prove it yourself."
    )
    assert [a.lot for a in services.asks_waiting(ada.account)] == [painter]
    # By lot number too; asking again adds nothing.
    again = visit(ada, "claim_deed", server=painter)
    assert (again.structured["lot"], again.structured["asked"]) == (painter, True)
    assert Ask.objects.filter(account=ada.account).count() == 1
    assert outcome(r) == "ok"


def test_the_reply_is_the_same_for_someone_elses_deed_and_nobodys(realty_census: CensusState) -> None:
    bob, carol, painter = agent("bob"), agent("carol"), number(NAMES[0])
    nobody = visit(bob, "claim_deed", server=painter)
    give_deed(agent("dora"), painter)  # another account now holds the lot
    someone = visit(carol, "claim_deed", server=painter)
    again = visit(bob, "claim_deed", server="com.example/painter")
    for r in (someone, again):
        assert r.is_error is False
        assert r.footstep != nobody.footstep
        assert json.dumps(without_footstep(r.structured), sort_keys=True) == json.dumps(
            without_footstep(nobody.structured), sort_keys=True
        )
        assert text_without_footstep(r.text, r.footstep) == text_without_footstep(nobody.text, nobody.footstep)
    assert outcome(someone) == outcome(nobody) == "ok"


def test_the_holder_gets_its_deed(realty_census: CensusState) -> None:
    ada, painter = agent("ada"), number(NAMES[0])
    deed = give_deed(ada, painter)
    r = visit(ada, "claim_deed", server=painter)
    assert r.is_error is False
    assert r.structured["deed"] == {
        "id": deed.id,
        "issuedAt": deed.issued_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "checkedAt": deed.checked_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    assert r.structured["asked"] is False and r.structured["lot"] == painter
    # Another agent of the same account sees the account's deed too.
    other = agent(ada.account)
    assert visit(other, "claim_deed", server=painter).structured["deed"]["id"] == deed.id


def test_at_most_four_asks_wait(realty_census: CensusState) -> None:
    ada = agent("ada")
    for name in NAMES[3:]:
        assert visit(ada, "claim_deed", server=name).structured["asked"] is True
    fifth = visit(ada, "claim_deed", server=NAMES[0])
    assert fifth.is_error is True
    assert fifth.structured["say"] == services.ASKS_FULL_SAY
    assert fifth.structured["hallUrl"] == handoff.front_url()
    assert outcome(fifth) == "refused:asks-waiting"
    # One already waiting is not a new ask; another account has its own four.
    assert visit(ada, "claim_deed", server=NAMES[3]).structured["asked"] is True
    assert visit(agent("bob"), "claim_deed", server=NAMES[0]).structured["asked"] is True
    assert Ask.objects.filter(account=ada.account).count() == 4


def test_a_server_not_in_the_census_is_refused(realty_census: CensusState) -> None:
    r = visit(agent("ada"), "claim_deed", server="com.example/nowhere")
    assert r.is_error is True
    assert r.structured["say"] == "No lot by that number or name. Lots run from 0 to 6."
    assert outcome(r) == "refused:no-lot"
    assert visit(agent("ada"), "claim_deed", server=99).structured["say"].startswith("No lot by that number or name.")


def test_the_outsider_without_sign_in_is_refused(realty_census: CensusState, charlie: Passport) -> None:
    r = visit(charlie, "claim_deed", server=0)
    assert r.is_error is True
    assert r.structured["say"] == services.SIGN_IN_SAY
    assert outcome(r) == "refused:sign-in"
    assert Ask.objects.count() == 0
