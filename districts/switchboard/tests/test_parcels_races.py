"""A parcel's steps raced: the same step sent at once by several agents (or one agent several times),
each on its own thread and database connection, through the real desk. Exactly one take, one
delivery and one settling happen; every call is answered in the town's voice and is one footstep.

PostgreSQL only: the races are between connections, and the tests' SQLite database lives in one
connection's memory (CI runs the suite on PostgreSQL too)."""

from collections import Counter
from typing import Any

from clockford.town.models import Footstep, Passport
from districts.switchboard.models import Parcel
from districts.switchboard.tests.conftest import agent_of
from districts.switchboard.tests.test_parcels_common import RESULT, Publish, open_channel, post
from districts.testing import race, racing
from hall.models import Account

pytestmark = racing()
AT_ONCE = 6


def answered(replies: list[Any]) -> Counter[str]:
    return Counter("ok" if not r.is_error else r.structured["say"] for r in replies)


def each_one_footstep(replies: list[Any]) -> None:
    numbers = [r.footstep for r in replies]
    assert None not in numbers and len(set(numbers)) == len(replies)
    assert Footstep.objects.filter(number__in=numbers).count() == len(replies)


def test_one_take_one_delivery_one_acceptance(account_a: Account, alice: Passport, published: Publish) -> None:
    open_channel(alice)
    parcel = str(post(published, alice)["id"])
    takers = [agent_of(account_a, f"taker-{i}") for i in range(AT_ONCE)]

    took = race([(who, "take_parcel", {"parcel": parcel}) for who in takers])
    assert answered(took)["ok"] == 1, answered(took)
    each_one_footstep(took)
    claimant = takers[next(i for i, r in enumerate(took) if not r.is_error)]
    assert Parcel.objects.get(pk=parcel).claimant_id == claimant.id

    version = Parcel.objects.get(pk=parcel).version
    step = {"parcel": parcel, "action": "deliver", "result": RESULT, "version": version}
    delivered = race([(claimant, "hand_in", step)] * AT_ONCE)
    # Delivering the same result again is safe: each is answered, and it is delivered once.
    assert answered(delivered) == {"ok": AT_ONCE}, answered(delivered)
    each_one_footstep(delivered)
    stored = Parcel.objects.get(pk=parcel)
    assert stored.state == "delivered"
    assert [h["what"] for h in stored.history].count("delivered") == 1

    settled = race([(alice, "settle_parcel", {"parcel": parcel, "action": "accept"})] * AT_ONCE)
    assert answered(settled)["ok"] == 1, answered(settled)
    each_one_footstep(settled)
    stored = Parcel.objects.get(pk=parcel)
    assert stored.state == "done"
    assert [h["what"] for h in stored.history] == ["posted", "taken", "delivered", "accepted: done"]


def test_a_withdrawal_and_takes_at_once_leave_one_state(
    account_a: Account, alice: Passport, published: Publish
) -> None:
    open_channel(alice)
    parcel = str(post(published, alice)["id"])
    takers = [agent_of(account_a, f"taker-{i}") for i in range(AT_ONCE - 1)]
    calls: list[tuple[Passport, str, dict[str, Any]]] = [
        (alice, "settle_parcel", {"parcel": parcel, "action": "withdraw"})
    ]
    calls += [(who, "take_parcel", {"parcel": parcel}) for who in takers]
    replies = race(calls)
    each_one_footstep(replies)
    stored = Parcel.objects.get(pk=parcel)
    withdrawn = not replies[0].is_error
    took = [r for r in replies[1:] if not r.is_error]
    # Either the withdrawal went first (no take after it) or one take did and the withdrawal followed it.
    assert len(took) <= 1
    assert stored.state == ("withdrawn" if withdrawn else "claimed"), (stored.state, answered(replies))
    whats = [h["what"] for h in stored.history]
    assert whats.count("taken") == len(took)
