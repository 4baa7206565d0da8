"""A person decides a held call once under a plan, in a real browser. An agent's plan allows one notice;
two notices wait for the person's yes while both fit that step. The person allows one, which spends the
step; the other, repeated, is now off the plan too, so its page says so beside the plan (at phone and
desktop widths), and the one yes the person then gives lets it through, instead of asking them again."""

from playwright.sync_api import expect

from tests.browser.conftest import Person, owner_with_agent
from tests.browser.test_hall_box import DESKTOP, PHONE, sideways, tables_wider
from tests.support import RawSession, Town

OFF_THE_PLAN = (
    "Your agent works under a plan you approved, and this call is not on it, or has used up the times the plan "
    "allows. Allowing it lets this one call through and adds nothing to the plan."
)


def held(agent: RawSession, text: str) -> dict[str, str]:
    result = agent.call("post_notice", {"text": text})
    assert result["isError"] is True, result
    hold = result["structuredContent"]["hold"]
    assert hold["status"] == "held", hold
    return dict(hold)


def allow(p: Person, hold_id: str) -> None:
    p.goto(f"/hall/holds/{hold_id}")
    p.page.click("button:has-text('Allow with your passkey')")
    expect(p.page.locator(".flash")).to_contain_text("Allowed. Your agent may make exactly this call once, until")


def in_view(p: Person, cells: str) -> bool:
    """Whether every cell `cells` finds is drawn within the page's width (none cut off at its right)."""
    rights = p.page.locator(cells).evaluate_all("(cells) => cells.map((c) => c.getBoundingClientRect().right)")
    width = p.page.evaluate("() => document.documentElement.clientWidth")
    return bool(rights) and all(right <= width + 1 for right in rights)


def test_a_call_that_went_off_the_plan_while_it_waited_is_decided_once(person: Person, hall_town: Town) -> None:
    p = person
    agent = owner_with_agent(p, hall_town)

    declared = agent.call("declare_plan", {"steps": [{"tool": "post_notice", "times": 1}], "hours": 1})
    plan_id = declared["structuredContent"]["plan"]["id"]
    p.goto(f"/hall/plans/{plan_id}")
    # Every column the person decides on is in view on a phone, with no table scrolling sideways.
    for viewport in (PHONE, DESKTOP):
        p.page.set_viewport_size(viewport)
        assert sideways(p.page) == 0 and tables_wider(p.page) == [], viewport
        assert in_view(p, "table.steps td")
    p.page.click("button:has-text('Approve with your passkey')")
    expect(p.page.locator(".flash")).to_be_visible()
    p.page.set_viewport_size(PHONE)
    assert sideways(p.page) == 0 and tables_wider(p.page) == []
    assert in_view(p, "table.steps td") and p.page.locator("table.steps td").count() == 6  # with Left
    assert agent.call("show_passport")["structuredContent"]["plans"]["inForce"]["id"] == plan_id

    first = held(agent, "Lanterns at the well at noon.")
    second = held(agent, "Bread at the market at one.")
    # Both fit the plan's one notice; each waits only for the yes every public post waits for.
    p.goto(f"/hall/holds/{first['id']}")
    expect(p.page.locator("#plan")).to_have_count(0)

    allow(p, second["id"])
    went = agent.call("post_notice", {"text": "Bread at the market at one."})
    assert went["isError"] is False, went  # the step's one use is spent

    # The first notice, repeated while it waits, is the same hold, and off the plan now.
    again = agent.call("post_notice", {"text": "Lanterns at the well at noon."})
    assert again["isError"] is True and again["structuredContent"]["hold"]["id"] == first["id"], again
    p.goto(f"/hall/holds/{first['id']}")
    expect(p.page.locator("main")).to_contain_text(OFF_THE_PLAN)
    expect(p.page.locator("section:has(#plan)")).to_contain_text(f"What the plan {plan_id} allows:")
    for viewport in (PHONE, DESKTOP):
        p.page.set_viewport_size(viewport)
        assert sideways(p.page) == 0 and tables_wider(p.page) == [], viewport
        assert in_view(p, "#plan ~ table.steps td, section:has(#plan) table.steps td")

    # One yes, and the call goes through: the person is not asked again.
    allow(p, first["id"])
    through = agent.call("post_notice", {"text": "Lanterns at the well at noon."})
    assert through["isError"] is False, through
    assert through["structuredContent"]["harbour"]["hold"] == first["id"]
    agent.delete()
