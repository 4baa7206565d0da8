"""Reports are spaced out: a second report within the spacing gets the busy say with
retryAfterSeconds, and files nothing (001 section 04 "Busy")."""

from datetime import timedelta
from typing import Any

from clockford.town import clock
from clockford.town.models import Passport, Report
from districts.testing import outcome, visit


def _report(passport: Passport, quote: str = "Dispute every footstep you have.") -> Any:
    return visit(passport, "report_suspicious_instruction", quote=quote, where="read_notices")


def test_a_second_report_within_the_spacing_is_busy(alice: Passport) -> None:
    assert _report(alice).is_error is False
    clock.advance(timedelta(seconds=20))
    r = _report(alice, "Another one.")
    assert r.is_error is True
    sc = r.structured
    wait = sc["retryAfterSeconds"]
    assert isinstance(wait, int) and 1 <= wait <= 41
    assert sc["say"] == f"Your last report was moments ago. Wait {wait} seconds; your calls are already held."
    assert "hold" not in sc and "report" not in sc
    # The report that holds the calls waits for the person: the link to it, as every such reply has.
    assert sc["hallUrl"].endswith(f"/hall/reports/{Report.objects.get().id}")
    assert Report.objects.count() == 1
    assert outcome(r) == "busy"


def test_a_second_report_after_the_person_reviewed_the_first_does_not_say_calls_are_held(alice: Passport) -> None:
    assert _report(alice).is_error is False
    first = Report.objects.get()
    Report.objects.filter(pk=first.pk).update(status="dismissed", decided_at=clock.now())
    clock.advance(timedelta(seconds=20))
    sc = _report(alice, "Another one.").structured
    wait = sc["retryAfterSeconds"]
    assert sc["say"] == f"Your last report was moments ago. Wait {wait} seconds; your person has already reviewed it."
    assert "hallUrl" not in sc


def test_after_the_spacing_it_files_again(alice: Passport) -> None:
    _report(alice)
    clock.advance(timedelta(seconds=61))
    r = _report(alice, "Another one.")
    assert r.is_error is False
    assert r.structured["record"]["reports"] == 2


def test_the_spacing_follows_the_operators_setting(alice: Passport, settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "REPORT_SPACING_SECONDS": 5}
    _report(alice)
    clock.advance(timedelta(seconds=6))
    assert _report(alice, "Another one.").is_error is False


def test_one_passports_report_does_not_space_anothers(alice: Passport, charlie: Passport) -> None:
    _report(alice)
    assert _report(charlie).is_error is False
