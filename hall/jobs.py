"""The jobs of a person's agents (docs/jobs.md): each job as a timeline of its calls, the calls outside
the town its agent declared for it, and the holds it made; and ending a job, after which every call
naming it is refused.

The hall asks the jobs' services (districts/jobs/services.py), never their models. Ending a job takes
no passkey, like ending a plan early: it only takes a permission away, and nothing is decided for the
agent (hall/decisions.py plan_end).
"""

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render

from districts.jobs import services as jobs
from hall.agents import agents_of
from hall.http import fetched, signed_in_page, signed_in_post
from hall.models import Account
from hall.shown import shown_field

JOBS_PER_PAGE = 25
ENDED_SAY = (
    "Ended. Your agent's next call naming this job is refused, with a sentence that says you ended it; its "
    "calls still waiting for you lapse, and a yes it has not used yet ends."
)
HAD_ENDED = "This job had already ended. Nothing changed."


def _job(account: Account, job_id: str) -> Any:
    """One job of this person's agents, or NotFound."""
    return jobs.access_job(agents_of(account), job_id)


@signed_in_page
def job_list(request: HttpRequest, account: Account) -> HttpResponse:
    """/hall/jobs: every job of this person's agents, the latest first."""
    page = Paginator(jobs.jobs_of(agents_of(account)), JOBS_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "hall/jobs.html", {"page": page, "nav": "jobs"})


@signed_in_page
@fetched(_job)
def job_page(request: HttpRequest, account: Account, job: Any) -> HttpResponseBase:
    """/hall/jobs/<id>: one job as a timeline, oldest first."""
    moments, status = jobs.timeline(job)
    lines = [(m, shown_field("why", m.outside.why) if m.outside else None) for m in moments]
    return render(
        request,
        "hall/job.html",
        {
            "job": job,
            "p": job.passport,
            "lines": lines,
            "status": status,
            "ended": job.ended_at is not None,
            "nav": "jobs",
        },
    )


@signed_in_post
@fetched(_job)
def job_end(request: HttpRequest, account: Account, job: Any) -> HttpResponseBase:
    """End a job: its agent's later calls naming it are refused."""
    if jobs.do_end_job(job, account):
        messages.success(request, ENDED_SAY)
    else:
        messages.error(request, HAD_ENDED)
    return redirect("hall:job", job.id)
