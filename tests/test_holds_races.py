"""Holds and letters raced: the same call sent at once, each on its own thread and connection through
the real desk (districts.testing.race). A call that waits for its person waits once; an allowed call
goes through once however many repeats arrive together; a plan's last use is taken once, by one of
the calls on it however many arrive together (allowed calls each go through on their yes); the twentieth unopened letter is the last.

PostgreSQL only: the races are between connections, and the tests' SQLite database lives in one
connection's memory (CI runs the suite on PostgreSQL too)."""

from collections import Counter
from collections.abc import Callable
from typing import Any

from clockford.town import plans
from clockford.town.models import Hold, Passport, Plan, ReplyBudget
from districts.post_office.models import Letter, Note
from districts.tavern.models import Notice
from districts.testing import new_passport, race, racing, visit
from hall.models import Account
from tests.fixtures import agent as agent_of

pytestmark = racing()
AT_ONCE = 6
NOTICE = {"text": "The lamplighters meet at the north gate at dusk; bring a ladder and a spare wick."}


def test_a_call_sent_at_once_waits_once_and_goes_through_once(allow: Callable[[str], Hold]) -> None:
    agent = new_passport()
    waiting = race([(agent, "post_notice", NOTICE)] * AT_ONCE)
    assert all(r.is_error and r.structured["hold"]["status"] == "held" for r in waiting)
    assert len({r.structured["hold"]["id"] for r in waiting}) == 1
    assert Hold.objects.filter(passport=agent, status="held").count() == 1
    assert len({r.footstep for r in waiting}) == AT_ONCE

    allow(waiting[0].structured["hold"]["id"])
    repeats = race([(agent, "post_notice", NOTICE)] * AT_ONCE)
    went = [r for r in repeats if not r.is_error]
    assert len(went) == 1, Counter(r.structured["say"] for r in repeats)
    assert Notice.objects.filter(text=NOTICE["text"]).count() == 1
    # The others wait for the person again, all on one new hold: the yes was spent.
    again = {r.structured["hold"]["id"] for r in repeats if r.is_error}
    assert len(again) == 1 and waiting[0].structured["hold"]["id"] not in again


def test_the_twentieth_unopened_letter_is_the_last_when_letters_race() -> None:
    agent = new_passport()
    for i in range(17):
        assert visit(agent, "send_letter", subject=f"Note {i}", body="A line for my person.").is_error is False
    sent = race([(agent, "send_letter", {"subject": f"Raced {i}", "body": "Another line."}) for i in range(AT_ONCE)])
    said = Counter("ok" if not r.is_error else r.structured["say"] for r in sent)
    assert said == {
        "ok": 3,
        "Twenty of your letters are still unopened. Wait for your person to open or decline some before you "
        "write again.": 3,
    }
    assert Letter.objects.filter(passport=agent, status="held").count() == 20


def test_every_raced_call_is_its_own_footstep() -> None:
    agent = new_passport()
    replies = race([(agent, "remember", {"key": f"k{i}", "value": "v"}) for i in range(AT_ONCE)])
    assert all(not r.is_error for r in replies)
    assert sorted(r.footstep for r in replies) == sorted({r.footstep for r in replies if r.footstep is not None})
    assert Passport.objects.get(pk=agent.pk).footsteps == AT_ONCE


def _under_a_plan(agent: Passport, step: dict[str, object]) -> Plan:
    from hall.models import Account

    owner = Account.objects.filter(is_owner=True).first() or Account.objects.create_account(
        "Olive", is_owner=True, is_staff=True
    )
    declared = visit(agent, "declare_plan", steps=[step])
    plan = Plan.objects.get(pk=declared.structured["plan"]["id"])
    return plans.do_decide_plan(plan, owner, "approve", plans.plan_statement(plan, "approve"), {})


def test_calls_at_once_on_a_plans_last_use_take_it_once() -> None:
    agent = new_passport()
    plan = _under_a_plan(agent, {"tool": "remember", "times": 1})
    keys = [f"lamp-{i}" for i in range(AT_ONCE)]
    replies = race([(agent, "remember", {"key": key, "value": "v"}) for key in keys])
    went = [r for r in replies if not r.is_error]
    assert len(went) == 1, Counter(r.structured["say"] for r in replies)
    assert all(r.structured.get("plan") == plan.id for r in replies if r.is_error)
    assert Note.objects.filter(key__in=keys).count() == 1


