"""Jobs (docs/jobs.md): my_jobs and job_outside, two tools of Town Hall (000 section 05, documented after
review: this is our design). Every tool takes job_id; the footstep records it, and the first call that
names a job makes it. A person may end a job in the hall, and later calls naming it are refused.

The tools are served at Town Hall: districts/registry.py adds TOOLS to its district.
"""

from pydantic import Field

from clockford.town import clock
from clockford.town.tooling import Args, Call, ChosenId, Part, Refused, Reply, Tool, Words, counted
from districts.jobs import services

SERVER_CHARS = 200
TOOL_CHARS = 64
WHY_CHARS = 500
NO_JOB_NAMED = "Name the job this call outside the town was for, with job_id."


class MyJobsArgs(Args):
    job: ChosenId | None = Field(
        default=None,
        description="Optional: only this job (its job_id), with its newest 100 footsteps. Reading an ended job "
        "this way works; naming it as job_id is refused.",
    )
    limit: int = Field(default=10, ge=1, le=50, description="How many jobs at most, the latest first. Default 10.")


class JobOutsideArgs(Args):
    server: str = Field(
        min_length=1,
        max_length=SERVER_CHARS,
        description="The server you called outside the town: its registry name (io.github.owner/name) or address.",
    )
    tool: str = Field(min_length=1, max_length=TOOL_CHARS, description="The tool you called there.")
    why: str = Field(
        min_length=1, max_length=WHY_CHARS, description="Why you called it, in a sentence, for your person."
    )


def my_jobs(call: Call, args: MyJobsArgs) -> Reply:
    jobs, total = services.jobs_view(call.passport, args.job, args.limit)
    if args.job is not None:
        job = jobs[0]
        say = f"The job is {job['status']}: {counted(job['calls'], 'call', 'calls')}, from footstep #{job['firstStep']['footstep']}."
    elif not jobs:
        say = "You have no jobs yet. Name one with job_id on any call."
    elif len(jobs) < total:
        say = f"You have {total} jobs; here are the latest {len(jobs)}."
    else:
        say = "You have 1 job; here it is." if total == 1 else f"You have {total} jobs; here they are."
    # A job's name is the job_id the agent chose: its own words, as a P.O. box key is, and never in a say.
    parts = [Part("jobs[].job", "agent-written", own=True)] if jobs else []
    if any(j["outside"] for j in jobs):
        parts += [Part(f"jobs[].outside[].{f}", "agent-written", own=True) for f in ("server", "tool", "why")]
    return Reply(say, {"jobs": jobs, "total": total}, parts)


def job_outside(call: Call, args: JobOutsideArgs) -> Reply:
    if args.job_id is None:
        raise Refused(NO_JOB_NAMED, "no-job")
    outside, n = services.do_declare_outside(call.passport, args.job_id, args.server, args.tool, args.why)
    declared = {"server": outside.server, "tool": outside.tool, "why": outside.why, "at": clock.iso(outside.at)}
    say = (
        f"Recorded for the job: {counted(n, 'call', 'calls')} outside the town so far. Your person sees it in the hall."
    )
    parts = [Part(f, "agent-written", own=True) for f in ("job", "declared.server", "declared.tool", "declared.why")]
    return Reply(say, {"job": args.job_id, "declared": declared, "outside": n}, parts)


TOOLS: tuple[Tool, ...] = (
    Tool(
        name="my_jobs",
        title="Read your jobs.",
        description=(
            "Your jobs: name one with job_id on any call, and the town groups those calls. For each job: its "
            "status (open, waiting for your person, ended), its calls and their outcomes, its holds, its first "
            "and last footstep, and the calls outside the town you declared for it. Read."
        ),
        args=MyJobsArgs,
        handler=my_jobs,
        kind="read",
        moves=False,
    ),
    Tool(
        name="job_outside",
        title="Declare a call outside the town.",
        description=(
            "For the record: a call you made outside the town for a job (name the job with job_id). Say which "
            "server, which tool, and why; your person reads it on the job's timeline in the hall. The town "
            "never checks or makes the call. Write."
        ),
        args=JobOutsideArgs,
        handler=job_outside,
        kind="write",
        words={
            "server": Words(
                "letter", 200, empty="The server is empty: name the server you called, by registry name or address."
            ),
            "tool": Words("letter", 64, empty="The tool is empty: name the tool you called there."),
            "why": Words("letter", 500, empty="The why is empty: say in a sentence why you made the call."),
        },
        for_people=True,
        moves=False,
    ),
)
