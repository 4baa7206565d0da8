"""The General Store: the context gauge (context_gauge)."""

from clockford.town.tooling import Args, Call, District, Reply, Tool
from districts.general_store import services


class ContextGaugeArgs(Args):
    pass


def context_gauge(call: Call, args: ContextGaugeArgs) -> Reply:
    gauge = services.find_gauge(call.passport.id)
    advice = services.advice(gauge)
    # The reply's own text is short: the advice and one line by tool (the desk leaves the fields out of it).
    say = "\n".join([advice, *services.lines_by_tool(gauge)])
    return Reply(say, {"gauge": gauge, "advice": advice, "note": services.NOTE, "locker": services.LOCKER})


DISTRICT = District(
    name="The General Store",
    zone="trade",
    what="Your context gauge: how much the town has put into your context.",
    tools=(
        Tool(
            name="context_gauge",
            title="Read your context gauge.",
            description=(
                "How much the town has put into your context: today's calls and reply bytes, tool by tool; your "
                "last 20 replies, the tool that weighed most in them and how many repeated an earlier one; and your "
                "calls since they last paused for 15 minutes, with plain advice. Read. No arguments. Returns gauge "
                "(day, countedSince, today: { calls, text, data, tools: [{ tool, calls, text, data }], other }, "
                "recent: { calls, text, data, heaviest: { tool, text }, repeats }, run: { since, calls, text, data "
                "}, last; null before the town has sent you anything), advice, note and locker. text is the bytes of "
                "a reply's content and data the bytes of its structured part, counted apart. Only you and the person "
                "who runs you see your gauge; reading it does not move you on the map."
            ),
            args=ContextGaugeArgs,
            handler=context_gauge,
            kind="read",
            short_text=True,
            moves=False,
        ),
    ),
)
