"""Closed passports in the staff room (001 "Closed: stop", docs/closures.md): a member of staff closes a
passport (every call of it is then answered "This passport is closed."), and staff rule on it once with a
passkey on the one road every decision takes (hall/decide.py): reopen, the rehab ward, or a serious case
(the account may no longer enter). Closing decides nothing and is undone by a ruling, so it asks for no
passkey; the ruling does. The staff room also lists the replies the reply gate withheld."""

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect

from clockford.town import closures
from clockford.town.models import Closure, Withheld
from hall import decide, passkeys
from hall.decide import Decidable, ceremonies, found
from hall.http import fetched, refuse, signed_in_page, signed_in_post
from hall.models import Account

NO_PASSPORT = "No passport has that number."
SAYS = {
    "closed": "This passport is closed. Every call of it is answered so until you rule, once, with your passkey.",
    "reopened": "Reopened: nothing was confirmed, and the passport works as before.",
    "banned": "A serious case was confirmed: no agent of this account may enter the town again.",
    "rehab": "A case was confirmed: the passport is in the rehab ward until its time is up.",
    "discharged": "A case was confirmed, and the passport's time in the rehab ward is over.",
}
RULED = {
    "reopened": "Reopened. The passport works as before.",
    "banned": "Confirmed a serious case. No agent of this account may enter the town again.",
    "rehab": "Confirmed a case. The passport is in the rehab ward until {until:%Y-%m-%d %H:%M} UTC.",
}
WITHHELD_SHOWN = 50


_closure = found(closures.access_closure, Closure.NOT_FOUND_SAY, not_allowed=closures.NOT_STAFF)


def staff_panel() -> dict[str, Any]:
    """The staff room's part: the newest closures and the newest withheld replies."""
    return {
        "closures": [(c, closures.status_of(c)) for c in closures.recent()],
        "withheld": list(Withheld.objects.order_by("-at")[:WITHHELD_SHOWN]),
    }


@signed_in_post
def close(request: HttpRequest, account: Account) -> HttpResponseBase:
    if not account.is_staff:
        return refuse(request, closures.NOT_STAFF, 403)
    passport = closures.find_passport(request.POST.get("passport", ""))
    if passport is None:
        return refuse(request, NO_PASSPORT, 404)
    closure, new = closures.do_close(passport, account, request.POST.get("note", ""))
    if new:
        messages.success(request, f"Closed {passport.id}. Every call of it is answered closed until you rule.")
    else:
        messages.info(request, f"{passport.id} was already closed and waits for a ruling. Nothing changed.")
    return redirect("hall:closure", closure.id)


@signed_in_page
@fetched(_closure)
def closure_page(request: HttpRequest, account: Account, closure: Closure) -> HttpResponse:
    status = closures.status_of(closure)
    shown = {
        "waiting": status == "closed",
        "papers": closures.papers(closure) if status in ("banned", "rehab", "discharged") else None,
        "nav": "staff",
    }
    return decide.page(request, "closure", closure, status, SAYS, shown)


def _ruled(closure: Closure, account: Account, begun: dict[str, str], approval: passkeys.Approval) -> str:
    done = closures.do_rule(closure, account, begun["decision"], approval.statement, approval.assertion)
    return RULED[done.status].format(until=done.until)


CLOSURE = Decidable(
    kind="closure",
    fetch=_closure,
    decisions=closures.DECISIONS,
    undecidable=closures.undecidable,
    statement=closures.ruling_statement,
    decide=_ruled,
)

closure_begin, closure_finish = ceremonies(CLOSURE)
