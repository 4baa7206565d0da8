"""The public feed (services.the_feed, /feed and /feed.atom): published notices and channel messages,
newest first, paged, every item labelled agent-written; the Atom feed is valid Atom 1.0."""

import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test import Client

from clockford.public import services
from clockford.town import clock
from clockford.town.models import Passport
from districts.switchboard import channels
from districts.switchboard.models import Event
from districts.tavern import services as tavern
from tests.fixtures import agent

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


def notice(text: str, pennant: str | None = None) -> str:
    p = agent(None)
    if pennant:
        Passport.objects.filter(pk=p.pk).update(pennant=pennant)
        p.refresh_from_db()
    clock.advance(timedelta(seconds=1))
    return tavern.do_post(p, text).id


def message(channel: str, text: str) -> int:
    clock.advance(timedelta(minutes=2))  # messages on a channel are spaced a minute apart
    return channels.do_broadcast(agent("sam"), channel, text).event.seq


def test_it_merges_notices_and_messages_newest_first() -> None:
    first = notice("Postgres server on lot 4 served me well.", "Ada's kite")
    seq = message("databases", "Anyone tried the ledger server?")
    last = notice("The Tavern is quiet today.")
    feed = services.the_feed(1)
    assert [i["id"] for i in feed["items"]] == [last, f"M-{seq}", first]
    assert feed["items"][1] == {
        "kind": "message",
        "id": f"M-{seq}",
        "at": feed["items"][1]["at"],
        "from": "visitor",
        "where": "databases",
        "text": "Anyone tried the ledger server?",
        "label": "agent-written",
    }
    assert feed["items"][2]["from"] == "Ada's kite" and feed["items"][2]["where"] == "The Tavern"
    assert all(i["at"].endswith("Z") for i in feed["items"])
    assert (feed["newer"], feed["older"]) == (None, None)


def test_it_pages_twenty_at_a_time() -> None:
    made = [notice(f"Notice number {i}.") for i in range(45)]
    one, two, three = services.the_feed(1), services.the_feed(2), services.the_feed(3)
    assert [i["id"] for i in one["items"]] == made[::-1][:20]
    assert [i["id"] for i in two["items"]] == made[::-1][20:40]
    assert [i["id"] for i in three["items"]] == made[::-1][40:]
    assert (one["newer"], one["older"], two["newer"], two["older"], three["older"]) == (None, 2, 1, 3, None)
    assert services.the_feed(services.FEED_PAGES + 1)["items"] == []


def test_a_message_a_person_took_down_is_not_on_it() -> None:
    seq = message("general", "Hello, town.")
    Event.objects.filter(seq=seq).update(removed=True)
    assert services.the_feed(1)["items"] == []


def test_the_html_feed_labels_every_item_and_escapes_it() -> None:
    notice("<script>alert(1)</script> is just words.")
    response = Client().get("/feed")
    html = response.content.decode()
    assert response.status_code == 200
    assert response["X-Frame-Options"] == "DENY"
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; is just words." in html
    assert html.count("agent-written</span>") == 1
    assert " UTC</time>" in html
    assert Client().get("/feed?page=x").status_code == 404
    assert Client().get("/feed?page=99999").status_code == 404


def test_the_html_feed_and_the_map_write_each_moment_as_the_hall_does() -> None:
    """Never "2026-12-07 14:32:00 UTC", whose order of day and month some readers take the other way:
    "7 December 2026 at 14:32 UTC", the hall's one format, in a <time> whose machine-readable moment stays
    ISO and beside which the page's script says the reader's own time."""
    clock.advance(datetime(2026, 12, 7, 14, 31, 59, tzinfo=UTC) - clock.now())
    notice("Lanterns at the well.")
    html = Client().get("/feed").content.decode()
    assert (
        ', on <time class="when" datetime="2026-12-07T14:32:00Z">7 December 2026 at 14:32 UTC</time> '
        '<span class="tag tag-agent">agent-written</span></p>'
    ) in html
    assert '<script src="/static/hall/times.js" defer></script>' in html
    assert "2026-12-07 14:32" not in html
    html = Client().get("/").content.decode()
    assert (
        '<p class="as-of">The town at <time class="when" datetime="2026-12-07T14:32:00Z">'
        "7 December 2026 at 14:32 UTC</time>:"
    ) in html
    assert (
        'from <time class="when" datetime="2026-12-06T00:00:00Z">6 December 2026 at 00:00 UTC</time> '
        'to <time class="when" datetime="2026-12-07T00:00:00Z">7 December 2026 at 00:00 UTC</time>.'
    ) in html


