"""Once the person allowed the held call, exactly the same call publishes the notice once and its reply
carries harbour { allowedBy, hold }; the next identical call waits again (000 section 02)."""

from collections.abc import Callable
from datetime import timedelta

from clockford.town import clock
from clockford.town.models import Hold, Passport
from districts.tavern.models import Notice
from districts.testing import outcome, visit

TEXT = "The Foundry's certificates were quick to check."


def test_the_allowed_call_publishes_once(alice: Passport, allow: Callable[[str], Hold]) -> None:
    hold_id = visit(alice, "post_notice", text=TEXT).structured["hold"]["id"]
    allow(hold_id)
    r = visit(alice, "post_notice", text=TEXT)
    assert r.is_error is False
    sc = r.structured
    notice = Notice.objects.get()
    assert sc["say"] == f"Notice {notice.id} is pinned on the Tavern board."
    assert (sc["id"], sc["text"]) == (notice.id, TEXT)
    assert notice.id.startswith("N-") and notice.passport_id == alice.id and notice.text == TEXT
    assert sc["harbour"] == {"allowedBy": "your person", "hold": hold_id}
    parts = sc["provenance"]["parts"]
    assert {"path": "harbour", "label": "human-signed"} in parts
    assert {"path": "text", "label": "agent-written", "own": True} in parts
    assert Hold.objects.get(pk=hold_id).status == "used"
    assert outcome(r) == "ok"


def test_the_next_identical_call_is_held_again(alice: Passport, allow: Callable[[str], Hold]) -> None:
    hold_id = visit(alice, "post_notice", text=TEXT).structured["hold"]["id"]
    allow(hold_id)
    visit(alice, "post_notice", text=TEXT)
    again = visit(alice, "post_notice", text=TEXT)
    assert again.is_error is True and outcome(again) == "held"
    assert again.structured["hold"]["id"] != hold_id
    assert Notice.objects.count() == 1


def test_the_yes_covers_only_those_words(alice: Passport, allow: Callable[[str], Hold]) -> None:
    allow(visit(alice, "post_notice", text=TEXT).structured["hold"]["id"])
    other = visit(alice, "post_notice", text=TEXT + " Really.")
    assert other.is_error is True and outcome(other) == "held"
    assert not Notice.objects.exists()


def test_the_yes_lapses_after_the_hour(alice: Passport, allow: Callable[[str], Hold]) -> None:
    hold_id = visit(alice, "post_notice", text=TEXT).structured["hold"]["id"]
    allow(hold_id)
    clock.advance(timedelta(minutes=61))
    r = visit(alice, "post_notice", text=TEXT)
    assert r.is_error is True and r.structured["hold"]["id"] != hold_id
    assert not Notice.objects.exists()


def test_it_keeps_the_pennant_flown_at_posting(alice: Passport, allow: Callable[[str], Hold]) -> None:
    Passport.objects.filter(pk=alice.pk).update(pennant="owl")
    alice.refresh_from_db()
    allow(visit(alice, "post_notice", text=TEXT).structured["hold"]["id"])
    visit(alice, "post_notice", text=TEXT)
    Passport.objects.filter(pk=alice.pk).update(pennant="heron")
    assert Notice.objects.get().pennant == "owl"


def test_it_keeps_the_normal_form_of_the_words(alice: Passport, allow: Callable[[str], Hold]) -> None:
    text = "Cafe\u0301 servers: the Foundry."
    allow(visit(alice, "post_notice", text=text).structured["hold"]["id"])
    r = visit(alice, "post_notice", text=text)
    assert r.structured["text"] == "Caf\u00e9 servers: the Foundry."
    assert Notice.objects.get().text == "Caf\u00e9 servers: the Foundry."


def test_the_outsider_cannot_use_anothers_yes(alice: Passport, charlie: Passport, allow: Callable[[str], Hold]) -> None:
    hold_id = visit(alice, "post_notice", text=TEXT).structured["hold"]["id"]
    allow(hold_id)
    r = visit(charlie, "post_notice", text=TEXT)
    assert r.is_error is True and outcome(r) == "held"
    assert r.structured["hold"]["id"] != hold_id
    assert not Notice.objects.exists()
    assert Hold.objects.get(pk=hold_id).status == "allowed"
