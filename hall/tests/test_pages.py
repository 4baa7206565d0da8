"""The hall's first pages: what waits, the agents the owner decides for, their pennants, the staff
docket; each empty state said in words, and the outsider refused."""

import html
from datetime import timedelta

import pytest
from django.utils import timezone

from clockford.town import desk
from clockford.town.models import Passport
from hall.models import Account
from hall.tests.conftest import Visitor

pytestmark = pytest.mark.django_db


def passport(client_name: str = "claude-code", minutes_ago: int = 5, **fields: object) -> Passport:
    now = timezone.now()
    return Passport.objects.create(
        client_name=client_name,
        issued_at=now - timedelta(hours=1),
        last_seen=now - timedelta(minutes=minutes_ago),
        **fields,
    )


def test_home_says_plainly_that_nothing_waits(ada: Visitor) -> None:
    page = ada.client.get("/hall/").content.decode()
    assert "<h1>Waiting for you</h1>" in page
    assert "Nothing waits for you." in page
    assert "Signed in as <strong>Ada</strong>" in page


def test_the_owner_sees_every_passport_of_a_town_without_sign_in(olive: Visitor) -> None:
    old = passport("cursor", minutes_ago=90, place="The Post Office", footsteps=7)
    new = passport("claude-code", minutes_ago=2, footsteps=3, pennant="Blue Heron")
    page = olive.client.get("/hall/agents").content.decode()
    assert "You own this town. It has no sign-in" in page
    assert "2 passports, by client, the most recently seen first." in page
    assert page.index(new.id) < page.index(old.id)
    for text in ("Blue Heron", "claude-code", "cursor", "The Post Office", "No pennant yet", "2\xa0minutes ago"):
        assert text in page, text
    assert "<dd>7</dd>" in page and "<dd>3</dd>" in page


def test_the_owner_is_told_when_no_agent_has_visited(olive: Visitor) -> None:
    assert "No agent has visited yet." in olive.client.get("/hall/agents").content.decode()


def test_the_owner_raises_a_pennant(olive: Visitor) -> None:
    p = passport()
    r = olive.client.post(f"/hall/agents/{p.id}/pennant", {"pennant": "  Red Kite ", "page": "1"}, follow=True)
    assert f"{p.id} now flies the pennant “Red Kite”." in r.content.decode()
    assert r.redirect_chain[-1][0] == f"/hall/agents?page=1#{p.id}"
    p.refresh_from_db()
    assert p.pennant == "Red Kite"


@pytest.mark.parametrize(
    ("pennant", "say"),
    [
        ("   ", "A pennant cannot be empty."),
        ("x" * 41, "A pennant can be at most 40 characters; this one has 41."),
        ("Red\u202eKite", "A pennant cannot hold hidden or control characters (⟦U+202E⟧)."),
        ("Red\tKite", "A pennant cannot hold hidden or control characters (a line break or control character)."),
        ("see https://x.example", "A pennant cannot carry a link or an email address: other agents read it."),
        ("mail me@x.example", "A pennant cannot carry a link or an email address: other agents read it."),
        ("ghp_" + "a1B2" * 9, "A pennant looks like a GitHub token, so it was not kept."),
    ],
)
def test_a_pennant_is_checked(olive: Visitor, pennant: str, say: str) -> None:
    p = passport(pennant="Old")
    r = olive.client.post(f"/hall/agents/{p.id}/pennant", {"pennant": pennant}, follow=True)
    assert f"{p.id}: {say}" in r.content.decode()
    p.refresh_from_db()
    assert p.pennant == "Old"


def test_forty_characters_is_a_pennant(olive: Visitor) -> None:
    p = passport()
    olive.client.post(f"/hall/agents/{p.id}/pennant", {"pennant": "é" * 40})
    p.refresh_from_db()
    assert p.pennant == "é" * 40


def test_a_person_who_is_not_the_owner_decides_for_no_passport(ada: Visitor) -> None:
    p = passport(pennant="Old")
    page = ada.client.get("/hall/agents").content.decode()
    assert p.id not in page
    assert "every agent's passport belongs to the town's owner" in page
    r = ada.client.post(f"/hall/agents/{p.id}/pennant", {"pennant": "Mine now"})
    assert r.status_code == 404 and "No passport you decide for has that number." in r.content.decode()
    p.refresh_from_db()
    assert p.pennant == "Old"