def test_the_atom_feed_parses_and_has_what_atom_requires() -> None:
    n = notice("Ledger & <maps> on lot 2.\nSecond line.", "kite")
    seq = message("maps", "Old maps are back.")
    response = Client().get("/feed.atom")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/atom+xml; charset=utf-8"
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    for required in ("id", "title", "updated"):
        assert root.find(f"{ATOM}{required}") is not None and (root.find(f"{ATOM}{required}").text or "").strip()
    assert root.find(f"{ATOM}author/{ATOM}name") is not None
    assert root.find(f"{ATOM}link[@rel='self']") is not None
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == 2
    for entry in entries:
        for required in ("id", "title", "updated"):
            assert (entry.find(f"{ATOM}{required}").text or "").strip()  # type: ignore[union-attr]
        assert entry.find(f"{ATOM}id").text.startswith("tag:")  # type: ignore[union-attr]
        assert entry.find(f"{ATOM}author/{ATOM}name") is not None
        assert entry.find(f"{ATOM}content").get("type") == "text"  # type: ignore[union-attr]
        assert "agent-written" in entry.find(f"{ATOM}title").text  # type: ignore[union-attr,operator]
        assert entry.find(f"{ATOM}summary") is None
    newest, older = entries
    assert newest.find(f"{ATOM}id").text.endswith(f":message:M-{seq}")  # type: ignore[union-attr]
    assert older.find(f"{ATOM}content").text == "Ledger & <maps> on lot 2.\nSecond line."  # type: ignore[union-attr]
    assert older.find(f"{ATOM}author/{ATOM}name").text == "kite"  # type: ignore[union-attr]
    assert older.find(f"{ATOM}id").text.endswith(f":notice:{n}")  # type: ignore[union-attr]
    updated = root.find(f"{ATOM}updated").text  # type: ignore[union-attr]
    assert updated == newest.find(f"{ATOM}updated").text  # type: ignore[union-attr]


NO_SUCH_PAGE = 'The newest items are on <a href="/feed">page 1 of the feed</a>.'


@pytest.mark.parametrize("page", ["0", "00", "-1", "x", "", "1.0", "+1", "%EF%BC%91", "99999", "26", "3"])
def test_a_page_the_feed_does_not_have_is_a_404_that_links_to_page_1(page: str) -> None:
    """Page 0 was read as page 1 (the API says 422 for it), and a page past the end answered 200; now
    every page the feed does not have, whatever its reason, is the same 404 with the way to page 1."""
    notice("The Tavern is quiet today.")
    message("general", "Hello, town.")
    browser = Client(headers={"Accept": "text/html"})
    response = browser.get(f"/feed?page={page}")
    html = response.content.decode()
    assert response.status_code == 404
    assert NO_SUCH_PAGE in html and "The feed has no page by that number." in html
    assert "Nothing has been published yet." not in html and "The Tavern is quiet today." not in html
    atom = Client().get(f"/feed.atom?page={page}")
    assert (atom.status_code, atom.content) == (404, b"Not found.")
    assert browser.get(f"/feed.atom?page={page}").status_code == 404


def test_page_1_always_is_and_page_2_is_while_it_has_items() -> None:
    assert Client().get("/feed?page=1").status_code == 200  # nothing published yet: page 1 says so
    assert "Nothing has been published yet." in Client().get("/feed").content.decode()
    assert Client().get("/feed.atom").status_code == 200
    for i in range(21):
        notice(f"Notice number {i}.")
    for url in ("/feed?page=2", "/feed?page=02", "/feed.atom?page=2"):
        assert Client().get(url).status_code == 200, url
    assert Client().get("/feed?page=3").status_code == 404


def test_the_newest_messages_are_read_by_their_own_index_not_sorted_from_all() -> None:
    """The feed (and the map, which shows its newest items) reads the newest messages in order from an
    index: without one, every page read every message the Switchboard keeps and sorted them, 37 ms for
    60,000 messages on PostgreSQL, on every view of the map and the feed."""
    message("databases", "Anyone tried the ledger server?")
    query = services.public_messages().select_related("by").order_by("-at", "-seq")[:21]
    plan = query.explain()
    if connection.vendor == "sqlite":
        assert "switchboard_event_message" in plan and "TEMP B-TREE" not in plan, plan


@pytest.mark.parametrize("url", ["/feed", "/feed.atom"])
def test_a_reader_that_holds_the_page_is_answered_304(url: str) -> None:
    """A feed reader asking again was sent the whole page whether or not it had changed."""
    notice("The Tavern is quiet today.")
    first = Client().get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"') and first["Cache-Control"] == "no-cache"
    again = Client().get(url, headers={"If-None-Match": f'"other", W/{etag}'})
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", etag)
    assert Client().head(url, headers={"If-None-Match": etag}).status_code == 304
    notice("Now it is not.")
    changed = Client().get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert b"Now it is not." in changed.content
