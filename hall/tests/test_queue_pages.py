"""The "Waiting for you" page a page at a time: a person with 600 things waiting had every one read and
drawn on every visit (450 KB, 130 ms on PostgreSQL). It shows fifty, newest first, says how many wait
in all, and links newer and older pages; the live socket's count is the count of them all."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from districts.post_office.models import Letter
from districts.testing import visit
from hall import queue
from hall.live import stamp_for
from hall.tests.conftest import Visitor, agent_of

pytestmark = pytest.mark.django_db

PER_PAGE = queue.QUEUE_PER_PAGE


def rows(page: str) -> list[str]:
    return re.findall(r'<li class="card item item-\w+" data-item="([^"]+)"', page)


def many_letters(ada: Visitor, n: int, minutes_ago: int = 10) -> list[str]:
    """n letters waiting, a second apart, older than anything the test sends after."""
    assert ada.account is not None
    agent = agent_of(ada.account)
    sent = visit(agent, "send_letter", subject="First", body="Done.").structured["id"]
    first = Letter.objects.get(pk=sent)
    start = first.sent_at - timedelta(minutes=minutes_ago)
    Letter.objects.bulk_create(
        [
            Letter(
                id=f"L-MANY{i:07d}",
                passport=agent,
                account=ada.account,
                subject=f"Errand {i}",
                body="Done.",
                status="held",
                sent_at=start + timedelta(seconds=i),
            )
            for i in range(n - 1)
        ]
    )
    return [sent] + [f"L-MANY{i:07d}" for i in reversed(range(n - 1))]  # newest first


def test_the_queue_shows_fifty_at_a_time_newest_first_and_counts_them_all(ada: Visitor) -> None:
    assert ada.account is not None
    letters = many_letters(ada, 2 * PER_PAGE + 10)
    hold = visit(agent_of(ada.account), "post_notice", text="Lanterns at the well.").structured["hold"]["id"]
    every = [hold, *letters]
    total = len(every)

    first = ada.page("/hall/")
    assert rows(first) == every[:PER_PAGE]
    assert f"<title>({total}) Waiting for you" in first
    assert f"{total} things wait for you, the newest first; this page shows 1 to {PER_PAGE}." in first
    assert f'id="queue" data-waiting="{total}"' in first
    assert '<a href="?page=2">Older</a>' in first and "Page 1 of 3" in first and "Newer</a>" not in first
    second = ada.page("/hall/?page=2")
    assert rows(second) == every[PER_PAGE : 2 * PER_PAGE]
    assert '<a href="?page=1">Newer</a>' in second and '<a href="?page=3">Older</a>' in second
    last = ada.page("/hall/?page=3")
    assert rows(last) == every[2 * PER_PAGE :]
    assert f"this page shows {2 * PER_PAGE + 1} to {total}." in last
    # A page past the last (things decided meanwhile) or no number at all shows a page that is there.
    assert rows(ada.page("/hall/?page=9")) == every[2 * PER_PAGE :]
    assert rows(ada.page("/hall/?page=two")) == every[:PER_PAGE]
    # The live socket counts what the page counts.
    assert stamp_for(ada.account)[0] == total
    # The whole queue, as the rest of the hall reads it, in the same order.
    assert [row.id for row in queue.waiting_for(ada.account)] == every


def test_a_page_reads_only_its_own_rows(ada: Visitor) -> None:
    """However many wait, a page reads the keys in the database and the fifty rows it shows."""
    many_letters(ada, 3 * PER_PAGE)
    with CaptureQueriesContext(connection) as drawn:
        page = ada.page("/hall/?page=2")
    assert len(rows(page)) == PER_PAGE
    assert len(page) < 60_000, len(page)
    assert len(drawn.captured_queries) <= 20, [q["sql"][:90] for q in drawn.captured_queries]


def test_a_new_item_or_a_decision_moves_the_rows_of_a_page_by_one(ada: Visitor) -> None:
    """The person on page two: a new item pushes its first row on; a row decided on page one pulls the
    next up. No row is lost between the pages, and none is shown twice."""
    assert ada.account is not None
    letters = many_letters(ada, PER_PAGE + 5)
    second = rows(ada.page("/hall/?page=2"))
    assert second == letters[PER_PAGE:]
    hold = visit(agent_of(ada.account), "post_notice", text="Lanterns at the well.").structured["hold"]["id"]
    assert rows(ada.page("/hall/"))[0] == hold
    assert rows(ada.page("/hall/?page=2")) == letters[PER_PAGE - 1 :]
    assert ada.client.post(f"/hall/letters/{letters[0]}/read").status_code == 302
    assert rows(ada.page("/hall/?page=2")) == letters[PER_PAGE:]
    pages = rows(ada.page("/hall/")) + rows(ada.page("/hall/?page=2"))
    assert pages == [hold, *letters[1:]]


def test_things_at_the_same_moment_keep_one_order(ada: Visitor) -> None:
    """On a tie in time the source named first in SOURCES comes first, then the greater id: a page
    holds the same rows however often it is drawn."""
    assert ada.account is not None
    agent = agent_of(ada.account)
    hold = visit(agent, "post_notice", text="Lanterns at the well.").structured["hold"]["id"]
    from clockford.town.models import Hold

    at = Hold.objects.get(pk=hold).created_at
    Letter.objects.bulk_create(
        [
            Letter(
                id=f"L-TIE{i:03d}",
                passport=agent,
                account=ada.account,
                subject="Tie",
                body="x",
                status="held",
                sent_at=at,
            )
            for i in range(3)
        ]
    )
    assert rows(ada.page("/hall/")) == [hold, "L-TIE002", "L-TIE001", "L-TIE000"]
