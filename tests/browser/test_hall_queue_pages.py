"""The queue a page at a time, in a real browser: the owner with more than a page of things waiting sees
fifty, the count of them all, and a link to the older ones; left open on the second page, the page
follows what happens elsewhere (a new call held, a letter read on the first page) without a reload, and
stays the second page. At a laptop's width and a phone's, nothing is wider than the screen."""

import time

from playwright.sync_api import expect

from tests.browser.conftest import Person, owner_with_agent
from tests.support import Town

TITLE = "Waiting for you · Clockford"
OLD_LETTERS = 59

# Letters the owner's agent sent ten minutes ago and more, a second apart (bulk, as the town would
# keep them: sending sixty through /mcp would only make the test slower).
LETTERS = f"""
from datetime import timedelta
from django.utils import timezone
from districts.post_office.models import Letter
from hall.agents import agents_of
from hall.claim import town_owner
owner = town_owner()
agent = agents_of(owner).get()
start = timezone.now() - timedelta(minutes=10)
Letter.objects.bulk_create([
    Letter(id=f"L-OLD{{i:06d}}", passport=agent, account=agent.account, subject=f"Errand {{i}}", body="Done.",
           status="held", sent_at=start + timedelta(seconds=i))
    for i in range({OLD_LETTERS})
])
print("made")
"""


def rows(p: Person) -> list[str]:
    return [str(r.get_attribute("data-item")) for r in p.page.locator("#queue [data-item]").all()]


def fits(p: Person) -> None:
    wide = p.page.evaluate("document.documentElement.scrollWidth")
    assert wide <= p.page.viewport_size["width"], wide  # type: ignore[index]


def test_the_second_page_follows_the_queue_live(person: Person, hall_town: Town) -> None:
    p = person
    agent = owner_with_agent(p, hall_town)
    sent = agent.call("send_letter", {"subject": "The census", "body": "Three servers are new since Monday."})
    assert sent["isError"] is False, sent
    assert "made" in hall_town.manage("shell", "--no-imports", "-c", LETTERS).stdout
    newest = sent["structuredContent"]["id"]
    total = OLD_LETTERS + 1
    oldest_first = [f"L-OLD{i:06d}" for i in range(OLD_LETTERS)]
    every = [newest, *reversed(oldest_first)]

    p.page.set_viewport_size({"width": 1280, "height": 900})
    p.goto("/hall/")
    expect(p.page.locator("#queue-count")).to_have_text(
        f"{total} things wait for you, the newest first; this page shows 1 to 50."
    )
    expect(p.page).to_have_title(f"({total}) {TITLE}")
    assert rows(p) == every[:50]
    expect(p.page.locator("#queue-pages")).to_contain_text("Page 1 of 2")
    fits(p)
    p.page.get_by_role("link", name="Older").click()
    expect(p.page.locator("#queue-pages")).to_contain_text("Page 2 of 2")
    assert p.page.url.endswith("/hall/?page=2")
    assert rows(p) == every[50:]
    p.sockets_settled()
    p.page.evaluate("window.stillThisPage = true")

    # A call held elsewhere: the newest, on page one, pushes page one's last row onto this page.
    asked = time.monotonic()
    held = agent.call("post_notice", {"text": "Lanterns at the well."})
    assert held["structuredContent"]["hold"]["status"] == "held"
    expect(p.page.locator("#queue-count")).to_have_text(
        f"{total + 1} things wait for you, the newest first; this page shows 51 to {total + 1}."
    )
    expect(p.page).to_have_title(f"({total + 1}) {TITLE}")
    assert rows(p) == every[49:]
    took = time.monotonic() - asked

    # The newest letter read in another tab (page one): the row pushed on goes back to page one.
    other = p.context.new_page()
    other.goto(p.base + f"/hall/letters/{newest}")
    # The page marks it read once it is in view (static/hall/read.js).
    expect(other.get_by_text("You have read this letter.")).to_be_visible()
    expect(p.page.locator("#queue-count")).to_have_text(
        f"{total} things wait for you, the newest first; this page shows 51 to {total}."
    )
    assert rows(p) == every[50:]
    other.close()
    assert p.page.evaluate("window.stillThisPage") is True
    assert p.page.url.endswith("/hall/?page=2")
    print(f"\nthe second page followed a new hold after {took:.2f} s")

    # At a phone's width: the count, the rows and the links to other pages fit the screen.
    p.page.set_viewport_size({"width": 375, "height": 812})
    expect(p.page.locator("#queue-pages")).to_be_visible()
    fits(p)
    p.page.get_by_role("link", name="Newer").click()
    expect(p.page.locator("#queue-pages")).to_contain_text("Page 1 of 2")
    assert len(rows(p)) == 50
    fits(p)
    p.sockets_settled()
