"""Nothing private ever reaches a public surface. A marker is planted in every private field the town
keeps (a P.O. box note, a letter, a held call's words, a gauge, a job and the words of a call outside
the town, a plan, a report, a dispute, a deed's ask, a parcel's and a beacon's words, a passport's id
and its client's name), and every public response (the map page, its live part, the feed in HTML
and Atom, and the three services the read API serves) is searched for it.

A run's answers are private too: an Injection Alley run's answers, in the agent's own words, are
planted as well; the public sees only the rounded count of runs a day (test_map)."""

import json
from datetime import timedelta

import pytest
from django.db.models import F
from django.test import Client

from clockford.public import services
from clockford.town import clock, desk
from clockford.town.models import Hold, Passport
from districts.general_store.models import Gauge
from districts.jobs.models import Job
from districts.registry import TOOLS
from districts.tavern import services as tavern
from districts.testing import visit
from districts.town_hall.models import CensusState
from tests.fixtures import agent

pytestmark = pytest.mark.django_db
MARK = "zq7marker"


def marked(what: str) -> str:
    return f"{what} {MARK}-{what}"


def public_responses() -> dict[str, str]:
    client = Client()
    seen = {}
    for url in ("/", "/town/now", "/feed", "/feed?page=1", "/feed.atom"):
        response = client.get(url)
        assert response.status_code == 200, url
        seen[url] = response.content.decode()
    seen["the_map"] = json.dumps(services.the_map())
    seen["the_feed"] = json.dumps(services.the_feed(1))
    seen["daily_counts"] = json.dumps(services.daily_counts())
    seen["stamp"] = services.stamp()
    return seen


def test_no_private_value_is_on_any_public_surface(demo: CensusState) -> None:
    loner = agent(None)  # without sign-in
    Passport.objects.filter(pk=loner.pk).update(client_name=marked("client"))
    person = agent("ada")  # signed in
    for p in (loner, person):
        visit(p, "look_around", job_id=f"{MARK}-job")
    # A published notice and a public message are the words that may show, and do.
    tavern.do_post(loner, "The ledger server on lot 2 served me well.")

    # The P.O. box, a letter with a note attached, a held notice, a held broadcast, parcel and beacon.
    assert not visit(loner, "remember", key=f"{MARK}-key", value=marked("note")).is_error
    assert not visit(
        loner, "send_letter", subject=marked("subject"), body=marked("body"), notes=[f"{MARK}-key"]
    ).is_error
    assert visit(loner, "post_notice", text=marked("held-notice")).is_error
    assert visit(person, "broadcast", channel=f"{MARK}-chan", text=marked("held-message")).is_error
    visit(person, "broadcast", channel="general", text=marked("held-broadcast"))
    visit(
        person, "post_parcel", channel="general", title=marked("title"), brief=marked("brief"), done_when=marked("done")
    )
    visit(person, "raise_beacon", channel="general", question=marked("question"))
    assert Hold.objects.filter(passport=loner).exists() and Hold.objects.filter(passport=person).exists()
    # A gauge, a job and a call outside the town, a plan, a dispute, a deed's ask.
    visit(loner, "context_gauge")
    # Written as a worker writes it, with a stamp of its own, so that the counts after it keep the mark.
    Gauge.objects.filter(passport=loner).update(today=json.dumps({f"{MARK}-gauge": [1, 2, 3]}), stamp=F("stamp") + 1)
    outside = {
        "server": f"io.github.{MARK}/outside",
        "tool": f"{MARK}-tool",
        "why": marked("why"),
        "job_id": f"{MARK}-job",
    }
    person.refresh_from_db()
    assert not desk.run(TOOLS["job_outside"], outside, person, None).is_error
    assert Job.objects.filter(name=f"{MARK}-job").exists()
    visit(person, "declare_plan", steps=[{"tool": "broadcast", "channel": f"{MARK}-plan", "times": 1}])
    footstep = visit(loner, "recall").footstep
    visit(loner, "dispute", footstep=footstep, reason=marked("dispute"))
    visit(person, "claim_deed", server=f"io.github.{MARK}/deed")
    visit(person, "report_sighting", record=f"P-{MARK}", category="other-unusual", note=marked("sighting"))
    # Runs: an Arena run begun, and Injection Alley's boards answered in the agent's own words (the
    # Arena's, the Clinic's and the Dice House's answers are read only as one of a few set shapes).
    for p in (loner, person):
        assert not visit(p, "arena_run", begin=True).is_error
        assert not visit(p, "alley_run", begin=True).is_error
        assert not visit(p, "alley_answer", answers=[{"board": "B1", "answer": f"{MARK}-alley"}]).is_error
    # Last: a report freezes its agent's writes.
    visit(loner, "report_suspicious_instruction", quote=marked("quote"), where=marked("where"), errand=marked("errand"))
    clock.advance(timedelta(seconds=1))

    assert MARK in Gauge.objects.get(passport=loner).today  # still there to be leaked, and never is
    seen = public_responses()
    assert "The ledger server on lot 2 served me well." in seen["/feed"]
    for where, text in seen.items():
        assert MARK not in text, where
        assert MARK.upper() not in text.upper(), where
        for p in (loner, person):
            assert p.id not in text, where
    # The agents are on the map all the same, by their state alone.
    assert services.the_map()["present"]["agents"] == 2
