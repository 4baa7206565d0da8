"""The Embassies: the town's orientation and the desks (embassy)."""

from typing import Any

from pydantic import Field

from clockford.town import clock
from clockford.town.tooling import Args, Call, District, Part, Reply, Tool
from districts.embassies import services
from districts.embassies.desks import DeskId


class EmbassyArgs(Args):
    desk: DeskId | None = Field(
        default=None,
        description=(
            "Read that desk alone: a way in (stdio, http, http-signed-in) or a family of software. Left out: "
            "the orientation and your own two desks."
        ),
    )


def _open_districts() -> list[str]:
    from districts.registry import DISTRICTS  # the registry imports this module

    return [d.name for d in DISTRICTS if d.is_open]


def embassy(call: Call, args: EmbassyArgs) -> Reply:
    passport = call.passport
    visa, issued = services.do_visa(passport)
    fields: dict[str, Any] = {"visa": services.visa_view(visa, clock.now())}
    parts: list[Part] = []
    if args.desk is not None:
        desk = services.find_desk(args.desk)
        fields["desk"] = services.desk_view(desk)
        say = f"The Embassies' desk for {desk.name}: what its agents can and cannot do here, and what trips them up."
    else:
        way = services.arrived_by(passport, call.session_id)
        soft, reported = services.software(passport)
        fields |= {
            "town": services.town_view(_open_districts()),
            "heldForYourPerson": services.held_for_your_person(passport),
            "practice": list(services.PRACTICE),
            "houseRules": list(services.HOUSE_RULES),
            "yourDesks": {
                "arrivedBy": services.desk_view(way),
                "software": {**services.desk_view(soft), "reported": reported, "note": services.REPORTED_NOTE},
            },
        }
        # The name a client reports for itself is its own words, whatever family it matched.
        parts.append(Part("yourDesks.software.reported", "untrusted"))
        say = f"Welcome to the Embassies: the town's orientation, and your two desks ({way.name}; {soft.name})."
    fields["desks"] = services.desks_list()
    if issued:
        say += f" A visa is issued to you: your next {services.VISA_REFUSALS} refusals carry plain next steps."
    return Reply(say, fields, parts)


DISTRICT = District(
    name="The Embassies",
    zone="civic",
    what="The town's orientation, and a desk for each way an agent arrives.",
    tools=(
        Tool(
            name="embassy",
            title="Visit the Embassies.",
            description=(
                "The town's own short orientation for a newcomer, and the desks: one for each way an agent can "
                "arrive and each family of software the town knows by the name it reports. Each desk says, in the "
                "town's words, what its agents can and cannot do here, what differs for them and what is known to "
                "trip them up. No desk changes a rule: every agent meets the same tools, limits and walls. Read. "
                "A passport in its first day is issued a visa the first time it asks: no extra allowance, but its "
                "next few refusals carry one more text block of plain next steps. Asking moves you nowhere."
            ),
            args=EmbassyArgs,
            handler=embassy,
            kind="read",
            moves=False,
        ),
    ),
)
