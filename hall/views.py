"""The hall's front door: what waits for the person signed in (the queue), or signing in, signing up
and, on a town without sign-in, the owner's one-time claim; signing out; Django's CSRF refusal in the
hall's words; and the hall's own static files.

The pages of each feature live beside its services (agents.py, letters.py, decisions.py, exchange.py,
staff.py, passkey_pages.py, oauth_views.py); every view is wrapped by hall/http.py's `at_the_hall`.
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth import login, logout
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from clockford import files
from clockford.town import desk, signing
from hall import drawn, invites, live, passkey_changes, passkeys
from hall.claim import CLAIM_SAYS, find_claim, strangers_sign_up, town_owner
from hall.drawn import sent_mark
from hall.http import at_the_hall, ceremony, next_of, page_only, person, post_only, refuse, refused_first, text
from hall.queue import QUEUE_PER_PAGE, Queue
from hall.town import NAME_CHARS, town_has_sign_in, town_mode_words

BACKEND = "hall.backends.PasskeyBackend"


# Pages.


@at_the_hall
@page_only
def front(request: HttpRequest) -> HttpResponse:
    """/hall/: the front door, or what waits for the person signed in."""
    account = person(request)
    after = next_of(request)
    if account is None:
        owner = town_owner()
        return render(
            request,
            "hall/front.html",
            {
                "unowned": owner is None and not town_has_sign_in(),
                "strangers_sign_up": strangers_sign_up(),
                "mode": town_mode_words(),
                "mode_key": desk.town_mode(),
                "next": after,
            },
        )
    if after is not None:
        return redirect(after)
    # Paginator reads a Queue by count() and a slice; django-stubs' types ask for a whole Sequence.
    queue: Any = Queue(account)
    page = Paginator(queue, QUEUE_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "hall/home.html", {"waiting": page, "page": page, "live_path": live.PATH, "nav": "home"})


@at_the_hall
@page_only
def signup(request: HttpRequest) -> HttpResponse:
    """Make an account: open to anyone on a town without an owner; on a town run by its owner, the page
    says to ask the owner for an invite (and the ceremony refuses without one)."""
    open_to_all = strangers_sign_up()
    return render(
        request,
        "hall/signup.html",
        {
            "account": person(request),
            "name_chars": NAME_CHARS,
            "next": next_of(request),
            "open": open_to_all,
            "say": "" if open_to_all else invites.ASK_FOR_INVITE,
            "begin": reverse("hall:signup-begin"),
        },
        status=200 if open_to_all else 403,
    )


@at_the_hall
@page_only
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """The sign-up page with an invite: open while the invite is live, else what became of it."""
    found, state = invites.find_invite(token)
    return render(
        request,
        "hall/signup.html",
        {
            "account": person(request),
            "name_chars": NAME_CHARS,
            "next": None,
            "open": state == "ready",
            "invite": found if state == "ready" else None,
            "say": invites.INVITE_SAYS.get(state, ""),
            "begin": reverse("hall:invite-begin", args=[token]),
        },
        status=200 if state == "ready" else 404 if state == "unknown" else 410,
    )


@at_the_hall
@page_only
def claim(request: HttpRequest, code: str) -> HttpResponse:
    _, state = find_claim(code)
    return render(
        request,
        "hall/claim.html",
        {
            "state": state,
            "say": CLAIM_SAYS[state],
            "code": code,
            "account": person(request),
            "name_chars": NAME_CHARS,
        },
        status=200 if state == "ready" else 410 if state in ("used", "replaced", "owned") else 404,
    )


@at_the_hall
@post_only
def signout(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.info(request, "You are signed out. Your passkeys stay on your devices for next time.")
    return redirect("hall:front")


# The passkey ceremonies.


@ceremony
def signup_begin(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    return {"options": passkeys.begin_signup(request.session, text(data, "name"))}


@ceremony
def invite_begin(request: HttpRequest, data: dict[str, Any], token: str) -> dict[str, Any]:
    return {"options": passkeys.begin_signup(request.session, text(data, "name"), invite_token=token)}


@ceremony
def signup_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    account = passkeys.finish_signup(request.session, data.get("credential"))
    login(request, account, backend=BACKEND)
    messages.success(request, f"Welcome, {account.name}. Your account is made, and your passkey signs you in.")
    return {"next": next_of(request) or reverse("hall:front")}


@ceremony
def signin_begin(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    return {"options": passkeys.begin_signin(request.session)}


@ceremony
def signin_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    account = passkeys.finish_signin(request.session, data.get("credential"))
    login(request, account, backend=BACKEND)
    # Back to the page the person asked for while signed out, else to what waits for them.
    return {"next": next_of(request) or reverse("hall:front")}


@ceremony
def claim_begin(request: HttpRequest, data: dict[str, Any], code: str) -> dict[str, Any]:
    account = person(request)
    if account is not None:
        # Signed in: the account becomes the owner once one of its passkeys confirms it; none is added.
        return {"options": passkey_changes.begin_claim(request.session, account, code)}
    return {"options": passkeys.begin_claim(request.session, code, text(data, "name"))}


@ceremony
def claim_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    account = person(request)
    if account is not None:
        owner = passkey_changes.finish_claim(request.session, account, data.get("credential"))
    else:
        owner = passkeys.finish_claim(request.session, data.get("credential"))
        login(request, owner, backend=BACKEND)
    messages.success(request, f"You own this town now, {owner.name}. You decide for every agent that visits it.")
    # Straight to what waits: an agent that came before the claim may already be waiting.
    return {"next": reverse("hall:front")}


# Django's own refusals, in the hall's words.


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A request that lacks its CSRF token or names another origin. The check runs before the view, so a
    method the address does not take at all (a PUT, a POST to a page) is refused first as the view would
    refuse it, a 405 with its Allow header: no form of the hall sent it, and none could be reloaded. So
    is an address a town without sign-in does not have (404)."""
    view = request.resolver_match.func if request.resolver_match else None
    say = "This page was open too long, or came from somewhere else, so the town did not act on it. Reload the page and try again."
    # A sign-in renews the CSRF token, so a form of a page drawn before another tab signed in fails here
    # first: said as what happened, when the form carries the mark of whom its page was drawn for.
    sent = sent_mark(request)
    if sent:
        account = person(request)
        say = drawn.changed_hands(account, sent) or drawn.SIGNED_IN_AGAIN
    return refused_first(view, request) or refuse(request, say, 403)


# The hall's own files (CSS, JavaScript): a handful of small files, served by the town itself so
# that no page depends on anyone else's server.


@page_only
def verifier(request: HttpRequest) -> HttpResponse:
    """The offline checker of everything the town signs (docs/verify_signature.py), as a download: the
    runs page and a signed export point a person here, so they need not find the town's source."""
    response = HttpResponse(signing.offline_verifier_path().read_bytes(), content_type="text/x-python; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="verify_signature.py"'
    return response


@page_only
def static_file(request: HttpRequest, path: str) -> HttpResponse:
    if not path.startswith("hall/"):
        raise Http404(path)
    return files.serve(request, path)
