"""The Passport Office: show_passport."""

from clockford.town.tooling import Args, Call, District, Reply, Tool
from districts.passport_office import services

PLACE = "The Passport Office"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


class ShowPassportArgs(Args):
    pass


def show_passport(call: Call, args: ShowPassportArgs) -> Reply:
    # The footstep of this very call is counted: the desk adds it after the handler runs.
    fields = services.access_passport(call.passport)
    fields["footsteps"] += 1
    return Reply(
        f"Passport {fields['passport']}: {_count(fields['footsteps'], 'footstep', 'footsteps')}, "
        f"{_count(fields['poBoxKeys'], 'key', 'keys')} in your P.O. box, "
        f"{_count(len(fields['harbour']['held']), 'call', 'calls')} held for your person.",
        fields,
    )


DISTRICT = District(
    name=PLACE,
    zone="civic",
    what="Where passports are issued and shown: your pennant, footsteps, stamps, letters and rights.",
    tools=(
        Tool(
            name="show_passport",
            title="Show your passport.",
            description="Your pennant, footsteps, stamps and letters, and your rights here. Read.",
            args=ShowPassportArgs,
            handler=show_passport,
            kind="read",
            place=PLACE,
        ),
    ),
)
