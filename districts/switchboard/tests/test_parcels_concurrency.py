"""Parcels under a crowd (must show): fifty clients taking one parcel at once make exactly one claim;
fifty retries of one allowed post_parcel with one request_id make one parcel; fifty hand_ins naming one
version make one delivery. Every call goes through the real desk, each on its own thread and database
connection, released together.

On PostgreSQL the calls truly overlap, and the parcel's row lock (SELECT ... FOR UPDATE) decides. SQLite
runs one writer at a time: the test database is one shared in-memory cache, where a second writer is
told "locked" at once instead of waiting, so the harness opens each call's transaction itself (BEGIN
IMMEDIATE, the town's transaction mode) and the threads queue for the one write lock on a lock of the
harness's own, the way calls on the town's own database file wait out its busy timeout (trying again
on "locked" as well, should anything else hold it).
"""

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.utils import timezone

from clockford.town import desk, holds
from clockford.town.models import Footstep, Hold, Passport
from districts.post_office.parcel_tools import HAND_IN_SAYS
from districts.registry import TOOLS
from districts.switchboard import common, parcels
from districts.switchboard.models import Attempt, Channel, Event, Parcel
from districts.switchboard.tests.test_parcels_common import RESULT, WORK
from hall.models import Account

pytestmark = pytest.mark.django_db(transaction=True)

CROWD = 50


@pytest.fixture(autouse=True)
def _archive_flushable(db: None) -> Iterator[None]:
    """The Archive is append-only in the database itself, and these tests commit their footsteps. On
    PostgreSQL the flush after a test truncates tables, which row triggers never see; SQLite's flush
    deletes rows, which its triggers refuse. So, on SQLite only, lift the triggers just long enough to
    empty the footsteps, and put them back exactly as migration 0002 made them."""
    yield
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as c:
        for op in ("update", "delete"):
            c.execute(f"DROP TRIGGER town_footstep_no_{op}")
        c.execute("DELETE FROM town_footstep")
        for op in ("UPDATE", "DELETE"):
            c.execute(
                f"CREATE TRIGGER town_footstep_no_{op.lower()} BEFORE {op} ON town_footstep "
                f"BEGIN SELECT RAISE(ABORT, 'The Archive is append-only.'); END"
            )


def agent(account: Account, name: str) -> Passport:
    now = timezone.now()
    return Passport.objects.create(
        issued_at=now, last_seen=now, place="The Post Office", account=account, sign_in=True, client_name=name
    )


