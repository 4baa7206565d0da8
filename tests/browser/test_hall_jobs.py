"""A job in a real browser (docs/jobs.md): an agent names a job over real MCP, declares a call outside
the town for it and has a notice held; its owner opens the job from the Jobs tab, reads it as a
timeline (the hold linked, the agent's words shown as data), ends it, and the agent's next call naming
it is refused with the sentence that says the person ended it."""

from playwright.sync_api import expect

from tests.browser.conftest import Person, claim
from tests.support import RawSession, Town

ENDED = (
    "The person who runs you ended the job weather-1 in the hall, so calls naming it are refused. "
    "Stop this job; make other calls without this job_id."
)


def test_the_owner_reads_a_job_as_a_timeline_and_ends_it(person: Person, hall_town: Town) -> None:
    p = person
    p.device()
    agent = RawSession(hall_town.mcp, client_name="errand-runner")
    job = {"job_id": "weather-1"}
    assert agent.call("remember", {"key": "plan", "value": "rain?", **job})["isError"] is False
    declared = agent.call(
        "job_outside", {"server": "io.github.acme/weather", "tool": "forecast", "why": "Rain at the gate?", **job}
    )
    assert declared["isError"] is False, declared
    held = agent.call("post_notice", {"text": "Rain tomorrow at the north gate.", **job})
    hold = held["structuredContent"]["hold"]["id"]
    claim(p, hall_town)

    p.page.get_by_role("link", name="Jobs").click()
    p.page.get_by_role("link", name="weather-1").click()
    expect(p.page.locator("h1")).to_have_text("Job weather-1")
    expect(p.page.locator("#job-status")).to_have_text("This job is waiting for you: one of its calls is held.")
    moments = p.page.locator("#timeline li.moment")
    expect(moments).to_have_count(3)
    expect(moments.nth(0)).to_contain_text("remember")
    expect(moments.nth(1)).to_contain_text("A call outside the town: forecast on io.github.acme/weather")
    expect(moments.nth(1).locator("pre.words")).to_have_text("Rain at the gate?")
    expect(moments.nth(2).get_by_role("link", name=hold)).to_be_visible()

    p.page.get_by_role("button", name="End this job").click()
    expect(p.page.locator(".flash")).to_contain_text("Ended. Your agent's next call naming this job is refused")
    expect(p.page.locator("#job-status")).to_contain_text("You ended this job")
    expect(p.page.get_by_role("button", name="End this job")).to_have_count(0)

    refused = agent.call("remember", {"key": "more", "value": "x", **job})
    assert refused["isError"] is True
    assert refused["structuredContent"]["say"] == ENDED
    assert agent.call("remember", {"key": "more", "value": "x"})["isError"] is False
    mine = agent.call("my_jobs", {"job": "weather-1"})["structuredContent"]["jobs"][0]
    assert mine["status"] == "ended" and mine["steps"][-1]["outcome"] == "refused:job-ended"
