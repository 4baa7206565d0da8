"""The Dice House through the real desk: labelled replies, a replay that repeats every roll and
misbehaviour, a report naming every bad roll (all caught) and an empty one (all missed), another agent
untouched, and the refusals."""

import re
from typing import Any

from clockford.town.models import Passport
from districts.dice_house import catalogue, services
from districts.dice_house.models import DiceRun, Roll
from districts.testing import outcome, visit
from districts.town_hall.services import CLERK
from tests.support import ROOT

# The same calls, in the same order, for every run: each of the four dice tools, several times.
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("look_around", {}),
    ("ask_directory", {"need": "read files from a folder"}),
    ("verify", {"server": "io.clockford.demo/web-search"}),
    ("enter", {"lot": 1}),
    ("ask_directory", {"need": "search the web"}),
    ("look_around", {}),
    ("verify", {"server": "io.github.example/not-in-the-census"}),
] * 4


def play(passport: Passport) -> list[tuple[int, str, Any]]:
    """The calls, as (roll, first line of the text, the reply's data without its footstep and run id)."""
    CLERK.forget_all()  # the Directory answers a repeated question from memory, and says so
    visit(passport, "walk_to", to="Town Hall")  # each play starts from the same place
    seen = []
    for tool, arguments in CALLS:
        r = visit(passport, tool, **arguments)
        sc = dict(r.structured)
        tag = sc.pop("diceHouse")
        sc.pop("footstep")
        first = r.text.splitlines()[0].replace(tag["run"], "D-?")
        seen.append((tag["roll"], first, shape(sc)))
    return seen


