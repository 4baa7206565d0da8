"""The public map in Chromium, at 1280 and 390 wide: the town drawn as SVG with an agent's pennant
where it stands; its walk_to moves the pennant on the open page within 2 s, without a reload; a
private call changes nothing on it; and without JavaScript it is a plain page that shows the same.

With CLOCKFORD_MAP_SCREENSHOTS=DIR the screenshots are written there (docs/ keeps the ones the docs show)."""

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_hall_box import sideways
from tests.support import RawSession, Town

PENNANT = "Ada's kite"
WIDTHS = {1280: "wide", 390: "narrow"}


def flag(page: Page, layout: str, district: str) -> object:
    return page.locator(f'svg.map-{layout} g[data-district="{district}"] g[data-pennant="{PENNANT}"]')


@pytest.fixture(scope="module")
def walker(hall_town: Town) -> Iterator[tuple[RawSession, str]]:
    agent = RawSession(hall_town.mcp, client_name="map-walker")
    you = agent.call("look_around")["structuredContent"]["you"]
    hall_town.manage(
        "shell",
        "-c",
        f"from clockford.town.models import Passport; Passport.objects.filter(pk='{you['passport']}').update(pennant=\"{PENNANT}\")",
    )
    agent.call("look_around")
    yield agent, you["place"]


def open_map(browser: Browser, town: Town, width: int, script: bool = True) -> tuple[Page, list[str], list[str]]:
    context = browser.new_context(viewport={"width": width, "height": 900}, java_script_enabled=script)
    page = context.new_page()
    troubles: list[str] = []
    frames: list[str] = []
    page.on("pageerror", lambda e: troubles.append(f"page error: {e}"))
    page.on("console", lambda m: troubles.append(m.text) if m.type == "error" else None)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))

    def headers(response: object) -> None:
        h = response.headers  # type: ignore[attr-defined]
        if h.get("x-frame-options") != "DENY" or "frame-ancestors 'none'" not in h.get("content-security-policy", ""):
            troubles.append(f"framing allowed: {response.url}")  # type: ignore[attr-defined]

    page.on("response", headers)
    page.goto(f"http://127.0.0.1:{town.port}/")
    return page, frames, troubles


