"""Must show (issue 13, the Realty Office): ownership proofs end to end, against stand-ins run on
loopback (tests/standins.py): a DNS resolver and an HTTPS server for the demo census's domain
(demo.clockford.io, the namespace io.clockford.demo), and a GitHub-style OAuth server. A real MCP
client signed in as Alice asks with claim_deed; Alice proves each way in Chromium with her passkey:
refused while the proof is missing, proven once it is there, lapsed after it is removed (by the sweep
for DNS, by the hall's "check again" for HTTPS and GitHub). Bob's reply for the same lot is the same
byte for byte, but the footstep, before and after Alice holds its deed.
"""

import asyncio
import json
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, async_playwright, expect

from tests.browser.conftest import need_chromium
from tests.browser.test_switchboard_flow import Agent, connected, people
from tests.standins import GitHub, Resolver, Site
from tests.support import Town, hall_of, make_town

DOMAIN = "demo.clockford.io"
DNS_LOT = "io.clockford.demo/how-to-run"
HTTPS_LOT = "io.clockford.demo/dusty"
GITHUB_LOT = "io.github.clockford-demo/borrowed-repo"
WELL_KNOWN = "/.well-known/clockford-deed.json"


@pytest.fixture(scope="module")
def standins(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Resolver, Site, GitHub]]:
    need_chromium()
    dns, site, github = Resolver(), Site(tmp_path_factory.mktemp("site"), [DOMAIN]), GitHub()
    dns.domains.add(DOMAIN)
    yield dns, site, github
    github.close()
    site.close()
    dns.close()


@pytest.fixture(scope="module")
def town(tmp_path_factory: pytest.TempPathFactory, standins: tuple[Resolver, Site, GitHub]) -> Iterator[Town]:
    dns, site, github = standins
    env = {
        "CLOCKFORD_SIGN_IN": "1",
        "CLOCKFORD_DEED_RESOLVER": dns.address,
        "CLOCKFORD_CIMD_LOOPBACK_CA": str(site.ca),
        "CLOCKFORD_DEED_LOOPBACK_PORT": str(site.port),
        "CLOCKFORD_DEED_RECHECK_HOURS": "0",
        **github.env(),
    }
    t = make_town(tmp_path_factory.mktemp("realty"), env=env)
    t.manage("census", "ensure")
    t.start()
    yield t
    t.close()


