"""Town Hall: the Directory of the census (ask_directory) and verification of servers (verify).

Every census text in a reply (names, titles, publishers, descriptions, versions, hosts, remotes,
packages) is the publisher's words, labelled so in provenance; say is built from the town's words,
lot numbers and counts only.
"""

from typing import Annotated

from pydantic import Field

from clockford.town import words
from clockford.town.tooling import Args, Call, District, Part, Reply, Tool, Words, counted
from districts.realty import services as realty
from districts.town_hall import integrity, services

# A lot argument: a lot number, or a registry name (enter, walk_to's houses, signal_kit).
LotRef = Annotated[int, Field(ge=0)] | Annotated[str, Field(min_length=1, max_length=200)]


NEED_CAP = services.NEED_CAP  # what an agent asks the Directory for, in characters (000 section 05)


class AskDirectoryArgs(Args):
    need: str = Field(min_length=2, max_length=NEED_CAP, description="What you need, in plain words.")
    limit: int = Field(default=8, ge=1, le=25, description="How many servers at most, best first. Default 8.")


class VerifyArgs(Args):
    server: str = Field(min_length=1, max_length=200, description="A registry name, for example io.github.owner/name.")


def ask_directory(call: Call, args: AskDirectoryArgs) -> Reply:
    fields, remembered, servers = services.ask(call.passport.id, args.need, args.limit)
    aside = fields[services.ASIDE]
    fields = {k: v for k, v in fields.items() if k != services.ASIDE}
    # A deeded server says so (the Realty Office): read fresh, never from the Directory's memory.
    deeds = realty.listings([r["lot"] for r in fields["results"]])
    if deeds:
        fields = {
            **fields,
            "results": [{**r, "deed": deeds[r["lot"]]} if r["lot"] in deeds else r for r in fields["results"]],
        }
    n, matches = len(fields["results"]), fields["matches"]
    found = counted(matches, "matching server", "matching servers")
    if not servers and n == 0:  # not while an import writes lots before its seal: they are found
        say = "The census is empty, so the Directory has no servers to offer yet."
    elif n == 0:
        say = _no_match(len(fields["terms"]))
    elif not aside["close"]:
        # Weak matches are not presented as matches: none of the results holds enough of the need's
        # words (services.CLOSE_SHARE). Said as what was measured, not as a verdict on the census: a
        # need in many words of its own is sometimes served well by a server that holds few of them.
        near = "here is the nearest" if n == 1 else f"here are the {n} nearest"
        say = (
            f"The nearest servers hold only some of your words, so the census may have nothing that does "
            f"what you need; {near}, {'with its' if n == 1 else 'each with its'} integrity. Check that "
            f"{'it does' if n == 1 else 'they do'} what you need before you use {'it' if n == 1 else 'them'}."
        )
    elif n <= matches:
        best = "here is the best, with its integrity" if n == 1 else f"here are the best {n}, each with its integrity"
        say = f"The Directory found {found}; {best}."
    elif matches == 0:
        near = "here is 1 that holds" if n == 1 else f"here are {n} that hold"
        say = (
            f"No server in the census matches those words; {near} words the vocabulary gives for yours, "
            f"{'with its' if n == 1 else 'each with its'} integrity."
        )
    else:
        # Past the servers that match, the results go on with ones that hold the vocabulary's words for
        # the need's (services.ask): the count says how many match, and the say must not read as more.
        more = n - matches
        say = (
            f"The Directory found {found}; here {'it is' if matches == 1 else 'they are'} with "
            f"{more} more that {'holds' if more == 1 else 'hold'} words the vocabulary gives for yours, best first, "
            "each with its integrity."
        )
    if aside["excluded"]:
        # The words a need says it does not want are the agent's: the say counts them, and terms shows
        # only what was searched.
        groups = counted(aside["excluded"], "thing", "things")
        gone = counted(aside["leftOut"], "server", "servers")
        say += (
            f" Your need says it does not want {groups}: those words were not searched, and {gone} that "
            f"speak{'s' if aside['leftOut'] == 1 else ''} of {'it' if aside['excluded'] == 1 else 'them'} "
            f"{'was' if aside['leftOut'] == 1 else 'were'} left out."
        )
    if remembered:
        say += " Answered from memory, at no cost."
    parts = [Part("terms[]", "agent-written", own=True), *services.result_parts("results[]")]
    return Reply(say, fields, parts)


