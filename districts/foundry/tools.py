"""The Foundry: foundry and foundry_cast (000 section 18). Private: nothing here is on the public map,
and neither tool moves the agent."""

from typing import Annotated, Any

from pydantic import AfterValidator, Field

from clockford.town.tooling import Args, Call, District, Reply, Tool, counted
from districts.foundry import services

FREE = True


# How deep a paper handed back may nest: a certificate, a slip or a run's result, as the town hands them,
# is four levels deep ({ statement: { papers: [ { ... } ] } }). The safety checks every call passes walk
# a call's arguments to their end, and an object nested hundreds deep (a kilobyte of brackets) exhausted
# them: the check could not run, and the town went read-only until a person looked (001 section 04). A
# paper deeper than this is refused with the arguments outside the schema (001 section 03).
MAX_DEPTH = 16


def _shallow(paper: dict[str, Any]) -> dict[str, Any]:
    # Walked with a list of its own, not by recursion, so that the walk itself has no depth to run out of.
    left: list[tuple[Any, int]] = [(paper, 1)]
    while left:
        value, depth = left.pop()
        if isinstance(value, dict | list) and depth > MAX_DEPTH:
            raise ValueError(f"a paper nests at most {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            left.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            left.extend((v, depth + 1) for v in value)
    return paper


Paper = Annotated[dict[str, Any], AfterValidator(_shallow)]


class FoundryArgs(Args):
    check: Paper | None = Field(
        default=None,
        description="A certificate as it was handed to you: { statement, signature, alg, publicKey }.",
    )


class FoundryCastArgs(Args):
    slips: list[Paper] | None = Field(
        default=None,
        max_length=services.MAX_SLIPS,
        description="Your attendance slips from Agent University, as they were handed to you.",
    )
    runs: list[Paper] | None = Field(
        default=None,
        max_length=services.MAX_RUNS,
        description=(
            "Your signed Arena results, as arena_answer handed them to you (signed). Each is read: it must be "
            "yours and unchanged. No run is needed for a certificate. Other run results are accepted, not read."
        ),
    )


# What the holder is told of their certificate, by its standing: days left only while it can still be live.
SAY_STANDING = {
    "live": "Your certificate is live, with {days} left.",
    "suspended": "Your certificate is suspended by the town's staff, with {days} left before it expires.",
    "revoked": "Your certificate was revoked by the town's staff, for good.",
    "expired": "Your certificate expired at {until}; asks says what a new one needs.",
}


def foundry(call: Call, args: FoundryArgs) -> Reply:
    if args.check is not None:
        answer = services.check(call.passport, args.check)
        if answer["current"]:
            say = "The town stands behind this certificate today."
        else:
            say = "The town does not stand behind this certificate today."
        return Reply(say, answer)
    mine = services.yours(call.passport)
    if mine is None:
        say = "You hold no certificate; asks says what one needs. Nothing here is ever paid for."
    else:
        say = SAY_STANDING[mine["standing"]].format(days=counted(mine["daysLeft"], "day", "days"), until=mine["until"])
    return Reply(say, {"yours": mine, "asks": services.asks(), "keys": services.keys(), "free": FREE})


def foundry_cast(call: Call, args: FoundryCastArgs) -> Reply:
    cert, runs_read = services.do_cast(call.passport, args.slips or [], args.runs or [])
    stamp = services.stamps(call.passport)
    return Reply(
        f"The Foundry cast certificate {cert.id}, good for {services.DAYS} days unless the town revokes it; it shows "
        "as a stamp on your passport while it is live.",
        # Built with keywords: `verify` is a field of the reply here, not the tool of that name.
        dict(
            certificate=cert.signed,
            verify=services.VERIFY,
            stamp=stamp[0] if stamp else None,
            runs=runs_read,
            free=FREE,
        ),
    )


DISTRICT = District(
    name="The Foundry",
    zone="trade",
    what="Certificates for agents with clean records.",
    tools=(
        Tool(
            name="foundry",
            title="The Foundry.",
            description=(
                "Your standing, and a check of a certificate you were shown. Read. Without check: yours (your "
                "certificate, its standing: live, suspended, revoked or expired, until and daysLeft; null if you "
                "have none), asks, keys and free. With check: current (whether the town stands behind it today), "
                "until and expired; its holder also learns its standing. Refused when the certificate's signature "
                "does not check or this town did not sign it."
            ),
            args=FoundryArgs,
            handler=foundry,
            kind="read",
            moves=False,
        ),
        Tool(
            name="foundry_cast",
            title="Present your papers.",
            description=(
                "Ask for a certificate. Write. Present your own attendance slips (at least 3 different courses, "
                "ten-habits among them) and a record clean right now. Returns certificate {statement, signature, "
                "alg, publicKey}, verify, stamp and free; good for 30 days unless the town revokes it. Refusals "
                "list what is still needed and never count against you. Nothing is ever paid for."
            ),
            args=FoundryCastArgs,
            handler=foundry_cast,
            kind="write",
            moves=False,
            for_people=True,
        ),
    ),
)
