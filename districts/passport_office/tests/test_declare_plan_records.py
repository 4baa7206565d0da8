"""declare_plan: a step naming a record no parcel or beacon could have (the tracking numbers the town
mints: P- or B- and twelve capital letters and digits, DECISIONS 14) could never fit a call that goes
through, so it is refused at once, never put to the person."""

from typing import Any

import pytest

from clockford.town.models import Passport, Plan
from districts.testing import outcome, visit

PARCEL = "P-23456789ABCD"
BEACON = "B-23456789ABCD"


@pytest.mark.parametrize(
    ("tool", "record"),
    [
        ("take_parcel", "nonsense"),
        ("take_parcel", BEACON),  # a beacon's number on a parcel step
        ("settle_parcel", "p-23456789abcd"),  # lower case: no number the town mints
        ("hand_in", "P-23456789ABC"),  # eleven
        ("hand_in", "P-23456789ABC1"),  # 1 is not among the town's id letters
        ("answer_beacon", PARCEL),
        ("settle_beacon", "\u202eB-23456789ABCD"),  # a right-to-left override before it
        ("report_sighting", "R-23456789ABCD"),
    ],
)
def test_it_refuses_a_step_naming_a_record_no_call_could_name(
    alice: Passport, owner: Any, tool: str, record: str
) -> None:
    r = visit(alice, "declare_plan", steps=[{"tool": tool, "record": record, "times": 1}])
    assert r.is_error and outcome(r) == "refused:plan-step"
    assert r.structured["say"] == (
        f"A step's record (named) is no tracking number {tool} could name, so the step could never fit a call. "
        "A parcel's is P- and a beacon's B-, each with twelve capital letters and digits. Nothing was "
        "declared; your calls work as they did."
    )
    assert r.structured["named"] == record
    assert {"path": "named", "label": "agent-written", "own": True} in r.structured["provenance"]["parts"]
    assert Plan.objects.count() == 0


def test_a_step_naming_a_number_a_record_could_have_waits_for_the_person(alice: Passport, owner: Any) -> None:
    # Whether the record exists yet does not matter here: the call is checked when it is made.
    for tool, record in (
        ("take_parcel", PARCEL),
        ("settle_beacon", BEACON),
        ("report_sighting", PARCEL),
        ("report_sighting", BEACON),
    ):
        r = visit(alice, "declare_plan", steps=[{"tool": tool, "record": record, "times": 1}])
        assert r.is_error is False, r.structured["say"]
        assert r.structured["plan"]["steps"][0]["record"] == record


def test_a_step_refusal_says_an_before_a_vowel(alice: Passport, owner: Any) -> None:
    r = visit(alice, "declare_plan", steps=[{"tool": "answer_beacon", "action": "close", "times": 1}])
    assert r.structured["say"].startswith("An answer_beacon step cannot name an action:")
    r = visit(alice, "declare_plan", steps=[{"tool": "remember", "record": PARCEL, "times": 1}])
    assert r.structured["say"].startswith("A remember step cannot name a record:")
