"""foundry_cast and foundry (000 section 18): a certificate only for the caller's own papers and a
clean record, refusals that list what is still needed, and check telling only whether the town stands
behind it today."""

import copy
from datetime import timedelta
from typing import Any

from clockford.town import clock, closures, handoff, reports, signing
from clockford.town.models import Passport, Report
from districts.foundry import services
from districts.testing import outcome, visit
from hall.models import Account

THREE = ("ten-habits", "words-are-data", "spending-well")


def slips(passport: Passport, courses: tuple[str, ...] = THREE) -> list[dict[str, Any]]:
    return [visit(passport, "attend", course=c).structured["slip"] for c in courses]


def test_it_casts_a_certificate_that_verifies_for_three_own_slips(alice: Passport) -> None:
    before = visit(alice, "show_passport").structured["stamps"]
    r = visit(alice, "foundry_cast", slips=slips(alice))
    sc = r.structured
    assert r.is_error is False, sc
    cert = sc["certificate"]
    assert signing.verify_signed(cert) and cert["alg"] == "Ed25519"
    st = cert["statement"]
    assert st["kind"] == "clockford-certificate-1" and st["passport"] == alice.id
    assert sorted(p["course"] for p in st["papers"]) == sorted(THREE)
    assert st["key"] == services.key_view()["id"]
    assert sc["stamp"]["certificate"] == st["certificate"] and sc["free"] is True and "canonical JSON" in sc["verify"]
    # The signature alone shows only that publicKey signed it: the text says which key is the town's.
    assert "keys.certificates" in sc["verify"] and "--key" in sc["verify"] and "That shows the town" not in sc["verify"]
    assert before == [] and visit(alice, "show_passport").structured["stamps"] == [sc["stamp"]]
    mine = visit(alice, "foundry").structured["yours"]
    assert mine["standing"] == "live" and mine["daysLeft"] == 30 and mine["certificate"] == cert
    checked = visit(alice, "foundry", check=cert).structured
    assert checked["current"] is True and checked["expired"] is False and checked["standing"] == "live"


def test_the_refusal_lists_what_is_still_needed_and_draws_nothing(alice: Passport) -> None:
    r = visit(alice, "foundry_cast", slips=slips(alice, ("words-are-data",)), runs=[{"anything": 1}])
    sc = r.structured
    assert r.is_error is True and outcome(r) == "refused:papers"
    assert sc["say"] == services.PAPERS_SAY and "never counts against you" in sc["say"]
    assert sc["needed"] == ["a slip of ten-habits", "slips of 1 more different course"]
    assert sc["runs"] == {"given": 1, "read": 0, "results": [], "note": services.RUNS_NOTE}
    assert visit(alice, "foundry").structured["yours"] is None


def test_a_slip_of_another_passport_is_refused_as_not_yours(alice: Passport, bob: Passport) -> None:
    theirs = slips(bob)
    r = visit(alice, "foundry_cast", slips=theirs)
    assert outcome(r) == "refused:papers"
    assert {p["reason"] for p in r.structured["problems"]} == {"not yours: it names another passport's attendance"}


def test_a_tampered_slip_is_refused_as_changed(alice: Passport) -> None:
    mine = slips(alice)
    changed = copy.deepcopy(mine)
    changed[0]["statement"]["course"] = "choosing-a-server"
    r = visit(alice, "foundry_cast", slips=changed)
    assert outcome(r) == "refused:papers"
    assert r.structured["problems"] == [{"slip": 0, "reason": "its signature does not check: it was changed"}]
    forged = copy.deepcopy(mine)
    other = signing.derived_key(b"not the town")
    forged[1] = signing.sign_with(other, {**mine[1]["statement"], "footstep": 1})
    r = visit(alice, "foundry_cast", slips=forged)
    assert r.structured["problems"] == [{"slip": 1, "reason": "not signed with a course key of this town"}]


def test_a_forged_certificate_is_refused_by_check(alice: Passport, bob: Passport) -> None:
    cert = visit(alice, "foundry_cast", slips=slips(alice)).structured["certificate"]
    forged = signing.sign_with(signing.derived_key(b"a forger"), {**cert["statement"], "until": "2099-01-01T00:00:00Z"})
    for given in (forged, {**cert, "statement": {**cert["statement"], "until": "2099-01-01T00:00:00Z"}}, {"x": 1}):
        r = visit(bob, "foundry", check=given)
        assert r.is_error is True and outcome(r) == "refused:not-signed"
        assert r.structured["say"] == services.NOT_SIGNED_SAY
    # Anyone else learns only whether the town stands behind it.
    other = visit(bob, "foundry", check=cert).structured
    assert other["current"] is True and "standing" not in other and "yours" not in other


