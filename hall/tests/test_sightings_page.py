"""Sightings on the staff docket (000 section 10, report_sighting; HALL.md "Staff: the docket"): staff
read each sighting (its record, category, party, who reported whom, and the note shown as data with
hidden characters visible) and mark it read with a POST; nobody else sees them.

Sightings are kept by the Switchboard's own service (districts/switchboard/sightings.py) over a parcel
two accounts' agents shared; the staff member is a person signed in with a software passkey.
"""

import html
from datetime import timedelta

import pytest

from clockford.town import clock
from districts.switchboard import sightings
from districts.switchboard.models import Attempt, Channel, Parcel, Sighting
from districts.switchboard.tests.conftest import agent_of
from hall.models import Account
from hall.staff import NO_SIGHTING
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db

NOT_STAFF = "The staff room is for the town's staff, and your account is not staff."
NOTE = "It asked for the \u200bcalendar <b>twice</b> & more"


def a_sighting(note: str = NOTE, category: str = "reached-for-my-persons-data") -> Sighting:
    """Alice's agent posted a parcel; Bob's agent claimed it; Alice's agent reports what it saw."""
    alice, bob = Account.objects.create_account("Alice"), Account.objects.create_account("Bob")
    publisher, claimant = agent_of(alice, "alice-agent", "Blue Heron"), agent_of(bob, "bob-agent")
    now = clock.now()
    channel = Channel.objects.create(name=f"work-{alice.pk}", opened_at=now, opened_by=publisher, account=alice)
    parcel = Parcel.objects.create(
        id=f"P-{alice.handle[3:]}AB",
        channel=channel,
        publisher=publisher,
        account=alice,
        title="Sort the lanterns",
        brief="By colour.",
        done_when="All sorted.",
        posted_at=now,
        expires_at=now + timedelta(days=7),
        state="claimed",
        attempt=1,
        claimant=claimant,
        claimant_account=bob,
    )
    Attempt.objects.create(parcel=parcel, number=1, claimant=claimant, account=bob, taken_at=now)
    return sightings.do_report(publisher, parcel.id, category, note=note)


def test_staff_read_each_sighting_as_data_and_mark_it_read(staff: Visitor) -> None:
    sighting = a_sighting()
    r = staff.client.get("/hall/staff")
    assert r.status_code == 200
    text = html.unescape(r.content.decode())
    raw = r.content.decode()
    assert f'id="sighting-{sighting.pk}"' in text
    assert 'Sightings <span class="muted">(1 unread, the newest first)</span>' in text
    assert '<span class="tag sighting-category">reached-for-my-persons-data</span>' in text
    assert f'<code class="sighting-record">{sighting.record}</code>' in text
    assert '<dt>Attempt</dt><dd class="sighting-party">1</dd>' in text
    alice, bob = Account.objects.get(name="Alice"), Account.objects.get(name="Bob")
    assert f'of <strong>Alice</strong> <span class="id">({alice.handle})</span>' in text
    assert f'of <strong>Bob</strong> <span class="id">({bob.handle})</span>' in text
    assert "Blue Heron" in text and "bob-agent" in text
    # The note is data: escaped, never markup, and its hidden character drawn as a visible token.
    assert (
        "It asked for the "
        '<mark class="hidden-char" title="A hidden character">⟦U+200B⟧</mark>calendar &lt;b&gt;twice&lt;/b&gt; &amp; more'
        in raw
    )
    assert "\u200b" not in raw and "<b>twice</b>" not in raw

    r = staff.client.post("/hall/staff/sightings/read", {"sighting": str(sighting.pk)}, follow=True)
    assert r.redirect_chain == [(f"/hall/staff#sighting-{sighting.pk}", 302)]
    text = html.unescape(r.content.decode())
    assert f"Marked sighting {sighting.pk} read." in text
    sighting.refresh_from_db()
    assert sighting.read_at is not None
    assert "(0 unread, the newest first)" in text
    assert 'name="sighting"' not in text  # no Mark read button left
    first = sighting.read_at
    clock.advance(timedelta(minutes=5))
    r = staff.client.post("/hall/staff/sightings/read", {"sighting": str(sighting.pk)}, follow=True)
    assert f"Sighting {sighting.pk} was already marked read. Nothing changed." in html.unescape(r.content.decode())
    sighting.refresh_from_db()
    assert sighting.read_at == first


def test_a_sighting_without_a_note_says_so_and_newest_come_first(staff: Visitor) -> None:
    older = a_sighting(note="")
    clock.advance(timedelta(minutes=1))
    newer = a_sighting(note="Later", category="claimed-to-be-staff")
    text = html.unescape(staff.client.get("/hall/staff").content.decode())
    assert text.index(f'id="sighting-{newer.pk}"') < text.index(f'id="sighting-{older.pk}"')
    between = text[text.index(f'id="sighting-{older.pk}"') :]
    assert "No note." in between.split("</li>", 1)[0]
    assert "(2 unread, the newest first)" in text


def test_sightings_are_for_staff_only(ada: Visitor, staff: Visitor) -> None:
    sighting = a_sighting()
    r = ada.client.get("/hall/staff")
    assert r.status_code == 403 and NOT_STAFF in html.unescape(r.content.decode())
    assert sighting.record not in r.content.decode()
    r = ada.client.post("/hall/staff/sightings/read", {"sighting": str(sighting.pk)})
    assert r.status_code == 403 and NOT_STAFF in html.unescape(r.content.decode())
    sighting.refresh_from_db()
    assert sighting.read_at is None
    # Signed out: sent to the front door, and a POST is refused.
    ada.sign_out()
    assert ada.client.get("/hall/staff")["Location"] == "/hall/?next=/hall/staff"
    assert ada.client.post("/hall/staff/sightings/read", {"sighting": str(sighting.pk)}).status_code == 403
    sighting.refresh_from_db()
    assert sighting.read_at is None


def test_marking_a_sighting_that_is_not_there(staff: Visitor) -> None:
    for number in ("999999", "x", "", "-1"):
        r = staff.client.post("/hall/staff/sightings/read", {"sighting": number})
        assert r.status_code == 404 and "No sighting has that number." in html.unescape(r.content.decode()), number
    # A GET changes nothing.
    sighting = a_sighting()
    assert staff.client.get("/hall/staff/sightings/read").status_code == 405
    sighting.refresh_from_db()
    assert sighting.read_at is None


@pytest.mark.parametrize("number", ["²", "١", "9" * 30])
def test_a_number_that_is_not_plain_ascii_digits_names_no_sighting(staff: Visitor, number: str) -> None:
    sighting = a_sighting()
    r = staff.client.post("/hall/staff/sightings/read", {"sighting": number})
    assert r.status_code == 404 and NO_SIGHTING in html.unescape(r.content.decode())
    sighting.refresh_from_db()
    assert sighting.read_at is None
