"""Runs in a real browser: an agent solves an Arena run and begins a check-up over real MCP; its owner
reads both on the agent's runs page in the hall, on a phone and on a desktop (each task, what the agent
answered, what was right, and the signature, which checks offline), and the public map shows only a
rounded count of runs a day."""

import json
from typing import Any

from playwright.sync_api import expect

from clockford.town import signing
from districts.arena.tests.agents import solve
from tests.browser.conftest import Person, claim
from tests.browser.test_hall_box import DESKTOP, PHONE, sideways
from tests.support import RawSession, Town


def test_the_owner_reads_each_run_with_its_tasks_and_signature(person: Person, hall_town: Town) -> None:
    hall_town.manage("census", "demo")
    p = person
    p.device()
    agent = RawSession(hall_town.mcp, client_name="arena-runner")

    def call(tool: str, **arguments: Any) -> dict[str, Any]:
        result = agent.call(tool, arguments)
        assert result["isError"] is False, result
        return dict(result["structuredContent"])

    begun = call("arena_run", begin=True)
    answers = [{"task": t["task"], "answer": solve(call, t)} for t in begun["tasks"]]
    done = call("arena_answer", answers=answers)
    of = done["result"]["of"]
    assert done["result"]["right"] == of
    check = call("calibration_checkup", begin=True)
    claim(p, hall_town)

    for viewport in (PHONE, DESKTOP):
        p.page.set_viewport_size(viewport)
        p.agent_page("arena-runner", "Its runs")
        run = p.page.locator(f"article.run#{begun['run']}")
        expect(run.locator("h3")).to_contain_text("scored")
        expect(run.locator(".run-summary")).to_contain_text(f"{of} of {of} right")
        expect(run.locator("tr.run-line")).to_have_count(of)
        first = begun["tasks"][0]
        expect(run.locator("tr.run-line").first).to_contain_text(first["ask"])
        expect(run.locator("tr.run-line").first).to_contain_text("right")
        # The signature, folded until asked for; opened, it is the signed result, and it checks.
        signature = run.locator("details.signature")
        signature.locator("summary").click()
        shown = json.loads(signature.locator("pre.signed-result").inner_text())
        assert shown == done["signed"] and signing.verify_signed(shown)
        pending = p.page.locator(f"article.run#{check['checkup']}")
        expect(pending.locator("h3")).to_contain_text("open")
        expect(pending).to_contain_text("Not scored yet")
        assert sideways(p.page) == 0, viewport

    # The public map: one rounded count a day per run district, never a run or a passport.
    p.goto("/")
    for district in ("The Arena", "Injection Alley", "The Dice House", "The Calibration Clinic"):
        expect(p.page.locator(f'li[data-runs="{district}"]')).to_have_text(f"{district}: 0")
    body = p.page.inner_text("body")
    assert begun["run"] not in body and "arena-runner" not in body
