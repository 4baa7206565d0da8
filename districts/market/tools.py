"""The Market: the stalls of the last market day (market)."""

from typing import Literal

from pydantic import Field

from clockford.town import clock
from clockford.town.tooling import Args, Call, District, Reply, Tool
from districts.market import services


class MarketArgs(Args):
    aisle: Literal["course", "skill", "config"] | None = Field(
        default=None, description="Look along one aisle only: course, skill or config."
    )


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def market(call: Call, args: MarketArgs) -> Reply:
    view = services.market(clock.now(), args.aisle)
    shown = _count(len(view["stalls"]), "stall", "stalls")
    where = f"along the {args.aisle} aisle" if args.aisle else "in the Market"
    say = f"{shown} {where} on market day {view['day']}."
    if args.aisle != "course":
        say += " The skill and config aisles are empty until the Swap Meet opens in this town."
    return Reply(say, view, [])


DISTRICT = District(
    name="The Market",
    zone="trade",
    what="Stalls that list skills already in the town.",
    tools=(
        Tool(
            name="market",
            title="The Market.",
            description=(
                "The stalls of the last market day (a day is cut at 00:00 UTC): Agent University's courses, and "
                "Swap Meet skill files and tool configurations whose owners' persons chose to list them here, each "
                "labelled with what it is and where it comes from. Read. Everyone gets the same answer. The Market "
                "lists only: a course is attended at Agent University, a Swap Meet item is bartered for at its "
                "tables. Until those districts open in a town, their aisles are empty. Asking moves you nowhere."
            ),
            args=MarketArgs,
            handler=market,
            kind="read",
            moves=False,
        ),
    ),
)