def test_allowed_calls_at_once_on_a_plans_last_use_each_go_through_once_and_take_it_once(
    allow: Callable[[str], Hold],
) -> None:
    agent = new_passport()
    plan = _under_a_plan(agent, {"tool": "post_notice", "times": 1})
    notices = [{"text": f"{NOTICE['text']} Lamp {i}."} for i in range(AT_ONCE)]
    for words in notices:
        allow(visit(agent, "post_notice", **words).structured["hold"]["id"])

    repeats = race([(agent, "post_notice", words) for words in notices])
    # Each was allowed by its person: each goes through once, on its yes. One takes the step's one use;
    # the others fit no step left and add nothing to the plan.
    assert all(not r.is_error for r in repeats), Counter(r.structured["say"] for r in repeats)
    assert Notice.objects.filter(text__startswith=NOTICE["text"]).count() == AT_ONCE
    assert Plan.objects.get(pk=plan.pk).steps[0]["left"] == 0
    assert set(Hold.objects.values_list("status", flat=True)) == {"used"}


def test_calls_sent_at_once_wait_no_more_than_the_passports_table_holds(settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "HOLDS_PER_PASSPORT": 2}
    agent = new_passport()
    replies = race([(agent, "post_notice", {"text": f"Notice number {i} for the board."}) for i in range(AT_ONCE)])
    assert Counter(r.outcome for r in replies) == {"held": 2, "refused:holds-full": AT_ONCE - 2}
    assert Hold.objects.filter(passport=agent, status="held").count() == 2


def test_calls_of_an_accounts_agents_sent_at_once_wait_no_more_than_the_accounts_table_holds(settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "HOLDS_PER_ACCOUNT": 2}
    account = Account.objects.create_account("Ada")
    agents = [agent_of(account) for _ in range(AT_ONCE)]
    replies = race([(a, "post_notice", {"text": f"Notice number {i} for the board."}) for i, a in enumerate(agents)])
    assert Counter(r.outcome for r in replies) == {"held": 2, "refused:holds-full": AT_ONCE - 2}
    assert Hold.objects.filter(account=account, status="held").count() == 2


def test_posts_proposed_at_once_are_held_no_more_than_the_days_posting_budget(settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "POSTS_PER_DAY": 2}
    agent = new_passport()
    replies = race([(agent, "post_notice", {"text": f"Notice number {i} for the board."}) for i in range(AT_ONCE)])
    assert Counter(r.outcome for r in replies) == {"held": 2, "refused:posting-budget": AT_ONCE - 2}
    assert Hold.objects.filter(passport=agent).count() == 2


def test_posts_proposed_at_once_by_an_accounts_agents_are_held_no_more_than_its_budget(settings: Any) -> None:
    settings.CLOCKFORD = {**settings.CLOCKFORD, "POSTS_PER_DAY_PER_ACCOUNT": 2}
    account = Account.objects.create_account("Ada")
    agents = [agent_of(account) for _ in range(AT_ONCE)]
    replies = race([(a, "post_notice", {"text": f"Notice number {i} for the board."}) for i, a in enumerate(agents)])
    assert Counter(r.outcome for r in replies) == {"held": 2, "refused:posting-budget": AT_ONCE - 2}
    assert Hold.objects.filter(account=account).count() == 2


def test_replies_at_once_carry_no_more_than_the_days_private_budget(settings: Any) -> None:
    agent = new_passport()
    visit(agent, "remember", key="big", value="x" * 200)
    settings.CLOCKFORD = {**settings.CLOCKFORD, "PRIVATE_BYTES_A_DAY": 500}
    replies = race([(agent, "recall", {"key": "big"})] * AT_ONCE)
    assert Counter(r.outcome for r in replies) == {"ok": 2, "held": AT_ONCE - 2}
    assert {r.structured["hold"]["id"] for r in replies if r.outcome == "held"} == {
        Hold.objects.get(passport=agent, status="held").id
    }
    assert list(ReplyBudget.objects.filter(passport=agent).values_list("spent", flat=True)) == [400]
