"""The hall's Realty pages (docs/realty.md): a person's agents ask for deeds (claim_deed); here the
person proves ownership with their own sign-in and takes the deed with their passkey, declines an ask,
checks a deed again, and says yes (with the passkey) or no to showing a deed's server in the Studios.

How each namespace is proven is in hall/deed_proofs.py. Proving is a person's act: the check runs when
they press the button (GitHub: when GitHub sends them back), and the deed is issued only once their
passkey signs a statement naming the ask, the lot, the namespace and the proof found. The hall asks the
Realty Office's services, never its models.
"""

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse

from clockford.town.holds import NotDecided
from districts.realty import services as realty
from districts.studios import services as studios
from hall import deed_proofs, passkeys, sessions
from hall.decide import begun, found, shown
from hall.http import (
    Refused,
    account_or_refuse,
    at_the_hall,
    ceremony,
    fetched,
    page_only,
    person,
    refuse,
    signed_in_page,
    signed_in_post,
    text,
)
from hall.models import Account

NO_ASK = "No ask for a deed of yours has that number."
NO_DEED = "No deed of yours has that number."
NOT_PROVABLE = (
    "This server's namespace is neither io.github.<owner> nor a reverse-DNS domain name, so there is no way to "
    "prove owning it. Decline the ask."
)
NO_PROOF_KEPT = "Sign in to GitHub as the namespace's owner first; then take the deed with your passkey."
GITHUB_LOST = "That GitHub sign-in was for another ask, or has expired. Nothing changed; start it again from the ask."

_ask = found(realty.access_ask, NO_ASK)
_deed = found(realty.access_deed, NO_DEED)


# The GitHub sign-in begun, and the proof it gave, are kept in the session by sessions.change: written
# into the stored session alone, so a page loading in another tab at that moment does not undo them.
_GITHUB = "hall.deeds.github"


def _proof_key(ask_id: str) -> str:
    return f"hall.deeds.proof.{ask_id}"


def _lot_name(number: int) -> str:
    lot = realty.lot_of(number)
    return lot.name if lot is not None else ""


# -- Pages --------------------------------------------------------------------------------------------


@signed_in_page
def deeds_page(request: HttpRequest, account: Account) -> HttpResponse:
    """/hall/deeds: the asks waiting for this person, and their deeds."""
    asks = [{"ask": a, "name": _lot_name(a.lot)} for a in realty.asks_waiting(account)]
    deeds = []
    for d in realty.deeds_of(account):
        lot = realty.lot_of(d.lot)
        deeds.append(
            {
                "deed": d,
                "name": lot.name if lot else "",
                "kind": studios.kind_of_lot(lot) if lot else None,
                "shown": realty.showing_of(d) is not None,
                "how": realty.METHOD_WORDS.get(d.method, d.method),
            }
        )
    return render(request, "hall/deeds.html", {"asks": asks, "deeds": deeds, "nav": "deeds"})


@signed_in_page
@fetched(_ask)
def ask_page(request: HttpRequest, account: Account, ask: Any) -> HttpResponse:
    name = _lot_name(ask.lot)
    space = realty.namespace_of(name)
    kept = request.session.get(_proof_key(ask.id))
    context: dict[str, Any] = {
        "ask": ask,
        "name": name,
        "space": space,
        "status": realty.ask_status(ask),
        "waiting": realty.undecidable(ask) is None,
        "github_ready": isinstance(kept, dict) and kept.get("method") == "github",
        "github_login": kept.get("evidence", {}).get("login") if isinstance(kept, dict) else None,
        "github_configured": deed_proofs.github_configured(),
        "github_not_configured": deed_proofs.GITHUB_NOT_CONFIGURED,
        "not_provable": NOT_PROVABLE,
        "nav": "deeds",
    }
    if space.kind == "domain":
        token = realty.proof_token(account, space.owner)
        context |= {
            "token": token,
            "txt": f"{realty.TOKEN_PREFIX}{token}",
            "well_known": f"https://{space.owner}{realty.WELL_KNOWN}",
            "document": '{"clockford-deed": "' + token + '"}',
        }
    return render(request, "hall/deed_ask.html", context)


# -- Proving: GitHub sign-in -------------------------------------------------------------------------


