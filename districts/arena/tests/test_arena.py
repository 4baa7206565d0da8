"""arena_run and arena_answer through the desk, on the demo census: the task set (kinds, determinism),
answers in parts, unreadable answers, scoring and the signed result, the 30 minutes, the limits and the
busy Arena on a moved clock, and the outsider who never sees another's run."""

import datetime as dt
import json
import random
import subprocess
import sys
from typing import Any

import pytest
from django.test import override_settings
from pydantic import ValidationError

from clockford.town import clock, signing
from clockford.town.models import Passport
from districts.arena import services, tasks
from districts.arena.models import Run
from districts.arena.tests.agents import guess, solve
from districts.testing import outcome, visit
from districts.town_hall.models import CensusState
from tests.fixtures import agent, to_tomorrow_at
from tests.support import ROOT

pytestmark = pytest.mark.django_db


def call_as(passport: Passport) -> Any:
    def call(tool: str, **arguments: Any) -> dict[str, Any]:
        r = visit(passport, tool, **arguments)
        assert r.is_error is False, r.structured["say"]
        return r.structured

    return call


def begin(passport: Passport) -> dict[str, Any]:
    r = visit(passport, "arena_run", begin=True)
    assert r.is_error is False, r.structured["say"]
    return r.structured


def run_once(passport: Passport) -> dict[str, Any]:
    """Begin a run and finish it at once with one readable answer."""
    r = begin(passport)
    first = r["tasks"][0]
    done = visit(
        passport,
        "arena_answer",
        answers=[{"task": first["task"], "answer": guess(random.Random(0), first)}],
        finish=True,
    )
    assert done.is_error is False, done.structured["say"]
    return done.structured


def test_it_begins_a_run_of_at_least_eight_kinds(demo: CensusState, alice: Passport) -> None:
    r = begin(alice)
    assert r["run"].startswith("A-") and len(r["run"]) == 14
    assert r["taskSet"] == tasks.TASK_SET
    assert r["census"] == {"name": r["census"]["name"], "seal": demo.root}
    assert r["label"] == services.LABEL and r["how"] == services.HOW
    assert r["publicKey"] == services.KEY.public_key() and r["keyId"] == services.KEY.key_id()
    assert [t["task"] for t in r["tasks"]] == [f"T{i:02d}" for i in range(1, len(r["tasks"]) + 1)]
    run = Run.objects.get(pk=r["run"])
    assert len({t["kind"] for t in run.tasks}) == len(run.tasks) >= 8
    assert set(tasks.KINDS) == {t["kind"] for t in run.tasks}  # the demo census gives every kind
    for shown in r["tasks"]:
        assert set(shown) <= {"task", "ask", "expect", "name"} and {"task", "ask", "expect"} <= set(shown)
        assert "answer" not in shown and "shape" not in shown
    until = dt.datetime.fromisoformat(r["until"].replace("Z", "+00:00"))
    assert dt.timedelta(minutes=29) < until - clock.now() <= dt.timedelta(minutes=30)
    # The registry names a task carries are the publisher's words; the rest is the town's.
    assert {"path": "tasks[].name", "label": "publisher-words"} in r["provenance"]["parts"]


def test_the_same_seed_and_census_give_the_same_tasks(demo: CensusState) -> None:
    one, two = tasks.build("5eed", demo), tasks.build("5eed", demo)
    assert one == two
    assert tasks.build("0ther", demo) != one


def test_a_scripted_agent_with_the_towns_tools_gets_every_task_right(demo: CensusState, alice: Passport) -> None:
    r = begin(alice)
    call = call_as(alice)
    answers = [{"task": t["task"], "answer": solve(call, t)} for t in r["tasks"]]
    done = visit(alice, "arena_answer", answers=answers)
    assert done.is_error is False, done.structured["say"]
    result = done.structured["result"]
    assert result["right"] == result["of"] == len(r["tasks"])
    assert (
        done.structured["say"]
        == f"Arena run {r['run']} is scored: {result['of']} of {result['of']} right. The result is signed."
    )
    signed = done.structured["signed"]
    assert signing.verify_signed(signed)
    assert signed["publicKey"] == services.KEY.public_key()
    assert signed["statement"]["key"] == signing.key_id(bytes.fromhex(signed["publicKey"]))
    assert signed["statement"]["kind"] == "clockford-arena-1"
    assert signed["statement"]["passport"] == alice.id
    assert done.structured["verify"] == services.VERIFY


