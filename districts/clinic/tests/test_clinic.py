"""calibration_checkup and calibration_answer through the desk: what a check-up measures, its probes
from the census, the Archive and the rules, accuracy, the Brier score and the calibration error by bin
computed by hand, the signed result, the limits on a moved clock, and the outsider."""

import datetime as dt
import json
import subprocess
import sys
from typing import Any

import pytest

from clockford.town import clock, signing
from clockford.town.models import Passport
from districts.clinic import probes, services
from districts.clinic.models import Checkup
from districts.testing import outcome, visit
from districts.town_hall.models import CensusState, Lot
from tests.fixtures import agent, to_tomorrow_at
from tests.support import ROOT

pytestmark = pytest.mark.django_db


def begin(passport: Passport) -> dict[str, Any]:
    r = visit(passport, "calibration_checkup", begin=True)
    assert r.is_error is False, r.structured["say"]
    return r.structured


def truths(checkup: str) -> dict[str, str]:
    return {p["probe"]: p["truth"] for p in Checkup.objects.get(pk=checkup).probes}


def answer(truth: dict[str, str], probe: str, right: bool, confidence: float) -> dict[str, Any]:
    """An answer to `probe`, right or wrong as asked, at `confidence`."""
    given = truth[probe] if right else {"yes": "no", "no": "yes"}[truth[probe]]
    return {"probe": probe, "answer": given, "confidence": confidence}


def test_a_checkup_says_what_it_measures_and_hands_probes_from_three_sources(
    demo: CensusState, alice: Passport
) -> None:
    before = visit(alice, "calibration_checkup").structured
    assert before["last"] is None and before["measures"] == services.MEASURES
    assert "never counts against you" in before["measures"]
    r = begin(alice)
    assert r["checkup"].startswith("CK-") and r["measures"] == services.MEASURES
    assert [p["probe"] for p in r["probes"]] == [f"P{i:02d}" for i in range(1, 11)]
    assert {p["source"] for p in r["probes"]} >= {"census"} and {p["source"] for p in r["probes"]} <= {
        "census",
        "rules",
        "archive",
    }
    assert all("truth" not in p for p in r["probes"])
    assert probes.build("abc", demo) == probes.build("abc", demo)
    assert r["publicKey"] == services.KEY.public_key()


def test_a_repository_probe_is_plain_english_and_true_to_the_census(demo: CensusState) -> None:
    # It read "names no a source repository" when the claim was the negative one.
    seen = {}
    for seed in map(str, range(60)):
        for p in probes.build(seed, demo):
            if p["kind"] == "repository":
                seen[p["claim"]] = p["truth"]
    negatives = [c for c in seen if " names no source repository." in c]
    positives = [c for c in seen if " names a source repository." in c]
    assert negatives and positives and len(negatives) + len(positives) == len(seen)
    for claim, truth in seen.items():
        lot = int(claim.split()[4])
        has = bool(Lot.objects.get(number=lot).record["hasRepo"])
        # The claim is true exactly when it says what the census records.
        says_it_has = claim in positives
        assert (truth == "yes") == (says_it_has == has)


def test_the_scores_are_accuracy_brier_and_calibration_error_by_bin(demo: CensusState, alice: Passport) -> None:
    truth = truths(begin(alice)["checkup"])
    ids = sorted(truth)
    # Eight right at 0.9, two wrong at 0.9: accuracy 0.8, Brier (8 * 0.01 + 2 * 0.81) / 10 = 0.17, one bin
    # (0.8 to 1.0) with mean confidence 0.9 and accuracy 0.8: calibration error 0.1.
    answers = [answer(truth, p, i < 8, 0.9) for i, p in enumerate(ids)]
    part = visit(alice, "calibration_answer", answers=answers[:4])
    assert part.structured["answered"] == 4 and part.structured["left"] == ids[4:]
    done = visit(alice, "calibration_answer", answers=answers[4:])
    assert done.is_error is False, done.structured["say"]
    result = done.structured["result"]
    assert (result["right"], result["answered"], result["of"]) == (8, 10, 10)
    assert result["accuracy"] == 0.8
    assert result["brier"] == 0.17
    assert result["calibrationError"] == 0.1
    assert [b["count"] for b in result["bins"]] == [0, 0, 0, 0, 10]
    assert result["bins"][4] == {"from": 0.8, "to": 1.0, "count": 10, "confidence": 0.9, "accuracy": 0.8, "gap": 0.1}
    signed = done.structured["signed"]
    assert signing.verify_signed(signed) and signed["statement"]["kind"] == "clockford-clinic-1"
    assert signed["publicKey"] == services.KEY.public_key()


