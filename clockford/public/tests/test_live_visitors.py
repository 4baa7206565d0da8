"""The public map's socket (clockford/public/live.py) counts its visitors as every limit per address
does (clockford/town/limits.py counted_as): an IPv6 address by its /64. tests/e2e/test_public_live.py
shows the limit itself through a running town."""

from collections.abc import AsyncIterator

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from clockford.public import live

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
async def close_connections() -> AsyncIterator[None]:
    yield
    await database_sync_to_async(connections.close_all)()


def socket_from(address: str) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(live.application, live.PATH)
    ws.scope["client"] = (address, 0)
    return ws


async def test_one_ipv6_host_takes_one_share_of_the_map_sockets_whatever_its_addresses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host holds a whole /64: counted by each of its addresses apart, it could open SOCKETS_PER_VISITOR
    sockets from each, and take all SOCKETS_MAX, leaving every other map unlive."""
    monkeypatch.setattr(live, "SOCKETS_PER_VISITOR", 2)
    opened = []
    try:
        for n in (1, 2):
            ws = socket_from(f"2001:db8:1:2::{n}")
            assert (await ws.connect(timeout=10))[0]
            opened.append(ws)
        third = socket_from("2001:db8:1:2:ffff::3")
        assert (await third.connect(timeout=10))[0] is False
        # Another /64 is another visitor.
        other = socket_from("2001:db8:1:3::1")
        assert (await other.connect(timeout=10))[0]
        opened.append(other)
    finally:
        for ws in opened:
            await ws.disconnect()
    assert not live.watcher.by_visitor
