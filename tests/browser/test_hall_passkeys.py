"""The hall in a real browser: headless Chromium with a virtual authenticator signs up, signs in,
adds a second passkey (confirmed with the first) and signs in with either, and removes one (confirmed
with a passkey of the account's), at a desktop's width and a phone's; a passkey that does not verify
its person, and a replayed assertion, are refused; the owner's claim link works once."""

import json

import pytest
from playwright.sync_api import Browser, Route, expect

from tests.browser.conftest import Person, claim_link
from tests.support import RawSession, Town

NOT_VERIFIED = (
    "Your passkey did not verify you, so it was refused. The town needs a passkey that asks for your "
    "fingerprint, face, PIN or screen lock. Nothing changed."
)
PROMPT_FAILED = (
    "The passkey prompt was closed, timed out, or could not verify you. Nothing changed; press the button to try again."
)
EXPIRED = "This passkey request has expired or was already answered. Nothing changed; press the button to start again."


def sign_up(p: Person, name: str) -> None:
    p.goto("/hall/signup")
    p.page.fill("#name", name)
    p.page.click("text=Make a passkey and an account")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")


def sign_in(p: Person) -> None:
    p.page.click("text=Sign in with a passkey")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")


def sign_out(p: Person) -> None:
    # At once, as a person might as the page loads: the live socket's handshake and Sign out's form may
    # cross, and the town closes that socket (4401) rather than refusing it with an error in the console.
    p.page.click("text=Sign out")
    expect(p.page.locator(".flash")).to_have_text(
        "You are signed out. Your passkeys stay on your devices for next time."
    )
    expect(p.page.locator("h1")).to_have_text("Welcome to the hall")


@pytest.mark.parametrize("width", [1280, 375], ids=["desktop", "phone"])
def test_sign_up_sign_in_a_second_passkey_and_either_signs_in(person: Person, width: int) -> None:
    p = person
    p.page.set_viewport_size({"width": width, "height": 800 if width > 480 else 812})
    laptop = p.device()
    sign_up(p, "Ada")
    expect(p.page.locator(".flash")).to_contain_text("Welcome, Ada. Your account is made")
    expect(p.page.locator("main")).to_contain_text("Nothing waits for you.")
    assert len(p.credentials(laptop)) == 1

    sign_out(p)
    sign_in(p)
    expect(p.page.locator("footer")).to_contain_text("Signed in as Ada")

    # A second device. The page says first what it will ask for, and why.
    p.goto("/hall/passkeys")
    expect(p.page.locator("main")).to_contain_text("This is your only passkey, so it cannot be removed")
    expect(p.page.locator("#add-confirm")).to_contain_text("Confirm with a passkey you already have first")
    # The laptop confirms; once the town has checked its answer and hands out the new passkey's options,
    # the laptop is put away and the phone taken out (Chrome holds one such device at a time), so that
    # the phone answers the prompt to make one.
    on_laptop: list[dict[str, object]] = []
    phones: list[str] = []

    def laptop_confirmed(route: Route) -> None:
        response = route.fetch()
        on_laptop.extend(p.put_away(laptop))
        phones.append(p.device())
        route.fulfill(response=response)

    p.page.route("**/hall/passkeys/add/begin", laptop_confirmed)
    p.page.fill("#key-name", "Phone")
    p.page.click("button:has-text('Add a passkey')")
    expect(p.page.locator(".flash")).to_have_text(
        "Added the passkey “Phone”. Either of your passkeys now signs you in."
    )
    p.page.unroute("**/hall/passkeys/add/begin")
    expect(p.page.locator(".key-name")).to_have_text(["Your first passkey", "Phone"])
    assert on_laptop[0]["signCount"] == 3  # made, one sign-in, then the confirmation
    (phone,) = phones
    assert len(p.credentials(phone)) == 1

    # Either passkey signs in: the phone alone, then the laptop alone.
    sign_out(p)
    sign_in(p)
    on_phone = p.put_away(phone)
    assert on_phone[0]["signCount"] == 2  # made, then one sign-in
    sign_out(p)
    laptop = p.bring_back(on_laptop)
    sign_in(p)
    expect(p.page.locator("footer")).to_contain_text("Signed in as Ada")
    assert p.credentials(laptop)[0]["signCount"] == on_laptop[0]["signCount"] + 1

    # Removing the phone (left in a drawer) asks for a passkey Ada has: the laptop confirms it.
    p.goto("/hall/passkeys")
    phone_card = p.page.locator("li.key").filter(has_text="Phone")
    phone_card.locator("summary").click()
    expect(phone_card).to_contain_text("the town first asks you to confirm with a passkey you already have")
    phone_card.locator("button:has-text('Remove “Phone”')").click()
    expect(p.page.locator(".flash")).to_have_text(
        "Removed the passkey “Phone”. It can no longer sign in to this account, and every other browser "
        "signed in to it is signed out."
    )
    expect(p.page.locator(".key-name")).to_have_text(["Your first passkey"])
    expect(p.page.locator("main")).to_contain_text("This is your only passkey, so it cannot be removed")
    # The laptop answered (Chrome may count a silent check of which passkey it holds as a use too).
    assert p.credentials(laptop)[0]["signCount"] > on_laptop[0]["signCount"] + 1


def test_a_passkey_is_added_only_once_one_the_person_has_verifies_them(person: Person) -> None:
    p = person
    laptop = p.device()
    sign_up(p, "Eli")
    p.goto("/hall/passkeys")
    p.cdp.send("WebAuthn.setUserVerified", {"authenticatorId": laptop, "isUserVerified": False})
    p.page.fill("#key-name", "Phone")
    p.page.click("button:has-text('Add a passkey')")
    expect(p.page.locator("section[aria-labelledby=add] .say")).to_have_text(PROMPT_FAILED)
    p.goto("/hall/passkeys")
    expect(p.page.locator(".key-name")).to_have_text(["Your first passkey"])
    assert len(p.credentials(laptop)) == 1


