"""Every fact about a tool is on its Tool (ARCHITECTURE "The layout"): what plans, reports and the
hall read is declared there and derived from the registry, and the declarations hold together."""

import string

from clockford.town import plans, reports
from clockford.town.tooling import registry
from districts.registry import DISTRICTS, TOOLS

# DECISIONS 2: the 13 tools a plan's step may name.
PLANNABLE = {
    "remember",
    "forget",
    "post_notice",
    "broadcast",
    "raise_beacon",
    "post_parcel",
    "listen",
    "take_parcel",
    "hand_in",
    "settle_parcel",
    "answer_beacon",
    "settle_beacon",
    "report_sighting",
}


def test_the_core_reads_the_one_registry() -> None:
    assert registry() is TOOLS


def test_plans_govern_the_tools_decisions_2_names() -> None:
    assert {t.name for t in plans.plannable()} == PLANNABLE


def test_a_record_argument_is_an_argument_of_its_tool() -> None:
    named = {t.name: t.record_arg for t in TOOLS.values() if t.record_arg}
    assert named == {
        "take_parcel": "parcel",
        "hand_in": "parcel",
        "settle_parcel": "parcel",
        "answer_beacon": "beacon",
        "settle_beacon": "beacon",
        "report_sighting": "record",
    }
    for name, arg in named.items():
        assert arg in TOOLS[name].args.model_fields, name


def test_actions_are_read_from_the_action_argument() -> None:
    assert {t.name: t.actions for t in TOOLS.values() if t.actions} == {
        "hand_in": ("deliver", "give_back"),
        "settle_parcel": ("accept", "return", "withdraw", "release"),
        "settle_beacon": ("close", "dismiss"),
    }


def test_every_call_that_can_wait_says_what_it_asks() -> None:
    """A call waits when it changes things (publish with yes, Safe Harbour, probation, a plan) unless
    it writes to people, or when its reply carries private content (the reply gate). The hall then
    says what it asks in plain words; its placeholders name the tool's own arguments."""
    for tool in TOOLS.values():
        can_wait = (tool.writes and not tool.for_people) or tool.private_reply
        if not can_wait:
            continue
        assert tool.asks is not None, f"{tool.name} can wait but does not say what it asks"
        plain, detailed = tool.asks
        assert plain and detailed
        named = {f for _, f, _, _ in string.Formatter().parse(detailed) if f}
        assert named <= set(tool.args.model_fields), (tool.name, named)


def test_a_districts_tools_are_at_its_place() -> None:
    for district in DISTRICTS:
        for tool in district.tools:
            # A tool that does not move the agent (context_gauge) has no place to walk it to.
            assert tool.place == (district.name if tool.moves else None), tool.name
    everywhere = set(TOOLS) - {t.name for d in DISTRICTS for t in d.tools}
    assert everywhere == {"look_around", "walk_to", "enter"}
    assert all(TOOLS[name].place is None for name in everywhere)


def test_a_report_freezes_what_each_tool_declares() -> None:
    frozen = reports.frozen_tools()
    assert len(frozen) == len(set(frozen)) == sum(1 for t in TOOLS.values() if t.freezes)
    assert "remember (overwriting a key)" in frozen and "send_letter" not in frozen
