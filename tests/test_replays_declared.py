"""Which tools replay a retry by request_id comes from two places that must agree: the tool reference
(the tools whose arguments list request_id) and each Tool's own `replays` (clockford/town/replays.py,
run by the desk). No list of names here: both sides are read."""

import json

import pytest

from districts.registry import TOOLS
from tests.support import SHARED, have_shared


def spec_tools_taking_request_id() -> set[str]:
    if not have_shared():
        pytest.skip("../shared/spec/tools.json is not beside the repository")
    reference = json.loads((SHARED / "spec" / "tools.json").read_text())
    return {t["name"] for t in reference["tools"] if any(a["name"] == "request_id" for a in t["arguments"])}


def test_a_tool_replays_exactly_when_it_takes_a_request_id() -> None:
    for name, tool in TOOLS.items():
        assert tool.replays == ("request_id" in tool.args.model_fields), name


def test_every_built_tool_the_reference_gives_a_request_id_replays() -> None:
    wanted = spec_tools_taking_request_id()
    assert wanted, "the reference names no tool taking request_id"
    assert {name for name, tool in TOOLS.items() if tool.replays} == wanted & set(TOOLS)
