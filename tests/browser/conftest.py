"""Headless Chromium for the hall's browser tests: Debian's own chromium driven by Playwright (its
bundled driver, never a browser download), with Chrome DevTools' virtual authenticator standing in
for a phone or laptop that keeps passkeys."""

import os
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    CDPSession,
    Page,
    Playwright,
    Response,
    WebSocket,
    expect,
    sync_playwright,
)

from tests.support import RawSession, Town, make_town

CHROMIUM = "/usr/bin/chromium"
# Patience for a machine busy with other suites: pages and expectations wait up to 30 s.
expect.set_options(timeout=30_000)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def need_chromium() -> None:
    """Skip the module's tests where Debian's chromium is missing, or fail them where
    CLOCKFORD_TEST_BROWSER=required says the browser must be there."""
    if not os.path.exists(CHROMIUM):
        why = f"Debian's chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CLOCKFORD_TEST_BROWSER") == "required":
            pytest.fail(why)
        pytest.skip(why)


def device_options(verifies: bool = True) -> dict[str, Any]:
    """A virtual platform authenticator that keeps passkeys and verifies its user (PIN, fingerprint)."""
    return {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": verifies,
        "automaticPresenceSimulation": True,
    }


# Module-scoped, not session-wide: Playwright's sync API keeps an event loop running in this thread
# while it is open, and pytest-asyncio's tests elsewhere in the run need the thread to themselves.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    need_chromium()
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
    yield b
    b.close()


@pytest.fixture(scope="module")
def hall_town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    """A live town of this module's own; its hall is at http://localhost:PORT (passkeys refuse IPs)."""
    town = make_town(tmp_path_factory.mktemp("hall")).start()
    yield town
    town.close()


MAKE_INVITE = """
from django.conf import settings
from hall.claim import town_owner
from hall.invites import make_invite
owner = town_owner()
print(make_invite(owner)[1] if owner is not None else settings.HALL_URL + "/hall/signup")
"""


def invite_link(town: Town) -> str:
    """Where a new person makes an account: an invite of the town's owner (hall/invites.py), made as the
    Invites page makes one, since on a town run by its owner a person signs up only with one; the plain
    sign-up page on a town nobody has claimed yet (a test run on its own)."""
    made = town.manage("shell", "--no-imports", "-c", MAKE_INVITE)
    link = made.stdout.strip().splitlines()[-1] if made.stdout.strip() else ""
    assert link.startswith(f"http://localhost:{town.port}/hall/"), made.stderr
    return link


def claim_link(town: Town) -> str:
    """The link `hall_ready` prints on a town nobody owns yet, which makes its first user the owner."""
    printed = town.manage("hall_ready").stdout.splitlines()[-1]
    m = re.fullmatch(r"This town has no owner yet\. Claim it once, with a passkey, at: (\S+)", printed)
    assert m, printed
    return m.group(1)


def claim(p: "Person", town: Town) -> None:
    """Olive claims the town with a passkey of a device `p` already holds, and lands on what waits."""
    p.page.goto(claim_link(town))
    p.page.fill("#name", "Olive")
    p.page.click("text=Make a passkey and claim the town")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")


def owner_with_agent(p: "Person", town: Town, client_name: str = "errand-runner") -> RawSession:
    """`p` claims the town with a passkey on a device of theirs, after an agent (an MCP session over
    real HTTP, which the hall shows as theirs) has looked around; the agent's session is returned."""
    p.device()
    agent = RawSession(town.mcp, client_name=client_name)
    agent.call("look_around")
    claim(p, town)
    return agent


# Run in every page a Person opens (an init script, which the hall's Content-Security-Policy does not
# govern): at a phone's width, once the page has loaded and after each resize, a table whose content is
# wider than its box (it would scroll sideways inside a .table-wrap, its last columns out of sight, while
# the page itself fits) is reported as a console error, which fails the test (Person.troubles). Checked
# again a second later before it is reported, since a page measured mid-layout fits a moment after.
TABLES_FIT = """
(() => {
  const PHONE = 480;
  const wider = () => [...document.querySelectorAll("table")].filter((t) => {
    const box = t.parentElement;
    return t.scrollWidth > box.clientWidth + 1 || box.scrollWidth > box.clientWidth + 1;
  });
  let again = null;
  const check = () => {
    if (window.innerWidth > PHONE || wider().length === 0) return;
    clearTimeout(again);
    again = setTimeout(() => {
      if (window.innerWidth > PHONE) return;
      for (const t of wider()) {
        console.error(`table wider than its box at ${window.innerWidth}px on ${location.pathname}: ${t.className || "table"}, ${t.scrollWidth}px in ${t.parentElement.clientWidth}px`);
      }
    }, 1000);
  };
  window.addEventListener("load", () => setTimeout(check, 100));
  window.addEventListener("resize", () => setTimeout(check, 200));
})();
"""


