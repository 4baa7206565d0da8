"""Disputes: 10 open per passport, and a size allowance of the open reasons' bytes (001 section 05).
A ruling closes a dispute and makes room again."""

from typing import Any

from clockford.town.models import Passport
from districts.courthouse import services
from districts.courthouse.models import Dispute
from districts.testing import outcome, visit
from hall.models import Account

FULL_SAY = "You already have 10 open disputes. Wait for a person to rule on some before you dispute again."
SIZE_SAY = (
    "Your open disputes already hold as many words as the town keeps for them. Wait for a person to rule on some, "
    "or say why in fewer words."
)


def _dispute(passport: Passport, reason: str = "It went wrong.") -> Any:
    step = visit(passport, "look_around").footstep
    return visit(passport, "dispute", footstep=step, reason=reason)


def test_it_refuses_the_11th_open_dispute(alice: Passport) -> None:
    for _ in range(10):
        assert _dispute(alice).is_error is False
    r = _dispute(alice)
    assert r.is_error is True
    assert r.structured["say"] == FULL_SAY
    assert "retryAfterSeconds" not in r.structured and "hold" not in r.structured
    assert Dispute.objects.filter(passport=alice).count() == 10
    assert outcome(r) == "refused:disputes-full"


def test_a_ruling_makes_room(alice: Passport, staff: Account) -> None:
    ids = [_dispute(alice).structured["id"] for _ in range(10)]
    services.do_rule(Dispute.objects.get(pk=ids[0]), staff, "The key was refused rightly.")
    assert _dispute(alice).is_error is False
    assert Dispute.objects.filter(passport=alice, status="open").count() == 10


def test_one_full_docket_does_not_fill_another(alice: Passport, bob: Passport) -> None:
    for _ in range(10):
        _dispute(alice)
    assert _dispute(bob).is_error is False


def test_it_refuses_past_the_size_allowance(alice: Passport, settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "DISPUTE_BYTES_OPEN": 1000}
    assert _dispute(alice, "x" * 500).is_error is False
    assert _dispute(alice, "é" * 250).is_error is False  # 500 bytes: exactly the allowance
    r = _dispute(alice, "y")
    assert r.is_error is True
    assert r.structured["say"] == SIZE_SAY
    assert Dispute.objects.filter(passport=alice).count() == 2
    assert outcome(r) == "refused:disputes-size"


def test_the_default_allowance_holds_ten_full_reasons_of_plain_words(alice: Passport) -> None:
    for _ in range(10):
        assert _dispute(alice, "z" * 500).is_error is False


def test_a_footstep_already_disputed_is_answered_with_its_open_dispute(alice: Passport) -> None:
    step = visit(alice, "look_around").footstep
    first = visit(alice, "dispute", footstep=step, reason="It went wrong.")
    again = visit(alice, "dispute", footstep=step, reason="It went wrong, I said.")
    assert again.is_error is False
    assert again.structured["id"] == first.structured["id"]
    assert again.structured["disputed"] == step
    assert "Nothing new was filed." in again.structured["say"]
    assert Dispute.objects.filter(passport=alice).count() == 1
    assert Dispute.objects.get(pk=first.structured["id"]).reason == "It went wrong."


def test_a_ruled_footstep_may_be_disputed_again(alice: Passport, staff: Account) -> None:
    step = visit(alice, "look_around").footstep
    first = visit(alice, "dispute", footstep=step, reason="It went wrong.").structured["id"]
    services.do_rule(Dispute.objects.get(pk=first), staff, "The key was refused rightly.")
    again = visit(alice, "dispute", footstep=step, reason="It still looks wrong.")
    assert again.structured["id"] != first
    assert Dispute.objects.filter(passport=alice).count() == 2
