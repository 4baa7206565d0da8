"""The map drawn: where each district's block sits on the SVG, for a wide and a narrow screen, and the
words a screen reader hears for it. Pure layout over `services.the_map()`: nothing here reads the town.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from hall.shown import stamp

BLOCK_W = 232
BLOCK_H = 132
GAP = 16
FLAGS_DRAWN = 4  # pennants drawn on a block; the rest are counted on it (and all are in its label)
FLAG_STEP = 108  # from a flag to the one beside it
# The room a pennant's words have, from the end of its cloth (16 past the pole) to 6 short of the next
# flag's pole, or of the block's edge for the second flag: a pennant of wide letters (W, 東) is clipped
# there, so it never runs over its neighbour or out of its block.
PENNANT_ROOM = FLAG_STEP - 16 - 6


@dataclass(frozen=True)
class Flag:
    pennant: str | None  # None: an agent that flies no pennant
    x: int
    y: int
    room: int = PENNANT_ROOM  # the width its words are clipped to, from x + 16


@dataclass(frozen=True)
class Block:
    key: str  # the district's name, "houses" or "elsewhere"
    title: str
    status: str  # open, not open yet, walled off; "" for the houses
    detail: str
    x: int
    y: int
    label: str  # what a screen reader says for the whole block
    flags: list[Flag] = field(default_factory=list)
    more: int = 0

    @property
    def drawn_state(self) -> str:
        """The state line the block draws. A wall's moment does not fit a block without losing its
        time and zone ("walled off since 6 December 2026 …"): the block says "walled off", and the
        page lists each wall's whole moment under the drawing (its label keeps it too)."""
        return "walled off" if self.status == "walled off" else self.detail

    @property
    def css(self) -> str:
        return {"open": "open", "not open yet": "later", "walled off": "walled"}.get(self.status, "houses")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def agents_said(agents: dict[str, Any]) -> str:
    if not agents["count"]:
        return "no agents here"
    said = _plural(agents["count"], "agent here", "agents here")
    flown = list(agents["pennants"])
    parts = []
    if flown:
        parts.append("pennants: " + ", ".join(f"“{p}”" for p in flown))
    if agents["more"]:
        parts.append(f"{agents['more']} more with pennants")
    if agents["noPennant"]:
        parts.append(f"{agents['noPennant']} with no pennant")
    return said + (" (" + "; ".join(parts) + ")" if parts else "")


def _flags(agents: dict[str, Any], x: int, y: int) -> tuple[list[Flag], int]:
    riders: list[str | None] = [*agents["pennants"], *([None] * agents["noPennant"])]
    shown = riders[:FLAGS_DRAWN]
    flags = [Flag(p, x + 12 + (i % 2) * FLAG_STEP, y + 74 + (i // 2) * 26) for i, p in enumerate(shown)]
    return flags, agents["count"] - len(shown)


def blocks(town: dict[str, Any], columns: int) -> tuple[list[Block], int, int]:
    """Every district's block, then the houses', laid out in `columns`; with the drawing's width and height."""
    found: list[Block] = []
    places: list[tuple[str, str, str, str, dict[str, Any]]] = []
    for d in town["districts"]:
        if d["status"] == "walled off":
            # As the page writes the moment under the drawing: "7 December 2026 at 14:32 UTC".
            detail = f"walled off since {stamp(datetime.fromisoformat(d['walledOff']['since'].replace('Z', '+00:00')))}"
        else:
            detail = d["status"]
        places.append((d["name"], d["name"], d["status"], detail, d["agents"]))
    houses = town["houses"]
    house_agents = {
        "count": sum(h["agents"]["count"] for h in houses),
        "pennants": sorted(p for h in houses for p in h["agents"]["pennants"]),
        "more": sum(h["agents"]["more"] for h in houses),
        "noPennant": sum(h["agents"]["noPennant"] for h in houses),
    }
    lots = ", ".join(str(h["lot"]) for h in houses)
    places.append(("houses", "The houses", "", f"lots {lots}" if lots else "the census's lots", house_agents))
    if town["elsewhere"]["count"]:
        places.append(("elsewhere", "Elsewhere", "", "", town["elsewhere"]))
    for i, (key, title, status, detail, agents) in enumerate(places):
        x = GAP + (i % columns) * (BLOCK_W + GAP)
        y = GAP + (i // columns) * (BLOCK_H + GAP)
        flags, more = _flags(agents, x, y)
        label = f"{title}: {detail}; {agents_said(agents)}." if detail else f"{title}: {agents_said(agents)}."
        found.append(Block(key, title, status, detail, x, y, label, flags, more))
    rows = (len(places) + columns - 1) // columns
    return found, GAP + columns * (BLOCK_W + GAP), GAP + rows * (BLOCK_H + GAP)


assert 12 + FLAG_STEP + 16 + PENNANT_ROOM <= BLOCK_W - 6, "the second flag's words must end inside the block"


def layouts(town: dict[str, Any]) -> dict[str, Any]:
    wide, ww, wh = blocks(town, 5)
    narrow, nw, nh = blocks(town, 2)
    return {
        "wide": {"blocks": wide, "width": ww, "height": wh},
        "narrow": {"blocks": narrow, "width": nw, "height": nh},
        # The walls standing, each with its whole moment, listed under the drawing (Block.drawn_state).
        "walled": [d for d in town["districts"] if d["status"] == "walled off"],
    }