def test_answers_come_in_parts_and_a_later_one_replaces_the_earlier(demo: CensusState, alice: Passport) -> None:
    r = begin(alice)
    call = call_as(alice)
    first, *rest = r["tasks"]
    right = solve(call, first)
    # One generator, drawn from until it gives another answer: bounded, so a task with a single
    # possible answer fails here instead of looping for ever.
    rng = random.Random(1)
    wrong = next(
        (w for w in (guess(rng, first) for _ in range(500)) if str(w).casefold() != str(right).casefold()), None
    )
    assert wrong is not None, first
    part = visit(alice, "arena_answer", answers=[{"task": first["task"], "answer": wrong}])
    assert part.is_error is False
    assert {k: part.structured[k] for k in ("answered", "of", "left")} == {
        "answered": 1,
        "of": len(r["tasks"]),
        "left": [t["task"] for t in rest],
    }
    assert part.structured["until"] == r["until"]
    again = visit(alice, "arena_answer", answers=[{"task": first["task"], "answer": right}])
    assert again.structured["answered"] == 1
    done = visit(alice, "arena_answer", answers=[{"task": t["task"], "answer": solve(call, t)} for t in rest])
    assert done.structured["result"]["right"] == len(r["tasks"])


def test_an_unreadable_answer_is_refused_and_nothing_of_the_call_is_recorded(
    demo: CensusState, alice: Passport
) -> None:
    r = begin(alice)
    by_kind = {t["kind"]: t["task"] for t in Run.objects.get(pk=r["run"]).tasks}
    good = {"task": by_kind["status"], "answer": "active"}
    for bad in ("lots", "101", "-1", "4.5", "io.clockford.demo/dusty"):
        refused = visit(alice, "arena_answer", answers=[good, {"task": by_kind["integrity"], "answer": bad}])
        assert refused.is_error is True
        assert outcome(refused) == "refused:unreadable"
        assert refused.structured["say"] == (
            f"The answer to {by_kind['integrity']} cannot be read as an integer from 0 to 100, so nothing of this "
            "call was recorded. Answer it again in that shape."
        )
        assert refused.structured["unreadable"] == [
            {"task": by_kind["integrity"], "expect": "an integer from 0 to 100"}
        ]
    assert Run.objects.get(pk=r["run"]).answers == {}
    # A number and a string of digits are read alike, and a yes in capitals as yes.
    ok = visit(
        alice,
        "arena_answer",
        answers=[{"task": by_kind["integrity"], "answer": "95"}, {"task": by_kind["in-census"], "answer": "YES"}],
    )
    assert ok.is_error is False
    assert Run.objects.get(pk=r["run"]).answers == {by_kind["integrity"]: "95", by_kind["in-census"]: "yes"}
    # A control character is no part of any shape: the call is refused, naming the argument.
    control = visit(alice, "arena_answer", answers=[{"task": by_kind["integrity"], "answer": "9\x005"}])
    assert outcome(control) == "refused:control-character"
    assert control.structured["say"] == (
        "The argument answers carries a control character, which no name or number in town has. Send it without."
    )
    assert control.structured["field"] == "answers"
    # A task the run does not have is refused too.
    none = visit(alice, "arena_answer", answers=[{"task": "T99", "answer": "1"}])
    assert outcome(none) == "refused:no-task"


