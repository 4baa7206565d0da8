"""Everywhere: tools that work in any place (look_around, walk_to). Not a district: no place of its own."""

from pydantic import Field

from clockford.town.tooling import Args, Call, Refused, Reply, Tool
from districts.everywhere import services


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


class LookAroundArgs(Args):
    pass


class WalkToArgs(Args):
    to: str = Field(
        min_length=1,
        max_length=200,
        description='A district ("Town Hall", "The Tavern"; a leading "The" is optional), a lot number, or a registry name.',
    )


def _districts():  # type: ignore[no-untyped-def]
    from districts.registry import DISTRICTS  # the registry imports this module

    return DISTRICTS


def look_around(call: Call, args: LookAroundArgs) -> Reply:
    districts = _districts()
    p = call.passport
    here = services.find_district(districts, p.place)
    open_ = [{"name": d.name, "tools": [t.name for t in d.tools]} for d in districts if d.is_open]
    town = services.town_block(districts)
    fields = {
        "you": {"passport": p.id, "pennant": p.pennant, "place": p.place, "footsteps": p.footsteps + 1},
        "here": services.district_view(here) if here else {"name": p.place},
        "open": open_,
        "town": town,
        "honest": services.HONEST,
    }
    return Reply(
        f"You are at {p.place}. {_count(len(open_), 'district is', 'districts are')} open; "
        f"the census holds {_count(town['servers'], 'server', 'servers')}.",
        fields,
    )


def walk_to(call: Call, args: WalkToArgs) -> Reply:
    districts = _districts()
    d = services.find_district(districts, args.to)
    if d is None:
        raise Refused("No district or house by that name.", "no-place", districts=[x.name for x in districts])
    call.move_to = d.name
    if d.is_open:
        say = f"You walk to {d.name}. It is open: {', '.join(t.name for t in d.tools)}."
    else:
        say = f"You walk to {d.name}. It is not open yet."
    return Reply(say, {"here": services.district_view(d)})


EVERYWHERE: tuple[Tool, ...] = (
    Tool(
        name="look_around",
        title="Look around.",
        description="Where you are, what is here, what is open, and what the town knows. Start here. Read.",
        args=LookAroundArgs,
        handler=look_around,
        kind="read",
    ),
    Tool(
        name="walk_to",
        title="Walk to.",
        description=(
            "Walk to a district by name, or to a house by lot number or registry name. "
            "Other tools also walk you to where they happen. Read."
        ),
        args=WalkToArgs,
        handler=walk_to,
        kind="read",
    ),
)