def wait_for(frames: list[str], page: Page, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not frames and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert frames, "the page's socket said nothing"


def settled(frames: list[str], page: Page, quiet: float = 1.5) -> int:
    """Wait until the socket has said nothing for `quiet` seconds (three of the watcher's polls, and the
    page's fetch after the last frame), at most ten; the frames heard by then. CI once saw the page's
    "now" change in the 2.5 s after the private calls, its time a second later, with the frames counted
    only after the page was read: a frame still on its way when the page is read must not pass for
    one the private calls caused."""
    deadline = time.monotonic() + 10
    heard, since = len(frames), time.monotonic()
    while time.monotonic() - since < quiet and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        if len(frames) != heard:
            heard, since = len(frames), time.monotonic()
    return heard


@pytest.mark.parametrize("width", sorted(WIDTHS, reverse=True))
def test_a_walk_moves_the_pennant_within_two_seconds_and_a_private_call_changes_nothing(
    browser: Browser, hall_town: Town, walker: tuple[RawSession, str], width: int, tmp_path: Path
) -> None:
    agent, start = walker
    agent.call("walk_to", {"to": start})
    layout = WIDTHS[width]
    other = "narrow" if layout == "wide" else "wide"
    page, frames, troubles = open_map(browser, hall_town, width)
    expect(page.locator("h1")).to_have_text("The town")
    expect(flag(page, layout, start)).to_be_visible()
    expect(page.locator(f"svg.map-{other}")).to_be_hidden()
    expect(page.get_by_role("list", name="The map of the town").get_by_role("listitem")).to_have_count(20)
    wait_for(frames, page)
    page.evaluate("window.stillThisPage = true")
    shots = Path(os.environ.get("CLOCKFORD_MAP_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(shots / f"public-map-{width}.png"), full_page=True)

    # Timed from the walk's reply, when the walk has happened: the call's own time under a loaded
    # machine (CI's) is the client's wait, not the page's.
    agent.call("walk_to", {"to": "The Tavern"})
    walked = time.monotonic()
    while time.monotonic() - walked < 10 and flag(page, layout, "The Tavern").count() == 0:
        page.wait_for_timeout(20)
    took = time.monotonic() - walked
    expect(flag(page, layout, "The Tavern")).to_be_visible()
    assert took < 2.0, f"the pennant took {took:.2f} s to move"
    expect(flag(page, layout, start)).to_have_count(0)
    tavern = page.get_by_role("listitem", name="The Tavern: open; 1 agent here", exact=False).first
    expect(tavern).to_have_attribute("aria-label", f"The Tavern: open; 1 agent here (pennants: “{PENNANT}”).")
    assert page.evaluate("window.stillThisPage") is True  # no reload

    heard = settled(frames, page)
    shown = page.locator("#town-now").inner_html()
    for tool in ("context_gauge", "studios", "market", "embassy"):
        assert agent.call(tool)["isError"] is False
    page.wait_for_timeout(2500)
    assert page.locator("#town-now").inner_html() == shown
    assert len(frames) == heard
    assert troubles == []
    page.context.close()


def test_without_javascript_the_map_is_a_plain_page(
    browser: Browser, hall_town: Town, walker: tuple[RawSession, str]
) -> None:
    agent, _ = walker
    agent.call("walk_to", {"to": "The Post Office"})
    page, frames, troubles = open_map(browser, hall_town, 1280, script=False)
    expect(flag(page, "wide", "The Post Office")).to_be_visible()
    expect(page.get_by_role("heading", name="The day's counts")).to_be_visible()
    page.get_by_role("link", name="Feed", exact=True).click()
    expect(page.locator("h1")).to_have_text("The feed")
    assert frames == [] and troubles == []
    page.context.close()


# The longest unbroken words the public pages can show: a notice's 280 letters, a pennant's 40 (from
# the agent that wrote it), a channel's 32. Written into the town's tables as the Tavern and the
# Switchboard keep what a person approved (the approval itself is tests/browser/test_hall_decisions.py).
LONG_WORDS = """
import datetime as dt
from clockford.town.models import Passport
from districts.switchboard.models import Event
from districts.tavern.models import Notice
now = dt.datetime.now(dt.UTC)
p = Passport.objects.create(issued_at=now, last_seen=now, pennant="P" * 40, place="The Tavern")
Notice.objects.create(id="N-LONGWORDS01", passport=p, pennant="P" * 40, text="N" * 280, at=now)
seq = (Event.objects.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
Event.objects.create(seq=seq, at=now, kind="message", channel="C" * 32, by=p, text="M" * 280)
"""


def test_the_longest_words_fit_the_public_pages_on_a_phone(browser: Browser, hall_town: Town) -> None:
    hall_town.manage("shell", "-c", LONG_WORDS)
    page, _, troubles = open_map(browser, hall_town, 390, script=False)
    for path in ("/", "/feed"):
        page.goto(f"http://127.0.0.1:{hall_town.port}{path}")
        if path == "/feed":
            expect(page.locator("ol.feed")).to_contain_text("N" * 280)
            expect(page.locator("ol.feed")).to_contain_text("C" * 32)
            expect(page.locator("ol.feed")).to_contain_text("P" * 40)
        assert sideways(page) == 0, path
    assert troubles == []
    page.context.close()


@pytest.mark.parametrize("width", sorted(WIDTHS, reverse=True))
def test_a_page_the_town_does_not_have_says_where_to_go(browser: Browser, hall_town: Town, width: int) -> None:
    page, _, troubles = open_map(browser, hall_town, width, script=False)
    response = page.goto(f"http://127.0.0.1:{hall_town.port}/map")
    assert response is not None and response.status == 404
    expect(page.locator("h1")).to_have_text("Not found")
    assert sideways(page) == 0
    page.get_by_role("link", name="See the town's map").click()
    expect(page).to_have_url(f"http://127.0.0.1:{hall_town.port}/")
    # Chromium logs the page's own 404 as a console error; nothing else may be wrong.
    assert [t for t in troubles if "status of 404" not in t] == []
    page.context.close()


# Words an agent wrote with a right-to-left override (U+202E) never closed: in a notice, a pennant and
# a channel's name. Written into the town's tables as the Tavern and the Switchboard keep what a person
# approved, as LONG_WORDS is.
OVERRIDDEN = """
import datetime as dt
from clockford.town.models import Passport
from districts.switchboard.models import Event
from districts.tavern.models import Notice
now = dt.datetime.now(dt.UTC)
p = Passport.objects.create(issued_at=now, last_seen=now, pennant="Kite\\u202eturned", place="The Tavern")
Notice.objects.create(id="N-OVERRIDE0001", passport=p, pennant="Kite\\u202eturned", text="Noon\\u202e at the well", at=now)
seq = (Event.objects.order_by("-seq").values_list("seq", flat=True).first() or 0) + 1
Event.objects.create(seq=seq, at=now, kind="message", channel="gate\\u202eeast", by=p, text="Open\\u202e now")
"""

# Each element that holds words an agent wrote, with how the browser isolates it (bidi), and whether the
# time after a feed item's pennant is still drawn to its right, as the words say it.
ISOLATED = """() => {
  const agents = document.querySelectorAll("blockquote.words, .meta .words, svg.map text.pennant, bdi");
  const kept = [...agents].map((el) => getComputedStyle(el).unicodeBidi);
  const overridden = [...document.querySelectorAll("ol.feed .meta")].filter((meta) => meta.textContent.includes("⟦U+202E⟧"));
  const order = overridden.map((meta) => {
    const words = meta.querySelectorAll(".words");
    const from = words[words.length - 1].getBoundingClientRect();
    const time = meta.querySelector("time").getBoundingClientRect();
    // Only where both sit on one line, as a 1280-wide page draws a short pennant and its time.
    if (Math.abs(from.top - time.top) > 2) return null;
    return from.right <= time.left + 1;
  });
  return { count: agents.length, kept: kept, order: order };
}"""


def test_an_agents_right_to_left_override_reorders_only_its_own_words(browser: Browser, hall_town: Town) -> None:
    hall_town.manage("shell", "-c", OVERRIDDEN)
    for width in (1280, 375):
        page, _, troubles = open_map(browser, hall_town, width, script=False)
        for path in ("/", "/feed"):
            page.goto(f"http://127.0.0.1:{hall_town.port}{path}")
            expect(page.locator("ol.feed")).to_contain_text("at the well")
            found = page.evaluate(ISOLATED)
            assert found["count"] > 0 and set(found["kept"]) <= {"isolate"}, (path, width, found)
            if width == 1280:  # on one line, the time comes after the pennant before it, not before it
                assert True in found["order"] and False not in found["order"], (path, found)
        assert troubles == []
        page.context.close()


# Every moment on the page, as the lines it is drawn on: a date broken at its hyphen ("2026-" at a line's
# end, "12-05 00:00:00 UTC" on the next) was the counts' paragraph on a phone.
MOMENTS = """() => [...document.querySelectorAll("time")].map((t) => {
  const tops = new Set([...t.getClientRects()].map((r) => Math.round(r.top)));
  return t.textContent + " on " + tops.size + " line(s)";
})"""


@pytest.mark.parametrize("width", [375, 1280])
def test_every_moment_is_drawn_on_one_line(browser: Browser, hall_town: Town, width: int) -> None:
    page, _, troubles = open_map(browser, hall_town, width, script=False)
    for path in ("/", "/feed"):
        page.goto(f"http://127.0.0.1:{hall_town.port}{path}")
        moments = page.evaluate(MOMENTS)
        assert all(m.endswith(" on 1 line(s)") for m in moments), (path, moments)
        assert moments or path == "/feed"  # the map always says when it was drawn
    assert troubles == []
    page.context.close()


# Each moment of the page as the reader reads it: the town's words, then the reader's own time beside.
WHEN_HERE = """() => [...document.querySelectorAll("time.when")].map((t) => t.textContent)"""


@pytest.mark.parametrize("width", [375, 1280])
def test_every_moment_says_the_readers_own_time_beside_it_and_fits(
    browser: Browser, hall_town: Town, width: int
) -> None:
    """In Paris, the map and the feed write each moment as the hall does, "7 December 2026 at 14:32 UTC", and
    the page's script (static/hall/times.js) says it again in the reader's own time; nothing scrolls sideways."""
    context = browser.new_context(viewport={"width": width, "height": 900}, timezone_id="Europe/Paris")
    page = context.new_page()
    troubles: list[str] = []
    page.on("pageerror", lambda e: troubles.append(f"page error: {e}"))
    moment = r"\d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d"
    for path in ("/", "/feed"):
        page.goto(f"http://127.0.0.1:{hall_town.port}{path}")
        page.wait_for_load_state("load")
        moments = page.evaluate(WHEN_HERE)
        assert moments or path == "/feed", path
        for m in moments:
            assert re.fullmatch(rf"{moment} UTC \({moment} [^)]+ your time\)", m), (path, m)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
        if path == "/":
            # The part of the map the page swaps in when the town changes says the reader's time too.
            page.evaluate("document.getElementById('town-now').dataset.old = 'yes'")
            agent = RawSession(hall_town.mcp, client_name=f"walker-in-paris-{width}")
            agent.call("look_around")
            assert agent.call("walk_to", {"to": "The Tavern"})["isError"] is False
            # Polled from here: the page's Content-Security-Policy refuses wait_for_function's eval.
            swapped = "() => !document.getElementById('town-now').dataset.old"
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not page.evaluate(swapped):
                page.wait_for_timeout(50)
            assert page.evaluate(swapped), "the map was not swapped in"
            for m in page.evaluate(WHEN_HERE):
                assert re.fullmatch(rf"{moment} UTC \({moment} [^)]+ your time\)", m), ("swapped", m)
    assert troubles == []
    context.close()
