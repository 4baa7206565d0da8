"""job_outside: an agent declares, for the record, a call it made outside the town for a job: which
server, which tool and why, screened like any words (docs/jobs.md)."""

from typing import Any

from clockford.town import clock, desk
from clockford.town.models import Passport
from districts.jobs.models import Outside
from districts.registry import TOOLS
from districts.testing import outcome, visit


def outside(p: Passport, arguments: dict[str, Any]) -> desk.Rendered:
    """job_outside through the desk (its `tool` argument shares a name with visit's)."""
    p.refresh_from_db()
    return desk.run(TOOLS["job_outside"], arguments, p, None)


def declare(p: Passport, **extra: str) -> dict[str, Any]:
    args = {"server": "io.github.acme/weather", "tool": "forecast", "why": "The person asked for tomorrow's weather."}
    return outside(p, {**args, **extra}).structured


def test_it_records_the_call_for_the_job(alice: Passport) -> None:
    sc = declare(alice, job_id="weather-1")
    assert sc["say"] == "Recorded for the job: 1 call outside the town so far. Your person sees it in the hall."
    assert sc["job"] == "weather-1" and sc["outside"] == 1
    assert sc["declared"]["server"] == "io.github.acme/weather"
    assert sc["declared"]["why"] == "The person asked for tomorrow's weather."
    labelled = {p["path"]: (p["label"], p.get("own")) for p in sc["provenance"]["parts"]}
    assert labelled["declared.why"] == ("agent-written", True)
    assert labelled["job"] == ("agent-written", True)
    outside = Outside.objects.get()
    assert outside.footstep == sc["footstep"]
    (job,) = visit(alice, "my_jobs").structured["jobs"]
    assert job["outside"] == [
        {
            "footstep": sc["footstep"],
            "at": clock.iso(outside.at),
            "server": "io.github.acme/weather",
            "tool": "forecast",
            "why": "The person asked for tomorrow's weather.",
        }
    ]
    assert job["steps"][0]["tool"] == "job_outside"


def test_it_needs_a_job(alice: Passport) -> None:
    r = outside(alice, {"server": "s", "tool": "t", "why": "w"})
    assert r.is_error is True
    assert r.structured["say"] == "Name the job this call outside the town was for, with job_id."
    assert outcome(r) == "refused:no-job"
    assert not Outside.objects.exists()


def test_a_secret_in_the_words_is_refused(alice: Passport) -> None:
    r = outside(
        alice,
        {
            "server": "io.github.acme/weather",
            "tool": "forecast",
            "why": "used key sk-ant-api03-" + "A" * 90,
            "job_id": "weather-1",
        },
    )
    assert r.is_error is True
    assert r.structured["words"]["field"] == "why"
    assert outcome(r).startswith("refused:")
    assert not Outside.objects.exists()


def test_the_outsider_never_sees_the_declaration(alice: Passport, charlie: Passport) -> None:
    declare(alice, job_id="weather-1")
    assert visit(charlie, "my_jobs").structured["jobs"] == []
