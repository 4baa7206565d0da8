"""The spec's three example errands run to the end against a live town while a person approves their
notices in the hall, in Chromium, with a passkey (issue: what waits for a person).

errand.py (mcp 1.28) and errand.ts (node 22, the SDK v2 client) are started with --wait-for-yes: each
offers its notice, is held, polls show_passport, and once the owner allows the hold in the hall makes
exactly the same call again, which publishes the notice. errand.sh has no such flag: it runs to the
end with its notice held and shows the hold in its passport. The scripts are run unchanged.
"""

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Person, claim
from tests.e2e.test_examples import EXAMPLES, mcp128_venv, node22
from tests.support import RawSession, Town, have_shared

NOTICE = "Looking for a Postgres MCP server with read-only roles. Recommendations welcome."
HELD = re.compile(r"Held for your person: (H-\w+), waits until \S+\.")


@pytest.fixture(scope="module")
def errands_town(hall_town: Town) -> Iterator[Town]:
    if not have_shared():
        pytest.skip("../shared/spec/examples is not beside the repository")
    hall_town.manage("census", "ensure")
    yield hall_town


def start(town: Town, cmd: list[str]) -> "subprocess.Popen[str]":
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLOCKFORD_")}
    env["CLOCKFORD_URL"] = town.mcp
    return subprocess.Popen(cmd, env=env, cwd=EXAMPLES, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def allow_every_notice(p: Person, want: int, deadline: float) -> list[str]:
    """As the owner: open each held notice in the queue and allow it with the passkey."""
    allowed: list[str] = []
    while len(allowed) < want and time.monotonic() < deadline:
        p.goto("/hall/")
        rows = p.page.locator("#queue [data-item^='H-']")
        ids = [i for i in rows.evaluate_all("rs => rs.map(r => r.dataset.item)") if i not in allowed]
        if not ids:
            time.sleep(0.5)
            continue
        p.goto(f"/hall/holds/{ids[0]}")
        expect(p.page.locator('pre.words[data-field="text"]')).to_have_text(NOTICE)
        p.page.click("button:has-text('Allow with your passkey')")
        expect(p.page.locator("#outcome")).to_have_text("Decided: allowed")
        allowed.append(ids[0])
    return allowed


def test_the_three_errands_run_to_the_end_while_a_person_approves(person: Person, errands_town: Town) -> None:
    for cmd in ("bash", "curl", "jq"):
        if shutil.which(cmd) is None:
            pytest.skip(f"errand.sh needs {cmd}")
    ts, py = node22(), str(mcp128_venv())
    p = person
    p.device()
    claim(p, errands_town)

    runs = {
        "py": start(errands_town, [py, str(EXAMPLES / "errand.py"), "--wait-for-yes"]),
        "ts": start(errands_town, [*ts, "--wait-for-yes"]),
        "sh": start(errands_town, ["bash", str(EXAMPLES / "errand.sh")]),
    }
    try:
        # errand.sh does not wait: it ends with its notice held and its passport showing the hold.
        out, err = runs["sh"].communicate(timeout=120)
        assert runs["sh"].returncode == 0, err
        sh = out.splitlines()
        held_sh = HELD.fullmatch(sh[-2])
        assert held_sh, out
        harbour = json.loads(sh[-1])
        assert harbour["frozen"] is False
        assert [(h["id"], h["tool"], h["status"]) for h in harbour["held"]] == [
            (held_sh.group(1), "post_notice", "held")
        ]

        # The owner allows all three notices, the waiting errands' among them.
        allowed = allow_every_notice(p, 3, time.monotonic() + 120)
        assert len(allowed) == 3 and held_sh.group(1) in allowed

        outputs = {}
        for name in ("py", "ts"):
            out, err = runs[name].communicate(timeout=120)
            assert runs[name].returncode == 0, f"{name}: {err}\n{out}"
            outputs[name] = out.splitlines()
        for name, lines in outputs.items():
            held = HELD.fullmatch(lines[-2])
            assert held and held.group(1) in allowed, f"{name}: {lines}"
            assert re.fullmatch(r"Notice N-\w+ is pinned on the Tavern board\.", lines[-1]), f"{name}: {lines}"
    finally:
        for run in runs.values():
            if run.poll() is None:
                run.kill()
                run.communicate()

    # Exactly the two allowed-and-repeated notices are on the board; errand.sh's waits its hour unused.
    reader = RawSession(errands_town.mcp, client_name="board-reader")
    board = reader.call("read_notices")["structuredContent"]["notices"]
    assert [n["text"] for n in board] == [NOTICE, NOTICE]
    reader.delete()
