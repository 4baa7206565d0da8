"""GET /metrics: the town's figures in the Prometheus text format (version 0.0.4).

Served to this machine only (a loopback peer: the address the request came from, or the one a trusted
proxy names, clockford/face/proxy.py), or to anyone who sends the metrics token
(CLOCKFORD_METRICS_TOKEN) as a bearer token, compared in constant time and never logged. Everything is
read from the database on each scrape, so any worker answers for the whole town.
"""

import datetime as dt
import hmac
import ipaddress
import time
from collections import defaultdict

from django.conf import settings
from django.db.models import Max, Min
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from clockford.metrics import counting
from clockford.reads import reads_only
from clockford.town.models import ArchiveLeaf, Checkpoint, Footstep, Hold, McpSession

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
REFUSED = "Metrics are served to this machine, or with the metrics token.\n"


def allowed(request: HttpRequest) -> bool:
    token = settings.CLOCKFORD_METRICS_TOKEN
    if token:
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode()):
            return True
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


def label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def number(x: float) -> str:
    return repr(float(x)) if isinstance(x, float) else str(x)


class Exposition:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def family(self, name: str, kind: str, about: str) -> None:
        self.lines += [f"# HELP {name} {about}", f"# TYPE {name} {kind}"]

    def sample(self, name: str, value: float, **labels: str) -> None:
        inside = ",".join(f'{k}="{label(v)}"' for k, v in labels.items())
        self.lines.append(f"{name}{{{inside}}} {number(value)}" if inside else f"{name} {number(value)}")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def calls(out: Exposition) -> None:
    rows = counting.totals()
    out.family("clockford_calls_total", "counter", "Calls of each tool that reached the desk, by outcome code.")
    by_outcome: dict[tuple[str, str], int] = defaultdict(int)
    buckets: dict[str, list[int]] = defaultdict(lambda: [0] * (len(counting.BUCKETS) + 1))
    seconds: dict[str, float] = defaultdict(float)
    for r in rows:
        by_outcome[(r["tool"], r["outcome"])] += r["count"]
        buckets[r["tool"]][r["bucket"]] += r["count"]
        seconds[r["tool"]] += r["seconds"]
    for (tool, outcome), n in sorted(by_outcome.items()):
        out.sample("clockford_calls_total", n, tool=tool, outcome=outcome)
    out.family("clockford_call_seconds", "histogram", "How long the desk took over each call of each tool, in seconds.")
    for tool in sorted(buckets):
        running = 0
        for bound, n in zip((*counting.BUCKETS, None), buckets[tool], strict=True):
            running += n
            out.sample("clockford_call_seconds_bucket", running, tool=tool, le="+Inf" if bound is None else repr(bound))
        out.sample("clockford_call_seconds_sum", seconds[tool], tool=tool)
        out.sample("clockford_call_seconds_count", running, tool=tool)


def gauges(out: Exposition, now: dt.datetime) -> None:
    waiting = Hold.objects.filter(status="held", waits_until__gt=now).count()
    out.family("clockford_holds_waiting", "gauge", "Held calls waiting for a person's decision.")
    out.sample("clockford_holds_waiting", waiting)

    c = settings.CLOCKFORD
    idle = dt.timedelta(seconds=c["SESSION_IDLE_SECONDS"])
    max_age = dt.timedelta(seconds=c["SESSION_MAX_AGE_SECONDS"])
    open_now = McpSession.objects.filter(ended_at__isnull=True, last_seen__gt=now - idle, created_at__gt=now - max_age)
    out.family("clockford_sessions_open", "gauge", "MCP sessions open now (not ended, not idle, not too old).")
    out.sample("clockford_sessions_open", open_now.count())

    newest = Footstep.objects.aggregate(n=Max("number"))["n"] or 0
    last = Checkpoint.objects.order_by("-size").values_list("size", flat=True).first() or 0
    folded = ArchiveLeaf.objects.filter(index=last - 1).values_list("footstep_id", flat=True).first() or 0
    behind = Footstep.objects.filter(number__gt=folded)
    oldest = behind.aggregate(at=Min("at"))["at"]
    out.family("clockford_archive_footsteps", "gauge", "The Archive's size: the newest footstep's number.")
    out.sample("clockford_archive_footsteps", newest)
    out.family("clockford_archive_leaves", "gauge", "Footsteps folded into the Archive's signed tree.")
    out.sample("clockford_archive_leaves", last)
    out.family("clockford_archive_fold_lag_footsteps", "gauge", "Footsteps written but not yet folded.")
    out.sample("clockford_archive_fold_lag_footsteps", behind.count())
    out.family("clockford_archive_fold_lag_seconds", "gauge", "The age of the oldest footstep not yet folded.")
    out.sample("clockford_archive_fold_lag_seconds", max(0.0, (now - oldest).total_seconds()) if oldest else 0.0)


@reads_only
def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        return HttpResponse(REFUSED, status=403, content_type="text/plain; charset=utf-8")
    t0 = time.perf_counter()
    counting.flush()  # this worker's last second; the others' are at most a fold turn behind
    out = Exposition()
    calls(out)
    gauges(out, timezone.now())
    out.family("clockford_scrape_seconds", "gauge", "How long this scrape took to read, in seconds.")
    out.sample("clockford_scrape_seconds", time.perf_counter() - t0)
    return HttpResponse(out.text(), content_type=CONTENT_TYPE)
