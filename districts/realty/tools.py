"""The Realty Office: deeds to servers in the census (claim_deed, 000 section 16).

An agent asks; it cannot prove anything itself. Its person proves ownership in the hall with their own
sign-in (hall/deeds.py), the way the official registry proves a namespace. The reply never says
whether another account holds the deed: for a lot deeded to someone else and a lot deeded to nobody
it is the same, byte for byte, but the footstep. It gives the lot number, never the name back.
"""

from typing import Annotated

from pydantic import Field

from clockford.town import clock
from clockford.town.tooling import Args, Call, District, Reply, Tool
from districts.realty import services

# 000 section 16: "string, 1-200, or integer >= 0" (the lot first, as enter's lot argument).
ServerRef = Annotated[int, Field(ge=0)] | Annotated[str, Field(min_length=1, max_length=200)]


class ClaimDeedArgs(Args):
    server: ServerRef = Field(description="The server's registry name, or its lot number from the Directory.")


def claim_deed(call: Call, args: ClaimDeedArgs) -> Reply:
    lot, deed, asked = services.do_ask(call.passport, args.server)
    if deed is not None:
        say = f"Your account holds the deed to lot {lot.number}: {deed.id}, last checked {clock.iso(deed.checked_at)}."
        return Reply(say, {"lot": lot.number, "deed": services.deed_view(deed), "asked": False})
    # The ask waits for a person, so the reply carries hallUrl, as every reply that waits for one does
    # (letters, holds, reports); say points to it rather than carrying the link itself.
    say = (
        f"Your account holds no deed to lot {lot.number}. Your ask waits for your person, who can prove "
        "ownership in the hall at hallUrl with their own sign-in. You cannot prove it yourself."
    )
    return Reply(say, {"lot": lot.number, "deed": None, "asked": asked, "hallUrl": services.deeds_page()})


DISTRICT = District(
    name="The Realty Office",
    zone="trade",
    what="Deeds to servers in the census, proven by their publishers in the hall.",
    tools=(
        Tool(
            name="claim_deed",
            sign_in=services.SIGN_IN_SAY,
            title="Claim a deed.",
            description=(
                "Ask for the deed to a server in the census for your own signed-in account. You cannot prove "
                "ownership yourself: the person who runs you does that in their hall, with their own sign-in. "
                "Write; private (it never appears on the public feed). Returns lot, and deed (id, issuedAt, "
                "checkedAt) when your account holds the deed for it, or deed: null and asked (whether your person "
                "now has your ask waiting). The reply is the same whether a server is deeded to someone else or to "
                f"nobody. At most {services.ASKS_WAITING} asks from one account wait at once."
            ),
            args=ClaimDeedArgs,
            handler=claim_deed,
            kind="write",
            # Asking only files a question for the agent's own person: never held as off the plan or on
            # probation (DECISIONS 2).
            for_people=True,
            moves=False,
        ),
    ),
)
