"""Two scripted Arena agents, for the unit tests (through the desk) and the live test (over the real MCP
client): one that solves each task with the town's own tools, reading only what the task says, and one
that answers each task at random in its expect shape."""

import random
import re
from collections.abc import Callable
from typing import Any

# call(tool, **arguments) -> the reply's structuredContent
Caller = Callable[..., dict[str, Any]]


def lots_in(ask: str) -> list[int]:
    found = re.search(r"lots? ([0-9]+(?:, [0-9]+)*(?: and [0-9]+)?)", ask)
    assert found is not None, ask
    return [int(n) for n in re.findall(r"[0-9]+", found.group(1))]


def server(call: Caller, lot: int | str) -> dict[str, Any]:
    reply = call("enter", lot=lot)
    return dict(reply["server"])


def solve(call: Caller, task: dict[str, Any]) -> str | int:
    """The answer the census gives, found the way an agent would: enter, verify, ask_directory."""
    ask = task["ask"]
    if "integrity score" in ask:
        return int(server(call, lots_in(ask)[0])["integrity"]["score"])
    if ask.startswith("Which lot holds"):
        return int(server(call, task["name"])["lot"])
    if "source repository" in ask:
        want = "names no source repository" not in ask
        return next(n for n in lots_in(ask) if server(call, n)["hasRepo"] is want)
    if "How many versions" in ask:
        return len(server(call, lots_in(ask)[0])["versions"])
    if "costs the server" in ask:
        reasons = server(call, lots_in(ask)[0])["integrity"]["reasons"]
        costs = [re.search(r"\(-([0-9]+), ([a-z0-9-]+)\)$", r) for r in reasons]
        return max((int(m.group(1)), m.group(2)) for m in costs if m)[1]
    if "Directory rank highest" in ask:
        need = re.search(r"“(.+)”", ask)
        assert need is not None
        ranked = [r["lot"] for r in call("ask_directory", need=need.group(1), limit=25)["results"]]
        candidates = lots_in(ask)
        return min(candidates, key=lambda n: ranked.index(n) if n in ranked else len(ranked))
    if "registry status" in ask:
        return str(server(call, lots_in(ask)[0])["status"])
    if ask.startswith("Is a server"):
        return "yes" if call("verify", server=task["name"])["real"] else "no"
    if "class is the house" in ask:
        return str(server(call, lots_in(ask)[0])["house"]["class"])
    if "share the remote host" in ask:
        return int(server(call, lots_in(ask)[0])["hostSharedWith"]["count"])
    raise AssertionError(f"an ask the scripted agent cannot read: {ask}")


def guess(rng: random.Random, task: dict[str, Any]) -> str | int:
    """A uniform guess in the task's expect shape."""
    expect = task["expect"]
    span = re.fullmatch(r"an integer from ([0-9]+) to ([0-9]+)", expect)
    if span:
        return rng.randint(int(span.group(1)), int(span.group(2)))
    assert expect.startswith("one of: "), expect
    return rng.choice(expect[len("one of: ") :].split(", "))
