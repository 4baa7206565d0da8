"""The Switchboard's tidy for the sweep: what the clock did to parcels is stored, and every view of
them reads the same before and after."""

from datetime import timedelta

from clockford.town import clock
from clockford.town.models import Passport
from districts.switchboard import channels, parcels, services, sightings
from districts.switchboard.models import Channel, Cursor, Event, Parcel, Sequence, Sighting, Watch
from districts.switchboard.tests.conftest import agent_of
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


def test_events_no_reader_sees_or_counts_go_and_listen_reads_the_same(
    alice: Passport, bob: Passport, account_a: Account
) -> None:
    start = clock.now()
    Channel.objects.create(name="lanterns", opened_at=start, opened_by=alice)
    Watch.objects.bulk_create(Watch(passport=p, channel_id="lanterns", since=start) for p in (alice, bob))
    Cursor.objects.bulk_create([Cursor(passport=alice, acked=62), Cursor(passport=bob, acked=3)])

    def event(seq: int, **where: object) -> Event:
        fields: dict[str, object] = {"kind": "message", "text": f"#{seq}", **where}
        return Event(seq=seq, at=start + timedelta(minutes=seq), by=alice, **fields)

    Event.objects.bulk_create(
        [
            *(event(seq, channel="lanterns") for seq in range(1, 61)),
            event(61, kind="parcel-taken", to_passport=alice),  # acknowledged: goes
            event(62, kind="parcel-taken", to_passport=bob),  # bob is behind: stays
            event(63, kind="parcel-posted", to_account=account_a),  # a later passport of A would count it
        ]
    )
    Sequence.objects.update_or_create(pk=1, defaults={"last": 63})
    clock.advance(timedelta(days=channels.KEEP_DAYS + 1))
    later = agent_of(account_a, "alice-later-agent")

    def read() -> object:
        pages = {}
        for p in (alice, bob, later):
            page = channels.page(p, None)
            pages[p.pk] = (page.since, [e.seq for e in page.events], page.removed, page.next, page.more, page.missed)
        return pages, [e.seq for e in channels.latest_messages("lanterns")]

    before = read()
    # Of the channel's messages only 1-3: bob acknowledged them, and the channel shows 11-60.
    assert services.tidy(clock.now())["switchboard_event"] == 4

    assert read() == before
    assert set(Event.objects.values_list("seq", flat=True)) == set(range(4, 61)) | {62, 63}
