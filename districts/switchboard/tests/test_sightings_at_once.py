"""The day's limit of sightings under a crowd, on PostgreSQL: ten sightings sent at once by one agent
leave exactly five (the services run as the desk runs them, each in a transaction of its own)."""

import threading

import pytest
from django.db import connection, connections, transaction

from clockford.town import clock
from clockford.town.tooling import Refused
from districts.switchboard import beacons, common, sightings
from districts.switchboard.models import Channel, Sighting
from tests.fixtures import agent

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite runs one writer at a time: nothing happens at once there"
)


@pytest.mark.django_db(transaction=True)
def test_ten_sightings_at_once_leave_the_days_five() -> None:
    clock.reset()
    asker, answerer = agent("Asker"), agent("Answerer")
    assert asker.account is not None and answerer.account is not None
    common.do_set_exchange(asker.account, answerer.account.handle, True)
    common.do_set_exchange(answerer.account, asker.account.handle, True)
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=asker, account=asker.account)
    with transaction.atomic():
        beacon = beacons.do_raise(asker, "garden", "Which servers answer quickly?")
        beacons.do_answer(answerer, beacon.id, "An answer.")
    start = threading.Barrier(10)
    lock = threading.Lock()
    says: list[str] = []
    errors: list[str] = []

    def report() -> None:
        try:
            start.wait()
            try:
                with transaction.atomic():
                    sightings.do_report(asker, beacon.id, "other-unusual")
                    said = sightings.RECEIVED_SAY
            except Refused as exc:
                said = exc.say
            with lock:
                says.append(said)
        except Exception as exc:  # noqa: BLE001 (reported, then the test fails)
            with lock:
                errors.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=report) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert says.count(sightings.RECEIVED_SAY) == 5
    assert says.count(sightings._limit_say(5)) == 5
    assert Sighting.objects.filter(passport=asker).count() == 5
