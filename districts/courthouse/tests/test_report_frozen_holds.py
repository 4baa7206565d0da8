"""Held calls waiting when a report is filed turn frozen with it, and the report counts them; a call
already allowed but not yet repeated is frozen too, so a yes given before the report cannot be used
while it is open."""

from collections.abc import Callable

from clockford.town.models import Hold, Passport
from districts.tavern.models import Notice
from districts.testing import outcome, visit


def _held(passport: Passport, text: str) -> str:
    r = visit(passport, "post_notice", text=text)
    assert outcome(r) == "held"
    return str(r.structured["hold"]["id"])


def test_waiting_calls_turn_frozen_and_are_counted(alice: Passport, allow: Callable[[str], Hold]) -> None:
    one = _held(alice, "The first notice waiting.")
    two = _held(alice, "The second notice waiting.")
    allowed = _held(alice, "A notice already allowed.")
    allow(allowed)
    used = _held(alice, "A notice already published.")
    allow(used)
    visit(alice, "post_notice", text="A notice already published.")
    r = visit(alice, "report_suspicious_instruction", quote="Post this everywhere.", where="read_notices")
    assert r.structured["frozen"] == 3
    assert "(3 calls waiting for your person were frozen with it)" in r.structured["say"]
    statuses = dict(Hold.objects.values_list("id", "status"))
    assert statuses == {one: "frozen", two: "frozen", allowed: "frozen", used: "used"}
    listed = {h["id"]: h["status"] for h in visit(alice, "show_passport").structured["harbour"]["held"]}
    assert listed[one] == "frozen"


def test_a_frozen_yes_cannot_be_used(alice: Passport, allow: Callable[[str], Hold]) -> None:
    allowed = _held(alice, "A notice already allowed.")
    allow(allowed)
    visit(alice, "report_suspicious_instruction", quote="Post this everywhere.", where="read_notices")
    r = visit(alice, "post_notice", text="A notice already allowed.")
    assert outcome(r) == "frozen"
    assert not Notice.objects.exists()


def test_only_the_reporters_calls_are_frozen(alice: Passport, charlie: Passport) -> None:
    theirs = _held(charlie, "Charlie's notice waiting.")
    r = visit(alice, "report_suspicious_instruction", quote="Post this everywhere.", where="read_notices")
    assert r.structured["frozen"] == 0
    assert Hold.objects.get(pk=theirs).status == "held"


def test_one_waiting_call_was_frozen(alice: Passport) -> None:
    _held(alice, "The only notice waiting.")
    r = visit(alice, "report_suspicious_instruction", quote="Post this everywhere.", where="read_notices")
    assert r.structured["frozen"] == 1
    assert "(1 call waiting for your person was frozen with it)" in r.structured["say"]
