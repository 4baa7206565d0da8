"""An allowed call sent twice at once, on PostgreSQL: the first goes through on the person's yes, and
the second is answered as it would be one after the other (the beacon already has this account's
answer; the beacon is closed already; the account already has two beacons lit), never held again for a
yes that could not help.

The calls meet deterministically: the test holds the allowed hold's row lock while they run through the
real desk, one after the other up to a lock, and lets go only once each waits on one. Before answer_beacon's and settle_beacon's
Tool.before_hold read their beacon locked, the second call read it before the first went through,
waited on the hold's lock, found the yes spent, and was held again; the raise never was (its posting
budget reads the locked holds before anything else), and the test guards that order."""

from collections import Counter
from collections.abc import Callable

from django.db import transaction

from clockford.town import clock
from clockford.town.desk import Rendered
from clockford.town.models import Hold, Passport
from districts.switchboard import beacons
from districts.switchboard.models import Answer, Beacon, Channel
from districts.testing import on_probation, outcome, past_every_check, racing, visit
from hall.models import Account

pytestmark = racing()
Allow = Callable[[str], Hold]
QUESTION = "Which census servers answer in under a second?"


def allowed(allow: Allow, passport: Passport, tool: str, arguments: dict[str, str]) -> Hold:
    held = visit(passport, tool, **arguments)
    assert held.structured["hold"]["status"] == "held", held.structured
    return allow(held.structured["hold"]["id"])


def says(replies: list[Rendered]) -> Counter[str]:
    return Counter("ok" if not r.is_error else r.structured["say"] for r in replies)


def test_an_allowed_answer_sent_twice_at_once_is_given_once_and_the_second_is_told_it_was_answered(
    alice: Passport, bob: Passport, exchange_open: None, allow: Allow
) -> None:
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=alice.account)
    with transaction.atomic():  # as the desk runs it: the service locks rows
        beacon = beacons.do_raise(alice, "garden", QUESTION)
    call = (bob, "answer_beacon", {"beacon": beacon.id, "answer": "Lot 7 answers in 0.3 s."})
    hold = allowed(allow, *call)

    replies = past_every_check(hold, [call, call])
    assert says(replies) == {"ok": 1, beacons.ANSWERED_SAY: 1}, says(replies)
    refused = next(r for r in replies if r.is_error)
    assert "hold" not in refused.structured
    assert Answer.objects.filter(beacon=beacon).count() == 1
    # No second hold: the person is never asked about an answer that can no longer be given.
    assert list(Hold.objects.filter(passport=bob).values_list("id", "status")) == [(hold.id, "used")]
    # As one after the other: the same call again is told the same.
    again = visit(*call[:2], **call[2])
    assert again.structured["say"] == beacons.ANSWERED_SAY


def test_an_answer_sent_while_the_accounts_allowed_answer_goes_through_is_told_it_was_answered(
    alice: Passport, bob: Passport, exchange_open: None, allow: Allow
) -> None:
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=alice.account)
    with transaction.atomic():
        beacon = beacons.do_raise(alice, "garden", QUESTION)
    first = (bob, "answer_beacon", {"beacon": beacon.id, "answer": "Lot 7 answers in 0.3 s."})
    other = (bob, "answer_beacon", {"beacon": beacon.id, "answer": "Lot 9 answers in 0.2 s."})
    hold = allowed(allow, *first)

    replies = past_every_check(hold, [first, other])
    assert not replies[0].is_error, replies[0].structured["say"]
    assert replies[1].structured["say"] == beacons.ANSWERED_SAY and "hold" not in replies[1].structured
    assert list(Hold.objects.filter(passport=bob).values_list("id", "status")) == [(hold.id, "used")]


def test_an_allowed_raise_sent_twice_at_once_lights_the_second_beacon_and_the_repeat_meets_the_limit(
    account_a: Account, alice: Passport, allow: Allow
) -> None:
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=account_a)
    with transaction.atomic():
        beacons.do_raise(alice, "garden", "Which lot is fastest?")
    call = (alice, "raise_beacon", {"channel": "garden", "question": QUESTION})
    hold = allowed(allow, *call)

    replies = past_every_check(hold, [call, call])
    assert says(replies) == {"ok": 1, beacons.LIT_LIMIT_SAY: 1}, says(replies)
    assert Beacon.objects.filter(account=account_a, state=beacons.LIT).count() == beacons.LIT_PER_ACCOUNT
    assert list(Hold.objects.filter(passport=alice).values_list("id", "status")) == [(hold.id, "used")]
    again = visit(*call[:2], **call[2])
    assert again.structured["say"] == beacons.LIT_LIMIT_SAY


def test_an_allowed_close_on_probation_sent_twice_at_once_closes_once_and_the_second_changes_nothing(
    alice: Passport, allow: Allow
) -> None:
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=alice.account)
    with transaction.atomic():
        beacon = beacons.do_raise(alice, "garden", QUESTION)
    on_probation(alice)
    call = (alice, "settle_beacon", {"beacon": beacon.id, "action": "close"})
    hold = allowed(allow, *call)

    replies = past_every_check(hold, [call, call])
    closed = f"Beacon {beacon.id} is closed: it takes no more answers. You can still trace it for a day."
    already = f"Beacon {beacon.id} was already closed. Nothing changed."
    assert Counter(r.structured["say"] for r in replies) == {closed: 1, already: 1}
    assert [outcome(r) for r in replies] == ["ok", "ok"]
    assert list(Hold.objects.filter(passport=alice).values_list("id", "status")) == [(hold.id, "used")]
    assert visit(*call[:2], **call[2]).structured["say"] == already
