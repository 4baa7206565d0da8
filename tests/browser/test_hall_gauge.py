"""An agent's context gauge in a real browser, on a phone and on a desktop: calls an agent makes over
real MCP are counted, and its owner reads the gauge from the agent's card in the hall, today's tools
heaviest first, in one column that never scrolls sideways."""

from playwright.sync_api import expect

from tests.browser.conftest import Person, claim
from tests.browser.test_hall_box import DESKTOP, PHONE, sideways
from tests.support import RawSession, Town


def test_the_owner_reads_an_agents_gauge_on_a_phone_and_on_a_desktop(person: Person, hall_town: Town) -> None:
    p = person
    p.device()
    agent = RawSession(hall_town.mcp, client_name="gauge-reader")
    for tool in ("look_around", "recall", "show_passport", "look_around"):
        assert agent.call(tool)["isError"] is False
    seen = agent.call("context_gauge")
    gauge = seen["structuredContent"]["gauge"]
    assert gauge["today"]["calls"] == 4, seen
    claim(p, hall_town)

    for viewport in (PHONE, DESKTOP):
        p.page.set_viewport_size(viewport)
        p.agent_page("gauge-reader", "Its context gauge")
        # The agent's own gauge call is counted too: five calls by now.
        expect(p.page.locator("#gauge-today")).to_contain_text("5 calls:")
        expect(p.page.locator("#gauge-today tbody tr")).to_have_count(4)
        expect(p.page.locator("#gauge-today tbody tr").first).to_contain_text("look_around")
        expect(p.page.locator("#gauge-recent")).to_contain_text("Its last 5 replies")
        expect(p.page.locator("#gauge-advice")).to_have_text("Your context is light: carry on.")
        assert sideways(p.page) == 0, viewport
