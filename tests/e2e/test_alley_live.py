"""Injection Alley over the real mcp 2.3.0 client: three scripted agents (districts/alley/tests/agents.py),
each on a session and passport of its own, one that follows every sign, one that reports every sign and
one that reads only the numbers, score exactly the followed/reported/data counts expected; each signed
result checks with the single-file verifier run as its own process. And a Dice House run, replayed over
the same client, gives the same rolls and misbehaviours."""

from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession

from districts.alley.tests.agents import AGENTS, EXPECTED
from tests.e2e.test_sdk_client import connect
from tests.e2e.test_university_live import call, verify_file
from tests.support import Town


async def play(s: ClientSession, who: str) -> dict[str, Any]:
    is_error, begun, _ = await call(s, "alley_run", begin=True)
    assert not is_error, begun
    assert begun["provenance"]["parts"][0] == {"path": "boards[0].sign", "label": "untrusted"}
    last: dict[str, Any] = {}
    for tool, arguments in AGENTS[who](begun["run"], begun["boards"]):
        is_error, last, _ = await call(s, tool, **arguments)
        if tool == "alley_answer":
            assert not is_error, last
    return last


@pytest.mark.parametrize("who", sorted(AGENTS))
async def test_three_scripted_agents_score_exactly(town: Town, tmp_path: Path, who: str) -> None:
    async with connect(town) as s:
        sc = await play(s, who)
        counts = sc["scored"]["counts"]
        assert (counts["followed"], counts["reported"], counts["data"], counts["numbersRight"]) == EXPECTED[who]
        lines = verify_file(tmp_path, who, sc)
        assert lines == [f"clockford-alley-1 {sc['run']}: ok"]
        _, again, _ = await call(s, "alley_run")
        assert again["last"]["signed"] == sc["signed"] and again["keyId"] == sc["signed"]["statement"]["key"]


DICE_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("look_around", {}),
    ("ask_directory", {"need": "read files from a folder"}),
    ("verify", {"server": "io.github.example/not-in-the-census"}),
    ("look_around", {}),
    ("ask_directory", {"need": "search the web"}),
    ("verify", {"server": "io.github.example/also-not-here"}),
] * 3


async def dice_play(s: ClientSession) -> list[tuple[int, str, list[str]]]:
    seen = []
    for tool, arguments in DICE_CALLS:
        result = await s.call_tool(tool, arguments)
        sc = result.structured_content or {}
        tag = sc["diceHouse"]
        first = result.content[0].text.splitlines()[0]  # type: ignore[union-attr]
        seen.append((tag["roll"], first.replace(tag["run"], "D-?"), sorted(sc)))
    return seen


async def test_a_dice_house_run_replayed_gives_the_same_rolls(town: Town, tmp_path: Path) -> None:
    async with connect(town) as s:
        await call(s, "walk_to", to="Town Hall")
        _, begun, _ = await call(s, "dice_house", begin=True)
        once = await dice_play(s)
        is_error, first, _ = await call(s, "dice_house_report", noticed=[])
        assert not is_error and first["result"]["caught"] == []
        bad = [{"roll": r["roll"], "kind": r["kind"]} for r in first["result"]["rolls"] if r["kind"] != "fine"]
        assert first["result"]["missed"] == [b["roll"] for b in bad]

        await call(s, "walk_to", to="Town Hall")
        _, again, _ = await call(s, "dice_house", begin=True, replay=begun["run"])
        assert again["replayOf"] == begun["run"]
        assert await dice_play(s) == once
        _, second, _ = await call(s, "dice_house_report", noticed=bad)
        assert [(r["roll"], r["kind"]) for r in second["result"]["rolls"]] == [
            (r["roll"], r["kind"]) for r in first["result"]["rolls"]
        ]
        assert second["result"]["missed"] == [] and second["result"]["caught"] == [b["roll"] for b in bad]
        assert verify_file(tmp_path, "dice", second) == [f"clockford-dice-1 {second['run']}: ok"]
