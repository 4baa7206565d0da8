"""Everywhere: tools that work in any place (look_around, walk_to, enter). Not a district: no place of its own."""

from typing import Any

from pydantic import Field

from clockford.town import handoff, plans, walls
from clockford.town.tooling import Args, Call, Part, Refused, Reply, Tool, counted
from districts.everywhere import services
from districts.realty import services as realty
from districts.town_hall import services as census
from districts.town_hall.tools import LotRef


class LookAroundArgs(Args):
    pass


class EnterArgs(Args):
    lot: LotRef = Field(description="A lot number or a registry name.")


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
    house = None if here else services.house_at(p.place)
    # A walled-off district is not working, so it is not among the open ones; look_around itself
    # belongs to no district and answers inside one (000 section 04).
    walled = walls.walled_off()
    walled_districts = {w.name for w in walled if w.kind == "district"}
    open_ = [
        {"name": d.name, "tools": [t.name for t in d.tools]}
        for d in districts
        if d.is_open and d.name not in walled_districts
    ]
    town = services.town_block(districts)
    here_view: dict[str, Any]
    if here:
        here_view = services.district_view(here)
    elif house:
        here_view = census.house_view(house)
    else:
        here_view = {"name": p.place}
    fields = {
        "you": {"passport": p.id, "pennant": p.pennant, "place": p.place, "footsteps": p.footsteps + 1},
        "here": here_view,
        "open": open_,
        "town": town,
        "honest": services.HONEST,
        # Where the person who runs this agent decides for it, and whether anyone holds it there yet.
        "hall": {"url": handoff.front_url(), "claimed": plans.someone_holds(p, recent=True)},
    }
    walled_say = ""
    if walled:
        fields["walledOff"] = [walls.view(w) for w in walled]
        walled_say = f"{len(walled)} walled off for now; "
    return Reply(
        f"You are at {p.place}. {counted(len(open_), 'district is', 'districts are')} open; {walled_say}"
        f"the census holds {counted(town['servers'], 'server', 'servers')}.",
        fields,
        [
            *([Part("here.name", "publisher-words")] if house else []),
            # A pennant is words a person chose in the hall, read as a pennant is on the board: never the town's.
            *([Part("you.pennant", "agent-written", own=True)] if p.pennant is not None else []),
        ],
    )


def walk_to(call: Call, args: WalkToArgs) -> Reply:
    districts = _districts()
    d = services.find_district(districts, args.to)
    if d is None:
        # Not a district: a house, by lot number or registry name.
        lot = services.find_house(args.to)
        if lot is None:
            raise Refused("No district or house by that name.", "no-place", districts=[x.name for x in districts])
        call.move_to = services.house_place(lot)
        return Reply(
            f"You walk to the house on lot {lot.number}. Use enter for its facts.",
            {"here": census.house_view(lot)},
            [Part("here.name", "publisher-words")],
        )
    call.move_to = d.name
    here = services.district_view(d)
    if "walledOff" in here:
        say = (
            f"You walk to {d.name}. It is walled off for now (islanded since {here['walledOff']['since']}); "
            "look_around still answers here."
        )
    elif d.is_open:
        say = f"You walk to {d.name}. It is open: {', '.join(t.name for t in d.tools)}."
    else:
        say = f"You walk to {d.name}. It is not open yet."
    return Reply(say, {"here": here})


def enter(call: Call, args: EnterArgs) -> Reply:
    lot = services.find_house(args.lot)
    if lot is None:
        raise census.no_lot()
    call.move_to = services.house_place(lot)
    record = lot.record
    house = record["house"]
    say = (
        f"You enter the house on lot {lot.number}: class {house['class']}, {counted(house['floors'], 'floor', 'floors')}, "
        f"its lamp {'lit' if house['lampLit'] else 'dark'}; integrity {record['integrity']['score']}."
    )
    fields = {
        "server": record,
        "neighbors": census.neighbors(lot),
        "note": census.enter_note(lot),
        "source": census.source_line(),
    }
    deed = realty.find_deed(lot.number)
    if deed is not None:  # a deeded server says so (the Realty Office)
        fields["deed"] = realty.listing_view(deed)
        say += " Its publisher proved the namespace at the Realty Office."
    return Reply(say, fields, [*census.record_parts("server"), Part("neighbors[].name", "publisher-words")])


EVERYWHERE: tuple[Tool, ...] = (
    Tool(
        name="look_around",
        title="Look around.",
        description="Where you are, what is here, what is open, and what the town knows. Start here. Read.",
        args=LookAroundArgs,
        handler=look_around,
        kind="read",
        dice=True,
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
    Tool(
        name="enter",
        title="Enter a house.",
        description=(
            "The facts of the server on one lot, from the census. The town never opens a connection to the "
            "server. Read."
        ),
        args=EnterArgs,
        handler=enter,
        kind="read",
        dice=True,
    ),
)
