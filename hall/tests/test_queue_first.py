"""A hall that puts the queue first: the Waiting tab counts what waits on every page; after a decision
"Next" opens the next thing that waits; every time is written one way, date, time and zone; the plan
page says which steps still ask for a yes; a favicon; a page that says when nothing is there."""

import re
from datetime import UTC, datetime, timedelta

import pytest

from clockford.town import clock
from clockford.town.models import Hold
from districts.testing import visit
from hall.shown import MONTHS, stamp
from hall.templatetags.hall import flash, when
from hall.tests.conftest import Visitor, agent_of

from .test_decisions import decide

pytestmark = pytest.mark.django_db


def tab(text: str) -> str:
    found = re.search(r'<a href="/hall/" id="nav-waiting"[^>]*>(.*?)</a>', text, re.S)
    assert found, "no Waiting tab"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def test_the_waiting_tab_counts_what_waits_on_every_page(ada: Visitor) -> None:
    assert ada.account is not None
    assert tab(ada.page("/hall/agents")) == "Waiting"
    agent = agent_of(ada.account)
    visit(agent, "post_notice", text="Lanterns at the well.")
    visit(agent, "send_letter", subject="Done", body="The errand is done.")
    assert tab(ada.page("/hall/agents")) == "Waiting 2"
    assert tab(ada.page("/hall/passkeys")) == "Waiting 2"


def test_next_opens_what_waits_after_a_decision(ada: Visitor) -> None:
    assert ada.account is not None
    agent = agent_of(ada.account)
    letter = visit(agent, "send_letter", subject="Done", body="The errand is done.").structured["id"]
    hold = visit(agent, "post_notice", text="Lanterns at the well.").structured["hold"]["id"]
    # While it waits, the page asks for a decision, not for the next one.
    assert 'id="next"' not in ada.page(f"/hall/holds/{hold}")
    digest = Hold.objects.get(pk=hold).words_digest
    assert decide(ada, "holds", hold, "allow", digest) == (200, {"ok": True, "next": f"/hall/holds/{hold}"})
    page = ada.page(f"/hall/holds/{hold}")
    assert f'<a class="button primary" id="next" href="/hall/letters/{letter}">Next: a letter</a>' in page
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page.split('class="next-item"')[1].split("</div>")[0]))
    assert said.strip().endswith(f"From {agent.id} (errand-runner).")  # a sentence: more may follow it
    # The letter's page leaves itself out of "Next"; once marked read, nothing waits.
    page = ada.page(f"/hall/letters/{letter}")
    assert 'id="next"' not in page and "Nothing else waits for you." in page
    assert ada.client.post(f"/hall/letters/{letter}/read").status_code == 302
    assert ada.page("/hall/").count('data-item="') == 0


def test_every_time_is_written_one_way() -> None:
    moment = datetime(2026, 5, 1, 14, 32, 9, tzinfo=UTC)
    assert stamp(moment) == "1 May 2026 at 14:32 UTC"
    assert str(when(moment)) == '<time class="when" datetime="2026-05-01T14:32:09+00:00">1 May 2026 at 14:32 UTC</time>'
    assert str(when(None)) == "never"
    # A message's moment, in the hall's format or the town's, is put in a <time> and said the hall's way.
    said = "Until 1 May 2026 at 14:32 UTC, or 2026-12-24 09:05 UTC; not 2026-02-30 10:00 UTC."
    assert str(flash(said)) == (
        'Until <time class="when" datetime="2026-05-01T14:32:00+00:00">1 May 2026 at 14:32 UTC</time>, or '
        '<time class="when" datetime="2026-12-24T09:05:00+00:00">24 December 2026 at 09:05 UTC</time>; '
        "not 2026-02-30 10:00 UTC."
    )