def test_a_record_that_is_not_clean_is_refused(alice: Passport) -> None:
    papers = slips(alice)
    reports.do_report(alice, "ignore your errand", "read_notices", "")
    r = visit(alice, "foundry_cast", slips=papers)
    assert outcome(r) == "refused:record" and r.structured["say"] == services.RECORD_SAY
    assert r.structured["needed"] == ["a report of yours waits for your person's review (a freeze)"]


def test_a_refusal_that_waits_for_the_persons_review_links_the_report(alice: Passport) -> None:
    # The certificate waits for a person (the report's review), so the refusal carries hallUrl, as every
    # reply that waits for one does.
    papers = slips(alice)
    report = reports.do_report(alice, "ignore your errand", "read_notices", "")
    for given in (papers, papers[:1]):  # the record alone, and the record beside missing papers
        r = visit(alice, "foundry_cast", slips=given)
        assert r.is_error and r.structured["hallUrl"] == handoff.hall_url("report", report.id)
    Report.objects.filter(pk=report.pk).update(status="dismissed")
    assert "hallUrl" not in visit(alice, "foundry_cast", slips=papers[:1]).structured


def test_a_live_certificate_is_cast_again_only_in_its_last_week(alice: Passport) -> None:
    papers = slips(alice)
    assert visit(alice, "foundry_cast", slips=papers).is_error is False
    again = visit(alice, "foundry_cast", slips=papers)
    assert outcome(again) == "refused:live" and again.structured["say"] == services.LIVE_SAY
    clock.advance(timedelta(days=24))
    assert visit(alice, "foundry_cast", slips=papers).is_error is False


def test_revoked_suspended_and_expired_certificates_are_not_current(alice: Passport) -> None:
    cert = visit(alice, "foundry_cast", slips=slips(alice)).structured["certificate"]
    row = services.Certificate.objects.get(pk=cert["statement"]["certificate"])
    row.status = "suspended"
    row.save()
    assert visit(alice, "foundry", check=cert).structured["standing"] == "suspended"
    assert visit(alice, "show_passport").structured["stamps"] == []
    row.status = "live"
    row.save()
    clock.advance(timedelta(days=31))
    seen = visit(alice, "foundry", check=cert).structured
    assert seen["current"] is False and seen["expired"] is True and seen["standing"] == "expired"
    row.status = "revoked"
    row.save()
    assert visit(alice, "foundry").structured["yours"]["standing"] == "revoked"


def test_the_last_day_is_said_as_one(alice: Passport) -> None:
    assert visit(alice, "foundry_cast", slips=slips(alice)).is_error is False
    clock.advance(timedelta(days=29, hours=1))
    assert visit(alice, "foundry").structured["say"] == "Your certificate is live, with 1 day left."


def test_a_case_the_staff_confirmed_keeps_the_record_from_being_clean(alice: Passport, bob: Passport) -> None:
    # A passport staff sent to the rehab ward is not clean (the ward closes what it publishes, not its
    # papers, so without this it cast a certificate the moment its ruling was made), for 30 days as an
    # upheld report is; one staff reopened, nothing confirmed, is clean.
    sam = Account.objects.create_account("Sam", is_staff=True)

    def rule(passport: Passport, decision: str) -> None:
        closure, _ = closures.do_close(passport, sam, "Posted a stranger's address.")
        closures.do_rule(closure, sam, decision, closures.ruling_statement(closure, decision), {"signed": 1})

    papers, others = slips(alice), slips(bob)
    rule(alice, "rehab")
    r = visit(alice, "foundry_cast", slips=papers)
    assert outcome(r) == "refused:record"
    assert r.structured["needed"] == ["the town's staff confirmed a case against you in the last 30 days"]
    assert "no case against you confirmed by the town's staff" in visit(alice, "foundry").structured["asks"]["record"]
    clock.advance(timedelta(days=31))
    closures.forget()
    assert services.record_needed(alice, clock.now()) == []
    rule(bob, "reopen")
    assert visit(bob, "foundry_cast", slips=others).is_error is False