def test_a_number_that_is_not_finite_is_outside_the_schema(demo: CensusState, alice: Passport) -> None:
    # 1e400 reads as infinity, and Python's JSON reads NaN and Infinity too: no run's answers, nor a call
    # held for a person (PostgreSQL's JSON), can keep them, and a held one faulted the call. They are
    # refused with the arguments outside the schema (001 section 03), as at Injection Alley.
    r = begin(alice)
    task = {t["kind"]: t["task"] for t in Run.objects.get(pk=r["run"]).tasks}["integrity"]
    for number in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(ValidationError, match="finite number"):
            visit(alice, "arena_answer", answers=[{"task": task, "answer": number}])
    assert Run.objects.get(pk=r["run"]).answers == {}
    # A finite number is still read in its task's shape.
    assert visit(alice, "arena_answer", answers=[{"task": task, "answer": 95.0}]).is_error is False


def test_finish_scores_now_and_the_unanswered_count_as_not_answered(demo: CensusState, alice: Passport) -> None:
    r = begin(alice)
    call = call_as(alice)
    first = r["tasks"][0]
    done = visit(alice, "arena_answer", answers=[{"task": first["task"], "answer": solve(call, first)}], finish=True)
    result = done.structured["result"]
    assert (result["right"], result["of"]) == (1, len(r["tasks"]))
    assert [t["given"] is None for t in result["tasks"]] == [False] + [True] * (len(r["tasks"]) - 1)
    # The run is over: answering again finds none, and arena_run shows the last result.
    after = visit(alice, "arena_answer", answers=[{"task": "T01", "answer": "1"}])
    assert outcome(after) == "refused:no-run"
    assert after.structured["say"] == "You have no Arena run in progress. arena_run with begin: true begins one."
    stand = visit(alice, "arena_run").structured
    assert stand["last"]["signed"] == done.structured["signed"]
    assert stand["last"]["result"] == result
    assert set(stand) >= {"last", "limits", "taskSet", "publicKey", "keyId"}


def test_a_run_resumes_and_closes_after_thirty_minutes(demo: CensusState, alice: Passport) -> None:
    r = begin(alice)
    assert begin(alice)["run"] == r["run"]  # begin again: the same run, resumed
    stand = visit(alice, "arena_run").structured
    assert stand["run"] == r["run"] and stand["tasks"] == r["tasks"]
    visit(alice, "arena_answer", answers=[{"task": "T01", "answer": guess(random.Random(0), r["tasks"][0])}])
    clock.advance(dt.timedelta(minutes=30, seconds=1))
    # Before any call stores it, the last result is already the one the town will store.
    shown = visit(alice, "arena_run").structured["last"]
    late = visit(alice, "arena_answer", answers=[{"task": "T02", "answer": guess(random.Random(0), r["tasks"][1])}])
    # The late answer was not kept: the call did not do what it asked, so it is a refusal (000 section 01)
    # that still gives the result as it stood.
    assert late.is_error is True and outcome(late) == "refused:closed"
    assert late.structured["say"].startswith(f"Arena run {r['run']} closed at {r['until']} before these answers came")
    assert late.structured["signed"] == shown["signed"]
    assert late.structured["signed"]["statement"]["scored"] == r["until"]
    assert [t["given"] is not None for t in late.structured["result"]["tasks"]].count(True) == 1


def test_four_runs_a_passport_a_utc_day_and_eight_a_person(demo: CensusState) -> None:
    to_tomorrow_at(1)
    mine = agent("dana")
    for _ in range(4):
        run_once(mine)
    refused = visit(mine, "arena_run", begin=True)
    assert outcome(refused) == "refused:limit"
    day_ends = (clock.now().date() + dt.timedelta(days=1)).isoformat() + "T00:00:00Z"
    assert refused.structured["say"] == (
        f"This passport has begun 4 Arena runs today (UTC); the next can begin after {day_ends}. This never "
        "counts against you."
    )
    assert refused.structured["limits"]["begunToday"] == 4
    # Another agent of the same person: four more, then the person's eight are spent.
    sibling = agent(mine.account)
    for _ in range(4):
        run_once(sibling)
    third = agent(mine.account)
    person = visit(third, "arena_run", begin=True)
    assert outcome(person) == "refused:limit"
    assert person.structured["say"].startswith("Your person's agents have begun 8 Arena runs today (UTC)")
    # The refusals changed nothing and counted nothing: other calls work, and the next UTC day opens again.
    assert visit(third, "look_around").is_error is False
    clock.advance(dt.timedelta(hours=23))
    assert visit(mine, "arena_run", begin=True).is_error is False
    assert visit(third, "arena_run", begin=True).is_error is False


