"""Invites in a real browser, 1280 and 390 wide: on a town run by its owner, a stranger is told to ask
the owner for an invite; the owner makes one on the Invites page; a second person opens the link in a
browser of their own, makes a passkey and lands on what waits for them; the same link again, in a third
browser, is refused and makes no account."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Person, claim, fits
from tests.support import Town

ASK = (
    "This town is run by its owner, so making an account here takes an invite. Ask the town's owner for an invite link."
)
USED = "This invite was already used: an invite makes one account. Ask the town's owner for a new invite."

COUNT_ACCOUNTS = """
from hall.models import Account
print(Account.objects.count())
"""


def accounts(town: Town) -> int:
    return int(town.manage("shell", "--no-imports", "-c", COUNT_ACCOUNTS).stdout.strip())


@pytest.fixture(scope="module")
def olive(browser: Browser, hall_town: Town) -> Iterator[Person]:
    """The owner, who claimed the town once for the module (her passkey stays in her browser)."""
    p = Person(browser, hall_town)
    p.device()
    claim(p, hall_town)
    yield p
    p.close()
    assert p.troubles == []


@pytest.mark.parametrize("width", [1280, 390])
def test_the_owner_invites_and_the_link_makes_one_account(
    olive: Person, browser: Browser, hall_town: Town, width: int
) -> None:
    name = {1280: "Bea", 390: "Cy"}[width]
    size = {"width": width, "height": 900}

    # A stranger without an invite: no account, and the page says whom to ask.
    stranger = Person(browser, hall_town)
    try:
        stranger.page.set_viewport_size(size)
        stranger.goto("/hall/")
        expect(stranger.page.locator("main")).to_contain_text("ask the town's owner for an invite link")
        expect(stranger.page.get_by_role("link", name="Make an account")).to_have_count(0)
        stranger.goto("/hall/signup")
        expect(stranger.page.locator("[role=alert]")).to_have_text(ASK)
        expect(stranger.page.locator("#name")).to_have_count(0)
        fits(stranger.page, width)
        assert stranger.troubles == []
    finally:
        stranger.close()

    # The owner makes an invite in the hall.
    olive.page.set_viewport_size(size)
    olive.goto("/hall/")
    olive.page.locator("nav").get_by_role("link", name="Invites").click()
    expect(olive.page.locator("h1")).to_have_text("Invites")
    olive.page.click("button:has-text('Make an invite')")
    expect(olive.page.locator("#new-invite")).to_contain_text("this page shows it this once")
    link = olive.page.locator("#invite-link").input_value()
    assert link.startswith(f"http://localhost:{hall_town.port}/hall/invite/"), link
    newest = olive.page.locator("#invite-list li.invite").first
    expect(newest).to_contain_text("Made by Olive")
    expect(newest).to_contain_text("waiting")
    fits(olive.page, width)
    before = accounts(hall_town)

    # A second person opens it in a fresh browser, makes a passkey and lands on the queue.
    invitee = Person(browser, hall_town)
    try:
        invitee.page.set_viewport_size(size)
        invitee.device()
        invitee.page.goto(link)
        expect(invitee.page.locator("#invited")).to_contain_text("Olive invited you to make an account here.")
        fits(invitee.page, width)
        invitee.page.fill("#name", name)
        invitee.page.click("text=Make a passkey and an account")
        expect(invitee.page.locator("h1")).to_have_text("Waiting for you")
        expect(invitee.page.locator(".flash")).to_contain_text(f"Welcome, {name}. Your account is made")
        expect(invitee.page.locator("footer")).to_contain_text(f"Signed in as {name}")
        fits(invitee.page, width)
        assert invitee.troubles == []
    finally:
        invitee.close()
    assert accounts(hall_town) == before + 1

    # The same link again, in a third browser: spent, and it says so.
    late = Person(browser, hall_town)
    try:
        late.page.set_viewport_size(size)
        late.device()
        response = late.page.goto(link)
        assert response is not None and response.status == 410
        expect(late.page.locator("[role=alert]")).to_have_text(USED)
        expect(late.page.locator("button:has-text('Make a passkey')")).to_have_count(0)
        fits(late.page, width)
    finally:
        late.close()
    assert accounts(hall_town) == before + 1

    # The list, opened again (not reloaded: that would send the form again and make another invite).
    olive.goto("/hall/invites")
    used = olive.page.locator("#invite-list li.invite").first
    expect(used).to_contain_text(f"by {name}.")
    expect(used).to_contain_text("used")
    expect(used.locator("button")).to_have_count(0)