def same_but_footstep(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert a["footstep"] != b["footstep"]
    strip = [json.dumps({k: v for k, v in r.items() if k != "footstep"}, sort_keys=True) for r in (a, b)]
    assert strip[0] == strip[1]


async def open_ask(page: Page, hall: str, lot: int) -> None:
    await page.goto(f"{hall}/hall/deeds")
    await page.click(f"a:has-text('Prove lot {lot}')")
    await expect(page.locator("h1")).to_have_text(f"Your agent asks for the deed to lot {lot}")


async def check_again(page: Page, hall: str, deed_id: str) -> None:
    await page.goto(f"{hall}/hall/deeds")
    card = page.locator(f"li.deed[data-deed='{deed_id}']")
    await card.locator("button:has-text('Check the proof again now')").click()


async def test_proven_refused_and_lapsed_three_ways(town: Town, standins: tuple[Resolver, Site, GitHub]) -> None:
    dns, site, github = standins
    hall = hall_of(town)
    async with async_playwright() as p, AsyncExitStack() as stack:
        alice, bob = await people(p, stack, town, "Alice", "Bob")
        a: Agent = await stack.enter_async_context(connected(town, alice, stack))
        b: Agent = await stack.enter_async_context(connected(town, bob, stack))
        page = alice.page

        # -- DNS: Bob's ask while nobody holds the lot, Alice's ask, refused, proven.
        nobody = await b.ok("claim_deed", server=DNS_LOT)
        asked = await a.ok("claim_deed", server=DNS_LOT)
        lot = asked["lot"]
        assert (asked["deed"], asked["asked"]) == (None, True) and "how-to-run" not in json.dumps(asked)
        assert asked["hallUrl"] == f"{hall}/hall/deeds"
        assert asked["say"].endswith("in the hall at hallUrl with their own sign-in. You cannot prove it yourself.")
        await open_ask(page, hall, lot)
        txt = (await page.locator("#txt").inner_text()).strip()
        assert txt.startswith("clockford-deed=")
        dns_form = page.locator("form:has(input[value='dns'])")
        await dns_form.locator("button").click()
        await expect(dns_form.locator(".say")).to_contain_text("Refused: No TXT record")
        dns.txt[DOMAIN] = [txt]
        await dns_form.locator("button").click()
        await expect(page.locator(".flash")).to_contain_text(f"Proven. You hold the deed to lot {lot}")
        held = await a.ok("claim_deed", server=lot)
        deed_id = held["deed"]["id"]
        assert held["deed"]["id"].startswith("DE-") and held["asked"] is False
        # Bob's reply is the same as before Alice held it: only the footstep differs.
        same_but_footstep(nobody, await b.ok("claim_deed", server=DNS_LOT))
        # The listing says so, for Bob too.
        entered = await b.ok("enter", lot=lot)
        assert entered["deed"]["proven"] == "dns"
        # The record is removed; the sweep's re-check lapses the deed.
        dns.txt[DOMAIN] = []
        town.manage("sweep")
        assert (await a.ok("claim_deed", server=lot))["deed"] is None
        assert "deed" not in await b.ok("enter", lot=lot)
        await page.goto(f"{hall}/hall/deeds")
        await expect(page.locator(f"li.deed[data-deed='{deed_id}'] .deed-state")).to_have_text("lapsed")

        # -- HTTPS: refused without the file, proven with it, lapsed once it is removed.
        asked = await a.ok("claim_deed", server=HTTPS_LOT)
        lot = asked["lot"]
        await open_ask(page, hall, lot)
        token = (await page.locator("#token").inner_text()).strip()
        https_form = page.locator("form:has(input[value='https'])")
        await https_form.locator("button").click()
        await expect(https_form.locator(".say")).to_contain_text("could not be read")
        site.files[(DOMAIN, WELL_KNOWN)] = {"clockford-deed": token}
        await https_form.locator("button").click()
        await expect(page.locator(".flash")).to_contain_text(f"Proven. You hold the deed to lot {lot}")
        deed_id = (await a.ok("claim_deed", server=lot))["deed"]["id"]
        assert {path for host, path in site.asked if host == DOMAIN} == {WELL_KNOWN}
        del site.files[(DOMAIN, WELL_KNOWN)]
        await check_again(page, hall, deed_id)
        await expect(page.locator(".flash")).to_contain_text(f"Lapsed: the proof is gone: https://{DOMAIN}")
        assert (await a.ok("claim_deed", server=lot))["deed"] is None

        # -- GitHub: signed in as someone else is refused; as the owner, proven; renamed, lapsed.
        asked = await a.ok("claim_deed", server=GITHUB_LOT)
        lot = asked["lot"]
        github.users = {41: "someone-else", 42: "clockford-demo"}
        github.signed_in = 41
        await open_ask(page, hall, lot)
        await page.click("button:has-text('Sign in to GitHub as clockford-demo')")
        await expect(page.locator(".flash")).to_contain_text(
            "Refused: You signed in to GitHub as someone-else, not as clockford-demo."
        )
        github.signed_in = 42
        await page.click("button:has-text('Sign in to GitHub as clockford-demo')")
        await expect(page.locator(".flash")).to_contain_text("GitHub says you are clockford-demo.")
        await page.click("button:has-text('Take the deed with your passkey')")
        await expect(page.locator(".flash")).to_contain_text(f"Proven. You hold the deed to lot {lot}")
        held = await a.ok("claim_deed", server=lot)
        verified = await b.ok("verify", server=GITHUB_LOT)
        assert verified["deed"]["proven"] == "github"
        github.users[42] = "clockford-demo-renamed"
        await check_again(page, hall, held["deed"]["id"])
        await expect(page.locator(".flash")).to_contain_text("Lapsed: the proof is gone: You signed in to GitHub as")
        assert (await a.ok("claim_deed", server=lot))["deed"] is None
        await asyncio.sleep(0)
        assert alice.troubles == [] and bob.troubles == []


@pytest.fixture(scope="module")
def bare_town(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    need_chromium()
    t = make_town(tmp_path_factory.mktemp("realty-bare"), env={"CLOCKFORD_SIGN_IN": "1"})
    t.manage("census", "ensure")
    t.start()
    yield t
    t.close()


async def test_without_configuration_the_hall_says_github_proof_is_not_configured(
    bare_town: Town, tmp_path: Path
) -> None:
    hall = hall_of(bare_town)
    async with async_playwright() as p, AsyncExitStack() as stack:
        (alice,) = await people(p, stack, bare_town, "Alice")
        a: Agent = await stack.enter_async_context(connected(bare_town, alice, stack))
        lot = (await a.ok("claim_deed", server=GITHUB_LOT))["lot"]
        await open_ask(alice.page, hall, lot)
        await expect(alice.page.locator("#github-not-configured")).to_contain_text(
            "GitHub proof is not configured in this town"
        )
