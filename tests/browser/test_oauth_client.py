"""The real mcp 2.3.0 client signs in to a town with sign-in, the way an agent app would.

OAuthClientProvider finds the protected-resource and authorization-server metadata, registers (by
Dynamic Client Registration, then, in a second run, by a Client ID Metadata Document the test serves
over https on loopback), and sends the person to the hall's consent page: its redirect_handler drives
headless Chromium, where the person approves with a virtual passkey. The callback_handler reads code,
state and iss from a listener on 127.0.0.1; the client redeems the code and calls tools. Reconnecting
(over the 2025-11-25 handshake too) returns the same passport, and once the short-lived token has
expired the client refreshes it and carries on, without asking the person again.

Playwright's async API shares the test's event loop with the mcp client, so one test drives both.
"""

import asyncio
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from mcp.client.auth import OAuthClientProvider
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from mcp_types import Implementation
from playwright.async_api import Page, async_playwright, expect

from hall.tests.tls import DocumentServer
from tests.browser.conftest import ARGS, CHROMIUM, device_options, need_chromium
from tests.support import Town, make_town

TOKEN_SECONDS = 8
DOCUMENT = "/errand-runner/client.json"


@pytest.fixture(scope="module")
def signed_in(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Town, DocumentServer]]:
    need_chromium()
    folder = tmp_path_factory.mktemp("oauth")
    documents = DocumentServer(folder)
    env = {
        "CLOCKFORD_SIGN_IN": "1",
        "CLOCKFORD_TOKEN_SECONDS": str(TOKEN_SECONDS),
        "CLOCKFORD_CIMD_LOOPBACK_CA": str(documents.ca),
    }
    town = make_town(folder, env=env).start()
    yield town, documents
    town.close()
    documents.close()


class Memory:
    """The client's token storage, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None
        self.issued: list[OAuthToken] = []

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens
        self.issued.append(tokens)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class Callback:
    """The app's redirect URI: a listener on 127.0.0.1 that hands over what the browser brings back."""

    def __init__(self) -> None:
        self.results: asyncio.Queue[dict[str, str]] = asyncio.Queue()
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self.answer, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    @property
    def uri(self) -> str:
        return f"http://127.0.0.1:{self.port}/callback"

    async def answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        line = (await reader.readline()).decode()
        while (await reader.readline()) not in (b"\r\n", b"\n", b""):
            pass
        target = line.split(" ")[1] if line.count(" ") >= 2 else "/"
        body = b"<!doctype html><title>Done</title><p>You may go back to the app.</p>"
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        await writer.drain()
        writer.close()
        if target.startswith("/callback?"):
            await self.results.put({k: v[0] for k, v in parse_qs(urlsplit(target).query).items()})

    async def wait(self) -> AuthorizationCodeResult:
        got = await asyncio.wait_for(self.results.get(), 60)
        return AuthorizationCodeResult(code=got["code"], state=got.get("state"), iss=got.get("iss"))

    def close(self) -> None:
        self.server.close()


class Person:
    """A browser holding a virtual passkey, who approves each consent the app sends them to."""

    def __init__(self, page: Page, hall: str, callback: Callback) -> None:
        self.page = page
        self.hall = hall
        self.callback = callback
        self.consents: list[str] = []
        self.expect_name = ""

    async def sign_up(self, name: str) -> None:
        await self.page.goto(f"{self.hall}/hall/signup")
        await self.page.fill("#name", name)
        await self.page.click("text=Make a passkey and an account")
        await expect(self.page.locator("h1")).to_have_text("Waiting for you")

    async def approve(self, url: str) -> None:
        """The redirect_handler: the consent page names the app and where the person returns to."""
        self.consents.append(url)
        assert url.startswith(f"{self.hall}/oauth/authorize?"), url
        await self.page.goto(url)
        await expect(self.page.locator("h1")).to_have_text(f"Connect “{self.expect_name}”?")
        await expect(self.page.locator(".redirect-host")).to_have_text(f"127.0.0.1:{self.callback.port}")
        await self.page.click("text=Allow with your passkey")