@signed_in_post
@fetched(_ask)
def github_start(request: HttpRequest, account: Account, ask: Any) -> HttpResponseBase:
    """Send the person to GitHub to sign in as the namespace's owner; GitHub sends them back below."""
    if not deed_proofs.github_configured():
        return refuse(request, deed_proofs.GITHUB_NOT_CONFIGURED, 409)
    if realty.namespace_of(_lot_name(ask.lot)).kind != "github":
        return refuse(request, "This ask's namespace is not under io.github.", 409)
    state = deed_proofs.new_state()
    sessions.change(request.session, _GITHUB, lambda _: {"state": state, "ask": ask.id})
    return redirect(deed_proofs.github_authorize_url(state))


@at_the_hall
@page_only
def github_back(request: HttpRequest) -> HttpResponseBase:
    """GitHub's redirect back. The hall's session cookie is SameSite=Strict, so a browser does not send
    it on a navigation that came from GitHub: the first arrival draws a page that comes back to this
    same address from the hall itself (a meta refresh, no script), which the browser sends it with."""
    account = person(request)
    if account is None:
        if request.GET.get("again"):
            return redirect("hall:front")
        path = request.get_full_path()
        again = path + ("&" if "?" in path else "?") + "again=1"
        return render(request, "hall/deed_github_back.html", {"again": again})
    return _github_back(request, account)


def _github_back(request: HttpRequest, account: Account) -> HttpResponseBase:
    """The code is traded for who signed in, which must be the namespace's owner."""
    started = sessions.change(request.session, _GITHUB, lambda _: None)
    state, code = request.GET.get("state", ""), request.GET.get("code", "")
    if not isinstance(started, dict) or not state or state != started.get("state"):
        return refuse(request, GITHUB_LOST, 400)
    try:
        ask = _ask(account, str(started.get("ask", "")))
    except Refused as refused:
        return refuse(request, refused.say, 404)
    back = reverse("hall:deed-ask", args=[ask.id])
    if not code:
        messages.error(request, "GitHub did not sign you in, so nothing was proven.")
        return redirect(back)
    space = realty.namespace_of(_lot_name(ask.lot))
    try:
        user = deed_proofs.github_user(code)
    except (OSError, ValueError):
        messages.error(request, "GitHub could not be asked who signed in. Nothing was proven; try again later.")
        return redirect(back)
    proof = deed_proofs.check_github_login(space.owner, user)
    if not proof.ok:
        messages.error(request, f"Refused: {proof.why} Nothing was proven.")
        return redirect(back)
    sessions.change(request.session, _proof_key(ask.id), lambda _: {"method": "github", "evidence": proof.evidence})
    messages.success(request, f"GitHub says you are {user['login']}. Take the deed with your passkey.")
    return redirect(back)


# -- Taking the deed, with the passkey ---------------------------------------------------------------


def _proof_for(request: HttpRequest, account: Account, ask: Any, method: str) -> dict[str, Any]:
    """Check the proof now (DNS, HTTPS), or take the GitHub proof this session was given."""
    space = realty.namespace_of(_lot_name(ask.lot))
    if not space.provable:
        raise Refused(NOT_PROVABLE, 409)
    if method == "github":
        kept = request.session.get(_proof_key(ask.id))
        if space.kind != "github" or not isinstance(kept, dict) or kept.get("method") != "github":
            raise Refused(NO_PROOF_KEPT, 409)
        evidence: dict[str, Any] = kept["evidence"]
        return evidence
    if space.kind != "domain" or method not in ("dns", "https"):
        raise Refused("That is not a way to prove this namespace.", 400)
    check = deed_proofs.check_dns if method == "dns" else deed_proofs.check_https
    proof = check(account, space.owner)
    if not proof.ok:
        raise Refused(f"Refused: {proof.why} Nothing was proven.", 409)
    return proof.evidence


@ceremony
def take_begin(request: HttpRequest, data: dict[str, Any], ask_id: str) -> dict[str, Any]:
    account = account_or_refuse(request)
    ask = _ask(account, ask_id)
    why = realty.undecidable(ask)
    if why is not None:
        raise Refused(why, 409)
    method = text(data, "decision")
    evidence = _proof_for(request, account, ask, method)
    kept = shown("deed", ask.id, {"decision": method, "evidence": evidence})
    statement = realty.take_statement(ask, method, evidence)
    return {"options": passkeys.begin_approval(request.session, statement, account, kept)}


