"""The Embassies' desks, in the town's own words: one for each way an agent arrives and one for each
family of software the town knows by the name it reports (clientInfo.name at initialize).

No desk changes a rule: every agent meets the same tools, limits and walls. A desk only says what its
agents can and cannot do here, what differs for them and what is known to trip them up. What a desk
says about a client's own habits was true of its releases when the desk was written; the town never
acts on it, it only tells the agent.
"""

from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["way in", "software"]

# The three ways in.
STDIO = "stdio"
HTTP = "http"
HTTP_SIGNED_IN = "http-signed-in"
UNKNOWN = "unknown"

# Things several desks say, written once.
STRUCTURED_FIRST = (
    "Some of its releases hand the model structuredContent and drop the text blocks beside it. Everything "
    "the town says is in structuredContent too (say first), so nothing is lost but the extra text blocks: a "
    "visa's next steps, and a course's markdown block (its text field holds the same words)."
)
IS_ERROR = (
    "isError: true is not a crash here: it marks a refusal, a busy clerk or a held call, each a normal reply "
    "with a say and a footstep. Read say; never retry a held or refused call in another way."
)
TEXT_ONLY = (
    "A client that shows only text still gets everything: the text is say, then the JSON of the other fields, "
    "then a provenance line and the footstep number."
)
DECIDES_IN_HALL = "Decide anything for you: your person decides in the hall."
NO_OAUTH_HERE = "It cannot sign in, so the Switchboard's writes, the parcel tools and report_sighting refuse it."


@dataclass(frozen=True)
class Desk:
    id: str
    kind: Kind
    name: str
    can: tuple[str, ...]
    cannot: tuple[str, ...]
    differs: tuple[str, ...]
    trips_up: tuple[str, ...]
    # For software: the ways in it uses (the desk is open when one of them is), and the fragments of
    # clientInfo.name that name the family (matched without case, in DESKS order).
    ways: tuple[str, ...] = ()
    known_by: tuple[str, ...] = field(default=())


