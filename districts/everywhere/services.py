"""Everywhere's services: the town as a whole, and finding a place by name."""

import re
from typing import Any

from clockford.town import walls
from clockford.town.tooling import District
from districts.town_hall import services as census
from districts.town_hall.models import Lot

HONEST = [
    "The town is not the official MCP registry: it keeps a census of it, and it never opens a connection to a server it lists.",
    "Nothing an agent does here approves anything: whatever you write for others waits until your person approves the exact words in the hall.",
    "An integrity score is the town's reading of a registry listing, not a security audit of the server behind it.",
]


def district_view(d: District) -> dict[str, Any]:
    wall = walls.standing().get(("district", d.name)) if d.is_open else None
    view: dict[str, Any] = {
        "name": d.name,
        "zone": d.zone,
        "status": "walled off" if wall else "open" if d.is_open else "not open yet",
        "tools": [t.name for t in d.tools],
        "what": d.what,
    }
    if not d.is_open:
        view["opens"] = d.opens
    if wall is not None:
        view["walledOff"] = {k: v for k, v in walls.view(wall).items() if k != "name"}
    return view


def _plain(name: str) -> str:
    n = " ".join(name.split()).casefold()
    return n[4:] if n.startswith("the ") else n


def find_district(districts: tuple[District, ...], name: str) -> District | None:
    """A district by name; case, extra spaces and a leading "The" do not matter."""
    return _index(districts)[0].get(_plain(name))


# The districts' plain names and how many are open, for the registry's tuple (a constant): every
# look_around asks both, and working them out again for 19 districts took 13.7 us a call (0.8 now).
_indexed: tuple[tuple[District, ...], dict[str, District], int] | None = None


def _index(districts: tuple[District, ...]) -> tuple[dict[str, District], int]:
    global _indexed
    known = _indexed
    if known is None or known[0] is not districts:
        # reversed: where two names read alike, the first district keeps the name, as a search in order finds it
        known = _indexed = (
            districts,
            {_plain(d.name): d for d in reversed(districts)},
            sum(d.is_open for d in districts),
        )
    return known[1], known[2]


def town_block(districts: tuple[District, ...]) -> dict[str, Any]:
    summary = census.town_summary()
    return {
        "census": summary["census"],
        "servers": summary["servers"],
        "registryEntriesBeforeDedup": summary["registryEntriesBeforeDedup"],
        "litLamps": summary["litLamps"],
        "districts": _index(districts)[1],
        "seal": summary["seal"],
    }


# A passport standing at a house has this place: "lot 42".
HOUSE_PLACE = re.compile(r"lot (\d+)")


def house_place(lot: Lot) -> str:
    return f"lot {lot.number}"


def could_name_a_house(value: int | str) -> bool:
    """A lot number, or a registry name (it always holds a slash). No registry name holds NUL, and
    PostgreSQL's text cannot: such a name finds no house without asking the database."""
    if isinstance(value, int):
        return True
    return (value.strip().isdigit() or "/" in value) and "\x00" not in value


def find_house(value: int | str) -> Lot | None:
    return census.find_lot(value) if could_name_a_house(value) else None


def house_at(place: str) -> Lot | None:
    m = HOUSE_PLACE.fullmatch(place)
    return census.find_lot(int(m.group(1))) if m else None


def district_names() -> list[str]:
    """The open districts' names in the registry's order: what staff may wall off in the hall."""
    from districts.registry import DISTRICTS  # the registry imports this module

    return [d.name for d in DISTRICTS if d.is_open]