def test_a_passkey_that_does_not_verify_the_person_is_refused(person: Person) -> None:
    p = person
    device = p.device()
    sign_up(p, "Bea")
    sign_out(p)
    p.cdp.send("WebAuthn.setUserVerified", {"authenticatorId": device, "isUserVerified": False})

    # The hall asks for verification, so the browser itself refuses to answer without it.
    p.page.click("text=Sign in with a passkey")
    expect(p.page.locator(".say")).to_have_text(PROMPT_FAILED)

    # A page that asked for less (the options rewritten on the way) gets an answer without
    # verification, and the town refuses it.
    def ask_less(route: Route) -> None:
        response = route.fetch()
        body = response.json()
        body["options"]["userVerification"] = "discouraged"
        route.fulfill(response=response, body=json.dumps(body))

    p.page.route("**/hall/signin/begin", ask_less)
    p.page.click("text=Sign in with a passkey")
    expect(p.page.locator(".say")).to_have_text(NOT_VERIFIED)
    p.page.unroute("**/hall/signin/begin")
    p.goto("/hall/")
    expect(p.page.locator("h1")).to_have_text("Welcome to the hall")


REPLAY = """async ([url, body]) => {
  const token = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const r = await fetch(url, {method: "POST", body,
    headers: {"Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": token}});
  return [r.status, await r.json()];
}"""


def test_a_replayed_assertion_is_refused(person: Person) -> None:
    p = person
    p.device()
    sign_up(p, "Cy")
    sign_out(p)
    answers: list[str] = []
    p.page.on("request", lambda r: answers.append(r.post_data or "") if r.url.endswith("/signin/finish") else None)
    sign_in(p)
    assert len(answers) == 1 and json.loads(answers[0])["credential"]["type"] == "public-key"
    sign_out(p)

    # The captured answer, sent again from the hall's own page with a fresh CSRF token.
    status, data = p.page.evaluate(REPLAY, [p.base + "/hall/signin/finish", answers[0]])
    assert (status, data) == (400, {"ok": False, "say": EXPIRED})
    # ...and again after a new sign-in began: the challenge it signed is not the one now asked.
    status, data = p.page.evaluate(REPLAY, [p.base + "/hall/signin/begin", "{}"])
    assert status == 200 and data["ok"] is True
    status, data = p.page.evaluate(REPLAY, [p.base + "/hall/signin/finish", answers[0]])
    assert status == 400
    assert data["say"].startswith("This passkey answer was for another request, so it was refused.")
    p.goto("/hall/")
    expect(p.page.locator("h1")).to_have_text("Welcome to the hall")


def test_a_press_before_the_page_has_loaded_is_already_a_ceremony(person: Person) -> None:
    """The ceremony script is slow to arrive; a person who presses the button as soon as it shows must
    still get the passkey prompt, not a silent reload of the page (the form has no action of its own)."""
    p = person
    p.device()
    sign_up(p, "Di")
    sign_out(p)

    def slowly(route: Route) -> None:
        p.page.wait_for_timeout(1500)
        route.continue_()

    p.page.route("**/static/hall/passkeys.js*", slowly)
    p.page.goto(p.base + "/hall/", wait_until="commit")
    p.page.click("text=Sign in with a passkey")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")
    p.page.unroute("**/static/hall/passkeys.js*")


def test_the_owner_claim_link_works_once(person: Person, hall_town: Town, browser: Browser) -> None:
    agent = RawSession(hall_town.mcp, client_name="errand-runner")
    agent.call("look_around")
    link = claim_link(hall_town)
    assert link.startswith(f"http://localhost:{hall_town.port}/hall/claim/")

    p = person
    p.device()
    p.page.goto(link)
    expect(p.page.locator("main")).to_contain_text("This link makes you the owner of this town. It works once.")
    p.page.fill("#name", "Olive")
    p.page.click("text=Make a passkey and claim the town")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")
    expect(p.page.locator(".flash")).to_contain_text("You own this town now, Olive.")
    p.goto("/hall/agents")

    # The owner decides for every passport; the pennant she raises is what the agent sees. This agent
    # only looked around, so its passport is folded away under its client until she opens the fold.
    p.page.locator("details.one-offs summary").click()
    card = p.page.locator(".agent").filter(has_text="errand-runner")
    expect(card).to_contain_text("No pennant yet")
    passport_id = card.locator("code.id").inner_text()
    card.locator("input[name=pennant]").fill("Blue Heron")
    card.locator("button:has-text('Raise')").click()
    expect(p.page.locator(".flash")).to_have_text(f"{passport_id} now flies the pennant “Blue Heron”.")
    shown = agent.call("show_passport")["structuredContent"]
    assert (shown["passport"], shown["pennant"]) == (passport_id, "Blue Heron")

    # The link again, in someone else's browser: spent, and it says so.
    other = Person(browser, hall_town)
    try:
        other.device()
        other.page.goto(link)
        expect(other.page.locator("[role=alert]")).to_contain_text("This claim link was already used")
        expect(other.page.locator("button:has-text('claim the town')")).to_have_count(0)
    finally:
        other.close()
    assert (
        hall_town.manage("hall_ready").stdout.splitlines()[-1] == f"The hall: http://localhost:{hall_town.port}/hall/"
    )
