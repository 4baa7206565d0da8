"""The Switchboard's tidy for the sweep: what the clock did to parcels is stored, and every view of
them reads the same before and after."""

from datetime import timedelta

from clockford.town import clock
from clockford.town.models import Passport
from districts.switchboard import parcels, services, sightings
from districts.switchboard.models import Parcel, Sighting
from districts.switchboard.tests.test_parcels_common import Publish, open_channel, post
from hall.models import Account

PARCELS = "switchboard_parcel (brought up to date, none removed)"


def test_a_parcel_lapsed_by_the_clock_is_stored_and_reads_the_same(
    alice: Passport, bob: Passport, published: Publish
) -> None:
    open_channel(alice)
    view = post(published, alice)
    clock.advance(timedelta(days=7, seconds=1))
    before = {who.pk: parcels.trace_view(who, view["id"]) for who in (alice, bob)}
    assert Parcel.objects.get().state == "open"  # reading wrote nothing

    assert services.tidy(clock.now())[PARCELS] == 1

    assert {who.pk: parcels.trace_view(who, view["id"]) for who in (alice, bob)} == before
    stored = Parcel.objects.get()
    assert (stored.state, stored.title, stored.brief) == ("lapsed", "", "")
    assert services.tidy(clock.now())[PARCELS] == 0


def test_sightings_read_long_ago_go_and_the_staff_page_reads_the_same(
    alice: Passport, bob: Passport, account_a: Account, account_b: Account
) -> None:
    start = clock.now()
    made = Sighting.objects.bulk_create(
        Sighting(
            passport=alice,
            account=account_a,
            record="B-THEBEACON01",
            party=1,
            about=bob,
            about_account=account_b,
            category="other-unusual",
            at=start + timedelta(minutes=i),
            read_at=None if i == 0 else start + timedelta(minutes=i),
        )
        for i in range(sightings.RECENT + 3)
    )
    clock.advance(timedelta(days=services.SIGHTING_KEPT_DAYS, seconds=90))
    shown = list(sightings.recent_sightings().values_list("pk", flat=True))

    # The oldest is unread and stays; of the two others past the page, one was read less than 90 days ago.
    assert services.tidy(clock.now())["switchboard_sighting"] == 1

    assert list(sightings.recent_sightings().values_list("pk", flat=True)) == shown
    assert Sighting.objects.filter(pk=made[0].pk).exists()
    assert Sighting.objects.count() == sightings.RECENT + 2