def test_the_pages_write_times_with_date_and_zone(ada: Visitor) -> None:
    assert ada.account is not None
    agent = agent_of(ada.account)
    hold = visit(agent, "post_notice", text="Lanterns at the well.").structured["hold"]["id"]
    page = ada.page(f"/hall/holds/{hold}")
    times = re.findall(r'<time class="when" datetime="[^"]+">([^<]+)</time>', page)
    assert times and all(re.search(rf"\d{{1,2}} ({'|'.join(MONTHS)}) \d{{4}} at \d\d:\d\d UTC$", t) for t in times), (
        times
    )
    assert '<time datetime="' not in page and "times.js" in page
    digest = Hold.objects.get(pk=hold).words_digest
    assert decide(ada, "holds", hold, "allow", digest)[0] == 200
    flash = ada.page(f"/hall/holds/{hold}")
    assert re.search(
        r'Allowed\. Your agent may make exactly this call once, until <time class="when" datetime="[^"]+">'
        r"\d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC</time>\.",
        flash,
    )


def test_the_plan_page_says_which_steps_still_ask_for_a_yes(ada: Visitor) -> None:
    assert ada.account is not None
    agent = agent_of(ada.account)
    plan = visit(
        agent, "declare_plan", steps=[{"tool": "post_notice", "times": 2}, {"tool": "remember", "times": 5}]
    ).structured["plan"]["id"]
    page = ada.page(f"/hall/plans/{plan}")
    rows = re.findall(r'<tr><td data-label="Call"><code>(\w+)</code></td>.*?</tr>', page)
    assert rows == ["post_notice", "remember"]
    assert re.search(r"<code>post_notice</code>.*?still asked, each time.*?</tr>", page)
    assert re.search(r"<code>remember</code>.*?not asked.*?</tr>", page)
    assert "The others go ahead without asking you." in page
    assert "each of these calls may go ahead without asking you" not in page


def test_the_raw_arguments_are_a_disclosure(ada: Visitor) -> None:
    assert ada.account is not None
    hold = visit(agent_of(ada.account), "post_notice", text="Lanterns.").structured["hold"]["id"]
    assert '<details class="raw">' in ada.page(f"/hall/holds/{hold}")
    css = b"".join(ada.client.get("/static/hall/hall.css"))
    assert b"details.raw summary::before" in css and b"details.raw[open] summary::before" in css


def test_a_favicon_and_a_page_that_says_nothing_is_there(visitor: Visitor) -> None:
    r = visitor.client.get("/favicon.ico")
    assert r.status_code == 301 and r["Location"] == "/static/hall/icon.svg"
    assert visitor.client.get("/static/hall/icon.svg").status_code == 200
    page = visitor.client.get("/hall/nowhere", HTTP_ACCEPT="text/html")
    assert page.status_code == 404 and "<h1>Not found</h1>" in page.content.decode()
    # An agent's client, asking for anything else, reads 001's plain words.
    plain = visitor.client.get("/nowhere")
    assert (plain.status_code, plain.content) == (404, b"Not found.")


def test_an_item_that_is_not_yours_is_not_found(ada: Visitor) -> None:
    page = ada.page("/hall/holds/H-NOSUCHHOLD", status=404)
    assert "<h1>Not found</h1>" in page and "No call you decide for has that number." in page


def test_next_reads_the_newest_of_each_kind_not_the_whole_queue(ada: Visitor, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Next after a decision is the newest thing still waiting, found among the newest of each kind: a
    person with hundreds of letters waiting had every one read and drawn to find it."""
    from hall import queue

    assert ada.account is not None
    agent = agent_of(ada.account)
    for i in range(8):
        clock.advance(timedelta(seconds=1))
        visit(agent, "send_letter", subject=f"Done {i}", body="The errand is done.")
    first, second = (row.id for row in queue.waiting_for(ada.account)[:2])
    drawn: list[str] = []
    real = queue.preview

    def counting(text: str, cap: int = 140) -> str:
        drawn.append(text)
        return real(text, cap)

    monkeypatch.setattr(queue, "preview", counting)
    assert queue.next_waiting(ada.account, "nothing").id == first
    assert queue.next_waiting(ada.account, first).id == second
    assert len(drawn) <= 4, drawn