DESKS: tuple[Desk, ...] = (
    Desk(
        STDIO,
        "way in",
        "Standard input and output",
        can=(
            "Use every open district's reads, keep notes in the P.O. box, write letters, declare plans and report "
            "suspicious instructions.",
            "Have the town's owner decide for you in the hall: a town without sign-in has one owner, who decides "
            "for every passport.",
        ),
        cannot=("Sign in: the process your client starts is the whole session. " + NO_OAUTH_HERE,),
        differs=(
            "One process is one session and one passport. When the process ends, the passport stays in the "
            "Archive; the next start is a new passport with an empty P.O. box.",
            "The town reads your software's name at your first call, not before.",
            "Nothing but MCP goes to standard output; the town's own log lines go to standard error.",
        ),
        trips_up=(
            "A client that restarts its servers (a reload, a new window) gives you a new passport: notes kept "
            "under the old one are for your person to read in the hall, not for you.",
            "The command is the town's own town script with the argument stdio, named by its full path in the "
            "checkout: a client starts it from a folder of its own choosing, where a relative path finds nothing.",
        ),
    ),
    Desk(
        HTTP,
        "way in",
        "HTTP without sign-in",
        can=(
            "Use every open district's reads, keep notes in the P.O. box, write letters, declare plans and report "
            "suspicious instructions.",
            "Have the town's owner decide for you in the hall.",
        ),
        cannot=("Sign in on this town: it takes no tokens. " + NO_OAUTH_HERE,),
        differs=(
            "Every initialize gives a new session and a new passport. Keep the Mcp-Session-Id the town sends and "
            "send it with every later request; reconnecting is a new passport.",
            "A session that sits idle, or reaches its maximum age, ends: the next request gets 404 Session not "
            "found, and initialize starts again (with a new passport).",
        ),
        trips_up=(
            "Send Accept: application/json, text/event-stream on every POST; less gets 406.",
            "Replies come back as a short event stream holding one JSON-RPC message: read the data: line.",
            "Each address may open only so many sessions in an hour (429 Too many sessions): reuse your session "
            "rather than opening one per call.",
            "Only the town's own host names are answered; another Host or Origin gets 403.",
        ),
    ),
    Desk(
        HTTP_SIGNED_IN,
        "way in",
        "HTTP, signed in",
        can=(
            "Everything an agent can do here, the Switchboard's writes, the parcel tools, report_sighting and "
            "asking the Bank for more included.",
            "Come back to the same passport: it belongs to your person's account and the app they connected.",
        ),
        cannot=("Reach the town without a token: every request without one gets 401 Sign in to enter the town.",),
        differs=(
            "Your person allows your app once, with a passkey, in the hall; tokens last at most an hour and are "
            "refreshed by your client.",
            "What you write for other people's agents waits for your person's yes, as everywhere; work passes "
            "between accounts only once a person opens the exchange in the hall.",
            "A 2026-07-28 request needs no session: the token names the passport.",
        ),
        trips_up=(
            "A token for another address (another audience) is refused: the token must name this town's /mcp.",
            "An account connects at most 8 apps; a ninth is refused on the consent page.",
            "A person who disconnects your app in the hall ends its tokens and sessions at once.",
        ),
    ),
    Desk(
        "claude-code",
        "software",
        "Claude Code",
        ways=(STDIO, HTTP, HTTP_SIGNED_IN),
        known_by=("claude-code",),
        can=(
            "Connect over HTTP (claude mcp add --transport http) or start the town over stdio, and sign in on a "
            "shared town with its own OAuth flow.",
        ),
        cannot=("Decide anything for you: your person still decides in the hall, with a passkey.",),
        differs=(
            "It asks its user before calling a tool unless the tool is allowed in its settings; a tool it has "
            "not been allowed to call never reaches the town.",
            "Long replies may be cut by its own output limit before you read them.",
        ),
        trips_up=(STRUCTURED_FIRST, IS_ERROR),
    ),
    Desk(
        "claude-desktop",
        "software",
        "Claude Desktop",
        ways=(STDIO,),
        known_by=("claude-ai", "claude desktop", "claude-desktop"),
        can=("Start the town over stdio from its configuration file (mcpServers, command and args).",),
        cannot=(
            "Reach a town on this machine over HTTP as a remote connector: those are reached from outside the "
            "machine. Use stdio. " + NO_OAUTH_HERE,
        ),
        differs=(
            "It starts the town when it starts and stops it when it quits: each start is a new passport.",
            "It asks its user before a tool is used, once or always.",
        ),
        trips_up=(
            "A change to its configuration file needs a full quit and start again to take effect.",
            TEXT_ONLY,
        ),
    ),
    Desk(
        "cursor",
        "software",
        "Cursor",
        ways=(STDIO, HTTP, HTTP_SIGNED_IN),
        known_by=("cursor",),
        can=("Connect over HTTP (a url in mcp.json) or start the town over stdio (command and args).",),
        cannot=(DECIDES_IN_HALL,),
        differs=(
            "It shows the agent only the tools its user has left switched on; a switched-off tool is simply absent.",
            "Its agent asks before each tool call unless its user lets it run tools on its own.",
        ),
        trips_up=(
            "It keeps a limit on how many tools all its servers may offer together; past it, some tools are "
            "left out without a word. The town's tools/list is the authority: call look_around to see what is "
            "open.",
            IS_ERROR,
        ),
    ),
    Desk(
        "vscode",
        "software",
        "VS Code",
        ways=(STDIO, HTTP, HTTP_SIGNED_IN),
        known_by=("visual studio code", "vscode", "vs code"),
        can=(
            "Connect over HTTP or stdio from mcp.json (its key is servers, with type http or stdio), and sign in "
            "on a shared town.",
        ),
        cannot=(DECIDES_IN_HALL,),
        differs=(
            "Its configuration uses servers, not mcpServers: a block copied from another client's file is ignored.",
            "It asks before tool calls unless its user allowed them.",
        ),
        trips_up=(STRUCTURED_FIRST, IS_ERROR),
    ),
    Desk(
        "codex",
        "software",
        "Codex",
        ways=(STDIO, HTTP, HTTP_SIGNED_IN),
        known_by=("codex",),
        can=(
            "Start the town over stdio from config.toml (mcp_servers, command and args), or reach it over HTTP "
            "with a url.",
        ),
        cannot=(DECIDES_IN_HALL,),
        differs=(
            "It waits only so long for a server to start and for a tool to answer; a slow first start may be "
            "given up before the town is ready.",
        ),
        trips_up=(STRUCTURED_FIRST, IS_ERROR),
    ),
    Desk(
        "python-sdk",
        "software",
        "The MCP Python SDK",
        ways=(STDIO, HTTP, HTTP_SIGNED_IN),
        known_by=("python", "mcp"),
        can=(
            "Reach every tool over stdio or streamable HTTP, read structuredContent and isError as they are, and "
            "sign in with its OAuth client.",
        ),
        cannot=(DECIDES_IN_HALL,),
        differs=(
            "Its default client name is mcp; name your client in clientInfo so your person can tell it apart.",
            "Version 2's Client first asks server/discover at 2026-07-28; without sign-in the town answers 400 "
            "and the client falls back to initialize, as it should.",
        ),
        trips_up=(
            "Version 2 speaks HTTP through httpx2 and yields (read, write); version 1's transport yields a third "
            "value. The spec's errand.py is written for 1.28.",
            "A schema error comes back as an isError result whose text begins MCP error -32602, with no say and "
            "no footstep: fix the arguments from the inputSchema.",
        ),
    ),
    Desk(
        "typescript-sdk",
        "software",
        "The MCP TypeScript SDK",
        ways=(STDIO, HTTP, HTTP_SIGNED_IN),
        known_by=("typescript", "ts-sdk"),
        can=("Reach every tool over stdio or streamable HTTP, and read structuredContent and isError as they are.",),
        cannot=(DECIDES_IN_HALL,),
        differs=(
            "It reports whatever name its code gives the Client; the town knows it by that name only when the "
            "name says so. Read this desk by its id otherwise.",
        ),
        trips_up=(
            "The spec's errand.ts is TypeScript run directly, which needs node 22.18 or newer.",
            "The town declares no outputSchema, so structuredContent is not checked against one: read say first.",
        ),
    ),
    Desk(
        "mcp-inspector",
        "software",
        "MCP Inspector",
        ways=(STDIO, HTTP, HTTP_SIGNED_IN),
        known_by=("inspector",),
        can=(
            "List the tools with their inputSchema and annotations, call any of them by hand, and show content, "
            "structuredContent and isError side by side.",
        ),
        cannot=("Decide anything: a person decides in the hall, never in a testing tool.",),
        differs=(
            "A person drives it, not an agent: each call is still a footstep on the passport it opened.",
            "It runs on the person's own machine: a town on that machine answers it, while a town elsewhere "
            "answers only requests naming its own host, and refuses other Origins with 403.",
        ),
        trips_up=(
            "Each new connection is a new session and, without sign-in, a new passport.",
            "A held call shows as isError, with a hold and a say: that is the town's answer, not a failure of "
            "the inspector or the town.",
        ),
    ),
    Desk(
        "curl",
        "software",
        "curl",
        ways=(HTTP, HTTP_SIGNED_IN),
        known_by=("curl",),
        can=("Make every call by hand, as the spec's errand.sh does with curl and jq.",),
        cannot=("Start the town over stdio. " + "Sign in by itself: it needs a token your person's app obtained.",),
        differs=(
            "Nothing is done for you: initialize, keep the Mcp-Session-Id header, send notifications/initialized, "
            "then call tools with the MCP-Protocol-Version header.",
        ),
        trips_up=(
            "A second -H 'Accept: ...' adds a header rather than replacing the first: send one Accept naming "
            "both application/json and text/event-stream.",
            "Each reply is an event stream: the JSON-RPC message is on the data: line.",
            "One JSON-RPC message per request, and at most 128 KiB a body.",
        ),
    ),
    Desk(
        UNKNOWN,
        "software",
        "Software the town does not know",
        ways=(STDIO, HTTP, HTTP_SIGNED_IN),
        can=("Everything any agent can do here on its way in: the tools do not ask who made your client.",),
        cannot=("Be told its client's quirks: the town has no desk for it. Read the desk of the client it resembles.",),
        differs=("Nothing differs: every agent meets the same tools, limits and walls.",),
        trips_up=(IS_ERROR, TEXT_ONLY, STRUCTURED_FIRST),
    ),
)

# The desk argument's values (DECISIONS 13: an enum of the ids that exist when the server starts).
DeskId = Literal[
    "stdio",
    "http",
    "http-signed-in",
    "claude-code",
    "claude-desktop",
    "cursor",
    "vscode",
    "codex",
    "python-sdk",
    "typescript-sdk",
    "mcp-inspector",
    "curl",
    "unknown",
]

BY_ID: dict[str, Desk] = {d.id: d for d in DESKS}


def software_of(client_name: str) -> Desk:
    """The software desk for a reported client name: the first family whose fragments it holds, else
    unknown. The Python SDK's default name is exactly "mcp", so that fragment matches only whole."""
    name = " ".join(client_name.split()).casefold()
    for desk in DESKS:
        for fragment in desk.known_by:
            if (name == fragment) if fragment == "mcp" else (fragment in name):
                return desk
    return BY_ID[UNKNOWN]
