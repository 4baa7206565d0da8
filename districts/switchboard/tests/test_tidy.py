"""The Switchboard's tidy for the sweep: what the clock did to parcels is stored, and every view of
them reads the same before and after."""

from datetime import timedelta

from clockford.town import clock
from clockford.town.models import Passport
from districts.switchboard import parcels, services
from districts.switchboard.models import Parcel
from districts.switchboard.tests.test_parcels_common import Publish, open_channel, post


def test_a_parcel_lapsed_by_the_clock_is_stored_and_reads_the_same(
    alice: Passport, bob: Passport, published: Publish
) -> None:
    open_channel(alice)
    view = post(published, alice)
    clock.advance(timedelta(days=7, seconds=1))
    before = {who.pk: parcels.trace_view(who, view["id"]) for who in (alice, bob)}
    assert Parcel.objects.get().state == "open"  # reading wrote nothing

    assert services.tidy(clock.now())["switchboard_parcel"] == 1

    assert {who.pk: parcels.trace_view(who, view["id"]) for who in (alice, bob)} == before
    stored = Parcel.objects.get()
    assert (stored.state, stored.title, stored.brief) == ("lapsed", "", "")
    assert services.tidy(clock.now())["switchboard_parcel"] == 0
