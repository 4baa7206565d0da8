"""The owner's claim link opened by a person already signed in, in headless Chromium with a virtual
authenticator: the link makes their account the owner once one of its passkeys confirms it, and adds
no passkey; a browser holding only the person's cookies cannot claim it with a passkey of its own.
(A module of its own: it needs a town nobody has claimed, and test_hall_passkeys.py claims its town.)"""

from playwright.sync_api import Browser, expect

from tests.browser.conftest import Person, claim_link
from tests.support import Town

PROMPT_FAILED = (
    "The passkey prompt was closed, timed out, or could not verify you. Nothing changed; press the button to try again."
)


def test_a_signed_in_person_claims_with_a_passkey_they_have(person: Person, hall_town: Town, browser: Browser) -> None:
    p = person
    laptop = p.device()
    p.goto("/hall/signup")
    p.page.fill("#name", "Ada")
    p.page.click("text=Make a passkey and an account")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")
    made = p.credentials(laptop)
    assert len(made) == 1
    link = claim_link(hall_town)

    # Another browser with Ada's cookies and a device of its own: the link asks for one of Ada's passkeys,
    # which that device does not hold, so the browser has nothing to answer with.
    other = Person(browser, hall_town)
    try:
        other.device()
        other.context.add_cookies(p.context.cookies())
        other.page.goto(link)
        expect(other.page.locator("main")).to_contain_text("You are signed in as Ada.")
        other.page.click("text=Confirm with a passkey and claim the town")
        expect(other.page.locator(".say")).to_have_text(PROMPT_FAILED)
    finally:
        other.close()
    assert other.troubles == []

    p.page.goto(link)
    expect(p.page.locator("main")).to_contain_text(
        "Claiming makes this account the owner: confirm with one of its passkeys when your device asks. "
        "No passkey is added."
    )
    expect(p.page.locator("#name")).to_have_count(0)
    p.page.click("text=Confirm with a passkey and claim the town")
    expect(p.page.locator("h1")).to_have_text("Waiting for you")
    expect(p.page.locator(".flash")).to_contain_text("You own this town now, Ada.")
    p.goto("/hall/passkeys")
    expect(p.page.locator(".key-name")).to_have_text(["Your first passkey"])
    # The laptop's one passkey answered (made, then the confirmation), and it made no other.
    (kept,) = p.credentials(laptop)
    assert kept["credentialId"] == made[0]["credentialId"] and kept["signCount"] > made[0]["signCount"]
    assert (
        hall_town.manage("hall_ready").stdout.splitlines()[-1] == f"The hall: http://localhost:{hall_town.port}/hall/"
    )
