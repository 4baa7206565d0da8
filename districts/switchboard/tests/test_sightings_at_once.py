"""The day's limit of sightings under a crowd, on PostgreSQL: ten sightings sent at once by one agent
leave exactly five (the services run as the desk runs them, each in a transaction of its own)."""

import pytest
from django.db import connection, transaction

from clockford.town import clock
from districts.switchboard import beacons, common, sightings
from districts.switchboard.models import Channel, Sighting
from tests.fixtures import agent, at_once

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
    went, refused = at_once([lambda: sightings.do_report(asker, beacon.id, "other-unusual")] * 10)
    assert went == 5
    assert [r.say for r in refused] == [sightings._limit_say(5)] * 5
    assert Sighting.objects.filter(passport=asker).count() == 5