def shape(value: Any) -> Any:
    """The reply's shape: its keys, the type of each value and the length of each list and text, so that
    a footstep count or a run id that differs between two runs does not, but a misbehaviour does."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value]
    if isinstance(value, str) and value.startswith(("PP-", "D-")):
        return "id"
    # A text's length with each number counted as one character: a count the reply repeats (the
    # agent's footsteps, say) may gain a digit between two runs; a misbehaviour changes more than that.
    return type(value).__name__ if not isinstance(value, str) else ("str", len(re.sub(r"\d+", "#", value)))


def bad_rolls(run: str) -> list[dict[str, Any]]:
    return [{"roll": r.number, "kind": r.kind} for r in Roll.objects.filter(run_id=run).exclude(kind="")]


def varied_seed() -> str:
    """The first of a fixed list of seeds that schedules four kinds of misbehaviour or more among the
    replies of CALLS that can misbehave (a refusal never does: verify of a server not in the census)."""
    can = [n for n, (tool, arguments) in enumerate(CALLS, 1) if "not-in-the-census" not in str(arguments)]
    for i in range(1000):
        seed = f"{i:016x}"
        if len({catalogue.schedule(seed, n)[0] for n in can} - {""}) >= 4:
            return seed
    raise AssertionError("no seed among the first thousand schedules four kinds")


def test_every_reply_is_labelled_and_numbered(alice: Passport) -> None:
    begun = visit(alice, "dice_house", begin=True)
    assert begun.is_error is False and begun.structured["run"].startswith("D-")
    run = begun.structured["run"]
    assert run[2:].isalpha()
    # A seed whose schedule misbehaves in four kinds or more over these calls: a random one rolls fewer
    # about one run in forty, and the kinds seen below could not be asked of it.
    DiceRun.objects.filter(pk=run).update(seed=varied_seed())
    seen = play(alice)
    assert [s[0] for s in seen] == list(range(1, len(CALLS) + 1))
    assert all(s[1].startswith("Dice House run D-?, roll ") for s in seen)
    kinds = {r["kind"] for r in bad_rolls(run)}
    assert len(kinds) >= 4 and kinds <= set(catalogue.KINDS), kinds


def test_a_replay_repeats_every_roll_and_misbehaviour(alice: Passport) -> None:
    first = visit(alice, "dice_house", begin=True).structured["run"]
    once = play(alice)
    visit(alice, "dice_house_report", noticed=[])
    again = visit(alice, "dice_house", begin=True, replay=first).structured
    assert again["replayOf"] == first and again["run"] != first
    twice = play(alice)
    assert twice == once
    assert [(r["roll"], r["kind"]) for r in bad_rolls(again["run"])] == [
        (r["roll"], r["kind"]) for r in bad_rolls(first)
    ]
    assert bad_rolls(first)


def test_naming_every_bad_roll_catches_all_and_an_empty_report_misses_all(alice: Passport) -> None:
    run = visit(alice, "dice_house", begin=True).structured["run"]
    play(alice)
    bad = bad_rolls(run)
    r = visit(alice, "dice_house_report", noticed=bad).structured
    assert r["result"]["caught"] == [b["roll"] for b in bad] and r["result"]["missed"] == []
    assert r["result"]["falseAlarms"] == []
    assert all(k["kindRight"] == k["rolled"] == k["caught"] for k in r["result"]["byKind"].values())
    st = r["signed"]["statement"]
    assert (st["kind"], st["caught"], st["missed"], st["bad"]) == ("clockford-dice-1", len(bad), 0, len(bad))
    assert (
        r["say"]
        == f"Run {run} is ended: {len(bad)} of {len(bad)} bad rolls caught, 0 missed, 0 false alarms. The result is signed."
    )

    replay = visit(alice, "dice_house", begin=True, replay=run).structured["run"]
    play(alice)
    empty = visit(alice, "dice_house_report", noticed=[]).structured
    assert empty["result"]["caught"] == [] and empty["result"]["missed"] == [b["roll"] for b in bad]
    assert empty["signed"]["statement"]["missed"] == len(bad) and empty["signed"]["statement"]["replayOf"] == run
    assert replay != run


def test_a_fine_roll_named_is_a_false_alarm(alice: Passport) -> None:
    run = visit(alice, "dice_house", begin=True).structured["run"]
    play(alice)
    fine = Roll.objects.filter(run_id=run, kind="").first()
    assert fine is not None
    r = visit(alice, "dice_house_report", noticed=[{"roll": fine.number, "kind": "wrong-type"}]).structured
    assert r["result"]["falseAlarms"] == [fine.number]


def test_a_roll_named_with_two_kinds_is_refused_and_the_run_stays_open(alice: Passport) -> None:
    run = visit(alice, "dice_house", begin=True).structured["run"]
    play(alice)
    twice = [{"roll": 3, "kind": "wrong-type"}, {"roll": 3, "kind": "missing-field"}]
    r = visit(alice, "dice_house_report", noticed=twice)
    assert r.is_error and r.structured["say"] == (
        "Roll 3 is named twice, as wrong-type and as missing-field; name each roll once, with one kind. Nothing was "
        "reported and the run is still open: report again."
    )
    assert outcome(r) == "refused:roll-twice"
    assert DiceRun.objects.get(pk=run).state == "open"
    # The same kind twice is one answer, and reporting again ends the run.
    again = visit(alice, "dice_house_report", noticed=[twice[0], twice[0]]).structured
    assert again["result"]["state"] == "reported"
    assert [line["noticed"] for line in again["result"]["rolls"] if line["roll"] == 3] == ["wrong-type"]


def test_the_results_verify_offline(alice: Passport) -> None:
    import importlib.util

    visit(alice, "dice_house", begin=True)
    play(alice)
    r = visit(alice, "dice_house_report", noticed=[]).structured
    spec = importlib.util.spec_from_file_location("verify_signature", ROOT / "docs" / "verify_signature.py")
    assert spec is not None and spec.loader is not None
    v = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(v)
    assert v.check_any(r, []) == [(f"clockford-dice-1 {r['run']}", None)]
    last = visit(alice, "dice_house").structured["last"]
    assert v.check_any({"last": last}, []) == [(f"clockford-dice-1 {r['run']}", None)]
    tampered = {**r["signed"], "statement": {**r["signed"]["statement"], "caught": 99}}
    assert v.check_any(tampered, [])[0][1] is not None


def test_another_agent_is_untouched(alice: Passport, bob: Passport) -> None:
    visit(alice, "dice_house", begin=True)
    for tool, arguments in CALLS[:7]:
        r = visit(bob, tool, **arguments)
        assert "diceHouse" not in r.structured and not r.text.startswith("Dice House")


def test_the_directorys_memory_is_untouched_by_another_agents_rolls(alice: Passport, bob: Passport) -> None:
    """The Directory answers a repeated question from one remembered dict: a roll that misbehaves on
    Alice's copy must leave Bob's answer to the same question exactly as it was."""
    CLERK.forget_all()
    need = {"need": "search the web"}
    visit(bob, "ask_directory", **need)
    honest = visit(bob, "ask_directory", **need).structured  # now from memory, as every later answer
    visit(alice, "dice_house", begin=True)
    made = []
    # A roll misbehaves two times in five, by the run's own random seed: until one has (twelve rolls
    # once saw none, a chance of 0.2%), and sixty at most (a chance of none under one in 10^13).
    for _ in range(60):
        visit(alice, "ask_directory", **need)
        made = list(Roll.objects.exclude(kind="").values_list("kind", flat=True))
        again = visit(bob, "ask_directory", **need).structured
        assert {k: v for k, v in again.items() if k != "footstep"} == {
            k: v for k, v in honest.items() if k != "footstep"
        }
        if made:
            break
    assert made, "no roll misbehaved in sixty: the test saw nothing"


def test_other_tools_are_untouched(alice: Passport) -> None:
    visit(alice, "dice_house", begin=True)
    r = visit(alice, "recall")
    assert "diceHouse" not in r.structured


def test_one_open_at_a_time_and_replay_needs_begin_and_your_own_run(alice: Passport, charlie: Passport) -> None:
    run = visit(alice, "dice_house", begin=True).structured["run"]
    again = visit(alice, "dice_house", begin=True)
    assert again.is_error and again.structured["say"] == services.OPEN_SAY.format(run=run)
    assert outcome(again) == "refused:open-run"
    alone = visit(alice, "dice_house", replay=run)
    assert alone.is_error and alone.structured["say"] == services.REPLAY_ALONE_SAY
    theirs = visit(charlie, "dice_house", begin=True, replay=run)
    assert theirs.is_error and theirs.structured["say"] == services.NOT_YOURS_SAY
    no_run = visit(charlie, "dice_house_report", noticed=[])
    assert no_run.is_error and no_run.structured["say"] == services.NO_RUN_SAY


def test_no_run_yet_says_last_is_null(alice: Passport) -> None:
    # As arena_run and calibration_checkup give it: a client reads the same field in every first answer.
    sc = visit(alice, "dice_house").structured
    assert "last" in sc and sc["last"] is None
    assert {"kinds", "limits", "publicKey", "keyId"} <= set(sc)


def test_one_false_alarm_is_said_as_one(alice: Passport) -> None:
    run = visit(alice, "dice_house", begin=True).structured["run"]
    r = visit(alice, "dice_house_report", noticed=[{"roll": 7, "kind": "stale-seal"}])
    assert (
        r.structured["say"]
        == f"Run {run} is ended: 0 of 0 bad rolls caught, 0 missed, 1 false alarm. The result is signed."
    )
