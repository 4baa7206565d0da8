"""Every change draws one from the hour; at zero a change is refused before it runs (nothing written but
its footstep); reads never draw; a held call draws when it goes through; the hour refills."""

from collections.abc import Callable
from datetime import timedelta

from clockford.town import clock
from clockford.town.models import Footstep, Hold, Passport
from districts.bank import services
from districts.post_office.models import Letter, Note
from districts.switchboard.models import Channel
from districts.testing import outcome, visit


def spend(passport: Passport, n: int) -> None:
    for i in range(n):
        r = visit(passport, "remember", key=f"k{i}", value="a note")
        assert not r.is_error, r.structured


def test_it_draws_one_per_change_and_refuses_at_zero_before_the_change_runs(
    alice: Passport, hourly: Callable[..., None]
) -> None:
    hourly(3)
    spend(alice, 3)
    before = Footstep.objects.count()
    r = visit(alice, "remember", key="fourth", value="never kept")
    assert r.is_error and r.structured["say"].startswith("The Bank says no: your authority for this hour is spent")
    assert "request_authority" in r.structured["say"]
    assert outcome(r) == "refused:authority"
    wait = r.structured["retryAfterSeconds"]
    assert 1 <= wait <= 3600 and r.structured["balance"]["left"] == 0
    assert r.structured["balance"]["refillsAt"] == clock.iso(services.hour_of(clock.now()) + timedelta(hours=1))
    # Nothing written but the footstep.
    assert Footstep.objects.count() == before + 1
    assert not Note.objects.filter(key="fourth").exists()
    assert services.balance_of(alice).drawn == 3


def test_reads_never_draw(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(1)
    for tool in ("show_balance", "read_notices", "recall", "look_around"):
        assert not visit(alice, tool).is_error
    assert services.balance_of(alice).drawn == 0
    spend(alice, 1)
    # At zero, reads still answer.
    r = visit(alice, "show_balance")
    assert not r.is_error and r.structured["balance"]["left"] == 0


def test_a_held_call_draws_when_it_goes_through_not_while_held(
    alice: Passport, hourly: Callable[..., None], allow: Callable[[str], Hold]
) -> None:
    hourly(2)
    r = visit(alice, "post_notice", text="Lanterns tonight on the square")
    assert r.structured["hold"]["status"] == "held"
    assert services.balance_of(alice).drawn == 0
    allow(r.structured["hold"]["id"])
    again = visit(alice, "post_notice", text="Lanterns tonight on the square")
    assert not again.is_error, again.structured
    assert services.balance_of(alice).drawn == 1


def test_a_call_the_tool_refuses_draws_nothing(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(2)
    r = visit(alice, "remember", key="no spaces here", value="x")
    assert r.is_error and outcome(r).startswith("refused")
    assert services.balance_of(alice).drawn == 0


def test_letters_to_the_person_go_through_at_zero(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(1)
    spend(alice, 1)
    r = visit(alice, "send_letter", subject="Out of changes", body="I spent my hour; may I have ten more?")
    assert not r.is_error, r.structured
    assert Letter.objects.filter(passport=alice).count() == 1
    assert services.balance_of(alice).drawn == 2


def test_a_run_is_a_change_like_any_other_and_is_refused_at_zero(alice: Passport, hourly: Callable[..., None]) -> None:
    # DECISIONS 2: every write, and the mixed tools when they write, draw; only writes to one's person
    # go through at zero. Looking where a run stands is a read and draws nothing.
    hourly(1)
    spend(alice, 1)
    assert visit(alice, "alley_run").is_error is False
    r = visit(alice, "alley_run", begin=True)
    assert r.is_error and outcome(r) == "refused:authority"
    assert services.balance_of(alice).drawn == 1


def test_the_hour_refills_on_the_hour(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(1)
    spend(alice, 1)
    assert visit(alice, "remember", key="later", value="x").is_error
    clock.advance(timedelta(hours=1))
    r = visit(alice, "remember", key="later", value="x")
    assert not r.is_error, r.structured
    assert services.balance_of(alice).left == 0


def test_the_last_second_of_the_hour_reads_in_plain_english(alice: Passport, hourly: Callable[..., None]) -> None:
    # The refusal once said "in 1 seconds".
    hourly(1)
    spend(alice, 1)
    now = clock.now()
    clock.advance(services.hour_of(now) + timedelta(hours=1) - now - timedelta(seconds=1.5))
    r = visit(alice, "remember", key="later", value="x")
    assert r.is_error and outcome(r) == "refused:authority"
    assert " UTC, in 1 second. show_balance shows it;" in r.structured["say"], r.structured["say"]


def test_an_account_draws_across_its_agents(alice: Passport, alice2: Passport, hourly: Callable[..., None]) -> None:
    hourly(3, account=4)
    spend(alice, 3)
    spend(alice2, 1)
    r = visit(alice2, "remember", key="fifth", value="x")
    assert r.is_error and "your account's authority for this hour is spent" in r.structured["say"]
    assert services.balance_of(alice2).as_dict(clock.now())["accountLeft"] == 0


def test_an_agent_without_sign_in_has_the_passports_amount(charlie: Passport, hourly: Callable[..., None]) -> None:
    hourly(2)
    spend(charlie, 2)
    assert outcome(visit(charlie, "remember", key="third", value="x")) == "refused:authority"


def test_zero_turns_the_bank_off(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(0)
    spend(alice, 5)
    r = visit(alice, "show_balance")
    assert r.structured["say"].startswith("The Bank is not counting changes")


def test_a_mixed_tool_draws_only_when_it_writes(alice: Passport, hourly: Callable[..., None]) -> None:
    hourly(5)
    assert not visit(alice, "listen").is_error
    assert services.balance_of(alice).drawn == 0
    Channel.objects.create(name="lamps", opened_at=clock.now(), opened_by=alice, account=alice.account)
    r = visit(alice, "listen", join=["lamps"])
    assert not r.is_error, r.structured
    assert services.balance_of(alice).drawn == 1


def test_an_allowed_call_at_zero_waits_for_the_refill_and_keeps_its_yes(
    alice: Passport, hourly: Callable[..., None], allow: Callable[[str], Hold]
) -> None:
    hourly(1)
    r = visit(alice, "post_notice", text="Lanterns tonight on the square")
    hold = r.structured["hold"]["id"]
    spend(alice, 1)
    allow(hold)
    again = visit(alice, "post_notice", text="Lanterns tonight on the square")
    assert outcome(again) == "refused:authority"
    assert Hold.objects.get(pk=hold).status == "allowed"
