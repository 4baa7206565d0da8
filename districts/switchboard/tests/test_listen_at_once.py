"""listen never skips an event while writers and readers run at once (SQLite and PostgreSQL).

Writers broadcast on their channels and put events in the readers' inboxes, each in its own
transaction that stays open a moment after its event is numbered (as the desk's footstep keeps it
open); readers page at the same time, sometimes acknowledging and sometimes not. The union of every
reader's pages must be exactly every event that reached it, and no page may hand an event at or below
what that reader had acknowledged.

The calls go to the services in transactions of their own rather than through the desk: the
Archive's footsteps are append-only, and a test that commits cannot have them flushed after it.
"""

import random
import threading
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import OperationalError, connection, connections, transaction
from django.db.models import Q

from clockford.town import clock
from clockford.town.models import Passport
from districts.switchboard import channels, common
from districts.switchboard.models import Channel, Event
from hall.models import Account
from tests.fixtures import agent

WRITERS = 4
CHANNELS_EACH = 3
ROUNDS = 8
READERS = 2


def in_turn[T](work: Callable[[], T]) -> T:
    """One transaction; SQLite's in-memory test database is one shared cache, where a second writer is
    told "locked" at once instead of waiting out the busy timeout as the town's own database file does:
    wait here instead, and run it again (nothing of it was kept)."""
    while True:
        try:
            with transaction.atomic():
                return work()
        except OperationalError as exc:
            if not (connection.vendor == "sqlite" and "locked" in str(exc)):
                raise
            time.sleep(0.001)


@pytest.mark.django_db(transaction=True)
def test_the_union_of_pages_is_every_event_written() -> None:
    clock.reset()
    writers = [agent(Account.objects.create_account(f"Writer {i}")) for i in range(WRITERS)]
    readers = [agent(None) for _ in range(READERS)]
    names = {w.id: [f"w{i}-c{j}" for j in range(CHANNELS_EACH)] for i, w in enumerate(writers)}
    for w in writers:
        for name in names[w.id]:
            Channel.objects.create(name=name, opened_at=clock.now(), opened_by=w, account=w.account)
    every = [n for w in writers for n in names[w.id]]
    # Inbox events happen on a channel nobody watches: they reach only the passport they are for.
    Channel.objects.create(name="elsewhere", opened_at=clock.now(), opened_by=writers[0], account=writers[0].account)
    for r in readers:
        in_turn(lambda r=r: channels.do_watch(r, every, []))

    errors: list[str] = []
    done = threading.Event()
    # Between rounds the clock moves a minute on, past each channel's spacing.
    rounds = threading.Barrier(WRITERS, action=lambda: clock.advance(timedelta(seconds=61)))

    def write(w: Passport) -> None:
        rng = random.Random(w.id)
        try:
            for n in range(ROUNDS):
                for name in names[w.id]:

                    def one(name: str = name, n: int = n) -> None:
                        channels.do_broadcast(w, name, f"round {n} on {name}")
                        time.sleep(rng.random() * 0.003)  # the transaction stays open after the number

                    in_turn(one)
                for r in readers:
                    in_turn(
                        lambda r=r: common.emit("parcel-taken", by=w, channel="elsewhere", record="P-X", to_passport=r)
                    )
                rounds.wait()
        except Exception as exc:  # a failure of the test, said below
            errors.append(repr(exc))
            rounds.abort()
        finally:
            connections.close_all()

    got: dict[str, list[int]] = {r.id: [] for r in readers}

    def read(r: Passport) -> None:
        rng = random.Random(r.id)
        since: int | None = None
        acked = 0
        try:
            while True:
                finished = done.is_set()
                page = in_turn(lambda since=since: channels.page(r, since))
                acked = max(acked, page.since)
                seqs = [e.seq for e in page.events]
                assert seqs == sorted(seqs) and all(s > acked for s in seqs), (acked, seqs)
                got[r.id].extend(seqs)
                if finished and not page.more:
                    break
                # Sometimes the reply is "lost": the next call does not acknowledge it, and the same
                # items come again.
                since = page.next if rng.random() < 0.7 else None
                time.sleep(0.002)
        except Exception as exc:
            errors.append(repr(exc))
        finally:
            connections.close_all()

    crowd = [threading.Thread(target=write, args=(w,)) for w in writers]
    listeners = [threading.Thread(target=read, args=(r,)) for r in readers]
    for t in crowd + listeners:
        t.start()
    for t in crowd:
        t.join()
    done.set()
    for t in listeners:
        t.join()
    clock.reset()

    assert errors == []
    assert Event.objects.filter(kind="message").count() == WRITERS * CHANNELS_EACH * ROUNDS
    for r in readers:
        written = set(Event.objects.filter(Q(kind="message") | Q(to_passport=r)).values_list("seq", flat=True))
        assert len(written) == WRITERS * CHANNELS_EACH * ROUNDS + WRITERS * ROUNDS
        assert set(got[r.id]) == written
        # At least once: some pages came again before they were acknowledged.
        assert len(got[r.id]) >= len(written)
