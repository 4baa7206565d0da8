"""The census's tools over real HTTP, on a live town that loaded its demo census the way `./town up`
does (`manage.py census ensure`): look_around, walk_to, enter, ask_directory, verify, signal_kit,
and the protocol errors their bounds give."""

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import RawSession, Town, make_town


@pytest.fixture(scope="module")
def demo_town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    t = make_town(tmp_path_factory.mktemp("census-town"))
    out = t.manage("census", "ensure").stdout
    assert "loaded the demo census (34 made-up servers, labelled demo)" in out
    t.start()
    yield t
    t.close()


@pytest.fixture
def s(demo_town: Town) -> RawSession:
    return RawSession(demo_town.mcp)


def ok(s: RawSession, tool: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    r = s.call(tool, args or {})
    assert r["isError"] is False, r
    return r["structuredContent"]


def test_look_around_shows_the_demo_census_and_its_seal(s: RawSession) -> None:
    town = ok(s, "look_around")["town"]
    assert set(town) == {"census", "servers", "registryEntriesBeforeDedup", "litLamps", "districts", "seal"}
    assert "demo census" in town["census"] and "not the official registry" in town["census"]
    assert town["servers"] == 34 and town["registryEntriesBeforeDedup"] == 37
    assert set(town["seal"]) == {"holds", "root", "note"} and town["seal"]["holds"] == 34
    assert len(town["seal"]["root"]) == 64


def test_an_errand_finds_verifies_enters_and_draws_a_kit(s: RawSession) -> None:
    found = ok(s, "ask_directory", {"need": "read-only postgres database access", "limit": 3})
    assert len(found["results"]) == 3
    best = found["results"][0]
    assert best["name"] == "io.clockford.demo/postgres-readonly"
    assert best["integrity"]["score"] == 100 and best["versions"] == ["1.1.0", "1.0.0", "0.9.0"]
    checked = ok(s, "verify", {"server": best["name"]})
    assert checked["real"] is True and checked["server"]["lot"] == best["lot"]
    entered = ok(s, "enter", {"lot": best["lot"]})
    assert entered["server"] == checked["server"]
    walked = ok(s, "walk_to", {"to": best["name"]})
    assert walked["here"]["lot"] == best["lot"]
    assert ok(s, "look_around")["you"]["place"] == f"lot {best['lot']}"
    kit = ok(s, "signal_kit", {"lot": best["lot"]})
    assert kit["server"] == checked["server"] and kit["from"]["seal"] == ok(s, "look_around")["town"]["seal"]["root"]
    assert ok(s, "remember", {"key": "shortlist", "value": best["name"]})["keys"] == 1


def test_not_in_the_census_is_an_answer_not_an_error(s: RawSession) -> None:
    r = s.call("verify", {"server": "io.github.nobody/nothing"})
    assert r["isError"] is False
    assert r["structuredContent"]["real"] is False and r["structuredContent"]["reason"]


def test_a_lot_out_of_range_is_refused_in_the_towns_voice(s: RawSession) -> None:
    r = s.call("enter", {"lot": 34})
    assert r["isError"] is True
    assert r["structuredContent"]["say"] == "No lot by that number or name. Lots run from 0 to 33."
    assert isinstance(r["structuredContent"]["footstep"], int)


@pytest.mark.parametrize(
    "tool,args,field",
    [
        ("ask_directory", {"need": "weather", "limit": 100}, "limit"),
        ("ask_directory", {"need": "weather", "limit": 0}, "limit"),
        ("ask_directory", {"need": "w"}, "need"),
        ("ask_directory", {"need": "w" * 201}, "need"),
        ("enter", {"lot": -1}, "lot"),
        ("enter", {"lot": ""}, "lot"),
        ("signal_kit", {"lot": True}, "lot"),
        ("verify", {"server": ""}, "server"),
        ("verify", {}, "server"),
    ],
)
def test_arguments_outside_the_schema_are_protocol_errors(
    s: RawSession, tool: str, args: dict[str, Any], field: str
) -> None:
    r = s.call(tool, args)
    assert r["isError"] is True
    assert not r.get("structuredContent")
    text = r["content"][0]["text"]
    assert text.startswith("MCP error -32602: Input validation error: ") and field in text


def test_tools_list_serves_the_census_tools_with_their_bounds(s: RawSession) -> None:
    tools = {t["name"]: t for t in s.rpc("tools/list")["result"]["tools"]}
    assert {"enter", "ask_directory", "verify", "signal_kit"} <= set(tools)
    limit = tools["ask_directory"]["inputSchema"]["properties"]["limit"]
    assert (limit["minimum"], limit["maximum"], limit["default"]) == (1, 25, 8)
    lot = tools["enter"]["inputSchema"]["properties"]["lot"]
    assert {b["type"] for b in lot["anyOf"]} == {"integer", "string"}
    for name in ("enter", "ask_directory", "verify", "signal_kit"):
        ann = tools[name]["annotations"]
        assert ann["readOnlyHint"] is True and ann["openWorldHint"] is False
