"""/metrics: every worker's counts from the database, in the Prometheus text format, to this machine or
with the token; and one JSON line per call in the log, never its arguments."""

import contextvars
import json
import logging
from typing import Any

import pytest
from django.test import Client, override_settings
from prometheus_client.parser import text_string_to_metric_families
from pydantic import ValidationError

from clockford.metrics import counting
from clockford.metrics.models import CallCount
from clockford.metrics.views import REFUSED
from clockford.town import desk
from districts.registry import TOOLS
from districts.testing import new_passport, visit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts() -> None:
    # Calls of earlier tests in this process, whose databases were rolled back, are not this test's.
    counting.discard()


SECRET_VALUE = "a-value-only-the-arguments-hold-7f3a"


def scrape(client: Client, **extra: str) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    r = client.get("/metrics", **extra)
    assert r.status_code == 200, r.content
    assert r["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    samples: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(r.content.decode()):
        for s in family.samples:
            samples.setdefault(s.name, {})[tuple(sorted(s.labels.items()))] = s.value
    return samples


def added(after: dict[str, dict[Any, float]], before: dict[str, dict[Any, float]], name: str) -> dict[Any, float]:
    """What `name`'s samples gained between two scrapes: calls another test made on a thread of its own
    (the face's in-process tests) were committed beside its transaction, on PostgreSQL, and stay."""
    was = before.get(name, {})
    return {k: v - was.get(k, 0) for k, v in after.get(name, {}).items()}


def test_it_counts_each_call_by_tool_and_outcome_with_a_histogram() -> None:
    before = scrape(Client())
    p = new_passport()
    visit(p, "look_around")
    visit(p, "remember", key="k", value="v")
    visit(p, "recall", key="nowhere")  # refused: not found
    got = scrape(Client())
    calls = {labels: n for labels, n in added(got, before, "clockford_calls_total").items() if n}
    assert calls[(("outcome", "ok"), ("tool", "look_around"))] == 1
    assert calls[(("outcome", "ok"), ("tool", "remember"))] == 1
    refused = {labels: n for labels, n in calls.items() if dict(labels)["tool"] == "recall"}
    assert list(refused.values()) == [1] and dict(next(iter(refused)))["outcome"].startswith("refused:")
    # The histogram is cumulative and ends at +Inf with the count.
    remembered = added(got, before, "clockford_call_seconds_bucket")
    buckets = {dict(k)["le"]: v for k, v in remembered.items() if dict(k)["tool"] == "remember"}
    assert buckets["+Inf"] == 1 and added(got, before, "clockford_call_seconds_count")[(("tool", "remember"),)] == 1
    values = [buckets[le] for le in sorted((le for le in buckets if le != "+Inf"), key=float)]
    assert values == sorted(values)
    assert got["clockford_call_seconds_sum"][(("tool", "remember"),)] > 0
    for gauge in (
        "clockford_holds_waiting",
        "clockford_sessions_open",
        "clockford_archive_footsteps",
        "clockford_archive_leaves",
        "clockford_archive_fold_lag_footsteps",
        "clockford_archive_fold_lag_seconds",
    ):
        assert gauge in got, gauge
    assert got["clockford_archive_footsteps"][()] >= 3
    assert got["clockford_archive_fold_lag_footsteps"][()] >= 3  # nothing folded in this test


def test_counts_written_by_another_worker_are_added_not_replaced() -> None:
    # What another process wrote: this worker's flush adds to the row. The row is read as it stands
    # first: on PostgreSQL a desk thread of an earlier test in this process (its own connection, which
    # commits) has been seen to leave one behind (a CI run).
    key = ("look_around", "ok", counting.bucket(0.002))
    before, _ = CallCount.objects.get_or_create(
        tool=key[0], outcome=key[1], bucket=key[2], defaults={"count": 40, "seconds": 0.08}
    )
    assert before.count > 0
    counting.finished("look_around", "ok", 0.002, 1)
    counting.flush()
    row = CallCount.objects.get(tool=key[0], outcome=key[1], bucket=key[2])
    assert row.count == before.count + 1 and row.seconds == pytest.approx(before.seconds + 0.002)
    assert counting.pending() == {}


def test_the_log_has_one_json_line_per_call_and_never_the_arguments(caplog: pytest.LogCaptureFixture) -> None:
    p = new_passport()
    with caplog.at_level(logging.INFO, logger="clockford.calls"):
        r = visit(p, "remember", key="secret-key-name", value=SECRET_VALUE)
        visit(p, "recall", key="secret-key-name")
    lines = [rec.getMessage() for rec in caplog.records if rec.name == "clockford.calls"]
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert set(first) == {"at", "tool", "outcome", "ms", "footstep"}
    assert (first["tool"], first["outcome"], first["footstep"]) == ("remember", "ok", r.footstep)
    assert first["ms"] > 0
    everything = "\n".join(rec.getMessage() for rec in caplog.records)
    assert SECRET_VALUE not in everything and "secret-key-name" not in everything


def test_a_requests_lines_are_held_until_its_reply_is_out(caplog: pytest.LogCaptureFixture) -> None:
    """The face writes a plain call's line once the reply is sent (counting.lines_after); a line that
    comes after the request ended (a call whose client went, finishing on) is written at once."""

    def logged() -> list[dict[str, Any]]:
        return [json.loads(r.getMessage()) for r in caplog.records if r.name == "clockford.calls"]

    with caplog.at_level(logging.INFO, logger="clockford.calls"):
        with counting.lines_after():
            counting.finished("look_around", "ok", 0.002, 7)
            counting.finished("recall", "refused:no-such-note", 0.003, 8)
            assert logged() == []
        assert [(line["tool"], line["footstep"]) for line in logged()] == [("look_around", 7), ("recall", 8)]
        caplog.clear()
        with counting.lines_after():
            late = contextvars.copy_context()  # a greenlet's copy of the request's context
        late.run(counting.finished, "remember", "ok", 0.004, 9)
        assert [(line["tool"], line["footstep"]) for line in logged()] == [("remember", 9)]
    counting.discard()


def test_an_outsider_is_refused_without_the_token() -> None:
    r = Client(REMOTE_ADDR="203.0.113.9").get("/metrics")
    assert (r.status_code, r.content.decode()) == (403, REFUSED)


@override_settings(CLOCKFORD_METRICS_TOKEN="right-token-123")  # noqa: S106 (a test's token)
def test_an_outsider_with_the_token_is_served_and_a_wrong_token_is_refused() -> None:
    outside = Client(REMOTE_ADDR="203.0.113.9")
    assert outside.get("/metrics", HTTP_AUTHORIZATION="Bearer right-token-12").status_code == 403
    assert outside.get("/metrics", HTTP_AUTHORIZATION="Basic right-token-123").status_code == 403
    assert "clockford_holds_waiting" in scrape(outside, HTTP_AUTHORIZATION="Bearer right-token-123")


def test_a_call_outside_its_schema_is_logged_and_counted_without_a_footstep(caplog: pytest.LogCaptureFixture) -> None:
    p = new_passport()
    with caplog.at_level(logging.INFO, logger="clockford.calls"), pytest.raises(ValidationError):
        desk.run(TOOLS["remember"], {"key": "k", "value": SECRET_VALUE, "colour": "red"}, p, None)
    (line,) = [json.loads(r.getMessage()) for r in caplog.records if r.name == "clockford.calls"]
    assert (line["tool"], line["outcome"], line["footstep"]) == ("remember", "invalid-arguments", None)
    assert SECRET_VALUE not in caplog.text
    assert [(tool, outcome, n) for (tool, outcome, _), n in counting.pending().items()] == [
        ("remember", "invalid-arguments", 1)
    ]


def test_a_call_that_gave_way_is_logged_and_counted_once_by_its_run_again(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite a call that met another writer's lock before writing anything gives way (GaveWay) and is
    run again from its start on a desk thread (clockford/face/server.py in_db): the run that gave way is
    no call, so it writes no line and no count, where it wrote an "error" for a call that then went well."""
    from clockford.sqlite.base import GaveWay

    p = new_passport()
    real_mode = desk.town_mode

    def locked() -> str:
        raise GaveWay

    with caplog.at_level(logging.INFO, logger="clockford.calls"):
        monkeypatch.setattr(desk, "town_mode", locked)  # the call's first read meets the lock
        with pytest.raises(GaveWay):
            desk.run(TOOLS["remember"], {"key": "k", "value": "v"}, p, None)
        monkeypatch.setattr(desk, "town_mode", real_mode)
        r = desk.run(TOOLS["remember"], {"key": "k", "value": "v"}, p, None)  # as the desk thread runs it
    lines = [json.loads(rec.getMessage()) for rec in caplog.records if rec.name == "clockford.calls"]
    assert [(x["tool"], x["outcome"], x["footstep"]) for x in lines] == [("remember", "ok", r.footstep)]
    assert [(tool, outcome, n) for (tool, outcome, _), n in counting.pending().items()] == [("remember", "ok", 1)]
