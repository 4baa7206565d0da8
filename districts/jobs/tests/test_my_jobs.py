"""my_jobs: an agent names a job with job_id on any call, and reads each job with its calls, outcomes,
holds, first and last footstep and status (docs/jobs.md)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from clockford.town.models import Footstep, Passport
from districts.jobs.models import Job
from districts.testing import outcome, visit

NOTICE = "The Foundry's certificates were quick to check."


def test_it_says_there_are_none_yet(alice: Passport) -> None:
    r = visit(alice, "my_jobs")
    assert r.is_error is False
    assert r.structured["say"] == "You have no jobs yet. Name one with job_id on any call."
    assert (r.structured["jobs"], r.structured["total"]) == ([], 0)


def test_every_call_naming_a_job_is_one_of_its_steps(alice: Passport) -> None:
    first = visit(alice, "remember", key="plan", value="find a weather server", job_id="weather-1")
    held = visit(alice, "post_notice", text=NOTICE, job_id="weather-1")
    visit(alice, "look_around")  # no job: not a step of any
    refused = visit(alice, "remember", key="bad key!", value="x", job_id="weather-1")
    r = visit(alice, "my_jobs")
    assert r.structured["say"] == "You have 1 job; here it is."
    (job,) = r.structured["jobs"]
    assert job["job"] == "weather-1"
    assert job["calls"] == 3
    assert job["firstStep"]["footstep"] == first.footstep
    assert job["lastStep"]["footstep"] == refused.footstep
    assert [s["footstep"] for s in job["steps"]] == [first.footstep, held.footstep, refused.footstep]
    assert [s["tool"] for s in job["steps"]] == ["remember", "post_notice", "remember"]
    assert job["steps"][1]["outcome"] == "held"
    assert job["outcomes"] == {"held": 1, "ok": 1, "refused": 1}
    assert job["holds"] == [{"id": held.structured["hold"]["id"], "tool": "post_notice", "status": "held"}]
    assert job["status"] == "waiting for your person"
    assert job["endedAt"] is None
    # my_jobs itself named no job, so it is no step.
    assert Footstep.objects.get(number=r.footstep).job_id is None


def test_an_allowed_hold_leaves_the_job_open(alice: Passport, allow) -> None:  # type: ignore[no-untyped-def]
    held = visit(alice, "post_notice", text=NOTICE, job_id="board")
    allow(held.structured["hold"]["id"])
    again = visit(alice, "post_notice", text=NOTICE, job_id="board")
    assert outcome(again) == "ok"
    (job,) = visit(alice, "my_jobs", job="board").structured["jobs"]
    assert job["status"] == "open"
    assert job["holds"] == [{"id": held.structured["hold"]["id"], "tool": "post_notice", "status": "used"}]
    assert job["outcomes"] == {"held": 1, "ok": 1}


def test_one_job_by_name(alice: Passport) -> None:
    for n in range(3):
        visit(alice, "look_around", job_id=f"j{n}")
    r = visit(alice, "my_jobs", job="j1")
    assert (
        r.structured["say"]
        == f"The job is open: 1 call, from footstep #{r.structured['jobs'][0]['firstStep']['footstep']}."
    )
    # The job's name is the agent's own words (the job_id it chose), labelled so and never in the say.
    assert {"path": "jobs[].job", "label": "agent-written", "own": True} in r.structured["provenance"]["parts"]
    assert [j["job"] for j in r.structured["jobs"]] == ["j1"]
    assert r.structured["total"] == 3
    latest = visit(alice, "my_jobs", limit=2)
    assert [j["job"] for j in latest.structured["jobs"]] == ["j2", "j1"]


def test_an_unknown_job_is_refused(alice: Passport) -> None:
    r = visit(alice, "my_jobs", job="never")
    assert r.is_error is True
    assert r.structured["say"] == "No job of yours has that name."
    assert outcome(r) == "refused:no-job"


def test_the_same_name_on_two_passports_is_two_jobs(alice: Passport, bob: Passport) -> None:
    visit(alice, "look_around", job_id="shared-name")
    visit(bob, "look_around", job_id="shared-name")
    visit(bob, "look_around", job_id="shared-name")
    assert Job.objects.filter(name="shared-name").count() == 2
    (mine,) = visit(alice, "my_jobs").structured["jobs"]
    assert mine["calls"] == 1


def test_the_outsider_cannot_read_anothers_job(alice: Passport, charlie: Passport) -> None:
    visit(alice, "remember", key="k", value="v", job_id="private-job")
    r = visit(charlie, "my_jobs", job="private-job")
    assert r.structured["say"] == "No job of yours has that name."
    assert visit(charlie, "my_jobs").structured["jobs"] == []


def test_it_says_how_many_it_shows_in_plain_words(alice: Passport) -> None:
    for name in ("a", "b", "c"):
        visit(alice, "look_around", job_id=name)
    assert visit(alice, "my_jobs").structured["say"] == "You have 3 jobs; here they are."
    assert visit(alice, "my_jobs", limit=2).structured["say"] == "You have 3 jobs; here are the latest 2."


def test_a_jobs_footsteps_are_read_by_its_own_index(alice: Passport) -> None:
    """my_jobs reads each job's newest steps and its outcomes from the footsteps that name the job, not
    from every footstep of its passport: an agent with tens of thousands of calls and jobs of thousands
    of steps paid 18 ms a statement, two a job, ten jobs a call, on PostgreSQL."""
    for _ in range(3):
        visit(alice, "look_around")
    visit(alice, "remember", key="plan", value="find a weather server", job_id="weather-1")
    visit(alice, "remember", key="bad key!", value="x", job_id="weather-1")
    with CaptureQueriesContext(connection) as q:
        (job,) = visit(alice, "my_jobs").structured["jobs"]
    assert job["outcomes"] == {"ok": 1, "refused": 1}
    reads = [x["sql"] for x in q.captured_queries if x["sql"].startswith("SELECT") and '"town_footstep"' in x["sql"]]
    assert len(reads) == 2, reads
    with connection.cursor() as c:
        for sql in reads:
            if connection.vendor == "sqlite":
                c.execute(f"EXPLAIN QUERY PLAN {sql}")
                plan = " ".join(str(row[-1]) for row in c.fetchall())
                assert "town_footstep_job" in plan and "FOR ORDER BY" not in plan, (sql, plan)
    # The outcomes are counted by the database, a row for each outcome, not a row for each step.
    assert any("GROUP BY" in sql for sql in reads), reads
