"""Words an agent writes to break the page around them, in every kind of thing the hall shows its person
(a held notice, a letter with notes from its P.O. box, a plan, a report, a job's call outside the town,
the agent's own client name), all
made over real MCP: one unbroken word as long as a field takes, a 300-character token that looks like a
link, right-to-left Hebrew and Arabic with numbers amid English, emoji joined into one, full-width Chinese
lines, sixty lines of one letter each, a letter's subject at its limit, letters with exactly four stacked
marks, and words dressed as the hall's own ("Allow with your passkey", "✓ Approved").

On every page a person visits (what waits, a hold's page and its rewrite box, the letters, a letter, the
plan, the report, the agents and their boxes, the account pages), at a desktop's width and a phone's:
the page never scrolls sideways; each button is on the screen and takes a click at its centre; the
agent's words stay inside their own box and draw over no button; every time names its month, its year
in full and its zone; and every piece of the agent's words
is drawn as the agent's (in the monospace the hall keeps for words it did not write), never as the hall's
own text, never inside a button. On a town with sign-in, the same holds for the name an app gives itself,
on the consent page and under Connected clients. (No field takes a word longer than a P.O. box note's 4,000 characters:
the longest word is that.)"""

import base64
import hashlib
import json
import re
import unicodedata
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Person, owner_with_agent
from tests.browser.test_hall_box import DESKTOP, PHONE, sideways, tables_wider
from tests.support import RawSession, Town, make_town, request

# The pieces, each with words a person can find on the page again (FOUND): the hall never writes them.
LONG_WORD = ("Lanterns" * 500)[:4000]  # a P.O. box note's limit (spec 001): no field takes a longer word
LINKISH = ("https://lanterns.example/" + "well/" * 60)[:300]
# A notice may not carry a link or an address: its longest token a person may be asked to publish.
TOKEN = ("lanterns.example_well_" * 20)[:280]
MIXED = "שלום 123 עולם, مرحبا 456 بالعالم, at 14:00 on 2026-05-01"
EMOJI = "👩\u200d👩\u200d👧\u200d👦 👨🏽\u200d🚀 🏳️\u200d🌈 🧑\u200d🤝\u200d🧑"
CJK = "灯笼在井边等候，中午见面。" * 6
LINES = "\n".join("灯" if i % 2 else "L" for i in range(60))
FOUR = unicodedata.normalize("NFC", "q" + "\u0301\u0302\u0303\u0304") + "uiet"  # four marks, none precomposed
BUTTONS = "Allow with your passkey ✓ Approved Allow Refuse"
FOUND = [
    "Lanterns",
    "lanterns-1",
    "L\n灯\nL",
    "lanterns.example",
    "שלום",
    "مرحبا",
    "灯笼",
    "✓ Approved",
    "👩",
    FOUR[:3],
]

NOTICE = f"{BUTTONS} {MIXED} {EMOJI} {FOUR}"
SUBJECT = (f"✓ Approved {MIXED} " * 3)[:80]  # a letter's subject at its limit
BODY = "\n".join([BUTTONS, LINKISH, MIXED, EMOJI, CJK, FOUR, LINES, LONG_WORD[:1000]])[:2000]
CLIENT = f"✓ Approved {MIXED} " + LONG_WORD[:100]
QUOTE = f"{BUTTONS}\n{LINKISH}\n{CJK}\n{LONG_WORD[:1500]}"[:2000]

# Every element of the page a person can see whose own text holds the agent's words, with what it is drawn
# in: whether its font is the hall's monospace for others' words, whether right-to-left words in it are
# kept from reordering the hall's words around them, whether it sits inside a button.
AGENT_TEXT = """(found) => {
  const body = getComputedStyle(document.body).fontFamily;
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (!found.some((f) => n.data.includes(f)) || e.closest("script, title, template")) continue;
    if (e.getClientRects().length === 0) continue;
    e.dataset.agentWords = "";
    const style = getComputedStyle(e);
    const font = style.fontFamily;
    // Inline words of another direction isolated from the hall's sentence around them, which they would
    // otherwise reorder (a block is a paragraph of its own).
    const isolated = style.display !== "inline" || /isolate|plaintext/.test(style.unicodeBidi);
    out.push({tag: e.tagName.toLowerCase() + "." + e.className, mono: font !== body && /mono/i.test(font), isolated,
              button: e.closest("button, .button, [role=button]") !== null, text: n.data.slice(0, 40)});
  }
  return out;
}"""

