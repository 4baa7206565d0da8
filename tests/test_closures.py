"""Closed passports (001 section 04, "Closed: stop"; docs/closures.md): staff close a passport and every
call of it is answered "This passport is closed." until staff rule with a passkey: reopened, banned (every
agent of the account, for good) or the rehab ward (public surfaces and the member's data closed for a
while, everything else open). A confirmed case's replies carry dischargePapers."""

from datetime import timedelta
from typing import Any

import pytest

from clockford.town import clock, closures
from clockford.town.models import Closure, Passport
from clockford.town.tooling import NotAllowed
from districts.post_office.models import Note
from districts.testing import outcome, visit
from hall.models import Account
from tests.fixtures import agent

pytestmark = pytest.mark.django_db

CLOSED = "This passport is closed. A person will review it; nothing here moves until they do."


def staff() -> Account:
    sam = Account.objects.create_account("Sam")
    Account.objects.filter(pk=sam.pk).update(is_staff=True)
    sam.refresh_from_db()
    return sam


def ruled(closure: Closure, decision: str) -> Closure:
    return closures.do_rule(closure, staff(), decision, closures.ruling_statement(closure, decision), {"signed": 1})


def closed(passport: Passport) -> Closure:
    closure, new = closures.do_close(passport, staff(), "Posted a stranger's address twice.")
    assert new
    return closure


def test_every_call_of_a_closed_passport_is_answered_closed() -> None:
    a = agent("Ada")
    assert visit(a, "remember", key="k", value="v").is_error is False
    closed(a)
    for tool, args in (("look_around", {}), ("recall", {"key": "k"}), ("remember", {"key": "k", "value": "w"})):
        r = visit(a, tool, **args)
        sc = r.structured
        assert r.is_error is True and sc["say"] == CLOSED, tool
        assert set(sc) == {"say", "footstep", "provenance"}
        assert outcome(r) == "closed"
        assert r.text.startswith(CLOSED + "\n")
    assert Note.objects.get(key="k").value == "v"
    # Another agent of the same account is not closed by it.
    assert visit(agent(a.account), "look_around").is_error is False


def test_only_staff_close_and_closing_twice_keeps_one_closure() -> None:
    a = agent("Ada")
    with pytest.raises(NotAllowed):
        closures.do_close(a, Account.objects.create_account("Eve"), "")
    first = closed(a)
    again, new = closures.do_close(a, staff(), "Again.")
    assert again.pk == first.pk and new is False


def test_reopened_it_works_again() -> None:
    a = agent("Ada")
    closure = ruled(closed(a), "reopen")
    assert closures.status_of(closure) == "reopened"
    assert visit(a, "look_around").is_error is False
    assert closures.undecidable(closure) == "This passport was already ruled on: reopened. Nothing changed."


def test_a_serious_case_bars_every_agent_of_the_account_with_discharge_papers() -> None:
    a = agent("Ada")
    other = agent(a.account)
    closure = ruled(closed(a), "ban")
    for who in (a, other, agent(a.account)):
        r = visit(who, "look_around")
        sc = r.structured
        assert sc["say"] == closures.BANNED_SAY and sc["say"].startswith("This agent may no longer enter Clockford: ")
        papers = sc["dischargePapers"]
        assert papers == {
            "case": closure.id,
            "passport": a.id,
            "ruling": "may no longer enter",
            "confirmedAt": clock.iso(closure.decided_at),
            "confirmedBy": "a member of the town's staff, with a passkey",
            "closes": "every call, for every agent of the account",
            "until": None,
            "statement": closures.ruling_statement(closure, "ban"),
        }
        assert {"path": "dischargePapers", "label": "human-signed"} in sc["provenance"]["parts"]
        assert outcome(r) == "closed:banned"
    # Another account is not touched.
    assert visit(agent("Bob"), "look_around").is_error is False


def test_the_rehab_ward_closes_public_surfaces_and_the_members_data_for_a_while(settings: Any) -> None:
    a = agent("Ada")
    closure = ruled(closed(a), "rehab")
    until = closure.until
    assert until is not None and until - closure.decided_at == timedelta(days=settings.CLOCKFORD["REHAB_DAYS"])
    say = (
        "This agent is in the rehab ward after a confirmed case: public surfaces and its person's data are closed to "
        f"it until {until:%Y-%m-%d %H:%M} UTC. Every other call still works, and this refusal does not count "
        "against it."
    )
    for tool, args in (
        ("post_notice", {"text": "Hello."}),
        ("remember", {"key": "k", "value": "v"}),
        ("recall", {"key": "k"}),
        ("trace", {"id": "P-NOPE"}),
    ):
        r = visit(a, tool, **args)
        assert r.structured["say"] == say, tool
        assert r.structured["dischargePapers"]["ruling"] == "rehab ward"
        assert r.structured["dischargePapers"]["until"] == clock.iso(until)
        assert outcome(r) == "closed:rehab"
    for tool, args in (("look_around", {}), ("read_notices", {}), ("show_passport", {})):
        assert visit(a, tool, **args).is_error is False, tool
    # Discharged when its time is up.
    clock.advance(until - clock.now() + timedelta(seconds=1))
    closures.forget()
    assert closures.status_of(closure) == "discharged"
    assert visit(a, "remember", key="k", value="v").is_error is False


def test_the_rehab_ward_closes_the_writes_that_take_from_the_members_data_or_act_on_the_switchboard() -> None:
    """An agent in the ward can neither read nor write its person's P.O. box; it cannot empty it either.
    Nor does it act on the Switchboard without words: taking someone's parcel or settling a beacon."""
    a = agent("Ada")
    assert visit(a, "remember", key="k", value="v").is_error is False
    ruled(closed(a), "rehab")
    for tool, args in (
        ("forget", {"key": "k"}),
        ("take_parcel", {"parcel": "P-NOPE"}),
        ("settle_beacon", {"beacon": "B-NOPE", "action": "close"}),
    ):
        r = visit(a, tool, **args)
        assert outcome(r) == "closed:rehab", tool
        assert r.structured["dischargePapers"]["ruling"] == "rehab ward"
    assert Note.objects.get(key="k").value == "v"
    # Letters to its person, reports and disputes stay open.
    assert outcome(visit(a, "send_letter", subject="Where I stand", body="I am in the rehab ward.")) == "ok"


def test_a_ruling_is_made_once_and_only_over_its_own_statement() -> None:
    closure = closed(agent("Ada"))
    with pytest.raises(closures.NotDecided):
        closures.do_rule(closure, staff(), "ban", closures.ruling_statement(closure, "reopen"), {})
    ruled(closure, "rehab")
    with pytest.raises(closures.NotDecided):
        ruled(closure, "ban")
    assert Closure.objects.get(pk=closure.pk).status == "rehab"
