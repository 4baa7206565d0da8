"""Safety checks fail safe (000 section 03, 001 section 04): when the words screen, Safe Harbour or the
reply gate cannot run, nothing of the call is sent, the reply is 001's sentence with
retryAfterSeconds, and the town goes read-only until a person looks: reads still answer, writes get the
busy clerk, and a person opening the town (manage.py town_mode open) lets them through again."""

from typing import Any

import pytest
from django.core.management import call_command

from clockford.town import desk, holds
from clockford.town.models import TownState
from districts.post_office.models import Note
from districts.testing import new_passport, outcome, visit

pytestmark = pytest.mark.django_db

UNCHECKED = (
    "The town could not finish its safety checks on this call, so nothing was sent. "
    "The town is read-only until a person looks. Try again in 30 seconds."
)


def broken(*_: Any, **__: Any) -> Any:
    raise RuntimeError("the check broke")


def assert_failed_safe(r: desk.Rendered) -> None:
    assert r.is_error is True
    assert r.structured["say"] == UNCHECKED
    assert r.structured["retryAfterSeconds"] == 30
    assert outcome(r) == "error:safety-check"
    assert TownState.objects.get(pk=1).mode == "read-only"
    assert desk.town_mode() == "read-only"


def test_a_words_screen_that_cannot_run_sends_nothing_and_makes_the_town_read_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice = new_passport()
    monkeypatch.setattr(desk.words, "screen", broken)
    assert_failed_safe(visit(alice, "remember", key="errand/plan", value="first"))
    assert not Note.objects.exists()
    assert "safety check" in TownState.objects.get(pk=1).why


def test_safe_harbour_that_cannot_run_fails_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    alice = new_passport()
    monkeypatch.setattr(holds, "repeated", broken)
    assert_failed_safe(visit(alice, "remember", key="errand/plan", value="first"))
    assert not Note.objects.exists()


def test_a_reply_gate_that_cannot_run_sends_no_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    alice = new_passport()
    assert visit(alice, "remember", key="secret-ish", value="only mine").is_error is False
    monkeypatch.setattr(holds, "gate_reply", broken)
    r = visit(alice, "recall", key="secret-ish")
    assert_failed_safe(r)
    assert "only mine" not in r.text and "only mine" not in str(r.structured)


def test_read_only_until_a_person_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    alice = new_passport()
    with monkeypatch.context() as m:
        m.setattr(desk.words, "screen", broken)
        assert_failed_safe(visit(alice, "remember", key="k", value="v"))
    # The screen works again, but nobody has looked: reads answer, writes wait.
    assert visit(alice, "look_around").is_error is False
    r = visit(alice, "remember", key="k", value="v")
    assert r.structured["say"] == "The clerk is busy. Try again in 30 seconds." and not Note.objects.exists()
    call_command("town_mode", "open")
    assert visit(alice, "remember", key="k", value="v").is_error is False
    assert Note.objects.count() == 1


def test_a_closed_town_stays_closed_when_a_check_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    desk.set_town_mode("closed", "Looking at the Archive.")
    monkeypatch.setattr(desk, "town_mode", lambda: "open")  # this call got in just before
    monkeypatch.setattr(desk.words, "screen", broken)
    visit(new_passport(), "remember", key="k", value="v")
    assert TownState.objects.get(pk=1).mode == "closed"
