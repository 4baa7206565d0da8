"""The live queue in a real browser: the owner's "Waiting for you" page, left open, shows a call one
of the town's agents makes over /mcp (held for the owner's yes) and a letter, without a reload, and
the tab's title counts them. A page of another origin on the same machine (whose requests carry the
hall's cookies, since cookies ignore ports) cannot listen to the queue."""

import http.server
import threading
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Person, claim, invite_link
from tests.support import RawSession, Town

NOTICE = "Looking for a Postgres MCP server with read-only roles. Recommendations welcome."
TITLE = "Waiting for you · Clockford"

# Opens a websocket and says what became of it: its first message, or how it closed.
PROBE = """(url) => new Promise((resolve) => {
  const ws = new WebSocket(url);
  ws.onmessage = (e) => { resolve(["message", JSON.parse(e.data)]); ws.close(); };
  ws.onclose = (e) => resolve(["closed", e.code]);
  setTimeout(() => resolve(["no answer"]), 15000);
})"""


def claim_the_town(p: Person, town: Town) -> None:
    p.device()
    claim(p, town)


def test_a_held_call_and_a_letter_appear_in_the_open_queue_without_a_reload(person: Person, hall_town: Town) -> None:
    p = person
    agent = RawSession(hall_town.mcp, client_name="notice-writer")
    agent.call("look_around")
    claim_the_town(p, hall_town)

    frames: list[str] = []
    p.page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    p.goto("/hall/")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")
    expect(p.page.locator("#queue-empty")).to_contain_text("Nothing waits for you.")
    expect(p.page).to_have_title(TITLE)
    # The socket is open and has said what waits (nothing) before the agent acts.
    deadline = time.monotonic() + 30
    while not frames and time.monotonic() < deadline:
        p.page.wait_for_timeout(50)
    assert frames and '"waiting": 0' in frames[0], frames
    # A mark on this very page: a reload would lose it.
    p.page.evaluate("window.stillThisPage = true")

    # The agent pins a notice: the town holds it for the owner's yes.
    asked = time.monotonic()
    held = agent.call("post_notice", {"text": NOTICE})
    assert held["isError"] is True
    hold = held["structuredContent"]["hold"]
    assert (hold["tool"], hold["status"]) == ("post_notice", "held")
    row = p.page.locator(f'#queue [data-item="{hold["id"]}"]')
    expect(row).to_be_visible()
    took_hold = time.monotonic() - asked
    expect(row).to_contain_text(NOTICE)
    expect(p.page.locator("#queue-empty")).to_have_count(0)
    expect(p.page).to_have_title("(1) " + TITLE)
    expect(p.page.get_by_role("status").filter(has_text="waits for you")).to_have_text("1 thing waits for you.")

    # Then a letter: a second row, newest first, and the title counts two.
    asked = time.monotonic()
    sent = agent.call("send_letter", {"subject": "The census", "body": "Three servers are new since Monday."})
    assert sent["isError"] is False, sent
    letter_id = sent["structuredContent"]["id"]
    expect(p.page.locator("#queue [data-item]")).to_have_count(2)
    took_letter = time.monotonic() - asked
    assert p.page.locator("#queue [data-item]").first.get_attribute("data-item") == letter_id
    expect(p.page).to_have_title("(2) " + TITLE)

    assert p.page.evaluate("window.stillThisPage") is True
    print(f"\nlive queue: the hold appeared after {took_hold:.2f} s, the letter after {took_letter:.2f} s")
    # At most one poll (2 s) and a fetch of the page, with room for a busy machine.
    assert took_hold < 6 and took_letter < 6, (took_hold, took_letter)


