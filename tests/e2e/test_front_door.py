"""001 section 02, 403 "Come in through the front door.": when CLOCKFORD_URL names a public address,
a request to /mcp that did not come through it (the town's own port reached directly, by a loopback
name or over plain http past the proxy) is refused (clockford/face/checks.py, front_door)."""

import json
from collections.abc import Callable

import pytest

from tests.support import MCP_HEADERS, Town, request

FRONT_DOOR = "Come in through the front door."
PLAIN = "text/plain; charset=utf-8"
TownFactory = Callable[..., Town]
INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "door", "version": "1"}},
    }
)


@pytest.fixture
def public_town(town_factory: TownFactory) -> Town:
    # The proxy in front of a real deployment ends TLS and says so in X-Forwarded-Proto; here the test is
    # that proxy, on this machine, and named so. This town's /status is reached directly, so Django's
    # redirect to https is off.
    env = {
        "CLOCKFORD_URL": "https://town.example",
        "CLOCKFORD_SSL_REDIRECT": "0",
        "CLOCKFORD_TRUSTED_PROXIES": "127.0.0.1",
    }
    return town_factory(env=env).start()


def post(town: Town, **headers: str) -> tuple[int, dict[str, str], str]:
    return request("POST", town.mcp, INITIALIZE, {**MCP_HEADERS, **headers})


def assert_front_door(reply: tuple[int, dict[str, str], str]) -> None:
    status, headers, body = reply
    assert (status, body) == (403, FRONT_DOOR), reply
    assert headers["content-type"] == PLAIN and headers["content-length"] == str(len(FRONT_DOOR))
    assert "mcp-session-id" not in headers


def test_a_request_to_the_towns_own_port_by_a_loopback_name_is_sent_to_the_front_door(public_town: Town) -> None:
    assert_front_door(post(public_town))
    assert_front_door(post(public_town, Host="localhost"))
    assert_front_door(request("GET", public_town.mcp, headers={**MCP_HEADERS, "Mcp-Session-Id": "0" * 64}))
    assert_front_door(request("DELETE", public_town.mcp, headers={**MCP_HEADERS, "Mcp-Session-Id": "0" * 64}))


def test_the_public_name_over_plain_http_past_the_proxy_is_sent_to_the_front_door(public_town: Town) -> None:
    assert_front_door(post(public_town, Host="town.example"))
    assert_front_door(post(public_town, Host="town.example", **{"X-Forwarded-Proto": "http"}))


def test_a_request_through_the_front_door_comes_in(public_town: Town) -> None:
    status, headers, body = post(public_town, Host="town.example", **{"X-Forwarded-Proto": "https"})
    assert status == 200 and "mcp-session-id" in headers, (status, body)


def test_a_host_the_town_does_not_answer_to_is_refused_as_before(public_town: Town) -> None:
    status, _, body = post(public_town, Host="evil.example", **{"X-Forwarded-Proto": "https"})
    assert (status, body) == (403, "This town answers only on this machine.")


def test_a_town_on_this_machine_has_no_front_door_to_come_through(town: Town) -> None:
    status, headers, _ = request("POST", town.mcp, INITIALIZE, MCP_HEADERS)
    assert status == 200
    request("DELETE", town.mcp, headers={**MCP_HEADERS, "Mcp-Session-Id": headers["mcp-session-id"]})


def test_a_claim_of_https_from_a_peer_no_proxy_is_named_for_is_not_believed(town_factory: TownFactory) -> None:
    """Without CLOCKFORD_TRUSTED_PROXIES no peer is the proxy, one on this machine neither: its
    X-Forwarded-Proto is dropped (clockford/face/proxy.py), so a program here cannot claim https."""
    t = town_factory(env={"CLOCKFORD_URL": "https://town.example", "CLOCKFORD_SSL_REDIRECT": "0"}).start()
    assert_front_door(post(t, Host="town.example", **{"X-Forwarded-Proto": "https"}))
