"""Posting budgets (001 section 04, Busy: "A daily or weekly posting budget is spent", docs/budgets.md):
an agent, and its account, may propose only so many public posts a UTC day and a UTC week. A held post
counts when it is proposed; repeating it while it waits, and the allowed repeat that publishes it, do not
count again; a proposal the tool refuses counts nothing. Past a budget the call is busy-shaped
(retryAfterSeconds, no hold) and nothing of it runs."""

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings

from clockford.town import budgets, clock, sweep
from clockford.town.models import Hold, PostingTally
from districts.registry import TOOLS
from districts.tavern.models import Notice
from districts.testing import new_passport, outcome, visit
from tests.fixtures import agent

pytestmark = pytest.mark.django_db


def amounts(day: int = 0, week: int = 0, account_day: int = 0, account_week: int = 0) -> dict[str, Any]:
    return {
        **settings.CLOCKFORD,
        "POSTS_PER_DAY": day,
        "POSTS_PER_WEEK": week,
        "POSTS_PER_DAY_PER_ACCOUNT": account_day,
        "POSTS_PER_WEEK_PER_ACCOUNT": account_week,
    }


def seconds_to(moment: dt.datetime) -> int:
    return int(-(-(moment - clock.now()).total_seconds() // 1))


def to_wednesday_noon() -> None:
    """Move the clock to the next Wednesday, 12:00 UTC: two days of this week behind it, four ahead."""
    now = clock.now()
    clock.advance(budgets.week_start(now) + dt.timedelta(days=9, hours=12) - now)


def test_the_tools_that_post_are_those_with_words_for_a_public_surface() -> None:
    posting = sorted(name for name, t in TOOLS.items() if t.posts)
    assert posting == ["broadcast", "post_notice", "post_parcel", "raise_beacon"]
    for t in TOOLS.values():
        assert t.posts == any(w.surface == "public" for w in t.free_words.values()), t.name


def test_the_defaults_are_documented(settings: Any) -> None:
    c = settings.CLOCKFORD
    assert (c["POSTS_PER_DAY"], c["POSTS_PER_WEEK"]) == (30, 100)
    assert (c["POSTS_PER_DAY_PER_ACCOUNT"], c["POSTS_PER_WEEK_PER_ACCOUNT"]) == (60, 250)
    with open(settings.BASE_DIR / "docs" / "budgets.md") as f:
        doc = f.read()
    for n in ("| 30 |", "| 100 |", "| 60 |", "| 250 |"):
        assert n in doc


def test_past_the_daily_budget_a_new_post_is_refused_before_it_is_held(settings: Any) -> None:
    settings.CLOCKFORD = amounts(day=2)
    a = new_passport()
    for text in ("The Foundry served me well.", "The census is up to date."):
        r = visit(a, "post_notice", text=text)
        assert r.is_error and "hold" in r.structured, r.structured
    r = visit(a, "post_notice", text="A third notice.")
    sc = r.structured
    tomorrow = budgets.day_start(clock.now()) + dt.timedelta(days=1)
    wait = sc["retryAfterSeconds"]
    assert r.is_error is True and "hold" not in sc
    assert abs(wait - seconds_to(tomorrow)) <= 1
    assert sc["say"] == (
        "Your posting budget for today is spent: you have proposed 2 public posts today, as many as the town takes "
        f"in a day. This call did not run. The budget refills at {tomorrow:%Y-%m-%d} 00:00 UTC; try again in "
        f"{wait} seconds."
    )
    assert sc["budget"] == {
        "whose": "yours",
        "period": "day",
        "posts": 2,
        "of": 2,
        "refillsAt": clock.iso(tomorrow),
    }
    assert outcome(r) == "refused:posting-budget"
    assert Hold.objects.filter(passport=a).count() == 2
    assert budgets.left(a) == {"passport:day": 0}
    # Reads never meet it.
    assert visit(a, "read_notices").is_error is False


def test_repeating_a_held_post_and_its_allowed_repeat_count_once(settings: Any, allow: Callable[[str], Hold]) -> None:
    settings.CLOCKFORD = amounts(day=1)
    a = new_passport()
    first = visit(a, "post_notice", text="The Foundry served me well.")
    again = visit(a, "post_notice", text="The Foundry served me well.")
    assert again.structured["hold"]["id"] == first.structured["hold"]["id"]
    assert PostingTally.objects.get(holder=f"passport:{a.pk}").posts == 1
    allow(first.structured["hold"]["id"])
    published = visit(a, "post_notice", text="The Foundry served me well.")
    assert published.is_error is False and Notice.objects.count() == 1
    assert PostingTally.objects.get(holder=f"passport:{a.pk}").posts == 1
    assert visit(a, "post_notice", text="Another.").structured["budget"]["period"] == "day"


def test_the_day_turns_and_the_budget_refills(settings: Any) -> None:
    settings.CLOCKFORD = amounts(day=1)
    a = new_passport()
    assert "hold" in visit(a, "post_notice", text="One.").structured
    assert "budget" in visit(a, "post_notice", text="Two.").structured
    clock.advance(budgets.day_start(clock.now()) + dt.timedelta(days=1, seconds=1) - clock.now())
    assert "hold" in visit(a, "post_notice", text="Two.").structured


def test_past_the_weekly_budget_it_waits_for_monday(settings: Any) -> None:
    settings.CLOCKFORD = amounts(day=10, week=3)
    to_wednesday_noon()
    a = new_passport()
    monday = budgets.week_start(clock.now())
    PostingTally.objects.create(holder=f"passport:{a.pk}", day=monday.date(), posts=2)
    PostingTally.objects.create(holder=f"passport:{a.pk}", day=(monday - dt.timedelta(days=1)).date(), posts=9)
    assert "hold" in visit(a, "post_notice", text="The third this week.").structured
    r = visit(a, "post_notice", text="The fourth this week.")
    next_monday = monday + dt.timedelta(days=7)
    assert r.structured["say"].startswith(
        "Your posting budget for this week is spent: you have proposed 3 public posts this week, as many as the "
        "town takes in a week. This call did not run. The budget refills at "
        f"{next_monday:%Y-%m-%d} 00:00 UTC"
    )
    assert r.structured["budget"]["period"] == "week"
    assert r.structured["retryAfterSeconds"] == seconds_to(next_monday)


def test_the_account_budget_counts_all_of_its_agents(settings: Any) -> None:
    settings.CLOCKFORD = amounts(account_day=2)
    one = agent("Ada")
    two = agent(one.account)
    assert "hold" in visit(one, "post_notice", text="From the first agent.").structured
    assert "hold" in visit(two, "post_notice", text="From the second agent.").structured
    r = visit(two, "post_notice", text="Once more.")
    assert r.structured["say"].startswith(
        "Your account's posting budget for today is spent: your account's agents have proposed 2 public posts today"
    )
    assert r.structured["budget"]["whose"] == "your account's"
    # Another account's agent is not touched.
    assert "hold" in visit(agent("Bob"), "post_notice", text="Bob's first.").structured


def test_a_proposal_the_tool_refuses_counts_nothing(settings: Any) -> None:
    settings.CLOCKFORD = amounts(day=1)
    a = new_passport()
    # Without sign-in the Switchboard refuses a broadcast: nothing was proposed.
    r = visit(a, "broadcast", channel="lamplighters", text="Hello.")
    assert r.is_error and "budget" not in r.structured
    assert not PostingTally.objects.exists()
    # And words the screen refuses are refused before anything is counted.
    assert visit(a, "post_notice", text="See https://example.com").structured["say"].startswith("No links")
    assert not PostingTally.objects.exists()


def test_the_sweep_drops_days_before_this_week() -> None:
    to_wednesday_noon()
    monday = budgets.week_start(clock.now()).date()
    PostingTally.objects.create(holder="passport:PP-OLD", day=monday - dt.timedelta(days=1), posts=3)
    PostingTally.objects.create(holder="passport:PP-NEW", day=monday, posts=3)
    assert sweep.run(clock.now())["town_postingtally"] == 1
    assert list(PostingTally.objects.values_list("holder", flat=True)) == ["passport:PP-NEW"]