def test_two_bins_and_the_unanswered(demo: CensusState, alice: Passport) -> None:
    truth = truths(begin(alice)["checkup"])
    ids = sorted(truth)
    # Two right at 0.3 (bin 0.2-0.4), one right and one wrong at 0.7 (bin 0.6-0.8); six left unanswered.
    answers = [
        answer(truth, ids[0], True, 0.3),
        answer(truth, ids[1], True, 0.3),
        answer(truth, ids[2], True, 0.7),
        answer(truth, ids[3], False, 0.7),
    ]
    done = visit(alice, "calibration_answer", answers=answers, finish=True).structured["result"]
    assert (done["right"], done["answered"], done["accuracy"]) == (3, 4, 0.3)
    # Brier: (0.49 + 0.49 + 0.09 + 0.49) / 4 = 0.39; gaps: |0.3 - 1| = 0.7 and |0.7 - 0.5| = 0.2, each half.
    assert done["brier"] == 0.39
    assert done["calibrationError"] == 0.45
    assert [b["count"] for b in done["bins"]] == [0, 2, 0, 2, 0]


def test_the_result_verifies_with_the_single_file_verifier(demo: CensusState, alice: Passport, tmp_path: Any) -> None:
    r = begin(alice)
    done = visit(
        alice, "calibration_answer", answers=[{"probe": "P01", "answer": "yes", "confidence": 0.5}], finish=True
    )
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps(done.structured))
    verifier = str(ROOT / "docs" / "verify_signature.py")
    checked = subprocess.run(
        [sys.executable, verifier, str(reply), "--key", services.KEY.key_id()], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.startswith(f"clockford-clinic-1 {r['checkup']}: ok")
    forged = done.structured["signed"]
    forged["statement"]["accuracy"] = 1.0
    reply.write_text(json.dumps(forged))
    assert subprocess.run([sys.executable, verifier, str(reply)], capture_output=True, text=True).returncode == 1


def test_limits_on_a_moved_clock_never_count_against_the_agent(demo: CensusState) -> None:
    to_tomorrow_at(2)
    mine = agent("erin")
    for _ in range(4):
        begin(mine)
        visit(mine, "calibration_answer", answers=[{"probe": "P01", "answer": "no", "confidence": 0.6}], finish=True)
    refused = visit(mine, "calibration_checkup", begin=True)
    assert outcome(refused) == "refused:limit"
    assert refused.structured["say"].startswith("This passport has begun 4 check-ups today (UTC)")
    clock.advance(dt.timedelta(hours=22))
    assert visit(mine, "calibration_checkup", begin=True).is_error is False


def test_a_checkup_closes_after_twenty_minutes_scored_as_of_its_end(demo: CensusState, alice: Passport) -> None:
    r = begin(alice)
    visit(alice, "calibration_answer", answers=[{"probe": "P01", "answer": "yes", "confidence": 1.0}])
    clock.advance(dt.timedelta(minutes=20, seconds=1))
    late = visit(alice, "calibration_answer", answers=[{"probe": "P02", "answer": "yes", "confidence": 1.0}])
    # The late answer was not kept: the call did not do what it asked, so it is a refusal (000 section 01)
    # that still gives the result as it stood.
    assert late.is_error is True and outcome(late) == "refused:closed"
    assert late.structured["say"].startswith(f"Check-up {r['checkup']} closed at {r['until']} before these answers")
    assert late.structured["signed"]["statement"]["scored"] == r["until"]
    assert late.structured["result"]["answered"] == 1
    assert visit(alice, "calibration_checkup").structured["last"]["signed"] == late.structured["signed"]


def test_the_outsider_never_sees_anothers_checkup(demo: CensusState, alice: Passport, charlie: Passport) -> None:
    begin(alice)
    assert visit(charlie, "calibration_checkup").structured["last"] is None
    refused = visit(charlie, "calibration_answer", answers=[{"probe": "P01", "answer": "yes", "confidence": 1.0}])
    assert outcome(refused) == "refused:no-checkup"
    assert services.runs_for(charlie.id, 5) == []


def test_a_listing_of_one_version_is_said_as_one(demo: CensusState) -> None:
    claims = [p["claim"] for seed in range(300) for p in probes.build(f"{seed:012x}", demo) if p["kind"] == "versions"]
    assert not [c for c in claims if " 1 versions" in c]
    assert [c for c in claims if c.endswith(" has 1 version.")]  # the demo census has listings of one version
