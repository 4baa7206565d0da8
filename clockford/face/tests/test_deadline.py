"""The body's deadline (clockford/face/deadline.py) in process, for what a live town cannot easily show:
once a body is whole there is no deadline, and an answer already begun is never replaced by the 408.
tests/e2e/test_body_deadline.py and tests/e2e/test_http_rows.py show the 408 itself over uvicorn."""

import asyncio
from typing import Any

import pytest
from django.conf import settings

from clockford.face import answers
from clockford.face.deadline import BodyDeadline

Message = dict[str, Any]


def client(*messages: Message) -> tuple[Any, Any, list[Message]]:
    """A receive that hands out `messages`, then waits for ever (a client that sends no more), a send,
    and the list it fills."""
    waiting = list(messages)

    async def receive() -> Message:
        if waiting:
            return waiting.pop(0)
        await asyncio.Event().wait()
        raise AssertionError("never")

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    return receive, send, sent


@pytest.fixture(autouse=True)
def short(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(settings.CLOCKFORD, "BODY_SECONDS", 0.05)


async def test_a_body_not_whole_in_time_is_answered_408_and_the_application_told_the_client_has_gone() -> None:
    receive, send, sent = client({"type": "http.request", "body": b"{", "more_body": True})
    timed = BodyDeadline(receive, send)
    assert (await timed.receive())["body"] == b"{"
    assert await timed.receive() == {"type": "http.disconnect"}
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 408 and (b"connection", b"close") in sent[0]["headers"]
    assert sent[1]["body"] == b"The request's body did not arrive in time."
    # The 408 was the answer: what the application sends after it goes nowhere.
    await timed.send({"type": "http.response.start", "status": 400, "headers": []})
    assert len(sent) == 2
    assert await timed.receive() == {"type": "http.disconnect"}


async def test_once_the_body_is_whole_there_is_no_deadline() -> None:
    """Django waits on receive for a disconnect while its view runs: a slow page is not cut off."""
    receive, send, sent = client({"type": "http.request", "body": b"a=1", "more_body": False})
    timed = BodyDeadline(receive, send)
    assert (await timed.receive())["body"] == b"a=1"
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.2):  # four times the deadline
            await timed.receive()
    assert sent == []


async def test_an_answer_already_begun_is_not_replaced() -> None:
    receive, send, sent = client({"type": "http.request", "body": b"{", "more_body": True})
    timed = BodyDeadline(receive, send)
    await timed.receive()
    await timed.send({"type": "http.response.start", "status": 200, "headers": []})
    assert await timed.receive() == {"type": "http.disconnect"}
    await timed.send({"type": "http.response.body", "body": b"ok"})
    assert [m.get("status") for m in sent] == [200, None] and sent[1]["body"] == b"ok"


TOO_LARGE = answers.plain(413, "Too large.", {"Connection": "close"})


async def test_a_body_said_to_be_longer_than_its_size_is_refused_before_any_of_it_is_read() -> None:
    receive, send, sent = client({"type": "http.request", "body": b"{", "more_body": True})
    sized = BodyDeadline(receive, send, 10, TOO_LARGE, declared=11)
    assert await sized.receive() == {"type": "http.disconnect"}
    assert [m.get("status") for m in sent] == [413, None] and sent[1]["body"] == b"Too large."
    # Nothing of the body was taken from the client, and the application's own answer goes nowhere.
    assert (await receive())["body"] == b"{"
    await sized.send({"type": "http.response.start", "status": 400, "headers": []})
    assert len(sent) == 2


async def test_a_body_that_grows_past_its_size_is_refused_as_it_does() -> None:
    receive, send, sent = client(*({"type": "http.request", "body": b"a" * 4, "more_body": True} for _ in range(4)))
    sized = BodyDeadline(receive, send, 10, TOO_LARGE)
    assert [(await sized.receive())["body"] for _ in range(2)] == [b"aaaa", b"aaaa"]
    assert await sized.receive() == {"type": "http.disconnect"}
    assert sent[0]["status"] == 413 and (b"connection", b"close") in sent[0]["headers"]


async def test_a_body_of_its_size_exactly_is_read_whole() -> None:
    receive, send, sent = client(
        {"type": "http.request", "body": b"a" * 6, "more_body": True},
        {"type": "http.request", "body": b"a" * 4, "more_body": False},
    )
    sized = BodyDeadline(receive, send, 10, TOO_LARGE, declared=10)
    assert [(await sized.receive())["body"] for _ in range(2)] == [b"a" * 6, b"a" * 4]
    assert sent == []
