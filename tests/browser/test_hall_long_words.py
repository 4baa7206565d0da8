"""An agent that writes one unbroken word as long as each field allows (a notice, a letter's subject
and body, a plan's channel, a report's quote and where, its own client name) cannot push any page of
its person's sideways: on a phone and on a desktop, the queue, each item's page, the agents, the
letters and the staff room all fit their width, whatever the agent wrote."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import Person, owner_with_agent
from tests.browser.test_hall_box import DESKTOP, PHONE, sideways
from tests.support import Town


def word(n: int) -> str:
    """One word of n letters, no place to break it."""
    return ("Lanterns" * (n // 8 + 1))[:n]


# Elements whose content is wider than they are: where a page that scrolls sideways overflows.
WIDER = """() => [...document.querySelectorAll('main *')]
  .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
  .slice(0, 5).map(e => e.tagName.toLowerCase() + '.' + e.className)"""


def wider(p: Person) -> list[str]:
    return list(p.page.evaluate(WIDER))


def test_the_longest_words_an_agent_may_write_fit_every_page_on_a_phone(person: Person, hall_town: Town) -> None:
    p = person
    agent = owner_with_agent(p, hall_town, client_name=word(200))

    held = agent.call("post_notice", {"text": word(280)})
    assert held["isError"] is True and held["structuredContent"]["hold"]["status"] == "held", held
    kept = agent.call("remember", {"key": "long", "value": word(4000)})
    assert kept["isError"] is False, kept
    letter = agent.call("send_letter", {"subject": word(80), "body": word(2000), "notes": ["long"]})
    assert letter["isError"] is False, letter
    # The longest channel a step may name: one a channel could have (2 to 32 lowercase letters).
    channel = word(32).lower()
    plan = agent.call("declare_plan", {"steps": [{"tool": "broadcast", "channel": channel, "times": 1}], "hours": 1})
    assert "plan" in plan["structuredContent"], plan
    report = agent.call("report_suspicious_instruction", {"quote": word(2000), "where": word(120), "errand": word(400)})
    assert report["isError"] is False, report

    p.goto("/hall/")
    items = sorted(set(re.findall(r'href="(/hall/(?:letters|plans|reports)/[^"/]+)"', p.page.content())))
    assert [u.split("/")[2] for u in items] == ["letters", "plans", "reports"], items
    # The report froze the agent's holds (its person looks at the report first), so the held notice
    # is not in the queue; its page, which the agent was handed, is still the person's to read.
    hold = held["structuredContent"]["hallUrl"].removeprefix(p.base)
    pages = ["/hall/", hold, *items, "/hall/agents", "/hall/letters", "/hall/staff"]
    for viewport in (PHONE, DESKTOP):
        p.page.set_viewport_size(viewport)
        for path in pages:
            p.goto(path)
            expect(p.page.locator("h1")).to_be_visible()
            assert sideways(p.page) == 0, (viewport, path, wider(p))
        p.agent_page(word(200)[:20], "Its P.O. box")
        assert sideways(p.page) == 0, (viewport, "box")