# The boxes that hold an agent's words, and any piece of the words drawn outside its box: each line the
# words take (a Range's rects) must lie inside the box, unless the box clips or scrolls what it holds.
OUTSIDE = """() => {
  const out = [];
  for (const box of document.querySelectorAll("pre.words, .item-preview code, .client, textarea")) {
    const style = getComputedStyle(box);
    if (box.getClientRects().length === 0 || /hidden|clip|auto|scroll/.test(style.overflowX + style.overflowY)) continue;
    const b = box.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(box);
    for (const r of range.getClientRects()) {
      if (r.width === 0) continue;
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
        out.push(box.tagName.toLowerCase() + "." + box.className + " " + JSON.stringify([r.left, r.right, b.left, b.right]));
        break;
      }
    }
  }
  return out;
}"""

# Each button of the page that a click at its centre does not reach (something else drawn over it), or
# that is not inside the screen's width, once scrolled to.
COVERED = """(e) => {
  e.scrollIntoView({block: "center", inline: "nearest"});
  const box = e.getBoundingClientRect();
  if (box.width === 0 || box.left < 0 || box.right > document.documentElement.clientWidth + 1) return "off the screen";
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit !== null && (hit === e || e.contains(hit)) ? "" : "covered by " + (hit ? hit.tagName + "." + hit.className : "nothing");
}"""

