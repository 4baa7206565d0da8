"""Walls (001 "walled off for now"): a district or a Switchboard channel islanded after repeated faults
(the breaker) or by staff in the hall. While it is walled off, every call of its tools is answered
"... walled off for now (islanded since T). Safe default: refuse and wait." with `island`, before
anything of the call runs; look_around, which belongs to no district, still answers and lists the walls.

The breaker counts faults in the tool (the desk's "Something went wrong here") against the call's
channel when it names one, else against its district: a broken channel walls off itself, not the whole
Switchboard. Past WALL_FAULTS faults within WALL_WINDOW_SECONDS the wall goes up for WALL_SECONDS and
then comes down by itself; a wall staff raise stays until staff reopen. The counts live in the
database, so every worker's faults add up and every worker sees the wall.
"""

import math
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q

from clockford.town import clock
from clockford.town.models import Wall, locked
from clockford.town.tooling import Busy, Tool

SAFE_DEFAULT = "refuse and wait"


class Walled(Busy):
    """A call of a walled-off district or channel: wait and retry (retryAfterSeconds), with `island`."""

    outcome = "walled"


@dataclass(frozen=True)
class Island:
    """Where one call happens, as a wall names it: its channel (if it names one) and its district."""

    district: str | None
    channel: str | None

    def names(self) -> list[tuple[str, str]]:
        found = []
        if self.channel:
            found.append(("channel", self.channel))
        if self.district:
            found.append(("district", self.district))
        return found


def island_of(tool: Tool, args: Any) -> Island:
    """The district a tool belongs to (None for tools that work anywhere, like look_around) and the
    channel a call happens on, when it names one or a record on one."""
    channel = None
    if tool.on_a_channel:
        # The record's channel (a beacon's) or the one a call joins or leaves, else the one it names.
        channel = tool.channel_of(args) if tool.channel_of is not None else None
        channel = channel or getattr(args, "channel", None)
    return Island(tool.place, channel if isinstance(channel, str) else None)


# The walls standing now are read on every call; a second-old answer is good enough, and a worker that
# raises or lowers a wall forgets its copy at once.
_cache: tuple[float, dict[tuple[str, str], Wall]] = (0.0, {})


def forget() -> None:
    """Drop this process's copy of the walls: the next call reads them from the database."""
    global _cache
    _cache = (0.0, {})


def standing() -> dict[tuple[str, str], Wall]:
    """Every wall up now, by (kind, name)."""
    global _cache
    at, walls = _cache
    if time.monotonic() - at > 1.0:
        now = clock.now()
        rows = Wall.objects.filter(since__isnull=False).filter(Q(until__isnull=True) | Q(until__gt=now))
        walls = {(w.kind, w.name): w for w in rows}
        _cache = (time.monotonic(), walls)
    return walls


def walled_off() -> list[Wall]:
    """The walls up now, the oldest first."""
    return sorted(standing().values(), key=lambda w: (w.since or clock.now(), w.kind, w.name))


def view(wall: Wall) -> dict[str, Any]:
    """look_around's walledOff entry: { name, since, safeDefault }."""
    assert wall.since is not None
    return {"name": wall.name, "since": clock.iso(wall.since), "safeDefault": SAFE_DEFAULT}


def check(tool: Tool, args: Any) -> None:
    """Raise Walled when this call's channel or district is walled off."""
    walls = standing()
    if not walls:
        return
    for key in island_of(tool, args).names():
        wall = walls.get(key)
        if wall is not None:
            raise refusal(wall)


def refusal(wall: Wall) -> Walled:
    assert wall.since is not None
    if wall.until is not None:
        wait = max(1, math.ceil((wall.until - clock.now()).total_seconds()))
    else:
        wait = settings.CLOCKFORD["RETRY_AFTER_SECONDS"]
    where = wall.name if wall.kind == "district" else f"The channel {wall.name}"
    island: dict[str, Any] = {"name": wall.name, "kind": wall.kind, "since": clock.iso(wall.since), "by": wall.by}
    if wall.until is not None:
        island["until"] = clock.iso(wall.until)
    island["safeDefault"] = SAFE_DEFAULT
    return Walled(
        f"{where} is walled off for now (islanded since {clock.iso(wall.since)}). Safe default: refuse and wait. "
        f"Try again in {wait} seconds.",
        wait,
        island=island,
    )


def fault(tool: Tool, args: Any) -> Wall | None:
    """Count one fault in the tool against the call's channel, else its district; past the breaker's
    threshold, wall it off. Returns the wall it raised. Called in the call's transaction, so the count
    commits with the footstep that records the fault."""
    limit = settings.CLOCKFORD["WALL_FAULTS"]
    names = island_of(tool, args).names()
    if not limit or not names:
        return None
    kind, name = names[0]
    now = clock.now()
    window = timedelta(seconds=settings.CLOCKFORD["WALL_WINDOW_SECONDS"])
    Wall.objects.get_or_create(kind=kind, name=name)
    wall = locked(Wall.objects.filter(kind=kind, name=name)).get()
    if wall.faults_since is None or wall.faults_since <= now - window:
        wall.faults, wall.faults_since = 0, now
    wall.faults += 1
    raised = wall.faults >= limit and not _up(wall, now)
    if raised:
        wall.since, wall.by = now, "faults"
        wall.until = now + timedelta(seconds=settings.CLOCKFORD["WALL_SECONDS"])
        wall.why = f"{wall.faults} faults within {window.seconds} seconds."
        wall.faults, wall.faults_since = 0, None
    wall.save()
    if raised:
        forget()
    return wall if raised else None


def _up(wall: Wall, now: datetime) -> bool:
    return wall.since is not None and (wall.until is None or wall.until > now)


def raise_wall(kind: str, name: str, why: str) -> Wall:
    """Staff wall off a district or channel until they reopen it. A wall already up stays as it is,
    except that one the breaker raised no longer comes down by itself."""
    now = clock.now()
    wall, _ = Wall.objects.get_or_create(kind=kind, name=name)
    if not _up(wall, now):
        wall.since = now
    wall.until, wall.by, wall.why = None, "staff", why[:200]
    wall.save()
    forget()
    return wall


def reopen(kind: str, name: str) -> bool:
    """Take the wall down (staff, or the breaker's before its time). Returns whether one was up."""
    now = clock.now()
    wall = Wall.objects.filter(kind=kind, name=name).first()
    was_up = wall is not None and _up(wall, now)
    if wall is not None:
        wall.since = wall.until = wall.faults_since = None
        wall.faults, wall.by, wall.why = 0, "", ""
        wall.save()
    forget()
    return was_up
