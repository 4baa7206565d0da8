"""A PostgreSQL server out of reach for a moment (restarting, a connection cut) is a busy clerk, never a
closed town and never a 500 (found by the reliability battery, `./town bench battery`: a PostgreSQL
restart under load closed calls with "The town could not record this call" and answered others 500).

The errors are psycopg's own, as Django wraps them: an OperationalError whose cause carries the
server's SQLSTATE (57P01 admin_shutdown when the server stops, class 08 when the connection fails), or
none at all when no server answered.
"""

import json
from typing import Any

import psycopg
import pytest
from django.db import OperationalError, connection

from clockford.face import http
from clockford.town import desk
from clockford.town.models import Footstep, TownState
from districts.post_office.models import Note
from districts.testing import new_passport
from tests.test_desk import _keep_then, _tool

BUSY_SAY = f"The clerk is busy. Try again in {desk.BUSY_RETRY_SECONDS} seconds."


def unreachable(cause: Exception) -> OperationalError:
    error = OperationalError(str(cause))
    error.__cause__ = cause
    return error


STOPPING = psycopg.errors.AdminShutdown("terminating connection due to administrator command")
CUT = psycopg.errors.ConnectionFailure("connection to server was lost")
NO_SERVER = psycopg.OperationalError("server closed the connection unexpectedly")


@pytest.mark.parametrize(
    "cause", [STOPPING, CUT, psycopg.errors.CannotConnectNow("the database system is starting up")]
)
def test_a_server_stopping_or_a_connection_cut_reads_as_busy(cause: Exception) -> None:
    assert desk.is_busy(unreachable(cause)) is True


def test_no_server_answering_reads_as_busy_on_postgresql_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # psycopg names no SQLSTATE when no server answered; on SQLite such an error is not busy.
    assert desk.is_busy(unreachable(NO_SERVER)) is (connection.vendor == "postgresql")
    monkeypatch.setattr(type(connection._connections["default"]), "vendor", "postgresql")  # type: ignore[attr-defined]
    assert desk.is_busy(unreachable(NO_SERVER)) is True
    # A server that answered with a real error is still not busy.
    assert desk.is_busy(unreachable(psycopg.errors.UndefinedTable("relation does not exist"))) is False


def _gone(*_: Any, **__: Any) -> Any:
    raise unreachable(STOPPING)


def _assert_busy_and_open(r: desk.Rendered) -> None:
    assert r.is_error is True, r.structured
    assert r.structured["say"] == BUSY_SAY
    assert r.structured["retryAfterSeconds"] == desk.BUSY_RETRY_SECONDS
    assert "hold" not in r.structured
    assert not TownState.objects.exclude(mode="open").exists()
    assert desk.town_mode() == "open"


@pytest.mark.django_db
def test_a_server_gone_while_the_footstep_is_written_is_busy_and_the_town_stays_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice = new_passport()
    monkeypatch.setattr(desk.archive, "record", _gone)
    r = desk.run(_tool(_keep_then(None)), {"text": "Lot 12 is dark."}, alice, None)
    _assert_busy_and_open(r)
    assert r.footstep is None  # nothing could be recorded, so nothing happened
    assert not Note.objects.exists() and not Footstep.objects.exists()


@pytest.mark.django_db
def test_a_server_gone_before_the_call_is_busy_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    alice = new_passport()
    desk.forget_town_mode()
    monkeypatch.setattr(desk.TownState.objects, "filter", _gone)
    r = desk.run(_tool(_keep_then(None)), {"text": "Lot 12 is dark."}, alice, None)
    monkeypatch.undo()
    _assert_busy_and_open(r)
    assert r.footstep is None and not Footstep.objects.exists()


@pytest.mark.django_db
def test_a_server_gone_while_the_words_are_screened_is_busy_not_a_safety_check_that_failed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Safe Harbour reads the database before the transaction: a server restarting then must not make
    the town read-only (001 section 04 is for a check that cannot run, not a clerk who must wait)."""
    alice = new_passport()
    monkeypatch.setattr(desk.words, "screen", _gone)
    r = desk.run(_tool(_keep_then(None), words={"text": "public"}), {"text": "Lot 12 is dark."}, alice, None)
    _assert_busy_and_open(r)
    assert not Note.objects.exists()


class Sent:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        self.messages.append(message)

    @property
    def status(self) -> int:
        return int(self.messages[0]["status"])

    @property
    def headers(self) -> dict[str, str]:
        return {k.decode(): v.decode() for k, v in self.messages[0]["headers"]}

    @property
    def body(self) -> str:
        return b"".join(m.get("body", b"") for m in self.messages[1:]).decode()


async def _ask(method: str, body: bytes = b"") -> Sent:
    headers = {
        "host": "127.0.0.1",
        "content-type": "application/json",
        "accept": "application/json, text/event-stream",
        "mcp-session-id": "s" * 32,
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    scope = {
        "type": "http",
        "method": method,
        "path": "/mcp",
        "client": ["127.0.0.1", 1234],
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
    }
    sent = Sent()
    await http.Face(http.build_manager())(scope, receive, sent)
    return sent


async def test_the_face_answers_a_call_busy_when_its_checks_cannot_reach_the_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The town's mode, read by the face before anything else, could not be read: a tools/call is told
    busy in the desk's words (a result with retryAfterSeconds, no footstep), not 500."""
    monkeypatch.setattr(desk, "cached_town_mode", lambda: None)
    monkeypatch.setattr(desk, "town_mode", _gone)
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "look_around", "arguments": {}}}
    sent = await _ask("POST", json.dumps(call).encode())
    assert sent.status == 200
    assert sent.headers["content-type"] == "text/event-stream"
    assert sent.body.startswith("event: message\r\ndata: ")
    reply = json.loads(sent.body.split("data: ", 1)[1])
    assert reply["id"] == 7
    result = reply["result"]
    assert result["isError"] is True
    assert result["structuredContent"]["say"] == BUSY_SAY
    assert result["structuredContent"]["retryAfterSeconds"] == desk.BUSY_RETRY_SECONDS
    assert "footstep" not in result["structuredContent"] or result["structuredContent"]["footstep"] is None
    assert result["content"][0]["text"].startswith(BUSY_SAY)


async def test_the_face_answers_anything_else_503_with_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(desk, "cached_town_mode", lambda: None)
    monkeypatch.setattr(desk, "town_mode", _gone)
    sent = await _ask("DELETE")
    assert (sent.status, sent.body) == (503, BUSY_SAY)
    assert sent.headers["retry-after"] == str(desk.BUSY_RETRY_SECONDS)
    assert sent.headers["content-type"] == "text/plain; charset=utf-8"


async def test_the_face_still_lets_a_real_database_error_be_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(desk, "cached_town_mode", lambda: None)

    def broken() -> str:
        raise OperationalError("disk I/O error")

    monkeypatch.setattr(desk, "town_mode", broken)
    with pytest.raises(OperationalError):
        await _ask("DELETE")
