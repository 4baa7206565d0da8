"""The Signal House: launch kits for servers in the census (signal_kit)."""

from pydantic import Field

from clockford.town.tooling import Args, Call, District, Part, Reply, Tool
from districts.signal_house import services
from districts.town_hall import services as town_hall
from districts.town_hall.tools import LotRef


class SignalKitArgs(Args):
    lot: LotRef = Field(description="A lot number or a registry name.")


def signal_kit(call: Call, args: SignalKitArgs) -> Reply:
    lot = town_hall.find_lot(args.lot)
    if lot is None:
        raise town_hall.no_lot()
    k = services.kit(lot, town_hall.state())
    to_set = sum(1 for item in k["checklist"] if item["toSet"])
    say = (
        f"A launch kit for lot {lot.number}: integrity {k['house']['now']['integrity']} now, "
        f"{k['house']['fixed']['integrity']} once the listing is published again with the checklist set; "
        f"{to_set} of {len(k['checklist'])} checklist fields to set. Nothing was sent anywhere."
    )
    parts = [*town_hall.record_parts("server"), Part("integrity.deductions[].evidence", "publisher-words")]
    return Reply(say, k, parts)


DISTRICT = District(
    name="The Signal House",
    zone="trade",
    what="Launch kits for servers in the census: what their listings miss, and what setting it would change.",
    tools=(
        Tool(
            name="signal_kit",
            title="Ask the Signal House for a launch kit.",
            description=(
                "A launch kit for one server in the census, by lot number or registry name, built only from the "
                "sealed census record. Read. Nothing is sent: the town never contacts the server, its publisher "
                "or the registry, and no ranking or placement is promised."
            ),
            args=SignalKitArgs,
            handler=signal_kit,
            kind="read",
            # Private (000 section 15: the footstep is the person's; the public page never shows it), so it
            # does not move the agent on the public map.
            moves=False,
        ),
    ),
)
