"""dispute puts one of the agent's own footsteps on the docket and answers the footstep's tool and the
outcome the Archive recorded (000 section 10)."""

import re

import pytest

from clockford.town.models import Footstep, Passport
from districts.courthouse.models import Dispute
from districts.testing import outcome, visit

NOT_YOURS = "You can dispute only footsteps on your own passport."


def test_it_disputes_a_refused_footstep(alice: Passport) -> None:
    refused = visit(alice, "remember", key="two words", value="v")
    assert outcome(refused) == "refused:key"
    r = visit(alice, "dispute", footstep=refused.footstep, reason="My key was a fair one.")
    assert r.is_error is False
    sc = r.structured
    assert re.fullmatch(r"D-\d{8}", sc["id"])
    assert (sc["disputed"], sc["tool"], sc["outcome"]) == (refused.footstep, "remember", "refused:key")
    assert sc["footstep"] == r.footstep != refused.footstep  # the envelope's: this call's own number
    assert (
        sc["say"]
        == f"Dispute {sc['id']} of footstep {refused.footstep} is on the docket; a person reads every dispute."
    )
    d = Dispute.objects.get(pk=sc["id"])
    assert (d.passport_id, d.footstep, d.tool, d.outcome) == (alice.id, refused.footstep, "remember", "refused:key")
    assert (d.reason, d.status, d.ruling, d.ruled_by) == ("My key was a fair one.", "open", "", None)
    assert outcome(r) == "ok"


def test_it_disputes_a_footstep_that_went_well(alice: Passport) -> None:
    looked = visit(alice, "look_around")
    sc = visit(alice, "dispute", footstep=looked.footstep, reason="It showed me the wrong district.").structured
    assert (sc["tool"], sc["outcome"]) == ("look_around", "ok")


def test_the_reply_holds_only_the_towns_words(alice: Passport) -> None:
    step = visit(alice, "look_around").footstep
    sc = visit(alice, "dispute", footstep=step, reason="a reason only staff read").structured
    assert sc["provenance"]["parts"] == []
    assert "a reason only staff read" not in str(sc)


def test_it_keeps_the_reason_cut_and_normalised(alice: Passport) -> None:
    step = visit(alice, "look_around").footstep
    # U+0958 is a composition exclusion: NFC writes it as two characters, so 500 become 1,000.
    sc = visit(alice, "dispute", footstep=step, reason="\u0958" * 500).structured
    assert Dispute.objects.get(pk=sc["id"]).reason == "\u0915\u093c" * 250


def test_it_walks_the_agent_to_the_courthouse(alice: Passport) -> None:
    step = visit(alice, "look_around").footstep
    visit(alice, "dispute", footstep=step, reason="Wrong place.")
    alice.refresh_from_db()
    assert alice.place == "The Courthouse"


def test_a_reason_of_nothing_visible_is_refused(alice: Passport) -> None:
    step = visit(alice, "look_around").footstep
    r = visit(alice, "dispute", footstep=step, reason=" \u200b\n")
    assert r.is_error is True
    assert r.structured["say"] == "Say in a few words why you dispute this footstep."
    assert not Dispute.objects.exists()
    assert outcome(r) == "refused:empty"


@pytest.mark.parametrize("number", [0, 10**6, 2**63 - 1, 2**63, 10**30])
def test_a_footstep_that_does_not_exist_gets_the_sentence(alice: Passport, number: int) -> None:
    visit(alice, "look_around")
    r = visit(alice, "dispute", footstep=number, reason="Where is it?")
    assert r.is_error is True
    assert r.structured["say"] == NOT_YOURS
    assert not Dispute.objects.exists()
    assert outcome(r) == "refused:not-yours"


def test_the_outsider_cannot_dispute_anothers_footstep(alice: Passport, charlie: Passport) -> None:
    step = visit(alice, "look_around").footstep
    r = visit(charlie, "dispute", footstep=step, reason="I dispute Alice's step.")
    assert r.is_error is True
    # The same reply as a footstep that does not exist: nothing of Alice's footstep comes back.
    assert r.structured["say"] == NOT_YOURS
    assert "tool" not in r.structured and "outcome" not in r.structured
    assert not Dispute.objects.exists()
    assert outcome(r) == "refused:not-yours"
    assert Footstep.objects.get(number=step).passport == alice.id
