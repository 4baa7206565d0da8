"""Beacons raced on PostgreSQL (districts.testing.race): answers allowed by their persons arrive
together at a beacon that takes five, and one account's beacons are raised together past the two it may
keep lit. Each limit holds exactly; every call is answered in the town's voice."""

from collections import Counter
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from clockford.town import clock
from clockford.town.models import Passport
from districts.registry import START_PLACE
from districts.switchboard import beacons
from districts.switchboard.models import Answer, Beacon, Channel
from districts.switchboard.tests.conftest import agent_of
from districts.testing import race, racing, visit
from hall.models import Account

pytestmark = racing()
Allow = Callable[[str], object]


def allowed_first(allow: Allow, calls: list[tuple[Passport, str, dict[str, str]]]) -> None:
    """Each call once, held for its person, who allows it: the race is the repeats."""
    for passport, tool, arguments in calls:
        held = visit(passport, tool, **arguments)
        assert held.structured["hold"]["status"] == "held", held.structured
        allow(held.structured["hold"]["id"])


def test_a_beacon_takes_five_answers_when_eight_arrive_at_once(
    alice: Passport, open_exchange: Callable[[Account, Account], None], allow: Allow
) -> None:
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=alice.account)
    with transaction.atomic():  # as the desk runs it: the service locks rows
        beacon = beacons.do_raise(alice, "garden", "Which census servers answer in under a second?")
    answerers = []
    for i in range(8):
        account = Account.objects.create_account(f"Answerer {i}")
        assert alice.account is not None
        open_exchange(alice.account, account)
        now = timezone.now()
        answerers.append(Passport.objects.create(issued_at=now, last_seen=now, place=START_PLACE, account=account))
    calls = [
        (who, "answer_beacon", {"beacon": beacon.id, "answer": f"Lot {i} answers in 0.{i} s."})
        for i, who in enumerate(answerers)
    ]
    allowed_first(allow, calls)
    replies = race(calls)
    said = Counter("ok" if not r.is_error else r.structured["say"] for r in replies)
    assert said == {"ok": 5, beacons.FULL_SAY: 3}, said
    assert sorted(Answer.objects.filter(beacon=beacon).values_list("number", flat=True)) == [1, 2, 3, 4, 5]


def test_an_account_keeps_two_beacons_lit_when_four_are_raised_at_once(
    account_a: Account, alice: Passport, allow: Allow
) -> None:
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=account_a)
    agents = [agent_of(account_a, f"asker-{i}") for i in range(4)]
    calls = [
        (who, "raise_beacon", {"channel": "garden", "question": f"Question {i}: which lot is fastest?"})
        for i, who in enumerate(agents)
    ]
    allowed_first(allow, calls)
    replies = race(calls)
    said = Counter("ok" if not r.is_error else r.structured["say"] for r in replies)
    assert said == {"ok": 2, beacons.LIT_LIMIT_SAY: 2}, said
    assert Beacon.objects.filter(account=account_a, state=beacons.LIT).count() == 2
