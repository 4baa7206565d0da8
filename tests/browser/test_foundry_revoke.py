"""Must show (issue 14, the Foundry): revocation in the hall, in Chromium with a passkey, turns the
certificate's `check` to not current at once.

A real mcp 2.3.0 client attends three courses over HTTP and casts a certificate; the town's owner
(its staff) claims the town in headless Chromium with a virtual passkey, finds the certificate in the
staff room, suspends it and reinstates it, then revokes it, each with the passkey; after each, the
same client's `foundry` with `check` answers the new standing on its very next call.
"""

import re
from collections.abc import Iterator
from contextlib import AsyncExitStack
from typing import Any

import pytest
from mcp.client.session import ClientSession
from playwright.async_api import Page, async_playwright, expect

from tests.browser.conftest import ARGS, CHROMIUM, claim_link, device_options, need_chromium
from tests.e2e.test_sdk_client import connect
from tests.support import Town, make_town

COURSES = ("ten-habits", "words-are-data", "waiting-for-your-person")
MOMENT = r"\d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December) \d{4} at \d\d:\d\d"
CAST = re.compile(rf"^(just now|\d+\xa0minutes? ago), {MOMENT} UTC \({MOMENT} [^)]+ your time\)$")


@pytest.fixture(scope="module")
def town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    need_chromium()
    t = make_town(tmp_path_factory.mktemp("foundry")).start()
    yield t
    t.close()


async def ok(s: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await s.call_tool(tool, arguments)
    assert result.is_error is False and result.structured_content is not None, result
    return dict(result.structured_content)


async def change(page: Page, action: str, flash: str, standing: str) -> None:
    await page.click(f"button:has-text('{action} with your passkey')")
    await expect(page.locator(".flash")).to_contain_text(flash)
    await expect(page.locator("#standing")).to_have_text(standing)


async def test_staff_revoke_a_certificate_with_a_passkey_and_check_says_not_current_at_once(town: Town) -> None:
    troubles: list[str] = []
    async with async_playwright() as p, AsyncExitStack() as stack:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        stack.push_async_callback(browser.close)
        # In Paris, so the page's script says each moment again in the reader's own time.
        context = await browser.new_context(viewport={"width": 390, "height": 844}, timezone_id="Europe/Paris")
        context.set_default_timeout(30_000)
        page = await context.new_page()
        page.on("pageerror", lambda e: troubles.append(f"page error: {e}"))
        cdp = await context.new_cdp_session(page)
        await cdp.send("WebAuthn.enable", {"enableUI": False})
        await cdp.send("WebAuthn.addVirtualAuthenticator", {"options": device_options()})
        await page.goto(claim_link(town))
        await page.fill("#name", "Olive")
        await page.click("text=Make a passkey and claim the town")
        await expect(page.locator("h1")).to_have_text("Waiting for you")

        s = await stack.enter_async_context(connect(town))
        slips = [(await ok(s, "attend", course=c))["slip"] for c in COURSES]
        certificate = (await ok(s, "foundry_cast", slips=slips))["certificate"]
        number = certificate["statement"]["certificate"]
        checked = await ok(s, "foundry", check=certificate)
        assert (checked["current"], checked["standing"]) == (True, "live")

        # The owner is the town's staff: the certificate is in the staff room.
        hall = f"http://localhost:{town.port}"
        await page.goto(f"{hall}/hall/staff")
        row = page.locator(f"#certificate-{number}")
        await expect(row).to_contain_text("live")
        # When it was cast, as the hall writes every moment (never "3 minutes" alone), with the reader's own
        # time beside it; the list fits a phone and a laptop.
        await expect(row.locator("time.when")).to_have_text(CAST)
        for width in (375, 1280):
            await page.set_viewport_size({"width": width, "height": 844})
            assert await page.evaluate("document.documentElement.scrollWidth") <= width
        await row.get_by_role("link", name=number).click()
        await expect(page.locator("h1")).to_have_text("A Foundry certificate")
        await expect(page.locator("#standing")).to_have_text("live")

        await change(page, "Suspend", "Suspended. From now on, anyone who checks", "suspended")
        checked = await ok(s, "foundry", check=certificate)
        assert (checked["current"], checked["standing"]) == (False, "suspended")
        await change(page, "Reinstate", "Reinstated.", "live")
        assert (await ok(s, "foundry", check=certificate))["current"] is True

        await change(page, "Revoke", "Revoked, for good.", "revoked")
        await expect(page.locator("#outcome")).to_have_text("Changed: revoked")
        await expect(page.locator("main")).to_contain_text("signed with a passkey.")
        await expect(page.locator("button:has-text('with your passkey')")).to_have_count(0)
        checked = await ok(s, "foundry", check=certificate)
        assert (checked["current"], checked["standing"], checked["expired"]) == (False, "revoked", False)
        # A revoked certificate is no longer a stamp on the passport.
        assert (await ok(s, "show_passport"))["stamps"] == []
    assert troubles == []