class Elsewhere(http.server.BaseHTTPRequestHandler):
    """Another site on this machine: it serves a blank page, and as a websocket server it keeps
    the handshakes it is sent (to show what the browser sends along from that page)."""

    handshakes: list[dict[str, str]] = []

    def do_GET(self) -> None:
        if self.headers.get("Upgrade", "").lower() == "websocket":
            Elsewhere.handshakes.append({k.lower(): v for k, v in self.headers.items()})
            self.send_response(400)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<!doctype html><title>elsewhere</title><p>Another site.")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def elsewhere() -> Iterator[str]:
    """A real server on loopback (the browser keeps pages of public addresses away from loopback)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"localhost:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_page_of_another_origin_cannot_listen_to_the_queue(person: Person, hall_town: Town, elsewhere: str) -> None:
    p = person
    p.device()
    # The first test claimed the town: a second person signs up with the owner's invite.
    p.page.goto(invite_link(hall_town))
    p.page.fill("#name", "Bea")
    p.page.click("text=Make a passkey and an account")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")
    live = f"ws://localhost:{hall_town.port}/hall/live"

    # From the hall's own page, signed in: the socket says what waits.
    outcome = p.page.evaluate(PROBE, live)
    assert outcome[0] == "message" and outcome[1]["waiting"] == 0, outcome

    page = p.context.new_page()
    try:
        page.goto(f"http://{elsewhere}/")
        # Another port of localhost is the same site, so the browser sends the hall's SameSite=Strict
        # session cookie along with that page's websockets: here it is, arriving at the other site.
        assert page.evaluate(PROBE, f"ws://{elsewhere}/") == ["closed", 1006]
        sent = Elsewhere.handshakes[-1]
        assert sent["origin"] == f"http://{elsewhere}"
        assert "sessionid=" in sent["cookie"]
        # The same page's socket to the hall carries that cookie too, and the town refuses it.
        rejected = hall_town.log.read_text().count("WSREJECT /hall/live")
        assert page.evaluate(PROBE, live) == ["closed", 1006]
        assert hall_town.log.read_text().count("WSREJECT /hall/live") == rejected + 1
    finally:
        page.close()


# The page's network, slow: its script's own fetches (those it marks unattended) answer three seconds
# late, and every socket's closing code is kept in the tab's sessionStorage, which outlives a reload.
SLOW_AND_WATCHED = """(() => {
  const fetchNow = window.fetch;
  window.fetch = (url, options) => {
    const own = options && options.headers && options.headers["X-Hall-Unattended"];
    return new Promise((resolve) => setTimeout(resolve, own ? 3000 : 0)).then(() => fetchNow(url, options));
  };
  const Socket = window.WebSocket;
  window.WebSocket = function (url) {
    const socket = new Socket(url);
    socket.addEventListener("close", (e) => {
      const closes = JSON.parse(sessionStorage.getItem("closes") || "[]");
      closes.push(e.code);
      sessionStorage.setItem("closes", JSON.stringify(closes));
    });
    return socket;
  };
})()"""


def test_signed_out_on_another_tab_the_open_queue_goes_to_the_front_door_without_a_refused_socket(
    person: Person, hall_town: Town
) -> None:
    p = person
    p.device()
    p.page.add_init_script(SLOW_AND_WATCHED)
    p.page.goto(invite_link(hall_town))
    p.page.fill("#name", "Cai")
    p.page.click("text=Make a passkey and an account")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")
    p.page.wait_for_timeout(1500)  # the socket has opened and said what waits

    other = p.context.new_page()
    try:
        other.goto(f"{p.base}/hall/agents")
        other.click("text=Sign out")
        expect(other.locator("h1")).to_have_text("Welcome to the hall")
    finally:
        other.close()

    # The town closes the first tab's socket (signed out, 4401); the script asks the queue's page,
    # which comes back (three seconds late) as the front door, and the tab shows it. It does not ask
    # for a socket again meanwhile (the town would only close that one too).
    expect(p.page.locator("h1")).to_have_text("Welcome to the hall", timeout=20_000)
    assert 4401 in p.page.evaluate("JSON.parse(sessionStorage.getItem('closes') || '[]')")
    p.page.wait_for_timeout(1500)