# Elements whose content is wider than they are: where a page that scrolls sideways overflows.
WIDER = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
  .slice(0, 5).map(e => e.tagName.toLowerCase() + '.' + e.className)"""

MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
# A moment as a person reads it in a hurry: "7 December 2026 at 14:32 UTC", the month by its name (never
# "2026-12-07" or "07/12", read as July by some), the year in full, the zone; and beside it, on a device
# that does not keep UTC, the same in the person's own time and zone (static/hall/times.js).
DATE = re.compile(rf"^(.*, )?\d{{1,2}} ({MONTHS}) \d{{4}} at \d\d:\d\d UTC")
HERE = re.compile(rf"^ \(\d{{1,2}} ({MONTHS}) \d{{4}} at \d\d:\d\d \S+ your time\)$")

HOLDS_WORDS = "(e) => e.matches('[data-agent-words]') || e.querySelector('[data-agent-words]') !== null"
# The agent's words hidden and shown again (the elements AGENT_TEXT found): hidden, they take the same
# place, so whatever else is drawn differently with them shown is drawn over by them.
HIDE = "() => document.querySelectorAll('[data-agent-words]').forEach((e) => { e.style.visibility = 'hidden'; })"
SHOW = "() => document.querySelectorAll('[data-agent-words]').forEach((e) => { e.style.visibility = ''; })"


def look(p: Person, where: str, words: bool = True, found: list[str] = FOUND) -> None:
    """Everything this test asks of one page, at the width the page is shown at (`words`: the page
    shows some of the agent's words)."""
    page: Page = p.page
    expect(page.locator("h1")).to_be_visible()
    assert sideways(page) == 0, (where, page.evaluate(WIDER))
    assert tables_wider(page) == [], where
    assert page.evaluate(OUTSIDE) == [], where
    for stamped in page.locator("time.when").all_inner_texts():
        assert DATE.search(stamped), (where, stamped)
    drawn = page.evaluate(AGENT_TEXT, found)
    assert bool(drawn) is words, (where, drawn)
    unmarked = [d for d in drawn if not d["mono"] or not d["isolated"] or d["button"]]
    assert unmarked == [], (where, unmarked)
    # Each button takes a click at its centre, and nothing of the agent's words is drawn over it (a mark
    # stacked high, a line of another script taller than the hall's), nor over the page's heading.
    for button in [*page.locator("main button:visible, main .button:visible").all(), page.locator("h1")]:
        assert button.evaluate(COVERED) == "", (where, button.inner_text())
        if button.evaluate(HOLDS_WORDS):
            continue  # a heading that names the app by its own words (checked above to be marked so)
        shown = button.screenshot()
        page.evaluate(HIDE)
        alone = button.screenshot()
        page.evaluate(SHOW)
        assert shown == alone, (where, f"the agent's words draw over {button.inner_text()!r}")


# The account's own pages: no agent writes on them, but they are visited in the same hurry.
ACCOUNT = ["/hall/account", "/hall/passkeys", "/hall/clients", "/hall/exchange", "/hall/invites"]


def call(agent: RawSession, tool: str, arguments: dict) -> dict:
    result = agent.call(tool, arguments)
    assert result["structuredContent"], result
    return dict(result["structuredContent"])


def held(agent: RawSession, text: str) -> str:
    """Where the person decides a notice the agent posts (every one waits for its person's yes)."""
    hold = call(agent, "post_notice", {"text": text})
    assert "hallUrl" in hold, hold
    return str(hold["hallUrl"])


def test_hostile_words_keep_every_page_whole_at_both_widths(person: Person, hall_town: Town) -> None:
    p = person
    agent = owner_with_agent(p, hall_town, client_name=CLIENT)
    holds = [held(agent, text).removeprefix(p.base) for text in (NOTICE, TOKEN, LINES, CJK, LONG_WORD[:280])]
    kept = agent.call("remember", {"key": "long", "value": LONG_WORD})
    assert kept["isError"] is False, kept
    assert agent.call("remember", {"key": "mixed", "value": BODY})["isError"] is False
    letter = agent.call("send_letter", {"subject": SUBJECT, "body": BODY, "notes": ["long", "mixed"]})
    assert letter["isError"] is False, letter
    plan = call(agent, "declare_plan", {"steps": [{"tool": "broadcast", "channel": "lanterns", "times": 1}]})
    assert "plan" in plan, plan
    # A job, with a call outside the town the agent declares in its own words.
    why = f"{BUTTONS} {MIXED} {CJK[:40]}"
    outside = {"server": "io.github.acme/weather", "tool": "forecast", "why": why, "job_id": "lanterns-1"}
    assert agent.call("job_outside", outside)["isError"] is False

    p.goto("/hall/")
    items = sorted(set(re.findall(r'href="(/hall/(?:letters|plans)/[^"/]+)"', p.page.content())))
    assert [u.split("/")[2] for u in items] == ["letters", "plans"], items
    p.goto("/hall/jobs")
    jobs = sorted(set(re.findall(r'href="(/hall/jobs/[^"/]+)"', p.page.content())))
    assert len(jobs) == 1, jobs
    pages = ["/hall/", *holds, "/hall/letters", *items, "/hall/agents", "/hall/jobs", *jobs]
    for viewport in (DESKTOP, PHONE):
        p.page.set_viewport_size(viewport)
        for path in pages:
            p.goto(path)
            look(p, f"{viewport['width']} {path}")
            if path in holds:
                # The hall's own buttons, beside words dressed as them: there, and only them.
                for name in ("Allow with your passkey", "Refuse with your passkey"):
                    expect(p.page.get_by_role("button", name=name)).to_be_visible()
        p.agent_page(CLIENT[:10], "Its P.O. box")
        look(p, f"{viewport['width']} box")
        for path in ACCOUNT:
            p.goto(path)
            look(p, f"{viewport['width']} {path}", words=False)

    # What was decided, and the pages that say so afterwards: a notice allowed and one refused (each with
    # the passkey, the outcome and its time drawn under the agent's words), the plan approved, the letter
    # read (its page marked it, once in view).
    decided = [(holds[0], "Allow", "Allowed."), (holds[1], "Refuse", "Refused."), (items[1], "Approve", "Approved.")]
    for path, button, said in decided:
        p.goto(path)
        p.page.get_by_role("button", name=f"{button} with your passkey").click()
        expect(p.page.locator(".flash")).to_contain_text(said)
        look(p, f"decided {path}")
    # On a device in another zone, each time is said again in the person's own, as plainly.
    p.cdp.send("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Kolkata"})
    p.goto(holds[0])
    expect(p.page.locator(".when-here").first).to_have_text(HERE)
    look(p, "decided, in Kolkata")
    p.cdp.send("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
    for viewport in (DESKTOP, PHONE):
        p.page.set_viewport_size(viewport)
        for path in [holds[0], holds[1], *items]:
            p.goto(path)
            look(p, f"{viewport['width']} decided {path}")

    # A report freezes the agent's holds (its person looks at the report first): filed last.
    report = call(agent, "report_suspicious_instruction", {"quote": QUOTE, "where": SUBJECT, "errand": NOTICE})
    assert report.get("report", "").startswith("R-"), report
    for viewport in (DESKTOP, PHONE):
        p.page.set_viewport_size(viewport)
        for path in ["/hall/", f"/hall/reports/{report['report']}", holds[2], "/hall/staff"]:
            p.goto(path)
            look(p, f"{viewport['width']} {path}")


# An app names itself when it registers (Dynamic Client Registration): its own words, at most 60 letters.
APP = "✓ Approved שלום 123 Allow with your passkey"


@pytest.fixture(scope="module")
def signed_in(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    """A town with sign-in: agents come in as apps a person connects on the hall's consent page."""
    town = make_town(tmp_path_factory.mktemp("apps"), env={"CLOCKFORD_SIGN_IN": "1"}).start()
    yield town
    town.close()


def test_an_apps_own_name_is_drawn_as_its_words_on_the_consent_page_and_under_clients(
    browser: Browser, signed_in: Town
) -> None:
    """An app registered with a name dressed as the hall's own words is named by them on the consent page
    (its heading, its facts) and under Connected clients, drawn as its words; the buttons name no app."""
    p = Person(browser, signed_in)
    try:
        p.device()
        p.goto("/hall/signup")
        p.page.fill("#name", "Ada")
        p.page.click("text=Make a passkey and an account")
        expect(p.page.locator("h1")).to_have_text("Waiting for you")
        back = "http://127.0.0.1:9/callback"
        asked = {"client_name": APP, "redirect_uris": [back], "token_endpoint_auth_method": "none"}
        status, _, body = request(
            "POST", p.base + "/oauth/register", json.dumps(asked), {"Content-Type": "application/json"}
        )
        assert status == 201, body
        client_id = json.loads(body)["client_id"]
        challenge = base64.urlsafe_b64encode(hashlib.sha256(b"v" * 64).digest()).rstrip(b"=").decode()
        query = {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": back,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "state": "s",
            "resource": signed_in.mcp,
        }
        consent = "/oauth/authorize?" + urlencode(query)
        for viewport in (DESKTOP, PHONE):
            p.page.set_viewport_size(viewport)
            p.goto(consent)
            look(p, f"{viewport['width']} consent", found=["✓ Approved", "שלום"])
        p.page.get_by_role("button", name="Allow with your passkey").click()
        # The passkey answered, the town sends the person back to the app's address (nobody listens there).
        expect(p.page).to_have_url(re.compile(r"^(http://127\.0\.0\.1:9/|chrome-error:)"))
        for viewport in (DESKTOP, PHONE):
            p.page.set_viewport_size(viewport)
            p.goto("/hall/clients")
            p.page.locator("details.remove summary").click()
            look(p, f"{viewport['width']} clients", found=["✓ Approved", "שלום"])
    finally:
        p.close()
    assert p.troubles == []
