"""The town starts once per process (clockford/asgi.py Town.start): from the lifespan's startup, or,
under a server without lifespan support (daphne), from the first /mcp request. Requests that come
while it starts wait until it has: the SDK's manager refuses any request before its task group runs,
and twelve initializes at once under daphne had three answered 500."""

import asyncio
from typing import Any

import pytest

from clockford import asgi


async def test_requests_that_come_while_the_town_starts_wait_until_it_has(monkeypatch: pytest.MonkeyPatch) -> None:
    town = asgi.Town()
    started: list[int] = []

    async def slow_start() -> None:
        await asyncio.sleep(0.05)  # the first request yields while the SDK's manager starts
        started.append(1)

    monkeypatch.setattr(town, "_start", slow_start)

    async def request() -> bool:
        await town.start()
        return bool(started)

    assert await asyncio.gather(*(request() for _ in range(4))) == [True] * 4
    assert started == [1]  # once
    assert await request() is True


async def test_a_start_that_fails_fails_every_request_that_waited_for_it_and_the_next_tries_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    town = asgi.Town()

    async def failing_start() -> None:
        await asyncio.sleep(0.01)
        raise RuntimeError("the manager could not start")

    monkeypatch.setattr(town, "_start", failing_start)
    answers = await asyncio.gather(town.start(), town.start(), return_exceptions=True)
    assert [str(a) for a in answers] == ["the manager could not start"] * 2
    # The next request tries again.
    monkeypatch.setattr(town, "_start", lambda: asyncio.sleep(0))
    await town.start()
    assert town.started


TURNS: list[str] = []


def failing_then_not() -> None:
    """A piece made ahead (CLOCKFORD_AHEAD) that fails on its first three turns, then works."""
    TURNS.append("turn")
    if len(TURNS) <= 3:
        raise RuntimeError("the database is gone")


async def test_work_made_ahead_that_fails_is_said_once_and_tried_again_every_turn(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.CLOCKFORD_AHEAD = [f"{__name__}.failing_then_not"]
    TURNS.clear()
    loop = asyncio.create_task(asgi.ahead_loop(0.01))
    try:
        for _ in range(200):
            await asyncio.sleep(0.01)
            if len(TURNS) >= 5:
                break
    finally:
        loop.cancel()
    assert len(TURNS) >= 5  # tried again after each failure, and on after it worked
    said = [r for r in caplog.records if "could not make failing_then_not ahead" in r.getMessage()]
    assert len(said) == 1 and said[0].exc_info is not None
