"""The jobs of a person's agents in the hall (docs/jobs.md): each job as a timeline of its calls, the
calls outside the town its agent declared and the holds it made; ending a job refuses its next call.
Anyone else finds no such job and ends nothing."""

import pytest

from clockford.town import desk
from clockford.town.models import Footstep, Passport
from districts.jobs.models import Job
from districts.registry import TOOLS
from districts.testing import outcome, visit
from hall.shown import stamp
from hall.tests.conftest import agent_of, person

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

ENDED = (
    "The person who runs you ended the job weather-1 in the hall, so calls naming it are refused. "
    "Stop this job; make other calls without this job_id."
)


def work(agent: Passport) -> dict[str, int]:
    steps = {}
    steps["remember"] = visit(agent, "remember", key="plan", value="weather", job_id="weather-1").footstep or 0
    declared = desk.run(
        TOOLS["job_outside"],
        {"server": "io.github.acme/weather", "tool": "forecast", "why": "Tomorrow\u200b's rain", "job_id": "weather-1"},
        agent,
        None,
    )
    steps["outside"] = declared.footstep or 0
    held = visit(agent, "post_notice", text="Rain tomorrow at the north gate.", job_id="weather-1")
    steps["held"] = held.footstep or 0
    return steps


def test_a_person_reads_a_job_as_a_timeline_and_ends_it() -> None:
    alice, a = person("Alice")
    agent = agent_of(a)
    steps = work(agent)
    job = Job.objects.get(passport=agent, name="weather-1")

    listed = alice.page("/hall/jobs")
    assert f'href="/hall/jobs/{job.id}"' in listed and "3 calls" in listed

    text = alice.page(f"/hall/jobs/{job.id}")
    assert "This job is waiting for you: one of its calls is held." in text
    order = [text.index(f'data-footstep="{n}"') for n in (steps["remember"], steps["outside"], steps["held"])]
    assert order == sorted(order)
    # Each moment's time in the hall's one format (hall/templatetags/hall.py `when`): no seconds.
    for n in steps.values():
        at = Footstep.objects.get(number=n).at
        moment = text[text.index(f'data-footstep="{n}"') :]
        assert moment.split("</time>", 1)[0].endswith(f'<time class="when" datetime="{at.isoformat()}">{stamp(at)}')
    assert "A call outside the town: <code>forecast</code> on <code>io.github.acme/weather</code>" in text
    raw = alice.client.get(f"/hall/jobs/{job.id}").content.decode()
    assert "⟦U+200B⟧" in raw and "\u200b" not in raw  # the agent's words, hidden characters shown
    hold = job.holds[0]["id"] if (job := Job.objects.get(pk=job.pk)).holds else ""
    assert f'href="/hall/holds/{hold}"' in text

    r = alice.client.post(f"/hall/jobs/{job.id}/end")
    assert r.status_code == 302
    after = alice.page(f"/hall/jobs/{job.id}")
    assert "You ended this job" in after and 'id="end-job"' not in after

    refused = visit(agent, "remember", key="more", value="x", job_id="weather-1")
    assert refused.structured["say"] == ENDED and outcome(refused) == "refused:job-ended"
    again = alice.client.post(f"/hall/jobs/{job.id}/end", follow=True)
    assert "This job had already ended. Nothing changed." in again.content.decode()


def test_no_jobs_says_so() -> None:
    alice, _ = person("Alice")
    assert "No jobs yet." in alice.page("/hall/jobs")


def test_the_outsider_finds_no_such_job_and_ends_nothing() -> None:
    _, a = person("Alice")
    agent = agent_of(a)
    work(agent)
    job = Job.objects.get(passport=agent)
    bob, _ = person("Bob")
    assert "No job of your agents has that number." in bob.page(f"/hall/jobs/{job.id}", status=404)
    assert "weather-1" not in bob.page("/hall/jobs")
    assert bob.client.post(f"/hall/jobs/{job.id}/end").status_code == 404
    assert Job.objects.get(pk=job.pk).ended_at is None
    assert outcome(visit(agent, "look_around", job_id="weather-1")) == "ok"