class Person:
    """One person's browser (a context of its own) and the authenticators their devices hold."""

    def __init__(self, browser: Browser, town: Town) -> None:
        self.base = f"http://localhost:{town.port}"
        self.context: BrowserContext = browser.new_context(viewport={"width": 375, "height": 812})
        self.context.set_default_timeout(30_000)
        # Every page this person sees at a phone's width has each table fit its box (TABLES_FIT): one that
        # scrolls sideways inside its wrapper is a trouble of the page.
        self.context.add_init_script(TABLES_FIT)
        self.page: Page = self.context.new_page()
        self.cdp: CDPSession = self.context.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable", {"enableUI": False})
        # Anything the page itself reports (a script error, a resource the CSP blocked) fails the
        # test; the town's refusals (HTTP 400, 403) are expected and said on the page instead.
        self.troubles: list[str] = []
        self.page.on("pageerror", lambda e: self.troubles.append(f"page error: {e}"))
        # Every response of the live town, pages and JSON alike, must refuse to be framed.
        self.responses = 0
        self.page.on("response", self._frames_denied)
        # The live sockets (static/hall/live.js) of the page now shown, each with whether the town has
        # spoken on it: a page left takes its own with it (Playwright may never see those close).
        self.sockets: list[tuple[WebSocket, list[str]]] = []
        self.page.on("websocket", self._socket)
        self.page.on("framenavigated", lambda frame: self.sockets.clear() if frame == self.page.main_frame else None)
        self.page.on(
            "console",
            lambda m: (
                self.troubles.append(f"console: {m.text}")
                if m.type == "error" and "Failed to load resource" not in m.text
                else None
            ),
        )

    def _socket(self, socket: WebSocket) -> None:
        heard: list[str] = []
        socket.on("framereceived", lambda frame: heard.append(str(frame)))
        self.sockets.append((socket, heard))

    def sockets_settled(self) -> None:
        """Wait until every live socket the page shown opened has heard the town or closed: what a test
        changes after this, the page hears of. A page that has the live script (deferred: it runs once the
        page is parsed) has opened its socket first: until then there is none to wait for."""
        live = self.page.locator("script[data-live]").count() > 0
        for _ in range(500):
            opened = bool(self.sockets) or not live
            if opened and all(heard or socket.is_closed() for socket, heard in self.sockets):
                return
            self.page.wait_for_timeout(20)
        raise AssertionError("a live socket neither heard the town nor closed in 10 seconds")

    def _frames_denied(self, response: Response) -> None:
        if not response.url.startswith(self.base + "/hall/"):
            return
        self.responses += 1
        headers = response.headers
        csp = [d.strip() for d in headers.get("content-security-policy", "").split(";")]
        if headers.get("x-frame-options") != "DENY" or "frame-ancestors 'none'" not in csp:
            self.troubles.append(f"framing allowed: {response.status} {response.url}")

    def device(self, verifies: bool = True) -> str:
        """A platform authenticator that keeps passkeys and verifies its user (PIN, fingerprint)."""
        options = device_options(verifies)
        return self.cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})["authenticatorId"]

    def credentials(self, device: str) -> list[dict[str, Any]]:
        return self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": device})["credentials"]

    def put_away(self, device: str) -> list[dict[str, Any]]:
        """Take a device away (its passkeys go with it); returns them, to bring the device back."""
        kept = self.credentials(device)
        self.cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": device})
        return kept

    def bring_back(self, kept: list[dict[str, Any]]) -> str:
        device = self.device()
        for credential in kept:
            self.cdp.send("WebAuthn.addCredential", {"authenticatorId": device, "credential": credential})
        return device

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def agent_page(self, client_name: str, link: str) -> None:
        """Open one of an agent's pages from its card in the hall's list of agents, by the link's name
        (the page's heading says it again)."""
        self.goto("/hall/agents")
        card = self.page.locator("li.agent").filter(has_text=client_name)
        # A session that left nothing for its person is folded under its client, as a person finds it.
        fold = self.page.locator("details.one-offs").filter(has=card)
        if fold.count() and not card.first.is_visible():
            fold.first.locator("summary").click()
        card.get_by_role("link", name=link).click()
        expect(self.page.locator("h1")).to_have_text(link)

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def person(browser: Browser, hall_town: Town) -> Iterator[Person]:
    p = Person(browser, hall_town)
    yield p
    p.close()
    assert p.troubles == []
    assert p.responses > 0


# What the tests of a person's decisions share: the owner's decisions at each width, an agent's held call,
# its status as the agent reads it, a second tab of the person's browser, and the one check every page
# makes at each width.

WIDTHS = (375, 1280)  # a phone's and a laptop's


def at_each_width(p: Person, town: Town, flow: Callable[[str, RawSession, int], None]) -> None:
    """The owner claims the town with a passkey (`device`); then at each width an agent of its own (a
    report freezes only its own agent's calls) is handed to `flow(device, agent, width)`."""
    device = p.device()
    claim(p, town)
    for width in WIDTHS:
        p.page.set_viewport_size({"width": width, "height": 900})
        agent = RawSession(town.mcp, client_name="errand-runner")
        agent.call("look_around")
        flow(device, agent, width)


def held(agent: RawSession, text: str) -> str:
    result = agent.call("post_notice", {"text": text})
    assert result["isError"] is True, result
    return str(result["structuredContent"]["hold"]["id"])


def status_of(agent: RawSession, hold_id: str) -> str:
    shown = agent.call("show_passport")["structuredContent"]
    return {h["id"]: h["status"] for h in shown["harbour"]["held"]}[hold_id]


def second_tab(p: Person, device: str) -> Page:
    """Another tab of the same browser, its own virtual authenticator holding the same passkeys."""
    tab = p.context.new_page()
    tab.set_viewport_size(p.page.viewport_size or {"width": 375, "height": 812})
    cdp = p.context.new_cdp_session(tab)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    other = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": device_options()})["authenticatorId"]
    for credential in p.credentials(device):
        cdp.send("WebAuthn.addCredential", {"authenticatorId": other, "credential": credential})
    tab.on("pageerror", lambda e: p.troubles.append(f"page error: {e}"))
    return tab


def fits(page: Page, width: int) -> None:
    """Nothing on the page is wider than the window: no sideways scrolling."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