def provider(town: Town, person: Person, storage: Memory, callback: Callback, metadata_url: str | None) -> Any:
    return OAuthClientProvider(
        server_url=town.mcp,
        client_metadata=OAuthClientMetadata(
            client_name="Errand Runner",
            redirect_uris=[callback.uri],  # type: ignore[list-item]
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=storage,
        redirect_handler=person.approve,
        callback_handler=callback.wait,
        client_metadata_url=metadata_url,
    )


async def passport_of(town: Town, http: httpx2.AsyncClient, mode: str = "auto") -> tuple[str, str, dict[str, Any]]:
    """Connect, call show_passport, disconnect: (protocol version, passport, its fields)."""
    transport = streamable_http_client(town.mcp, http_client=http)
    async with Client(transport, mode=mode, client_info=Implementation(name="errand-runner", version="1")) as client:  # type: ignore[arg-type]
        result = await client.call_tool("show_passport", {})
        assert result.is_error is False and result.structured_content is not None, result
        fields = result.structured_content
        return str(client.protocol_version), fields["passport"], fields


async def test_the_mcp_client_signs_in_with_a_passkey(signed_in: tuple[Town, DocumentServer]) -> None:
    town, documents = signed_in
    hall = f"http://localhost:{town.port}"
    callback = Callback()
    await callback.start()
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        context = await browser.new_context()
        context.set_default_timeout(30_000)
        page = await context.new_page()
        troubles: list[str] = []
        page.on("pageerror", lambda e: troubles.append(str(e)))
        cdp = await context.new_cdp_session(page)
        await cdp.send("WebAuthn.enable", {"enableUI": False})
        await cdp.send("WebAuthn.addVirtualAuthenticator", {"options": device_options()})
        person = Person(page, hall, callback)
        await person.sign_up("Ada")
        try:
            # Dynamic Client Registration: discovery, registration, consent, token, tools/call.
            person.expect_name = "Errand Runner"
            storage = Memory()
            auth = provider(town, person, storage, callback, None)
            async with httpx2.AsyncClient(auth=auth, timeout=60) as http:
                version, passport, fields = await passport_of(town, http)
                assert version == "2026-07-28" and fields["signIn"] is True
                assert len(person.consents) == 1 and storage.client is not None
                assert storage.client.client_id and not storage.client.client_id.startswith("https://")
                # Reconnecting, over the handshake this time: the same passport.
                version, again, _ = await passport_of(town, http, mode="legacy")
                assert (version, again) == ("2025-11-25", passport)
                # The token expires; the client refreshes it (a rotated refresh token) and carries on.
                first = storage.tokens
                assert first is not None and first.expires_in == TOKEN_SECONDS
                await asyncio.sleep(TOKEN_SECONDS + 1.5)
                _, later, _ = await passport_of(town, http)
                assert later == passport and len(person.consents) == 1
                assert storage.tokens is not None and storage.tokens.access_token != first.access_token
                assert storage.tokens.refresh_token != first.refresh_token

            # A Client ID Metadata Document, served over https on this machine: no registration.
            url = documents.url(DOCUMENT)
            documents.documents[DOCUMENT] = {
                "client_id": url,
                "client_name": "Errand Runner (published)",
                "redirect_uris": [callback.uri],
                "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"],
                "token_endpoint_auth_method": "none",
            }
            person.expect_name = "Errand Runner (published)"
            storage = Memory()
            async with httpx2.AsyncClient(auth=provider(town, person, storage, callback, url), timeout=60) as http:
                version, other, fields = await passport_of(town, http)
                assert version == "2026-07-28" and fields["signIn"] is True and other != passport
                assert storage.client is not None and storage.client.client_id == url
                _, again, _ = await passport_of(town, http)
                assert again == other
            assert len(person.consents) == 2 and documents.fetches == [DOCUMENT]
            assert troubles == []
        finally:
            callback.close()
            await browser.close()
