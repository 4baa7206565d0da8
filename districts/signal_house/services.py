"""The Signal House's services: a launch kit from the sealed census record, and the public count.

A kit is a pure function of the lot's sealed record and the census's seal: the same lot gives the
same kit until the census changes, and the kit names the seal it was built from. Nothing is sent
anywhere: the kit is advice for the server's publisher, who alone can publish the listing again.
"""

import datetime as dt
from typing import Any

from clockford.town.models import Footstep
from districts.town_hall import integrity
from districts.town_hall import services as town_hall
from districts.town_hall.models import CensusState, Lot

KIT_VERSION = "clockford-signal-kit-1"
# The public count of kits drawn is shown once a day, for a finished day, rounded down to fives.
PUBLIC_ROUNDING = 5

WHERE = {
    "title": 'server.json, "title": a short name people read, up to 100 characters.',
    "repository.url": 'server.json, "repository": {"url": the source repository, "source": for example "github"}.',
    "description": 'server.json, "description": what the server does, in one sentence of up to 100 characters.',
    "version": 'server.json, "version": a semantic version such as 1.2.0, raised with every publish.',
}
LIMITS = [
    "Nothing is sent: the town never contacts the server, its publisher or the registry.",
    "No ranking or placement is promised: the Directory ranks by how well a server matches each question.",
    "Only the publisher can change the listing, by publishing server.json to the official registry again; "
    "the census shows the change after its next sync.",
    "The kit reads only the census record: it says nothing of the server's code, its uptime or its safety.",
    "The same lot gives the same kit until the census changes; from.seal names the census it was built from.",
]
HOUSE_NOTE = (
    "fixed is the house once the listing is published again with the four checklist fields set: the "
    "deductions those fields clear are gone, and the listing is fresh, so the staleness deduction goes too "
    "and the lamp is lit if the server is active. Nothing else in the record is assumed to change."
)


def kit(lot: Lot, census: CensusState) -> dict[str, Any]:
    record, ds = lot.record, lot.deductions
    set_now = integrity.checklist_set(lot.facts)
    checklist = [{"field": f, "where": WHERE[f], "toSet": None if v is None else not v} for f, v in set_now.items()]
    now = {
        "class": record["house"]["class"],
        "floors": record["house"]["floors"],
        "lampLit": record["house"]["lampLit"],
        "integrity": record["integrity"]["score"],
    }
    kept = [d for d in ds if d["clears"] is None and d["rule"] != "stale"]
    fixed_score = integrity.score(kept)
    fixed_class = next(c for floor, c, _ in integrity.CLASSES if fixed_score >= floor)
    fixed = {
        "class": fixed_class,
        "floors": 1 + len(integrity.CHECKLIST),
        "lampLit": lot.facts["status"] == "active",
        "integrity": fixed_score,
    }
    changes = [{"what": k, "now": now[k], "fixed": fixed[k]} for k in now if now[k] != fixed[k]]
    return {
        "kit": KIT_VERSION,
        "from": {"census": town_hall.census_name(census), "seal": census.root},
        "server": record,
        "missing": {
            "title": None if set_now["title"] is None else not set_now["title"],
            "repository": not set_now["repository.url"],
            "description": not set_now["description"],
            "versions": not set_now["version"],
        },
        "integrity": {"score": record["integrity"]["score"], "deductions": ds},
        "house": {"now": now, "fixed": fixed, "changes": changes, "note": HOUSE_NOTE},
        "checklist": checklist,
        "limits": LIMITS,
    }


def kits_drawn(day: dt.date) -> dict[str, Any]:
    """The public's one number a day: how many kits agents drew on a finished UTC day, rounded down to
    fives. Read from the Archive's footsteps; who drew them is never part of it."""
    start = dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)
    count = Footstep.objects.filter(
        tool="signal_kit", outcome="ok", at__gte=start, at__lt=start + dt.timedelta(days=1)
    ).count()
    return {"day": day.isoformat(), "kits": count - count % PUBLIC_ROUNDING, "rounded": f"down to {PUBLIC_ROUNDING}s"}
