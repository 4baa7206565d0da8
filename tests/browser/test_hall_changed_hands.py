"""A decision page open in one tab while, in another tab of the same browser, someone else signs in
(hall/drawn.py). Allow, Refuse, rewrite and ending a plan then decide nothing, and each says in plain words
that this browser is now signed in as someone else and how to go on, without a word of the other person's
business; signed in again as the right person, the same page decides. At a phone's width and a laptop's,
each page fitting the window."""

from playwright.sync_api import expect

from tests.browser.conftest import Person, at_each_width, fits, held, invite_link, second_tab, status_of
from tests.support import RawSession, Town

SOMEONE_ELSE = (
    "This browser is now signed in as someone else: another tab or window signed in since this page was drawn. "
    "Nothing was decided and nothing changed. To go on, sign out, sign in with the passkey of the person this "
    "page was for, and open it again."
)


def test_a_decision_after_someone_else_signed_in_in_another_tab_says_so(person: Person, hall_town: Town) -> None:
    at_each_width(
        person, hall_town, lambda device, agent, width: changed_hands(person, hall_town, device, agent, width)
    )


def changed_hands(p: Person, town: Town, device: str, agent: RawSession, width: int) -> None:
    # A held call (held for publishing, so its words may be rewritten), a plan of another agent in force
    # (its agent's held calls offer no rewrite) with its page open in a tab of its own, and the held call
    # open in the first tab.
    hold = held(agent, f"Lanterns at the well at noon ({width}).")
    planner = RawSession(town.mcp, client_name="planner")
    planner.call("look_around")
    declared = planner.call("declare_plan", {"steps": [{"tool": "remember", "times": 5}], "hours": 3})
    assert declared["isError"] is False, declared
    plan = declared["structuredContent"]["plan"]["id"]
    p.goto(f"/hall/plans/{plan}")
    p.page.click("button:has-text('Approve with your passkey')")
    expect(p.page.locator("#end")).to_have_text("End it now")
    plan_tab = p.context.new_page()
    plan_tab.set_viewport_size({"width": width, "height": 900})
    plan_tab.goto(f"{p.base}/hall/plans/{plan}")
    p.goto(f"/hall/holds/{hold}")

    # In another tab, Olive signs out and Bea makes an account with an invite, and is signed in.
    tab = second_tab(p, device)
    tab.goto(f"{p.base}/hall/")
    tab.click("button:has-text('Sign out')")
    tab.goto(invite_link(town))
    tab.fill("#name", f"Bea {width}")
    tab.click("text=Make a passkey and an account")
    expect(tab.locator("footer")).to_contain_text(f"Signed in as Bea {width}")

    # Every button of the first tab's page says what happened, and decides nothing.
    for form, button in (
        ("form.ceremony:not(.refuse):not(.rewrite)", "Allow with your passkey"),
        ("form.ceremony.refuse", "Refuse with your passkey"),
        ("form.ceremony.rewrite", "Allow your words with your passkey"),
    ):
        p.page.click(f"button:has-text('{button}')")
        expect(p.page.locator(f"{form} .say")).to_have_text(SOMEONE_ELSE)
        fits(p.page, width)
    assert status_of(agent, hold) == "held"
    # Ending the plan, a plain form, answers with a page that says the same, and the plan stays in force.
    plan_tab.click("button:has-text('End it now')")
    expect(plan_tab.locator("h1")).to_have_text("Not done")
    expect(plan_tab.locator("main [role=alert]")).to_have_text(SOMEONE_ELSE)
    fits(plan_tab, width)
    plan_tab.close()

    # As the words say: sign out, sign in as the person the call is for, and the page decides.
    tab.goto(f"{p.base}/hall/")
    tab.click("button:has-text('Sign out')")
    tab.close()
    p.page.reload()
    p.page.click("button:has-text('Sign in with a passkey')")
    expect(p.page.locator("h1")).to_have_text("Your agent wants to publish a notice on the Tavern board")
    p.page.click("button:has-text('Refuse with your passkey')")
    expect(p.page.locator("#outcome")).to_have_text("Decided: refused")
    assert status_of(agent, hold) == "refused"
    p.goto(f"/hall/plans/{plan}")
    expect(p.page.locator("#end")).to_have_text("End it now")
    fits(p.page, width)