def crowd(passports: list[str], tool: str, arguments: Callable[[int], dict[str, Any]]) -> list[desk.Rendered]:
    """Each of len(passports) threads makes one call of `tool` through the desk, all released at once.
    Returns the replies in thread order."""
    n = len(passports)
    start = threading.Barrier(n)
    replies: list[desk.Rendered | None] = [None] * n
    errors: list[str] = []
    sqlite = connection.vendor == "sqlite"
    writer = threading.Lock()

    def visitor(i: int) -> None:
        try:
            passport = Passport.objects.get(pk=passports[i])  # each thread its own copy, on its own connection
            args = arguments(i)
            start.wait()
            while True:
                try:
                    if sqlite:
                        with writer, transaction.atomic():  # BEGIN IMMEDIATE: the write lock, or "locked" at once
                            reply = desk.run(TOOLS[tool], args, passport, None)
                    else:
                        reply = desk.run(TOOLS[tool], args, passport, None)
                except OperationalError as exc:
                    if not (sqlite and "locked" in str(exc)):
                        raise
                    time.sleep(0.002)  # nothing was written: wait for the writer, and try again
                    continue
                replies[i] = reply
                break
        except Exception as exc:  # anything else fails the test, below
            errors.append(f"{i}: {exc!r}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=visitor, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert desk.town_mode() == "open"  # no call failed to record its footstep
    done = [r for r in replies if r is not None]
    assert len(done) == n
    return done


def outcomes(replies: list[desk.Rendered]) -> Counter[str]:
    numbers = [r.footstep for r in replies]
    assert None not in numbers and len(set(numbers)) == len(numbers)  # one footstep each
    return Counter(Footstep.objects.filter(number__in=numbers).values_list("outcome", flat=True))


def channel_of(by: Passport) -> Channel:
    return Channel.objects.create(name="lanterns", opened_at=timezone.now(), opened_by=by, account_id=by.account_id)


def test_fifty_clients_taking_one_parcel_at_once_make_exactly_one_claim() -> None:
    home = Account.objects.create_account("Publisher")
    publisher = agent(home, "publisher-agent")
    channel_of(publisher)
    with transaction.atomic():
        parcel = parcels.do_post(publisher, "lanterns", WORK["title"], WORK["brief"], WORK["done_when"])
    takers = []
    for i in range(CROWD):
        account = Account.objects.create_account(f"Taker {i}")
        with transaction.atomic():  # as the hall does it: each person's side, under the row's lock
            common.do_set_exchange(account, home.handle, True)
            common.do_set_exchange(home, account.handle, True)
        takers.append(agent(account, f"taker-{i}").pk)

    replies = crowd(takers, "take_parcel", lambda i: {"parcel": parcel.id})

    won = [i for i, r in enumerate(replies) if not r.is_error]
    assert len(won) == 1
    assert outcomes(replies) == Counter({"ok": 1, "refused:not-open": CROWD - 1})
    assert {r.structured["say"] for r in replies if r.is_error} == {parcels.NOT_OPEN_SAY}
    stored = Parcel.objects.get()
    attempt = Attempt.objects.get()
    assert (stored.state, stored.version, stored.attempt) == ("claimed", 2, 1)
    assert attempt.claimant_id == stored.claimant_id == takers[won[0]]
    assert Event.objects.filter(kind="parcel-taken").count() == 1


def test_fifty_retries_of_one_post_parcel_with_one_request_id_make_one_parcel() -> None:
    account = Account.objects.create_account("Alice")
    alice = agent(account, "alice-agent")
    channel_of(alice)
    arguments = {"channel": "lanterns", **WORK, "request_id": "lantern-list-7"}
    first = desk.run(TOOLS["post_parcel"], arguments, alice, None)
    hold = Hold.objects.get(pk=first.structured["hold"]["id"])
    holds.do_decide(hold, None, "allow", hold.words_digest, holds.decision_statement(hold, "allow"), {})

    replies = crowd([alice.pk] * CROWD, "post_parcel", lambda i: dict(arguments))

    parcel = Parcel.objects.get()  # exactly one
    made = [r for r in replies if not r.is_error]
    assert [r.structured["parcel"]["id"] for r in made] == [parcel.id] * len(made)
    first_reply = [r for r in made if "replayed" not in r.structured]
    assert len(first_reply) == 1 and first_reply[0].structured["harbour"]["hold"] == hold.id
    replayed = [r for r in made if r.structured.get("replayed") is True]
    assert all(r.structured["say"] == first_reply[0].structured["say"] for r in replayed)
    # A retry that queued behind the winner on the hold's lock, before the winner's reply was kept,
    # finds the yes already used and waits for its person again: never a second parcel.
    rest = [r for r in replies if r.is_error]
    assert all(r.structured["hold"]["status"] == "held" for r in rest)
    assert len(first_reply) + len(replayed) + len(rest) == CROWD
    assert Event.objects.filter(kind="parcel-posted").count() == 1
    assert Hold.objects.get(pk=hold.id).status == "used"


@pytest.mark.parametrize("same_result", [False, True], ids=["different results", "the same result"])
def test_fifty_hand_ins_naming_one_version_make_one_delivery(same_result: bool) -> None:
    account = Account.objects.create_account("Alice")
    alice, claimant = agent(account, "alice-agent"), agent(account, "alice-second-agent")
    channel_of(alice)
    with transaction.atomic():
        parcel = parcels.do_post(alice, "lanterns", WORK["title"], WORK["brief"], WORK["done_when"])
    with transaction.atomic():
        parcels.do_take(claimant, parcel.id)

    def arguments(i: int) -> dict[str, Any]:
        result = RESULT if same_result else f"{RESULT} Checked by hand {i}."
        return {"parcel": parcel.id, "action": "deliver", "result": result, "version": 2}

    replies = crowd([claimant.pk] * CROWD, "hand_in", arguments)

    stored = Parcel.objects.get()
    assert (stored.state, stored.version) == ("delivered", 3)
    assert [h["what"] for h in stored.history].count("delivered") == 1
    assert Event.objects.filter(kind="parcel-delivered").count() == 1
    says = Counter(r.structured["say"] for r in replies)
    if same_result:
        # Delivering the same result twice is safe: every retry is told it is already delivered.
        assert outcomes(replies) == Counter({"ok": CROWD})
        assert says == Counter({HAND_IN_SAYS["delivered"]: 1, HAND_IN_SAYS["already delivered"]: CROWD - 1})
        assert Attempt.objects.get().result == RESULT
    else:
        assert outcomes(replies) == Counter({"ok": 1, "refused:version": CROWD - 1})
        winner = next(i for i, r in enumerate(replies) if not r.is_error)
        assert Attempt.objects.get().result == arguments(winner)["result"]
