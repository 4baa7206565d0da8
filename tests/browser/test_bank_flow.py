"""Must show (issue 12, the Bank): over real HTTP, on a town with sign-in and an hour of three changes,
an agent spends its hour, is refused before the change runs (nothing written but the footstep), asks
its person for 10 more, its person allows in Chromium with a passkey, and the next change goes through.

The person signs up in headless Chromium with a virtual passkey and connects a real mcp 2.3.0 client
(OAuthClientProvider, the consent approved with the passkey), so the agent is a signed-in passport of
the person's account, the one kind request_authority serves.
"""

import asyncio
from collections.abc import Iterator
from contextlib import AsyncExitStack
from datetime import UTC, datetime

import pytest
from playwright.async_api import async_playwright, expect

from tests.browser.conftest import need_chromium
from tests.browser.test_switchboard_flow import connected, people
from tests.support import Town, hall_of, make_town

HOURLY = 3


@pytest.fixture(scope="module")
def town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    need_chromium()
    env = {"CLOCKFORD_SIGN_IN": "1", "CLOCKFORD_CHANGES_PER_HOUR": str(HOURLY)}
    t = make_town(tmp_path_factory.mktemp("bank"), env=env).start()
    yield t
    t.close()


async def test_an_agent_spends_its_hour_asks_for_more_and_its_person_allows(town: Town) -> None:
    # The hour refills on the hour: start well inside one, so the test's few seconds never cross it.
    now = datetime.now(UTC)
    if now.minute == 59 and now.second > 30:
        await asyncio.sleep(61 - now.second)
    hall = hall_of(town)
    async with async_playwright() as p, AsyncExitStack() as stack:
        (alice,) = await people(p, stack, town, "Alice")
        a = await stack.enter_async_context(connected(town, alice, stack))

        balance = (await a.ok("show_balance"))["balance"]
        assert (balance["left"], balance["of"], balance["drawn"]) == (HOURLY, HOURLY, 0)

        # The hour's changes, then one more: refused before it runs.
        for i in range(HOURLY):
            await a.ok("remember", key=f"count-{i}", value=f"lanterns counted: {i}")
        is_error, refused = await a.call("remember", key="one-too-many", value="never kept")
        assert is_error is True, refused
        assert refused["say"].startswith("The Bank says no: your authority for this hour is spent"), refused
        assert 1 <= refused["retryAfterSeconds"] <= 3600 and refused["balance"]["left"] == 0
        assert isinstance(refused["footstep"], int)
        # Nothing written but the footstep: the note is not in the box.
        recalled = await a.ok("recall")
        assert "one-too-many" not in str(recalled) and "count-0" in str(recalled)

        # Ask for 10 more: the reply says where the person decides; asking draws nothing.
        asked = (await a.ok("request_authority", reason="many-records", amount=10))["request"]
        assert asked["status"] == "waiting" and asked["hallUrl"] == f"{hall}/hall/authority/{asked['id']}"

        # The person sees it waiting, opens it, and allows it with the passkey.
        await alice.page.goto(f"{hall}/hall/")
        row = alice.page.locator(f'a[href="/hall/authority/{asked["id"]}"]')
        await expect(row.first).to_be_visible()
        await expect(alice.page.locator("main")).to_contain_text("make 10 more changes this hour")
        await alice.page.goto(asked["hallUrl"])
        await expect(alice.page.locator("h1")).to_have_text("Your agent asks for more changes this hour")
        await expect(alice.page.locator("main")).to_contain_text("your agent may make 10 more changes this hour")
        await alice.page.click("button:has-text('Allow with your passkey')")
        await expect(alice.page.locator(".flash")).to_contain_text("Allowed. Your agent may make 10 more changes")
        await expect(alice.page.locator("#outcome")).to_have_text("Decided: allowed")
        assert alice.troubles == []

        # The next change goes through.
        kept = await a.ok("remember", key="one-too-many", value="kept now")
        assert kept["key"] == "one-too-many"
        shown = await a.ok("show_balance")
        assert (shown["balance"]["of"], shown["balance"]["drawn"], shown["balance"]["left"]) == (13, 4, 9)
        assert shown["requests"][0]["id"] == asked["id"] and shown["requests"][0]["status"] == "allowed"
