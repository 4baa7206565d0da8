"""The hall's page for a request for more authority (the Bank, 000 section 13): an agent asks its
person for more changes this hour, and the person allows or refuses it once with a passkey, on the one
road every decision takes (hall/decide.py). The hall asks the Bank's services, never its models."""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clockford.town import clock
from clockford.town.tooling import counted
from districts.bank import services as bank
from hall import passkeys
from hall.decide import Decidable, ceremonies, found
from hall.http import fetched, signed_in_page
from hall.models import Account
from hall.queue import next_waiting
from hall.shown import stamp, time_left

NO_REQUEST = "No request you decide has that number."

SAYS = {
    "waiting": "Your agent asks for more changes this hour. Allow or refuse it, once.",
    "allowed": "You allowed this request: this hour's ceiling rose by the amount.",
    "refused": "You refused this request. Your agent's ceiling stays as it was.",
    "lapsed": "Nobody decided this request within its hour, so it lapsed. Nothing changed.",
}

_request = found(bank.access_request, NO_REQUEST)


@signed_in_page
@fetched(_request)
def authority_page(request: HttpRequest, account: Account, asked: Any) -> HttpResponse:
    status = bank.status_of(asked)
    b = bank.balance_of(asked.passport)
    return render(
        request,
        "hall/authority.html",
        {
            "asked": asked,
            "status": status,
            "say": SAYS.get(status, f"This request is {status}."),
            "waiting": status == "waiting",
            "means": bank.reason_means(asked.reason),
            "balance": b,
            "raised_to": b.of + asked.amount,
            "hour_ends": asked.hour + bank.HOUR,
            "left": time_left(asked.hour + bank.HOUR),
            "now": clock.now(),
            "next_item": next_waiting(account, asked.id) if status != "waiting" else None,
        },
    )


def _decided(asked: Any, account: Account, begun: dict[str, str], approval: passkeys.Approval) -> str:
    decided = bank.do_decide_request(asked, account, begun["decision"], approval.statement, approval.assertion)
    if decided.status == "allowed":
        return (
            f"Allowed. Your agent may make {counted(decided.amount, 'more change', 'more changes')} this hour, until "
            f"{stamp(decided.hour + bank.HOUR)}."
        )
    return "Refused. Your agent's ceiling stays as it was."


AUTHORITY = Decidable(
    kind="authority",
    fetch=_request,
    decisions=bank.DECISIONS,
    undecidable=bank.undecidable,
    statement=bank.request_statement,
    decide=_decided,
)

authority_begin, authority_finish = ceremonies(AUTHORITY)
