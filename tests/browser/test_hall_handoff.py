"""The hand-off, from a cold start in a real browser: the agent's held post_notice reply carries
hallUrl; its person, signed out, opens that link, signs in with a passkey and lands on that very hold;
allows it; "Next" opens the letter that also waits; the page, in view, marks it read (its script posts
the page's form: the page's GET alone reads nothing). Then edit and allow: the
person rewrites the words of a second held notice, allows their own, and exactly those are published
while the agent's words stay held.

With CLOCKFORD_SHOTS=<folder>, each page the person sees is also kept as a picture, 390 and 1280 wide."""

import os
import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.conftest import Person, claim
from tests.support import RawSession, Town

NOTICE = "Lanterns at the \u200bwell at noon."
MINE = "Lanterns at the well at dusk."


def shot(p: Person, name: str) -> None:
    folder = os.environ.get("CLOCKFORD_SHOTS")
    if not folder:
        return
    for width in (390, 1280):
        p.page.set_viewport_size({"width": width, "height": 900})
        p.page.screenshot(path=str(Path(folder) / f"{name}-{width}.png"), full_page=True)
    p.page.set_viewport_size({"width": 390, "height": 844})


def test_the_link_in_a_held_reply_brings_the_person_to_the_hold_and_on_to_the_letter(
    person: Person, hall_town: Town
) -> None:
    p = person
    p.device()
    agent = RawSession(hall_town.mcp, client_name="errand-runner")
    hall = agent.call("look_around")["structuredContent"]["hall"]
    assert hall == {"url": f"http://localhost:{hall_town.port}/hall/", "claimed": False}

    # Claimed, the owner lands on what waits.
    claim(p, hall_town)
    assert agent.call("look_around")["structuredContent"]["hall"]["claimed"] is True
    p.page.click("text=Sign out")
    expect(p.page.locator("h1")).to_have_text("Welcome to the hall")
    expect(p.page.locator("main")).not_to_contain_text("Make an account")
    shot(p, "front-owned")

    letter = agent.call("send_letter", {"subject": "Errand done", "body": "The lanterns are lit."})
    letter_id = letter["structuredContent"]["id"]
    assert letter["structuredContent"]["hallUrl"] == f"http://localhost:{hall_town.port}/hall/letters/{letter_id}"
    held = agent.call("post_notice", {"text": NOTICE})
    assert held["isError"] is True
    hold_id = held["structuredContent"]["hold"]["id"]
    link = held["structuredContent"]["hallUrl"]
    assert link == f"http://localhost:{hall_town.port}/hall/holds/{hold_id}"

    # Signed out, the link goes to the front door, which brings the person back after the passkey.
    p.page.goto(link)
    expect(p.page.locator("h1")).to_have_text("Welcome to the hall")
    expect(p.page.locator("main")).to_contain_text("You will come back to the page you opened")
    p.page.click("button:has-text('Sign in with a passkey')")
    expect(p.page.locator("h1")).to_have_text("Your agent wants to publish a notice on the Tavern board")
    assert p.page.url == link
    expect(p.page.locator("#nav-waiting")).to_have_text("Waiting 2")
    expect(p.page.locator("details.raw summary")).to_have_text(
        "The arguments as JSON (hidden characters drawn as tokens)"
    )
    expect(p.page.locator("time.when").first).to_contain_text(" UTC")
    # Beside UTC, the person's own time, in the same format.
    p.cdp.send("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Kolkata"})
    p.page.reload()
    expect(p.page.locator(".when-here").first).to_have_text(
        re.compile(r"^ \(\d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d \S+ your time\)$")
    )
    shot(p, "hold")

    p.page.click("button:has-text('Allow with your passkey')")
    expect(p.page.locator("#outcome")).to_have_text("Decided: allowed")
    expect(p.page.locator(".flash")).to_contain_text(
        re.compile(r"until \d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC \(.* your time\)\.")
    )
    expect(p.page.locator("#nav-waiting")).to_have_text("Waiting 1")
    shot(p, "hold-allowed")
    p.page.click("#next")
    expect(p.page.locator("h1")).to_have_text("A letter from your agent")
    assert p.page.url.endswith(f"/hall/letters/{letter_id}")
    expect(p.page.locator("#outcome")).to_have_text("Read")
    expect(p.page.locator(".flash")).to_have_text("Marked read now that you have opened it.")
    assert p.page.url.endswith(f"/hall/letters/{letter_id}")
    expect(p.page.locator("main")).to_contain_text("Nothing else waits for you.")
    expect(p.page.locator("#nav-waiting")).to_have_text("Waiting")
    shot(p, "letter-read")
    shown = agent.call("show_passport")["structuredContent"]
    assert shown["letters"] == {"held": 0, "read": 1, "declined": 0}
    assert {h["id"]: h["status"] for h in shown["harbour"]["held"]}[hold_id] == "allowed"

    # Edit and allow: a second notice, rewritten by its person.
    second = agent.call("post_notice", {"text": "Lanterns at the well at midnight."})
    p.page.goto(second["structuredContent"]["hallUrl"])
    box = p.page.locator("#rewrite-text")
    expect(box).to_have_value("Lanterns at the well at midnight.")
    box.fill(MINE)
    p.page.click("button:has-text('Allow your words with your passkey')")
    expect(p.page.locator("main")).to_contain_text("These are your words.")
    expect(p.page.locator('pre.words[data-field="text"]')).to_have_text(MINE)
    shot(p, "hold-rewritten")
    listed = agent.call("show_passport")["structuredContent"]
    mine = listed["harbour"]["held"][0]
    assert mine["words"] == {"text": MINE} and mine["rewrites"] == second["structuredContent"]["hold"]["id"]
    went = agent.call("post_notice", {"text": MINE})
    assert went["isError"] is False, went
    notices = agent.call("read_notices")["structuredContent"]["notices"]
    assert MINE in [n["text"] for n in notices] and "Lanterns at the well at midnight." not in [
        n["text"] for n in notices
    ]
    still = agent.call("post_notice", {"text": "Lanterns at the well at midnight."})
    assert still["isError"] is True and still["structuredContent"]["hold"]["status"] == "held"

    p.goto("/hall/agents")
    expect(p.page.locator("h2", has_text="errand-runner")).to_be_visible()
    shot(p, "agents")
    p.goto("/hall/plans/PL-NOSUCHPLAN")
    expect(p.page.locator("h1")).to_have_text("Not found")
    agent.delete()