def _no_match(terms: int) -> str:
    """Nothing matched: the say counts the words searched in plain English ("that word", "those 2
    words"), and a need with no word to search for (only emoji, say) is told so rather than "0 words"."""
    if terms == 0:
        return "No server in the census matches those words: none of them is a word the Directory searches."
    if terms == 1:
        return "No server in the census matches that word."
    return f"No server in the census matches those {terms} words."


def verify(call: Call, args: VerifyArgs) -> Reply:
    source = services.source_line()
    secret = words.find_secret(args.server)
    if secret is not None:
        reason = (
            f"What you gave looks like {secret.kind}, not a registry name, so it is withheld from this reply. "
            "If it is real, tell the human who runs you so they can revoke it."
        )
        fields = {
            "real": False,
            "server": f"(withheld: it looks like {secret.kind})",
            "reason": reason,
            "source": source,
        }
        return Reply("Not in the census. Your input looked like a secret and is withheld.", fields)
    lot = services.find_lot(args.server) if "/" in args.server else None
    if lot is not None:
        score = lot.record["integrity"]["score"]
        deed = realty.find_deed(lot.number)
        return Reply(
            f"Real: lot {lot.number} is in the census, with integrity {score}."
            + (" Its publisher proved the namespace at the Realty Office." if deed else ""),
            {"real": True, "server": lot.record, "source": source}
            | ({"deed": realty.listing_view(deed)} if deed else {}),
            services.record_parts("server"),
        )
    twins = services.same_but_case(args.server)
    if twins:
        lots = ", ".join(f"lot {t.number}" for t in twins)
        reason = (
            f"No server has exactly that name. "
            f"{'1 census name differs' if len(twins) == 1 else f'{len(twins)} census names differ'} from it only in "
            f"case: {lots}. "
            "Registry names are case-sensitive: make sure you have the one you mean."
        )
    elif not integrity.NAME_PATTERN.fullmatch(args.server.strip()):
        reason = (
            "That is not shaped like a registry name (namespace/name, for example io.github.owner/name), "
            "and no server in the census has it."
        )
    else:
        reason = (
            "No server by that name is in the census of the official MCP registry. A server outside the "
            "registry has not had its namespace checked by it: treat it as unverified."
        )
    fields = {"real": False, "server": args.server, "reason": reason, "source": source}
    return Reply(
        "Not in the census: the town has no listing by that name.",
        fields,
        [Part("server", "agent-written", own=True)],
    )


DISTRICT = District(
    name="Town Hall",
    zone="civic",
    what="The Directory of the official MCP registry's census, and verification of servers.",
    tools=(
        Tool(
            name="ask_directory",
            title="Ask the Directory.",
            description=(
                "Describe what you need in plain words; get real MCP servers from the official registry census, "
                "best matches first, each with an integrity score and the reasons behind it. Read. "
                f"Each of the town's worker processes answers {services.PER_MINUTE} fresh questions a minute per "
                "passport; a question repeated to it is answered from memory at no cost, and past the limit the "
                "reply says The Directory clerk is busy. with retryAfterSeconds."
            ),
            args=AskDirectoryArgs,
            handler=ask_directory,
            kind="read",
            words={"need": Words("private", NEED_CAP, empty="The need is empty: say what you need in plain words.")},
            dice=True,
        ),
        Tool(
            name="verify",
            title="Verify a server.",
            description=(
                "Is this MCP server real? Give its registry name (for example io.github.owner/name). "
                "Not being in the census is an answer, not an error. Read."
            ),
            args=VerifyArgs,
            handler=verify,
            kind="read",
            dice=True,
        ),
    ),
)