def test_the_staff_page_is_for_staff(ada: Visitor, olive: Visitor) -> None:
    r = ada.client.get("/hall/staff")
    assert r.status_code == 403
    assert "The staff room is for the town's staff, and your account is not staff." in html.unescape(r.content.decode())
    assert 'href="/hall/staff"' not in ada.client.get("/hall/").content.decode()


def test_staff_see_an_empty_docket(olive: Visitor) -> None:
    page = olive.client.get("/hall/staff").content.decode()
    assert "The docket is empty." in page
    assert 'href="/hall/staff"' in olive.client.get("/hall/").content.decode()


def test_staff_see_the_census_and_the_signing_keys(olive: Visitor) -> None:
    from clockford.town import signing
    from districts.arena import services as arena

    page = html.unescape(olive.client.get("/hall/staff").content.decode())
    assert '<h2 id="census-h">The census</h2>' in page and '<h2 id="keys-h">Signing keys</h2>' in page
    assert signing.public_key_hex() in page and signing.key_id() in page
    assert arena.KEY.public_key() in page


def test_the_hall_links_letters_and_the_public_map(ada: Visitor) -> None:
    page = ada.client.get("/hall/letters").content.decode()
    assert '<a href="/hall/letters" aria-current="page">Letters</a>' in page
    assert '<a href="/">The town\'s public map</a>' in html.unescape(page)
    assert '<a href="/hall/letters">Letters</a>' in ada.client.get("/hall/").content.decode()


def test_signed_out_pages_go_to_the_front_door(visitor: Visitor) -> None:
    for url in ("/hall/agents", "/hall/passkeys", "/hall/staff"):
        r = visitor.client.get(url)
        assert (r.status_code, r.url) == (302, f"/hall/?next={url}"), url
    page = visitor.client.get("/hall/").content.decode()
    assert "Sign in with a passkey" in page and "The town is open." in page


def test_sign_out_says_so(ada: Visitor) -> None:
    r = ada.client.post("/hall/signout", follow=True)
    assert "You are signed out." in r.content.decode()
    assert ada.account is None
    assert Account.objects.count() == 1


def test_the_front_door_says_the_towns_mode_in_words(visitor: Visitor) -> None:
    desk.set_town_mode("closed", "test")
    try:
        page = visitor.client.get("/hall/").content.decode()
        assert 'class="mode mode-closed"' in page
        assert "The town is closed until a person looks: agents&#x27; calls are turned away." in page
    finally:
        desk.set_town_mode("open")


def test_the_letters_page_shows_fifty_at_a_time_unopened_first(ada: Visitor) -> None:
    """Letters are kept for ever: the page listed every one a person ever had (1,000 read letters made
    a page of 577 KB). It shows them fifty at a time, unopened first, with links to the older ones."""
    from districts.post_office.models import Letter
    from districts.testing import visit
    from hall import letters
    from hall.tests.conftest import agent_of

    assert ada.account is not None
    agent = agent_of(ada.account)
    sent = [visit(agent, "send_letter", subject=f"Errand {i}", body="Done.").structured["id"] for i in range(3)]
    Letter.objects.filter(pk__in=sent[:2]).update(status="opened")
    old = Letter.objects.get(pk=sent[0])
    Letter.objects.bulk_create(
        [
            Letter(
                id=f"L-OLD{i:08d}",
                passport=agent,
                account=ada.account,
                subject="Old",
                body="x",
                status="opened",
                sent_at=old.sent_at,
            )
            for i in range(letters.LETTERS_PER_PAGE + 5)
        ]
    )
    first = ada.page("/hall/letters")
    assert first.count('data-item="') == letters.LETTERS_PER_PAGE
    assert first.index(f'data-item="{sent[2]}"') < first.index(f'data-item="{sent[1]}"')  # unopened first
    assert '<a href="?page=2">Older</a>' in first
    second = ada.page("/hall/letters?page=2")
    assert second.count('data-item="') == 8 and '<a href="?page=1">Newer</a>' in second