def test_the_arena_is_busy_when_full_and_a_minute_later_it_is_not(
    demo: CensusState, alice: Passport, bob: Passport
) -> None:
    with override_settings(CLOCKFORD={**__import__("django.conf").conf.settings.CLOCKFORD, "ARENA_OPEN_RUNS": 1}):
        begin(alice)
        busy = visit(bob, "arena_run", begin=True)
        assert busy.is_error is True and outcome(busy) == "busy"
        assert busy.structured["say"] == "The Arena is full. Try again in 60 seconds."
        assert busy.structured["retryAfterSeconds"] == 60
        assert "hold" not in busy.structured
        assert Run.objects.filter(passport=bob).count() == 0  # a busy begin is not a run begun
        clock.advance(dt.timedelta(minutes=31))  # alice's run has closed: room again
        assert visit(bob, "arena_run", begin=True).is_error is False


def test_random_answers_score_what_chance_predicts(demo: CensusState) -> None:
    """Many runs answered at random: their mean score is the chance each result states, within the
    spread that chance allows (four standard errors)."""
    rng = random.Random(7)
    scores, chances, variances = [], [], []
    for i in range(40):
        seed = f"{i:04x}"
        built = tasks.build(seed, demo)
        right = sum(1 for t in built if tasks.read(t["shape"], guess(rng, t)) == t["answer"])
        ps = [tasks.chance_of(t["shape"]) for t in built]
        scores.append(right)
        chances.append(sum(ps))
        variances.append(sum(p * (1 - p) for p in ps))
    mean, expected = sum(scores) / len(scores), sum(chances) / len(chances)
    spread = (sum(variances) ** 0.5) / len(scores)
    assert abs(mean - expected) <= 4 * spread, (mean, expected, spread)
    assert 1.5 < expected < 3.5  # about a third of the choice tasks, half the yes-or-no


def test_the_result_verifies_with_the_single_file_verifier(demo: CensusState, alice: Passport, tmp_path: Any) -> None:
    r = begin(alice)
    done = visit(
        alice, "arena_answer", answers=[{"task": "T01", "answer": guess(random.Random(0), r["tasks"][0])}], finish=True
    )
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps(done.structured))
    checked = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "verify_signature.py"), str(reply), "--key", services.KEY.key_id()],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "clockford-arena-1" in checked.stdout and "ok" in checked.stdout
    forged = json.loads(json.dumps(done.structured["signed"]))
    forged["statement"]["right"] = forged["statement"]["of"]
    reply.write_text(json.dumps(forged))
    bad = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "verify_signature.py"), str(reply)], capture_output=True, text=True
    )
    assert bad.returncode != 0


def test_the_outsider_never_sees_or_answers_anothers_run(demo: CensusState, alice: Passport, charlie: Passport) -> None:
    r = begin(alice)
    assert visit(charlie, "arena_run").structured["last"] is None
    refused = visit(charlie, "arena_answer", answers=[{"task": "T01", "answer": "1"}])
    assert outcome(refused) == "refused:no-run"
    assert Run.objects.get(pk=r["run"]).answers == {}
    assert services.runs_for(charlie.id, 10) == []
    assert [x.run for x in services.runs_for(alice.id, 10)] == [r["run"]]


def test_a_needs_answer_is_the_rank_ask_directory_gives(demo: CensusState, alice: Passport) -> None:
    # The task's answer was ranked from the need's bare words, while ask_directory reads them as the
    # census spells them and by their capitals ("read a PostgreSQL database"): an agent that asked the
    # Directory could be marked wrong.
    for need in tasks.NEEDS:
        asked = visit(alice, "ask_directory", need=need, limit=25).structured["results"]
        assert tasks.ranked_for(need, demo) == [r["lot"] for r in asked], need