@ceremony
def take_finish(request: HttpRequest, data: dict[str, Any], ask_id: str) -> dict[str, Any]:
    account = account_or_refuse(request)
    ask = _ask(account, ask_id)
    approval = passkeys.finish_approval(request.session, data.get("credential"), account)
    kept = begun(approval, "deed", ask.id)
    try:
        deed = realty.do_issue(
            ask, account, kept["decision"], kept.get("evidence") or {}, approval.statement, approval.assertion
        )
    except NotDecided as exc:
        raise Refused(exc.say, 409) from exc
    sessions.change(request.session, _proof_key(ask.id), lambda _: None)
    messages.success(
        request,
        f"Proven. You hold the deed to lot {deed.lot} ({deed.id}); the town checks its proof again every "
        f"{realty.recheck_after().total_seconds() / 3600:g} hours.",
    )
    return {"next": reverse("hall:deeds")}


@signed_in_post
@fetched(_ask)
def ask_decline(request: HttpRequest, account: Account, ask: Any) -> HttpResponseBase:
    """Decline an ask. No passkey: it only drops a question."""
    if realty.do_decline(ask, account):
        messages.success(request, f"Declined. Nothing was proven for lot {ask.lot}; your agent may ask again.")
    else:
        messages.error(request, realty.undecidable(ask) or "This ask no longer waits. Nothing changed.")
    return redirect("hall:deeds")


# -- A deed: check again, and the Studios' yes ---------------------------------------------------------


@signed_in_post
@fetched(_deed)
def deed_check(request: HttpRequest, account: Account, deed: Any) -> HttpResponseBase:
    if deed.lapsed_at is not None:
        messages.error(request, "This deed has lapsed already. Ask again from your agent to prove it anew.")
        return redirect("hall:deeds")
    deed = deed_proofs.recheck_one(deed)
    if deed.lapsed_at is None:
        messages.success(request, f"Checked: the proof still stands. Lot {deed.lot}'s deed is in force.")
    else:
        messages.error(request, f"Lapsed: {deed.lapse}. Lot {deed.lot} is deeded to nobody now.")
    return redirect("hall:deeds")


@ceremony
def show_begin(request: HttpRequest, data: dict[str, Any], deed_id: str) -> dict[str, Any]:
    account = account_or_refuse(request)
    deed = _deed(account, deed_id)
    if deed.lapsed_at is not None:
        raise Refused("This deed has lapsed, so its server cannot be shown.", 409)
    lot = realty.lot_of(deed.lot)
    if lot is None or studios.kind_of_lot(lot) is None:
        raise Refused("The Studios show creative servers only, and this server is not one by their rules.", 409)
    kept = shown("studios", deed.id, {"decision": "show"})
    return {"options": passkeys.begin_approval(request.session, realty.show_statement(deed), account, kept)}


@ceremony
def show_finish(request: HttpRequest, data: dict[str, Any], deed_id: str) -> dict[str, Any]:
    account = account_or_refuse(request)
    deed = _deed(account, deed_id)
    approval = passkeys.finish_approval(request.session, data.get("credential"), account)
    begun(approval, "studios", deed.id)
    try:
        realty.do_show(deed, approval.statement, approval.assertion)
    except NotDecided as exc:
        raise Refused(exc.say, 409) from exc
    messages.success(
        request, f"Yes, signed. Lot {deed.lot} is shown in the Studios from the day after today's, for everyone."
    )
    return {"next": reverse("hall:deeds")}


@signed_in_post
@fetched(_deed)
def deed_unshow(request: HttpRequest, account: Account, deed: Any) -> HttpResponseBase:
    """Take the yes back. No passkey: it only takes a permission away."""
    if realty.do_unshow(deed):
        messages.success(request, f"No longer shown: lot {deed.lot} leaves the Studios from the next day shown.")
    else:
        messages.error(request, "This server was not shown in the Studios. Nothing changed.")
    return redirect("hall:deeds")
