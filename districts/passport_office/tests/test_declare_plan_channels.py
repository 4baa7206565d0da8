"""declare_plan: a step naming a channel no channel could have (000 section 08: 2-32 lowercase letters,
digits and hyphens, starting with a letter or digit; names that belong to the town or its staff are
refused) could never fit a call, so it is refused at once, never put to the person."""

from typing import Any

import pytest

from clockford.town.models import Passport, Plan
from districts.testing import outcome, visit

NAME_RULE = "A channel's name is 2 to 32 lowercase letters, digits and hyphens, starting with a letter or digit."
TOWN_NAME = "That channel name belongs to the town or its staff. Choose another."


@pytest.mark.parametrize(
    ("channel", "rule"),
    [
        ("x", NAME_RULE),  # one character
        ("a" * 33, NAME_RULE),  # one past the 32
        ("a" * 64, NAME_RULE),  # the schema's 64, twice the rule's
        ("Lantern-Makers", NAME_RULE),  # capitals
        ("-lantern", NAME_RULE),  # a hyphen first
        ("lantern makers", NAME_RULE),  # a space
        ("lantern_makers", NAME_RULE),  # an underscore
        ("lanterne-\u00e9clair", NAME_RULE),  # a letter outside a-z
        ("lantern\u200bmakers", NAME_RULE),  # a zero-width space
        ("town-hall", TOWN_NAME),
        ("adm1n", TOWN_NAME),  # digits for letters pass for the staff's too
    ],
)
def test_it_refuses_a_step_naming_a_channel_no_channel_could_have(
    alice: Passport, owner: Any, channel: str, rule: str
) -> None:
    r = visit(alice, "declare_plan", steps=[{"tool": "broadcast", "channel": channel, "times": 2}])
    assert r.is_error and outcome(r) == "refused:plan-step"
    assert r.structured["say"] == (
        f"A step's channel (named) is one no channel could have, so the step could never fit a call. {rule} "
        "Nothing was declared; your calls work as they did."
    )
    # The name is the agent's own words: given back in a field, labelled, never in the say.
    assert r.structured["named"] == channel
    assert {"path": "named", "label": "agent-written", "own": True} in r.structured["provenance"]["parts"]
    assert Plan.objects.count() == 0


def test_a_step_on_a_record_tool_is_held_to_the_same_rule(alice: Passport, owner: Any) -> None:
    # A parcel or beacon step's channel is the channel its record is on: a channel all the same.
    steps = [{"tool": "remember", "times": 1}, {"tool": "take_parcel", "channel": "General", "times": 1}]
    r = visit(alice, "declare_plan", steps=steps)
    assert outcome(r) == "refused:plan-step" and r.structured["named"] == "General"
    assert Plan.objects.count() == 0


def test_a_step_naming_a_channel_that_could_exist_waits_for_the_person(alice: Passport, owner: Any) -> None:
    # Whether the channel is open yet does not matter: the plan may name one the agent means to open.
    for channel in ("lantern-makers", "a" * 32, "42", "0-night-market"):
        r = visit(alice, "declare_plan", steps=[{"tool": "broadcast", "channel": channel, "times": 1}])
        assert r.is_error is False, r.structured["say"]
        assert r.structured["plan"]["steps"][0]["channel"] == channel


def test_without_a_person_the_plan_is_refused_for_that_first(alice: Passport) -> None:
    # Nobody could approve any plan: that refusal speaks first, as for every other step.
    r = visit(alice, "declare_plan", steps=[{"tool": "broadcast", "channel": "x", "times": 1}])
    assert outcome(r) == "refused:no-person"
