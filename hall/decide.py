"""Deciding with a passkey: one road for holds, letters, plans, reports, and staff's rulings.

Nothing an agent does approves anything (ARCHITECTURE invariant 3). Each decision is a passkey
ceremony over a canonical statement the core writes (`decision_statement`, `letter_statement`,
`plan_statement`, `review_statement`): begin checks that what the page showed is still what waits,
keeps what the person saw with the passkey's ceremony, and asks for the passkey; finish verifies the answer
and hands the statement and the passkey's assertion to the core, whose conditional UPDATE decides
at most once. Words that changed between the page and the passkey fail the decision with a say.

A Decidable says what differs between the kinds (decisions.py declares holds, plans and reports;
letters.py the letter); begin and finish are the same for all of them.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from clockford.town.holds import NotDecided
from clockford.town.tooling import NotAllowed, NotFound
from hall import passkeys
from hall.http import Refused, View, account_or_refuse, ceremony, text
from hall.models import Account

BEGUN_ELSEWHERE = (
    "This passkey request was for another decision, or has expired. Nothing changed; press the button to start again."
)


def found[T](access: Callable[[Account, str], T], say: str, not_allowed: str = "") -> Callable[[Account, str], T]:
    """An access_* service whose NotFound is the hall's 404, in the person's words, and, where the service
    may answer NotAllowed (staff's pages), that is the hall's 403 in `not_allowed`'s."""

    def fetch(account: Account, item_id: str) -> T:
        try:
            return access(account, item_id)
        except NotFound:
            raise Refused(say, status=404) from None
        except NotAllowed:
            if not not_allowed:
                raise
            raise Refused(not_allowed, status=403) from None

    return fetch


def page(
    request: HttpRequest, kind: str, thing: Any, status: str, says: dict[str, str], more: dict[str, Any]
) -> HttpResponse:
    """The page of one thing a person decides (hall/<kind>.html): the thing under its kind's name, its
    status, what that status means in words ("This plan is ended." for one `says` lacks), and `more`."""
    say = says.get(status, f"This {kind} is {status}.")
    return render(request, f"hall/{kind}.html", {kind: thing, "status": status, "say": say, **more})


def shown(kind: str, item: str, begun: dict[str, Any]) -> dict[str, Any]:
    """What the page showed when the passkey was asked for, as its approval ceremony keeps it
    (passkeys.begin_approval's `begun`): with the kind and the thing it is about."""
    return {"kind": kind, "item": str(item), **begun}


def begun(approval: passkeys.Approval, kind: str, item: str) -> dict[str, Any]:
    """What the page showed when the passkey was asked for (decision, words), as the answered ceremony
    kept it; refused when that ceremony was begun for another thing."""
    kept = approval.begun
    if kept.get("kind") != kind or kept.get("item") != str(item) or not isinstance(kept.get("decision"), str):
        raise Refused(BEGUN_ELSEWHERE)
    return kept


@dataclass(frozen=True)
class Decidable:
    """What differs between the things a person decides; begin and finish do the rest."""

    kind: str  # also the name of its page: hall:<kind>
    fetch: Callable[[Account, str], Any]
    decisions: tuple[str, ...]
    # Why it can no longer be decided (None while it waits).
    undecidable: Callable[[Any], str | None]
    statement: Callable[[Any, str], str]
    # Record the signed decision; returns what the person is told.
    decide: Callable[[Any, Account, dict[str, str], passkeys.Approval], str]
    # Whether the words the page drew (their digest) are still the thing's words (None: the page draws
    # none to check), and what the person is told when they are not.
    unchanged: Callable[[Any, str], bool] | None = None
    changed: str = ""
    # Why this one decision cannot be made of it now, when that depends on the decision (None: it can).
    cannot: Callable[[Any, str], str | None] | None = None
    # What else the page shows that the decision depends on (a hold's plan), by the name of the hidden
    # field it sends back in; changed since the page was drawn, and what the person is told then.
    beside: Callable[[Any], dict[str, str]] | None = None
    beside_changed: str = ""

    @property
    def knows_only(self) -> str:
        """The refusal of a decision the hall does not know: "The hall knows only allow and refuse."."""
        *first, last = self.decisions
        return f"The hall knows only {', '.join(first)} and {last}."


def begin(d: Decidable, request: HttpRequest, data: dict[str, Any], item_id: str) -> dict[str, Any]:
    account = account_or_refuse(request)
    thing = d.fetch(account, item_id)
    decision, words = text(data, "decision"), text(data, "words")
    if decision not in d.decisions:
        raise Refused(d.knows_only)
    why = d.undecidable(thing)
    if why is None and d.cannot is not None:
        why = d.cannot(thing, decision)
    if why is not None:
        raise Refused(why, 409)
    # The words the page drew must still be the thing's words, before any passkey is asked for.
    if d.unchanged is not None and not d.unchanged(thing, words):
        raise Refused(d.changed, 409)
    beside = d.beside(thing) if d.beside is not None else {}
    if any(text(data, name) != value for name, value in beside.items()):
        raise Refused(d.beside_changed, 409)
    kept = shown(d.kind, thing.id, {"decision": decision, "words": words, **beside})
    return {"options": passkeys.begin_approval(request.session, d.statement(thing, decision), account, kept)}


def finish(d: Decidable, request: HttpRequest, data: dict[str, Any], item_id: str) -> dict[str, Any]:
    account = account_or_refuse(request)
    thing = d.fetch(account, item_id)
    # The passkey's answer first: the ceremony is spent whatever happens next.
    approval = passkeys.finish_approval(request.session, data.get("credential"), account)
    kept = begun(approval, d.kind, thing.id)
    if d.unchanged is not None and d.undecidable(thing) is None and not d.unchanged(thing, kept.get("words", "")):
        raise Refused(d.changed, 409)
    if d.beside is not None and d.undecidable(thing) is None:
        if any(kept.get(name) != value for name, value in d.beside(thing).items()):
            raise Refused(d.beside_changed, 409)
    try:
        said = d.decide(thing, account, kept, approval)
    except NotDecided as exc:
        raise Refused(exc.say, status=409) from exc
    messages.success(request, said)
    return {"next": reverse(f"hall:{d.kind}", args=[thing.id])}


def ceremonies(d: Decidable) -> tuple[View, View]:
    """The two JSON halves of deciding one `d` with a passkey: the views of its /begin and /finish."""

    # The route names its one id after the kind (hold_id, letter_id, ...).
    def begin_half(request: HttpRequest, data: dict[str, Any], **route: str) -> dict[str, Any]:
        (item_id,) = route.values()
        return begin(d, request, data, item_id)

    def finish_half(request: HttpRequest, data: dict[str, Any], **route: str) -> dict[str, Any]:
        (item_id,) = route.values()
        return finish(d, request, data, item_id)

    return ceremony(begin_half), ceremony(finish_half)
