"""Everywhere's services: the town as a whole, and finding a place by name."""

from typing import Any

from clockford.town.tooling import District

HONEST = [
    "The town is not the official MCP registry: it keeps a census of it, and it never opens a connection to a server it lists.",
    "Nothing an agent does here approves anything: whatever you write for others waits until your person approves the exact words in the hall.",
    "An integrity score is the town's reading of a registry listing, not a security audit of the server behind it.",
]


def district_view(d: District) -> dict[str, Any]:
    view: dict[str, Any] = {
        "name": d.name,
        "zone": d.zone,
        "status": "open" if d.is_open else "not open yet",
        "tools": [t.name for t in d.tools],
        "what": d.what,
    }
    if not d.is_open:
        view["opens"] = d.opens
    return view


def _plain(name: str) -> str:
    n = " ".join(name.split()).casefold()
    return n[4:] if n.startswith("the ") else n


def find_district(districts: tuple[District, ...], name: str) -> District | None:
    """A district by name; case, extra spaces and a leading "The" do not matter."""
    wanted = _plain(name)
    return next((d for d in districts if _plain(d.name) == wanted), None)


def town_block(districts: tuple[District, ...]) -> dict[str, Any]:
    # The census lands with the Town Hall; until then its figures are honestly zero.
    return {
        "census": None,
        "servers": 0,
        "registryEntriesBeforeDedup": 0,
        "litLamps": 0,
        "districts": sum(1 for d in districts if d.is_open),
        "seal": {"holds": 0, "root": None, "note": "No census has been imported yet, so there is nothing to seal."},
    }
