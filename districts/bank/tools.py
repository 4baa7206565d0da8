"""The Bank: show_balance and request_authority (000 section 13). The amounts and what counts as a
change are in services.py and docs/bank.md."""

from typing import Literal, get_args

from django.conf import settings
from pydantic import Field

from clockford.town import clock
from clockford.town.tooling import Args, Call, District, Reply, Tool, counted
from districts.bank import services

ReasonName = Literal["long-errand", "many-records", "retries", "person-asked"]
if get_args(ReasonName) != services.REASON_NAMES:
    raise RuntimeError("request_authority's reasons must be the Bank's fixed list")


class ShowBalanceArgs(Args):
    pass


class RequestAuthorityArgs(Args):
    reason: ReasonName = Field(description="Why you need more: one of the reasons show_balance lists.")
    amount: int | None = Field(
        default=None,
        ge=1,
        le=services.MAX_AMOUNT,
        description="How many more changes, 1 to 30. Without it, the reason's own amount (show_balance lists it).",
    )


def _rules() -> list[str]:
    return [
        f"A passport may make {services.per_passport()} changes in a clock hour (UTC), and an account "
        f"{services.per_account()} across all its agents; each change draws one from both. The hour refills on "
        "the hour.",
        "A change is every call of a tool that is not read-only (readOnlyHint false) and that changes things; "
        "listen draws only with join or leave. Reads, show_balance and request_authority never draw.",
        "A call held for your person draws when it goes through, not while it waits; a call refused for any "
        "other reason draws nothing.",
        "At zero, a change is refused before it runs. Letters to your person, reports, disputes and plans "
        "still go through: writing to your person is never blocked.",
        "request_authority asks your person for 1 to 30 more, for one reason; one request at a time. Allowed, "
        "it raises this hour's ceiling; a request not decided within its hour lapses.",
    ]


def _show_balance_says() -> str:
    """show_balance's description, with this town's hourly amounts (read once, when the town starts)."""
    amounts = (
        f"A passport has {settings.CHANGES_PER_HOUR} changes an hour and an account "
        f"{settings.CHANGES_PER_HOUR_PER_ACCOUNT} across its agents."
        if settings.CHANGES_PER_HOUR
        else "This town's Bank counts nothing: its hourly amount is turned off."
    )
    return (
        "At most how many more changes you may make this hour, what you drew, when the hour refills, and your "
        "requests for more. Read. No money is involved, ever: every change you make (every call that is not "
        f"read-only) is a withdrawal, and at zero a change is refused before it runs. {amounts} Returns balance, "
        "requests, reasons and rules."
    )


def show_balance(call: Call, args: ShowBalanceArgs) -> Reply:
    now = clock.now()
    b = services.balance_of(call.passport)
    if not services.per_passport():
        say = "The Bank is not counting changes in this town: nothing you do draws from an hourly authority."
    else:
        say = (
            f"At most {b.left} of {b.of} changes are left this hour; you drew {b.drawn}. The hour refills at "
            f"{b.refills_at:%H:%M} UTC."
        )
    return Reply(
        say,
        {
            "balance": b.as_dict(now),
            "requests": services.requests_of(call.passport),
            "reasons": [{"reason": r.name, "means": r.means, "amount": r.amount} for r in services.REASONS],
            "rules": _rules(),
        },
    )


def request_authority(call: Call, args: RequestAuthorityArgs) -> Reply:
    request = services.do_request(call.passport, args.reason, args.amount)
    return Reply(
        # The link is the hallUrl field, named in the say as every reply that waits for a person names it.
        f"Request {request.id} for {counted(request.amount, 'more change', 'more changes')} this hour waits for your "
        "person, who decides in "
        "the hall at hallUrl. It lapses when the hour ends; show_balance shows what became of it.",
        {"request": services.view(request, clock.now()), "hallUrl": services.decide_at(request)},
    )


DISTRICT = District(
    name="The Bank",
    zone="civic",
    what="Your remaining authority this hour, drawn as money in an account.",
    tools=(
        Tool(
            name="show_balance",
            title="Show your balance.",
            description=_show_balance_says(),
            args=ShowBalanceArgs,
            handler=show_balance,
            kind="read",
        ),
        Tool(
            name="request_authority",
            sign_in=services.SIGN_IN_SAY,
            title="Ask the Bank for more.",
            description=(
                "Ask your person for more changes this hour than you were given. Read: asking draws nothing. Needs "
                "sign-in. reason is one of the reasons show_balance lists; amount is 1 to 30. Your person decides "
                "in the hall (the reply links the page); there is one request at a time, and an allowed request "
                "raises this hour's ceiling. Ask only for a reason your errand truly has."
            ),
            args=RequestAuthorityArgs,
            handler=request_authority,
            kind="read",
        ),
    ),
)
