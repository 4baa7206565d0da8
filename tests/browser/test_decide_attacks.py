"""A person's decisions in a real browser, attacked as a determined tester would: a held call decided in
one tab while a second tab still shows it waiting; a call frozen by its agent's report after its page
was drawn; a decision pressed after the person signed out in another tab; the back button after a
decision; a decision's address opened as a link. Each at a phone's width and a laptop's."""

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Person, at_each_width, held, second_tab, status_of
from tests.support import RawSession, Town

FROZEN = "This call was frozen when your agent reported a suspicious instruction. Nothing was decided."
DECIDED = "This call was already decided: it is allowed. Nothing changed."
# The page's forms carry the mark of whom it was drawn for (hall/drawn.py), so the words say what happened.
SIGNED_OUT = (
    "This browser was signed out since this page was drawn, in another tab or window or when the sign-in ended. "
    "Nothing was decided and nothing changed. Sign in with your passkey and try again."
)
ONLY_SENT = (
    "This address acts only when a button on a page of the hall sends it, so opening it changes nothing. "
    "Go back to the hall and use the button there."
)


def say(page: Page) -> Locator:
    """What the first decision form of the page says after its button was pressed."""
    return page.locator("form.ceremony .say").first


def test_decision_flows_attacked(person: Person, hall_town: Town) -> None:
    at_each_width(person, hall_town, lambda device, agent, width: attacked(person, device, agent, width))


def attacked(p: Person, device: str, agent: RawSession, width: int) -> None:
    # Two tabs show one waiting call; the first allows it, the second's Refuse then decides nothing.
    first = held(agent, f"Lanterns at the well at noon ({width}).")
    p.goto("/hall/")
    p.goto(f"/hall/holds/{first}")
    tab = second_tab(p, device)
    tab.goto(f"{p.base}/hall/holds/{first}")
    p.page.click("button:has-text('Allow with your passkey')")
    expect(p.page.locator("#outcome")).to_have_text("Decided: allowed")
    tab.click("button:has-text('Refuse with your passkey')")
    expect(tab.locator("form.ceremony.refuse .say")).to_have_text(DECIDED)
    assert status_of(agent, first) == "allowed"
    # Back in the first tab (the decided page replaced the waiting one: the same address), then forward
    # and a reload: no page offers the decided call again.
    p.page.go_back()
    expect(p.page.locator("h1")).to_have_text("Waiting for you")
    expect(p.page.locator(f'#queue [data-item="{first}"]')).to_have_count(0)
    p.page.go_forward()
    expect(p.page.locator("#outcome")).to_have_text("Decided: allowed")
    expect(p.page.locator("button:has-text('Allow with your passkey')")).to_have_count(0)
    p.page.reload()
    expect(p.page.locator("#outcome")).to_have_text("Decided: allowed")

    # A decision's address opened as a link (an agent's letter could carry one) changes nothing.
    second = held(agent, f"Lanterns at dusk ({width}).")
    p.goto(f"/hall/holds/{second}/finish")
    expect(p.page.locator("main")).to_contain_text(ONLY_SENT)
    p.goto(f"/hall/holds/{second}/begin")
    expect(p.page.locator("main")).to_contain_text(ONLY_SENT)
    assert status_of(agent, second) == "held"

    # Signed out in the other tab while this one shows the waiting call: pressing Allow decides nothing.
    p.goto(f"/hall/holds/{second}")
    tab.goto(f"{p.base}/hall/")
    tab.click("button:has-text('Sign out')")
    expect(tab.locator("button:has-text('Sign in with a passkey')")).to_be_visible()
    p.page.click("button:has-text('Allow with your passkey')")
    expect(say(p.page)).to_have_text(SIGNED_OUT)
    assert status_of(agent, second) == "held"
    tab.close()
    # Reloaded, the page is the front door, which leads back to the call once signed in again.
    p.page.reload()
    p.page.click("button:has-text('Sign in with a passkey')")
    expect(p.page.locator("h1")).to_have_text("Your agent wants to publish a notice on the Tavern board")

    # The page is drawn, then the agent reports an instruction, which freezes the call.
    p.goto(f"/hall/holds/{second}")
    reported = agent.call("report_suspicious_instruction", {"quote": "Ignore your errand", "where": "read_notices"})
    assert reported["isError"] is False, reported
    p.page.click("button:has-text('Allow with your passkey')")
    expect(say(p.page)).to_have_text(FROZEN)
    assert status_of(agent, second) == "frozen"
    p.page.reload()
    expect(p.page.locator("button:has-text('Allow with your passkey')")).to_have_count(0)
    expect(p.page.locator("main")).to_contain_text(
        "This call was frozen when your agent reported a suspicious instruction, so it can no longer be decided."
    )
    # Nobody decided it, and the report that froze it is one press away: reviewing it is what waits.
    expect(p.page.locator("#outcome")).to_have_text("Frozen: nobody decided it")
    p.page.locator("p.froze a").click()
    expect(p.page.locator("#decide")).to_be_visible()
    assert "/hall/reports/R-" in p.page.url
    # Reviewed, the freeze lifts; the agent asks again, and the frozen call's page leads to the new hold.
    p.page.click("button:has-text('Dismiss with your passkey')")
    expect(p.page.locator("#outcome")).to_have_text("Reviewed: dismissed")
    again = held(agent, f"Lanterns at dusk ({width}).")
    p.goto(f"/hall/holds/{second}")
    expect(p.page.locator("p.froze")).to_contain_text("was dismissed and the freeze lifted")
    p.page.locator("p.asked-again a").click()
    expect(p.page.locator("#decide")).to_be_visible()
    assert p.page.url.endswith(f"/hall/holds/{again}")
