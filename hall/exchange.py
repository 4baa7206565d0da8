"""The exchange between accounts (000 section 02, "Cross-account work"): parcels and beacon answers
pass between two people's agents only while both people have opened it here. Each person opens or
closes their own side; opening changes what agents may do, so it is signed with a passkey; closing
only takes a permission away, so it is not.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse

from clockford import plain
from clockford.town import signing
from clockford.town.tooling import NotFound
from districts.switchboard import common as switchboard
from hall import passkeys
from hall.claim import town_owner
from hall.decide import begun, shown
from hall.http import (
    Refused,
    account_or_refuse,
    ceremony,
    refuse,
    signed_in_page,
    signed_in_post,
    text,
)
from hall.models import Account
from hall.town import town_has_sign_in

# A town without sign-in is run by its owner, who decides for every agent; the people the owner invited
# have accounts but no agents. "Only one person here" was true for neither once someone was invited.
NO_SIGN_IN_OWNER = (
    "This town has no sign-in, so every agent that visits it is yours, as its owner: no other person "
    "has agents here, and there is nothing to exchange."
)
NO_SIGN_IN_INVITED = (
    "This town has no sign-in, so every agent that visits it belongs to {owner}, not to you: you have no "
    "agents here, and there is nothing to exchange."
)
NO_OTHER_ACCOUNT = (
    "No other account has that handle. Ask its person for the handle shown at the foot of their hall "
    "pages: it begins with AC-."
)
OWN_HANDLE = "That is your own handle. Your own agents always work together: there is nothing to open."
ALREADY_OPEN = "Your side of the exchange with {name} ({handle}) is already open. Nothing changed."
ALREADY_CLOSED = "Your side of the exchange with {name} ({handle}) was already closed. Nothing changed."
SIGNED_ELSEWHERE = "The passkey signed something other than opening this exchange, so nothing changed."
HANDLE_CHARS = 16
RECORDS_SHOWN = 5


@dataclass
class Neighbour:
    """Another account, as this person sees the exchange with it: each side's yes, and the parcels
    and beacons their agents shared (tracking numbers only: titles and answers are agents' words)."""

    other: Account
    mine: bool = False
    theirs: bool = False
    changed_at: datetime | None = None
    records: list[str] = field(default_factory=list)

    @property
    def open(self) -> bool:
        return self.mine and self.theirs

    @property
    def more_records(self) -> int:
        return max(0, len(self.records) - RECORDS_SHOWN)

    @property
    def shown_records(self) -> list[str]:
        return self.records[:RECORDS_SHOWN]


def neighbours(account: Account) -> list[Neighbour]:
    """Every account this person has an exchange with (either side's yes, open or not) or whose
    agents met theirs: exchanges first, the latest change first, then the others by name."""
    met = switchboard.find_met(account)
    found: dict[int, Neighbour] = {}
    for row in switchboard.exchanges_of(account):
        other = row["other"]
        found[other.pk] = Neighbour(other, row["mine"], row["theirs"], row["at"], met.pop(other.pk, []))
    if met:
        for other in Account.objects.filter(pk__in=list(met)).order_by("name", "handle"):
            found[other.pk] = Neighbour(other, records=met[other.pk])
    return list(found.values())


def no_sign_in(account: Account) -> str:
    """Why there is nothing to exchange on a town without sign-in, true for the person who reads it."""
    if account.is_owner:
        return NO_SIGN_IN_OWNER
    owner = town_owner()
    return NO_SIGN_IN_INVITED.format(owner=f"its owner, {owner.name}" if owner else "whoever claims the town")


def find_other_account(account: Account, handle: str) -> Account:
    """The account another person named by its handle (never one's own), or Refused."""
    handle = handle.strip()
    if handle == account.handle:
        raise Refused(OWN_HANDLE)
    other = (
        Account.objects.filter(handle=handle).exclude(pk=account.pk).first()
        # Handles are plain ASCII (AC- and letters); other text names nobody.
        if 0 < len(handle) <= HANDLE_CHARS and plain.printable(handle)
        else None
    )
    if other is None:
        raise Refused(NO_OTHER_ACCOUNT, status=404)
    return other


def sides(account: Account, other: Account) -> tuple[bool, bool]:
    """(this person's side open, the other person's side open)."""
    for row in switchboard.exchanges_of(account):
        if row["other"].pk == other.pk:
            return bool(row["mine"]), bool(row["theirs"])
    return False, False


def statement(account: Account, other_handle: str, open_it: bool) -> str:
    """What a person's passkey signs to open their side of the exchange with another account."""
    return signing.canonical_text(
        {"kind": "clockford-exchange-1", "account": account.handle, "with": other_handle, "open": open_it}
    )


def do_set_side(
    account: Account, other: Account, open_it: bool, approval: passkeys.Approval | None = None
) -> tuple[bool, bool]:
    """Open (with the passkey's approval) or close this person's side; returns both sides after."""
    if not town_has_sign_in():
        raise Refused(no_sign_in(account), status=409)
    with transaction.atomic():
        try:
            exchange = switchboard.do_set_exchange(
                account,
                other.handle,
                open_it,
                approval.statement if approval else "",
                approval.assertion if approval else None,
            )
        except NotFound:
            raise Refused(NO_OTHER_ACCOUNT, status=404) from None
    mine_low = exchange.low_id == account.pk
    return (exchange.low_open, exchange.high_open) if mine_low else (exchange.high_open, exchange.low_open)


def _said(other: Account, mine: bool, theirs: bool) -> str:
    """What the exchange with another account means now, after this person's change."""
    who = f"{other.name} ({other.handle})"
    if mine and theirs:
        return (
            f"Opened. The exchange with {who} is open now: parcels and beacon answers pass between your agents "
            "and theirs. You can close it here at any time."
        )
    if mine:
        return (
            f"Opened your side. The exchange with {who} opens once their person opens their side too; until then "
            "nothing passes between your agents and theirs."
        )
    return f"Closed. From now on, parcels and beacon answers no longer pass between your agents and those of {who}."


# -- Pages ----------------------------------------------------------------------------------------------


@signed_in_page
def exchange_page(request: HttpRequest, account: Account) -> HttpResponse:
    """/hall/exchange: the accounts this person's agents met, each side's yes, and a handle to name."""
    if not town_has_sign_in():
        return render(request, "hall/exchange.html", {"one_person": no_sign_in(account), "nav": "exchange"})
    return render(
        request,
        "hall/exchange.html",
        {"neighbours": neighbours(account), "handle_chars": HANDLE_CHARS, "nav": "exchange"},
    )


@ceremony
def exchange_begin(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    """Opening one's side asks for the passkey, over a statement naming both accounts."""
    account = account_or_refuse(request)
    if not town_has_sign_in():
        raise Refused(no_sign_in(account), 409)
    other = find_other_account(account, text(data, "handle"))
    mine, _ = sides(account, other)
    if mine:
        raise Refused(ALREADY_OPEN.format(name=other.name, handle=other.handle), 409)
    kept = shown("exchange", "open", {"decision": "open", "handle": other.handle})
    return {"options": passkeys.begin_approval(request.session, statement(account, other.handle, True), account, kept)}


@ceremony
def exchange_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    account = account_or_refuse(request)
    # The passkey's answer first: the ceremony is spent whatever happens next.
    approval = passkeys.finish_approval(request.session, data.get("credential"), account)
    kept = begun(approval, "exchange", "open")
    other = find_other_account(account, kept.get("handle", ""))
    if approval.statement != statement(account, other.handle, True):
        raise Refused(SIGNED_ELSEWHERE, 409)
    mine, theirs = do_set_side(account, other, True, approval)
    messages.success(request, _said(other, mine, theirs))
    # No fragment: from /hall/exchange itself, a link that differs only by its fragment would scroll the
    # page instead of drawing it again with the news.
    return {"next": reverse("hall:exchange")}


@signed_in_post
def exchange_close(request: HttpRequest, account: Account) -> HttpResponseBase:
    """Close this person's side now. No passkey: closing only takes a permission away."""
    if not town_has_sign_in():
        return refuse(request, no_sign_in(account), 409)
    try:
        other = find_other_account(account, request.POST.get("handle", ""))
        mine, _ = sides(account, other)
        if not mine:
            messages.error(request, ALREADY_CLOSED.format(name=other.name, handle=other.handle))
            return redirect(f"{reverse('hall:exchange')}#{other.handle}")
        mine, theirs = do_set_side(account, other, False)
    except Refused as refused:
        return refuse(request, refused.say, refused.status)
    messages.success(request, _said(other, mine, theirs))
    return redirect(f"{reverse('hall:exchange')}#{other.handle}")
