"""A job its person ended in the hall refuses every later call that names it, with a sentence that
says the person ended it; other calls go on (docs/jobs.md)."""

from clockford.town import rewrite
from clockford.town.models import Hold, Passport
from districts.jobs import services
from districts.jobs.models import Job
from districts.tavern.models import Notice
from districts.testing import outcome, visit
from tests.fixtures import agent

ENDED = (
    "The person who runs you ended the job weather-1 in the hall, so calls naming it are refused. "
    "Stop this job; make other calls without this job_id."
)


def test_a_call_naming_an_ended_job_is_refused(db: None) -> None:
    alice = agent("alice")
    visit(alice, "remember", key="k", value="v", job_id="weather-1")
    job = Job.objects.get(passport=alice, name="weather-1")
    assert services.do_end_job(job, alice.account) is True
    r = visit(alice, "remember", key="k2", value="v2", job_id="weather-1")
    assert r.is_error is True
    assert r.structured["say"] == ENDED
    assert r.structured["status"] == "ended"
    assert outcome(r) == "refused:job-ended"
    assert visit(alice, "recall", key="k2").is_error is True  # nothing was kept
    # The refusal is a step of the job too, and my_jobs by name still reads it.
    (shown,) = visit(alice, "my_jobs", job="weather-1").structured["jobs"]
    assert shown["status"] == "ended" and shown["endedAt"] is not None
    assert shown["steps"][-1]["outcome"] == "refused:job-ended"
    # Other jobs, and calls naming none, go on.
    assert outcome(visit(alice, "remember", key="k3", value="v3")) == "ok"
    assert outcome(visit(alice, "remember", key="k4", value="v4", job_id="weather-2")) == "ok"
    assert services.do_end_job(job, alice.account) is False  # already ended


def test_ending_one_agents_job_leaves_anothers(alice: Passport, bob: Passport) -> None:
    visit(alice, "look_around", job_id="same")
    visit(bob, "look_around", job_id="same")
    Job.objects.filter(passport=alice).update(ended_at=Job.objects.get(passport=alice).first_at)
    assert outcome(visit(alice, "look_around", job_id="same")) == "refused:job-ended"
    assert outcome(visit(bob, "look_around", job_id="same")) == "ok"


def test_the_outsider_cannot_reach_anothers_job(db: None) -> None:
    alice, charlie = agent("alice"), agent("charlie")
    visit(alice, "look_around", job_id="mine")
    job = Job.objects.get(passport=alice)
    from clockford.town.models import Passport as P
    from clockford.town.tooling import NotFound

    try:
        services.access_job(P.objects.filter(account=charlie.account), job.id)
    except NotFound as refused:
        assert refused.say == "No job of your agents has that number."
    else:
        raise AssertionError("charlie reached alice's job")
    assert services.access_job(P.objects.filter(account=alice.account), job.id) == job


NOTICE = "The Foundry's certificates were quick to check."


def test_a_yes_given_in_a_job_ends_with_the_job(db: None, allow) -> None:  # type: ignore[no-untyped-def]
    """The person allowed a call the job made, then ended the job before the agent used the yes: the
    agent told to make other calls without this job_id cannot make that allowed call without it."""
    alice = agent("alice")
    held = visit(alice, "post_notice", text=NOTICE, job_id="weather-1")
    hold_id = held.structured["hold"]["id"]
    allow(hold_id)
    assert services.do_end_job(Job.objects.get(passport=alice, name="weather-1"), alice.account) is True
    assert outcome(visit(alice, "post_notice", text=NOTICE, job_id="weather-1")) == "refused:job-ended"
    again = visit(alice, "post_notice", text=NOTICE)
    assert outcome(again) == "held"
    assert again.structured["hold"]["id"] != hold_id
    assert Hold.objects.get(pk=hold_id).status == "lapsed"
    assert Notice.objects.count() == 0


def test_a_call_the_job_left_waiting_ends_with_the_job(db: None) -> None:
    alice = agent("alice")
    held = visit(alice, "post_notice", text=NOTICE, job_id="weather-1")
    hold_id = held.structured["hold"]["id"]
    services.do_end_job(Job.objects.get(passport=alice, name="weather-1"), alice.account)
    (shown,) = [h for h in visit(alice, "show_passport").structured["harbour"]["held"] if h["id"] == hold_id]
    assert shown["status"] == "lapsed"
    # Asked again without the job, it is a new question for the person, not the ended job's.
    again = visit(alice, "post_notice", text=NOTICE)
    assert outcome(again) == "held"
    assert again.structured["hold"]["id"] != hold_id


def test_ending_a_job_leaves_the_holds_of_other_jobs_and_other_agents(db: None, allow) -> None:  # type: ignore[no-untyped-def]
    alice, bob = agent("alice"), agent("bob")
    other = visit(alice, "post_notice", text=NOTICE, job_id="weather-2").structured["hold"]["id"]
    bobs = visit(bob, "post_notice", text=NOTICE, job_id="weather-1").structured["hold"]["id"]
    allow(other)
    allow(bobs)
    visit(alice, "look_around", job_id="weather-1")
    services.do_end_job(Job.objects.get(passport=alice, name="weather-1"), alice.account)
    assert outcome(visit(alice, "post_notice", text=NOTICE, job_id="weather-2")) == "ok"
    assert outcome(visit(bob, "post_notice", text=NOTICE, job_id="weather-1")) == "ok"
    assert set(Hold.objects.filter(pk__in=[other, bobs]).values_list("status", flat=True)) == {"used"}


def test_words_a_person_rewrote_for_a_call_of_the_job_end_with_it(db: None) -> None:
    alice = agent("alice")
    held = visit(alice, "post_notice", text=NOTICE, job_id="weather-1")
    hold = Hold.objects.get(pk=held.structured["hold"]["id"])
    mine = {"text": "Meet at the well at dusk, with lanterns."}
    allowed, _ = rewrite.do_allow_rewritten(
        hold, alice.account, mine, hold.words_digest, rewrite.rewrite_statement(hold, mine), {}
    )
    services.do_end_job(Job.objects.get(passport=alice, name="weather-1"), alice.account)
    assert Hold.objects.get(pk=allowed.id).status == "lapsed"
    assert outcome(visit(alice, "post_notice", **mine)) == "held"
    assert Notice.objects.count() == 0
