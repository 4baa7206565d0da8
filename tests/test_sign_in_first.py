"""A tool that needs a signed-in account (000 "Sign-in") says so first (Tool.sign_in): after the
clerk, and before the call's words are judged or anything it names is looked up. An agent that cannot
sign in learns the one thing it can act on, whatever else its call says; before, `answer_beacon` with
an empty answer was told the answer was empty, and told to sign in only once it had written one.

Which tools need sign-in comes from two places that must agree: the tool reference (tools.json's
signInRequired) and each Tool's own `sign_in`. No list of names here but the calls tried."""

import json
from typing import Any

import pytest

from clockford.town.models import Hold
from districts.registry import TOOLS
from districts.testing import new_passport, outcome, visit
from tests.fixtures import agent
from tests.support import SHARED, have_shared

pytestmark = pytest.mark.django_db

# A call of each tool that needs sign-in, and that would be refused for something else too: its words
# say nothing, or it names a record or a channel that is not there.
CALLS: dict[str, dict[str, Any]] = {
    "post_parcel": {"channel": "no-such-channel", "title": " ", "brief": "\u200b", "done_when": ""},
    "take_parcel": {"parcel": "P-22222222222"},
    "hand_in": {"parcel": "P-22222222222", "action": "deliver", "result": "Secret: sk-live-0123456789abcdef"},
    "settle_parcel": {"parcel": "P-22222222222", "action": "accept"},
    "broadcast": {"channel": "no-such-channel", "text": " "},
    "raise_beacon": {"channel": "no-such-channel", "question": "\u3164"},
    "answer_beacon": {"beacon": "B-22222222222", "answer": " "},
    "settle_beacon": {"beacon": "B-22222222222", "action": "close"},
    "report_sighting": {"record": "P-22222222222", "category": "helpful"},
    "request_authority": {"reason": "retries", "amount": 30},
    "claim_deed": {"server": "io.github.nobody/nothing"},
}


def test_a_tool_needs_sign_in_exactly_when_the_reference_says() -> None:
    if not have_shared():
        pytest.skip("../shared/spec/tools.json is not beside the repository")
    reference = json.loads((SHARED / "spec" / "tools.json").read_text())
    wanted = {t["name"] for t in reference["tools"] if t["signInRequired"]}
    assert wanted, "the reference names no tool that needs sign-in"
    assert {name for name, tool in TOOLS.items() if tool.sign_in} == wanted & set(TOOLS)


def test_every_tool_that_needs_sign_in_is_tried_here() -> None:
    assert {name for name, tool in TOOLS.items() if tool.sign_in} == set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_without_sign_in_the_call_is_refused_for_that_first(name: str) -> None:
    tool = TOOLS[name]
    tool.args.model_validate(CALLS[name])  # the schema lets it through: the desk decides
    r = visit(new_passport(), name, **CALLS[name])
    assert r.is_error is True and outcome(r) == "refused:sign-in", r.structured
    assert r.structured["say"] == tool.sign_in
    assert not Hold.objects.exists()


@pytest.mark.parametrize("name", sorted(CALLS))
def test_signed_in_the_same_call_goes_on_to_what_else_it_says(name: str) -> None:
    r = visit(agent(f"Signed {name}"[:40]), name, **CALLS[name])
    assert outcome(r) != "refused:sign-in" and r.structured["say"] != TOOLS[name].sign_in, r.structured
