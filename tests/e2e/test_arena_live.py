"""The Arena and the Calibration Clinic with the real mcp 2.3.0 client over HTTP, on a town with the
demo census: a scripted agent that solves each Arena task with the town's own tools (enter, verify,
ask_directory) scores at least 90%; agents that answer at random score what chance predicts; a
check-up is scored with accuracy, Brier and calibration error by bin; every result checks with the
single-file verifier (docs/verify_signature.py, run as its own process)."""

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession

from districts.arena.tests.agents import guess, solve
from tests.e2e.test_sdk_client import connect
from tests.support import Town, verify_file


async def call(s: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await s.call_tool(tool, arguments)
    assert result.structured_content is not None, result
    assert result.is_error is False, result.structured_content["say"]
    return result.structured_content


def chance(expect: str) -> float:
    span = re.fullmatch(r"an integer from ([0-9]+) to ([0-9]+)", expect)
    if span:
        return 1 / (int(span.group(2)) - int(span.group(1)) + 1)
    return 1 / len(expect[len("one of: ") :].split(", "))


def demo_town(town_factory: Callable[..., Town]) -> Town:
    t = town_factory()
    t.manage("census", "demo")
    return t.start()


async def test_a_scripted_agent_solves_the_arena_and_a_random_one_scores_chance(
    town_factory: Callable[..., Town], tmp_path: Path
) -> None:
    town = demo_town(town_factory)
    async with connect(town) as s:
        begun = await call(s, "arena_run", begin=True)
        tasks = begun["tasks"]
        assert len(tasks) >= 8 and begun["run"].startswith("A-")
        found: list[tuple[str, Any]] = []
        # The scripted agent (districts/arena/tests/agents.py) asks the town's tools synchronously; here
        # each of its lookups is made over this client: it runs until it asks for a reply not fetched yet,
        # which is then fetched with a real tools/call, and it runs again.
        replies: dict[str, Any] = {}
        for task in tasks:
            answer = None
            while answer is None:
                try:
                    answer = solve(lambda tool, **a: replies[json.dumps([tool, a], sort_keys=True)], task)
                except KeyError as missing:
                    tool, arguments = json.loads(missing.args[0])
                    replies[missing.args[0]] = await call(s, tool, **arguments)
            found.append((task["task"], answer))
        half = len(found) // 2
        part = await call(s, "arena_answer", answers=[{"task": t, "answer": a} for t, a in found[:half]])
        assert part["answered"] == half and part["left"] == [t for t, _ in found[half:]]
        done = await call(s, "arena_answer", answers=[{"task": t, "answer": a} for t, a in found[half:]])
        result = done["result"]
        assert result["of"] == len(tasks) and result["right"] >= 0.9 * result["of"], result
        assert verify_file(tmp_path, "solved", done) == [f"clockford-arena-1 {begun['run']}: ok"]
        stand = await call(s, "arena_run")
        assert stand["last"]["signed"] == done["signed"]
        verify_file(tmp_path, "stand", stand)

    # Four agents answering at random, each on a passport of its own: together they score what
    # chance predicts, within four standard deviations, and each result states its chance.
    rng = random.Random(11)
    right, expected, variance = 0, 0.0, 0.0
    for i in range(4):
        async with connect(town) as s:
            begun = await call(s, "arena_run", begin=True)
            answers = [{"task": t["task"], "answer": guess(rng, t)} for t in begun["tasks"]]
            done = await call(s, "arena_answer", answers=answers)
            ps = [chance(t["expect"]) for t in begun["tasks"]]
            assert abs(done["result"]["chance"] - sum(ps)) < 0.001
            right += done["result"]["right"]
            expected += sum(ps)
            variance += sum(p * (1 - p) for p in ps)
            verify_file(tmp_path, f"random-{i}", done)
    assert abs(right - expected) <= 4 * variance**0.5, (right, expected, variance)


async def test_a_checkup_is_scored_and_signed(town_factory: Callable[..., Town], tmp_path: Path) -> None:
    town = demo_town(town_factory)
    async with connect(town) as s:
        before = await call(s, "calibration_checkup")
        assert before["last"] is None and "Brier" in before["measures"]
        begun = await call(s, "calibration_checkup", begin=True)
        probes = begun["probes"]
        answers = [{"probe": p["probe"], "answer": "yes", "confidence": 0.6} for p in probes]
        done = await call(s, "calibration_answer", answers=answers)
        result = done["result"]
        assert result["answered"] == result["of"] == len(probes)
        assert [b["count"] for b in result["bins"]] == [0, 0, 0, len(probes), 0]
        assert abs(result["brier"] - sum((0.6 - p["right"]) ** 2 for p in result["probes"]) / len(probes)) < 0.001
        assert abs(result["calibrationError"] - abs(0.6 - result["accuracy"])) < 0.001
        assert verify_file(tmp_path, "checkup", done) == [f"clockford-clinic-1 {begun['checkup']}: ok"]
