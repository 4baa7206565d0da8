"""The staff page's services for sightings: the newest first, one sighting for staff only, and marking
one read (staff only; the first reading's time stays)."""

from collections.abc import Callable
from datetime import timedelta

import pytest

from clockford.town import clock
from clockford.town.models import Passport
from clockford.town.tooling import NotAllowed, NotFound
from districts.switchboard import beacons, sightings
from districts.switchboard.models import Channel, Sighting
from hall.models import Account


@pytest.fixture
def staff(db: None) -> Account:
    return Account.objects.create_account("Staff", is_staff=True)


@pytest.fixture
def kept(
    alice: Passport,
    bob: Passport,
    account_a: Account,
    account_b: Account,
    open_exchange: Callable[[Account, Account], None],
) -> list[Sighting]:
    """Three sightings by alice about bob's answer, a minute apart."""
    open_exchange(account_a, account_b)
    Channel.objects.create(name="garden", opened_at=clock.now(), opened_by=alice, account=account_a)
    beacon = beacons.do_raise(alice, "garden", "Which servers answer quickly?")
    beacons.do_answer(bob, beacon.id, "An answer.")
    made = []
    for category in ("other-unusual", "claimed-to-be-staff", "disrupted-shared-work"):
        made.append(sightings.do_report(alice, beacon.id, category, note=f"Saw {category}."))
        clock.advance(timedelta(minutes=1))
    return made


def test_recent_sightings_newest_first(kept: list[Sighting]) -> None:
    assert [s.pk for s in sightings.recent_sightings()] == [s.pk for s in reversed(kept)]
    assert [s.pk for s in sightings.recent_sightings(2)] == [kept[2].pk, kept[1].pk]


def test_staff_open_one_and_mark_it_read_once(staff: Account, kept: list[Sighting]) -> None:
    one = sightings.access_sighting(staff, kept[0].pk)
    assert (one.category, one.note, one.read_at) == ("other-unusual", "Saw other-unusual.", None)
    read = sightings.do_mark_read(one, staff)
    first = read.read_at
    assert first is not None and Sighting.objects.get(pk=one.pk).read_at == first
    clock.advance(timedelta(hours=1))
    assert sightings.do_mark_read(one, staff).read_at == first
    assert Sighting.objects.filter(read_at__isnull=True).count() == 2
    for number in (10**9, 10**30, 0, -1):  # numbers past any column's range find nothing, never fail
        with pytest.raises(NotFound):
            sightings.access_sighting(staff, number)


def test_the_outsider_who_is_not_staff_is_refused(account_b: Account, kept: list[Sighting]) -> None:
    """A person who is not staff, even the one the sighting is about, reads none and marks none."""
    with pytest.raises(NotAllowed):
        sightings.access_sighting(account_b, kept[0].pk)
    with pytest.raises(NotAllowed):
        sightings.do_mark_read(kept[0], account_b)
    with pytest.raises(NotAllowed):
        sightings.do_mark_read(kept[0], None)
    assert not Sighting.objects.filter(read_at__isnull=False).exists()
