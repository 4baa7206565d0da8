"""Posting budgets (001 section 04, Busy: "A daily or weekly posting budget is spent"): how many public
posts an agent, and its account, may propose in a UTC day and in a UTC week (docs/budgets.md).

A tool that proposes a public post says so on its Tool (`posts`). The desk asks `proposal` before the
call's holds: a call that a hold already speaks for (waiting, allowed, or lately refused) is not a new
proposal and spends nothing; a new one is refused here when a budget is spent, with retryAfterSeconds
until the day (or the week) turns. A new proposal that goes on spends one of each budget with `spend`:
when the town holds it for the person's yes (it was proposed), or when it runs without a hold, in the
handler's savepoint (a proposal the tool itself refuses spends nothing). Repeating a held call, and the
allowed repeat that publishes it, spend nothing more: the proposal was counted once.

The counts live in `town_postingtally`, one row per holder (a passport, or an account) per UTC day; the
week is the sum of its days since Monday 00:00 UTC. The sweep drops days before last week's Monday.
"""

import datetime as dt
import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import F, Sum

from clockford.town import clock
from clockford.town.clock import day_start
from clockford.town.models import Passport, PostingTally, lock_name, locked
from clockford.town.tooling import Busy, Call, Tool

DAY = dt.timedelta(days=1)
WEEK = dt.timedelta(days=7)


class Spent(Busy):
    """A posting budget is spent: busy-shaped (retryAfterSeconds, no hold), with `budget`."""

    outcome = "refused:posting-budget"


@dataclass(frozen=True)
class Budget:
    """One budget of one holder: whose (your, your account's), which period (day, week), and its amount."""

    holder: str
    whose: str
    period: str
    most: int


def holders(passport: Passport) -> list[tuple[str, str]]:
    """(holder key, whose) for the passport and, signed in, its account."""
    found = [(f"passport:{passport.pk}", "passport")]
    if passport.account_id is not None:
        found.append((f"account:{passport.account_id}", "account"))
    return found


def budgets(passport: Passport) -> list[Budget]:
    c = settings.CLOCKFORD
    amounts = {
        ("passport", "day"): c["POSTS_PER_DAY"],
        ("passport", "week"): c["POSTS_PER_WEEK"],
        ("account", "day"): c["POSTS_PER_DAY_PER_ACCOUNT"],
        ("account", "week"): c["POSTS_PER_WEEK_PER_ACCOUNT"],
    }
    return [
        Budget(holder, whose, period, amounts[(whose, period)])
        for holder, whose in holders(passport)
        for period in ("day", "week")
        if amounts[(whose, period)] > 0
    ]


def week_start(now: dt.datetime) -> dt.datetime:
    """Monday 00:00 UTC of this week."""
    start = day_start(now)
    return start - dt.timedelta(days=start.weekday())


def posted(holders_: list[str], now: dt.datetime) -> dict[tuple[str, str], int]:
    """{(holder, "day" | "week"): posts proposed}, read with the rows locked (PostgreSQL). A day's row is
    made by its first spend, so a lock on rows alone lets the proposals racing to make it all pass;
    `proposal` takes the holders' named locks first for that."""
    today, monday = day_start(now).date(), week_start(now).date()
    rows = locked(PostingTally.objects.filter(holder__in=holders_, day__gte=monday))
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        counts[(row.holder, "week")] = counts.get((row.holder, "week"), 0) + row.posts
        if row.day == today:
            counts[(row.holder, "day")] = row.posts
    return counts


WHOSE = {"passport": "you have", "account": "your account's agents have"}
PERIOD = {"day": ("today", "a day", "tomorrow"), "week": ("this week", "a week", "next week")}


def spent_say(b: Budget, refills: dt.datetime, seconds: int) -> str:
    now_, per, _ = PERIOD[b.period]
    whose = "Your" if b.whose == "passport" else "Your account's"
    return (
        f"{whose} posting budget for {now_} is spent: {WHOSE[b.whose]} proposed {b.most} public "
        f"{'post' if b.most == 1 else 'posts'} {now_}, as many as the town takes in {per}. This call did not run. "
        f"The budget refills at {refills:%Y-%m-%d %H:%M} UTC; try again in {seconds} seconds."
    )


def proposal(tool: Tool, args: Any, arguments: dict[str, Any], call: Call) -> bool:
    """Whether this call is a new proposal of a public post (to `spend` once it is held or runs).
    Raises Spent when one of the passport's or the account's budgets is spent."""
    from clockford.town import holds

    if not tool.posts or not tool.changes(args):
        return False
    now = clock.now()
    if holds.speaks_for(call.passport, tool.name, arguments, now):
        return False
    found = budgets(call.passport)
    if not found:
        return True
    # Proposals at once take turns on the counts (until the call's transaction ends, once it is held and
    # spent), or each would find the budget unspent and all would be held: six posts sent together went
    # past a day's budget of two. Named locks, always the passport's before its account's.
    for holder, _ in holders(call.passport):
        lock_name(f"clockford-posts:{holder}")
    counts = posted(sorted({b.holder for b in found}), now)
    over = [b for b in found if counts.get((b.holder, b.period), 0) >= b.most]
    if over:
        # The wait is until every spent budget refills: the week's turn when the week is spent.
        refills = max((week_start(now) + WEEK) if b.period == "week" else (day_start(now) + DAY) for b in over)
        seconds = max(1, math.ceil((refills - now).total_seconds()))
        first = next((b for b in over if b.period == "week"), over[0])
        raise Spent(
            spent_say(first, refills, seconds),
            seconds,
            budget={
                "whose": "yours" if first.whose == "passport" else "your account's",
                "period": first.period,
                "posts": counts.get((first.holder, first.period), 0),
                "of": first.most,
                "refillsAt": clock.iso(refills),
            },
        )
    return True


def spend(passport: Passport) -> None:
    """One proposal spent from each of the passport's (and its account's) budgets."""
    day = day_start(clock.now()).date()
    names = [h for h, _ in holders(passport)]
    PostingTally.objects.bulk_create([PostingTally(holder=h, day=day) for h in names], ignore_conflicts=True)
    PostingTally.objects.filter(holder__in=names, day=day).update(posts=F("posts") + 1)


def left(passport: Passport) -> dict[str, int]:
    """What each budget has left now, for tests and the hall: {"passport:day": n, ...}."""
    now = clock.now()
    found = budgets(passport)
    counts = {
        (h, "week"): n or 0
        for h, n in PostingTally.objects.filter(holder__in=[b.holder for b in found], day__gte=week_start(now).date())
        .values("holder")
        .annotate(n=Sum("posts"))
        .values_list("holder", "n")
    }
    today = PostingTally.objects.filter(holder__in=[b.holder for b in found], day=day_start(now).date())
    counts.update({(r.holder, "day"): r.posts for r in today})
    return {f"{b.whose}:{b.period}": b.most - counts.get((b.holder, b.period), 0) for b in found}


def tidy(now: dt.datetime) -> dict[str, int]:
    """The sweep's part: a day before this week's Monday is never read again."""
    from clockford.town.sweep import delete_in_batches

    old = PostingTally.objects.filter(day__lt=week_start(now).date())
    return {PostingTally._meta.db_table: delete_in_batches(old)}
