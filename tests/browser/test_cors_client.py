"""A page of another origin in headless Chromium signs in to a town the way a browser-based MCP client does
(the TypeScript SDK's requests, as the MCP Inspector sends them from its page): the browser itself
enforces CORS, preflights and all.

The page is served from 127.0.0.1 on a port of its own; the town's hall is at localhost on another, so
every request below is cross-origin. Discovery sends MCP-Protocol-Version and registration a JSON body
(each needs a preflight); the token and revocation endpoints get forms. The hall's page, the consent
page and /mcp stay unreadable to the page, and no answer may be read with credentials.
"""

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import need_chromium
from tests.standins import Handler, serve, stop
from tests.support import Town, hall_of, make_town

VERSION = "2025-11-25"

# Each request as the page makes it: its status and body, or "blocked" when the browser refused it
# to the page (a failed preflight, an answer without CORS), which fetch reports as a TypeError.
SIGN_IN = """
async ({town, hall, version}) => {
  const ask = async (url, init) => {
    try {
      const r = await fetch(url, init);
      return {status: r.status, body: await r.text()};
    } catch (e) {
      return {blocked: e.name};
    }
  };
  const out = {};
  out.resource = await ask(town + "/.well-known/oauth-protected-resource/mcp",
    {headers: {"MCP-Protocol-Version": version}});
  const issuer = JSON.parse(out.resource.body || "{}").authorization_servers?.[0] ?? hall;
  out.server = await ask(issuer + "/.well-known/oauth-authorization-server",
    {headers: {"MCP-Protocol-Version": version, "Accept": "application/json"}});
  out.keys = await ask(issuer + "/.well-known/jwks.json", {headers: {"MCP-Protocol-Version": version}});
  const meta = JSON.parse(out.server.body || "{}");
  out.register = await ask(meta.registration_endpoint ?? issuer + "/oauth/register", {
    method: "POST",
    headers: {"Content-Type": "application/json", "Accept": "application/json"},
    body: JSON.stringify({
      redirect_uris: [location.origin + "/callback"], client_name: "Page Client",
      token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  const client = JSON.parse(out.register.body || "{}").client_id ?? "none";
  const form = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"};
  out.token = await ask(meta.token_endpoint ?? issuer + "/oauth/token", {
    method: "POST",
    headers: {...form, "MCP-Protocol-Version": version},
    body: new URLSearchParams({grant_type: "authorization_code", code: "not-a-code", client_id: client,
      redirect_uri: location.origin + "/callback", code_verifier: "v".repeat(43), resource: town + "/mcp"}),
  });
  out.revoke = await ask(meta.revocation_endpoint ?? issuer + "/oauth/revoke", {
    method: "POST", headers: form, body: new URLSearchParams({token: "not-a-token", client_id: client}),
  });
  out.with_cookies = await ask(town + "/.well-known/oauth-protected-resource/mcp", {credentials: "include"});
  out.hall = await ask(hall + "/hall/");
  out.consent = await ask(hall + "/oauth/authorize?client_id=" + client);
  out.mcp = await ask(town + "/mcp", {
    method: "POST",
    headers: {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
      "MCP-Protocol-Version": version},
    body: JSON.stringify({jsonrpc: "2.0", id: 1, method: "initialize",
      params: {protocolVersion: version, capabilities: {}, clientInfo: {name: "page", version: "1"}}}),
  });
  return out;
}
"""


class Page(Handler):
    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        body = b"<!doctype html><title>An agent app</title><p>An agent app.</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def signed_in(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Town]:
    need_chromium()
    town = make_town(tmp_path_factory.mktemp("cors"), env={"CLOCKFORD_SIGN_IN": "1"}).start()
    yield town
    town.close()


def test_a_page_of_another_origin_signs_in_but_reads_no_persons_page(browser: Browser, signed_in: Town) -> None:
    app = serve(Page)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{app.server_address[1]}/")
        hall = hall_of(signed_in)
        out: dict[str, Any] = page.evaluate(SIGN_IN, {"town": signed_in.url, "hall": hall, "version": VERSION})
    finally:
        context.close()
        stop(app)
    assert {k: v.get("status", v.get("blocked")) for k, v in out.items()} == {
        "resource": 200,
        "server": 200,
        "keys": 200,
        "register": 201,
        # A refusal is read, in its own words: the page can tell its person what went wrong.
        "token": 400,
        "revoke": 200,
        # Never with the browser's credentials, and nothing of a person's or of /mcp.
        "with_cookies": "TypeError",
        "hall": "TypeError",
        "consent": "TypeError",
        "mcp": "TypeError",
    }, out
    assert json.loads(out["resource"]["body"])["authorization_servers"] == [hall]
    assert json.loads(out["server"]["body"])["registration_endpoint"] == f"{hall}/oauth/register"
    assert json.loads(out["register"]["body"])["client_name"] == "Page Client"
    assert json.loads(out["token"]["body"])["error"] == "invalid_grant"
    assert out["revoke"]["body"] == ""
