"""The hall's pages: server-rendered, with JSON only for the two halves of each passkey ceremony.

Every view is wrapped by `at_the_hall`: the hall answers only at its own address (passkeys are bound
to it) and takes POSTs only from its own origin. Django's CSRF middleware checks every POST's token
as well, and the settings deny framing (X-Frame-Options and CSP frame-ancestors) on every response.
"""

import hashlib
import json
import mimetypes
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.staticfiles import finders
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from clockford.town import desk
from hall import passkeys, services
from hall.models import Account
from hall.services import Refused

View = Callable[..., HttpResponseBase]
BACKEND = "hall.backends.PasskeyBackend"
AGENTS_PER_PAGE = 25


def _hall_netlocs() -> set[str]:
    parts = urlsplit(settings.HALL_URL)
    netloc = parts.netloc.lower()
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return {netloc} | ({f"{netloc}:{default}"} if parts.port is None and default else set())


def at_the_hall(view: View) -> View:
    """Serve the hall only at HALL_URL, and take POSTs only from the hall's own origin.

    A GET at another allowed address (a loopback IP, where browsers refuse passkeys) is sent to the
    hall's address; anything else from elsewhere is refused, with words.
    """

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.get_host().lower() not in _hall_netlocs():
            if request.method in ("GET", "HEAD"):
                return redirect(settings.HALL_URL + request.get_full_path())
            return _refuse(request, f"The hall answers only at {settings.HALL_URL}.", 403)
        if request.method == "POST" and request.headers.get("Origin") != services.hall_origin():
            return _refuse(request, f"The hall takes requests only from its own pages at {settings.HALL_URL}.", 403)
        return view(request, *args, **kwargs)

    return wrapped


def _wants_json(request: HttpRequest) -> bool:
    return request.content_type == "application/json" or "application/json" in request.headers.get("Accept", "")


def _refuse(request: HttpRequest, say: str, status: int) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"ok": False, "say": say}, status=status)
    return render(request, "hall/refused.html", {"say": say}, status=status)


def person(request: HttpRequest) -> Account | None:
    user = request.user
    return user if isinstance(user, Account) and user.is_authenticated else None


def signed_in(view: Callable[..., HttpResponseBase]) -> View:
    """The view gets the signed-in account; anyone else is sent to the front door (or refused)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        account = person(request)
        if account is None:
            if request.method in ("GET", "HEAD"):
                return redirect("hall:front")
            return _refuse(request, "You are signed out. Sign in with your passkey and try again.", 403)
        return view(request, account, *args, **kwargs)

    return wrapped


def _body(request: HttpRequest) -> dict[str, Any]:
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise Refused("The hall could not read that request. Reload the page and try again.") from None
    if not isinstance(data, dict):
        raise Refused("The hall could not read that request. Reload the page and try again.")
    return data


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key, "")
    return value if isinstance(value, str) else ""


def ceremony(step: Callable[..., dict[str, Any]]) -> View:
    """A JSON half of a passkey ceremony: a refusal is {ok: false, say} with its status."""

    @wraps(step)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return JsonResponse({"ok": True, **step(request, _body(request), *args, **kwargs)})
        except Refused as refused:
            return JsonResponse({"ok": False, "say": refused.say}, status=refused.status)

    return at_the_hall(require_POST(wrapped))


# Pages.


@at_the_hall
@require_GET
def front(request: HttpRequest) -> HttpResponse:
    """/hall/: the front door, or what waits for the person signed in."""
    account = person(request)
    if account is None:
        owner = services.town_owner()
        return render(
            request,
            "hall/front.html",
            {
                "unowned": owner is None and not services.town_has_sign_in(),
                "mode": services.town_mode_words(),
                "mode_key": desk.town_mode(),
            },
        )
    return render(request, "hall/home.html", {"waiting": services.waiting_for(account), "nav": "home"})


@at_the_hall
@require_GET
def signup(request: HttpRequest) -> HttpResponse:
    return render(request, "hall/signup.html", {"account": person(request), "name_chars": services.NAME_CHARS})


@at_the_hall
@require_GET
@signed_in
def passkey_list(request: HttpRequest, account: Account) -> HttpResponse:
    keys = list(services.passkeys_of(account))
    return render(
        request,
        "hall/passkeys.html",
        {"passkeys": keys, "only_one": len(keys) == 1, "nav": "passkeys", "name_chars": services.PASSKEY_NAME_CHARS},
    )


@at_the_hall
@require_POST
@signed_in
def passkey_remove(request: HttpRequest, account: Account, passkey_id: int) -> HttpResponse:
    try:
        name = services.remove_passkey(account, passkey_id)
    except Refused as refused:
        messages.error(request, refused.say)
    else:
        messages.success(request, f"Removed the passkey “{name}”. It can no longer sign in to this account.")
    return redirect("hall:passkeys")


@at_the_hall
@require_GET
@signed_in
def agents(request: HttpRequest, account: Account) -> HttpResponse:
    page = Paginator(services.access_agents(account), AGENTS_PER_PAGE).get_page(request.GET.get("page"))
    passports = list(page)
    records = services.records_of(passports)
    return render(
        request,
        "hall/agents.html",
        {
            "page": page,
            "agents": [(p, records[p.pk]) for p in passports],
            "owner": account.is_owner,
            "sign_in": services.town_has_sign_in(),
            "pennant_chars": services.PENNANT_CHARS,
            "nav": "agents",
        },
    )


@at_the_hall
@require_POST
@signed_in
def pennant(request: HttpRequest, account: Account, passport_id: str) -> HttpResponse:
    try:
        passport = services.raise_pennant(account, passport_id, request.POST.get("pennant", ""))
    except Refused as refused:
        if refused.status == 404:
            return _refuse(request, refused.say, 404)
        messages.error(request, f"{passport_id}: {refused.say}")
    else:
        messages.success(request, f"{passport.id} now flies the pennant “{passport.pennant}”.")
    page = request.POST.get("page", "1")
    return redirect(f"{reverse('hall:agents')}?page={page if page.isdigit() else 1}#{passport_id}")


@at_the_hall
@require_GET
def claim(request: HttpRequest, code: str) -> HttpResponse:
    _, state = services.access_claim(code)
    return render(
        request,
        "hall/claim.html",
        {
            "state": state,
            "say": services.CLAIM_SAYS[state],
            "code": code,
            "account": person(request),
            "name_chars": services.NAME_CHARS,
        },
        status=200 if state == "ready" else 410 if state in ("used", "replaced", "owned") else 404,
    )


@at_the_hall
@require_POST
def signout(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.info(request, "You are signed out. Your passkeys stay on your devices for next time.")
    return redirect("hall:front")


# The passkey ceremonies.


@ceremony
def signup_begin(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    return {"options": passkeys.begin_signup(request.session, _text(data, "name"))}


@ceremony
def signup_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    account = passkeys.finish_signup(request.session, data.get("credential"))
    login(request, account, backend=BACKEND)
    messages.success(request, f"Welcome, {account.name}. Your account is made, and your passkey signs you in.")
    return {"next": "/hall/"}


@ceremony
def signin_begin(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    return {"options": passkeys.begin_signin(request.session)}


@ceremony
def signin_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    account = passkeys.finish_signin(request.session, data.get("credential"))
    login(request, account, backend=BACKEND)
    return {"next": "/hall/"}


def _account_or_refuse(request: HttpRequest) -> Account:
    account = person(request)
    if account is None:
        raise Refused("You are signed out. Sign in with your passkey and try again.", status=403)
    return account


@ceremony
def add_begin(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    return {"options": passkeys.begin_add(request.session, _account_or_refuse(request), _text(data, "name"))}


@ceremony
def add_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    key = passkeys.finish_add(request.session, _account_or_refuse(request), data.get("credential"))
    messages.success(request, f"Added the passkey “{key.name}”. Either of your passkeys now signs you in.")
    return {"next": "/hall/passkeys"}


@ceremony
def claim_begin(request: HttpRequest, data: dict[str, Any], code: str) -> dict[str, Any]:
    return {"options": passkeys.begin_claim(request.session, code, _text(data, "name"), person(request))}


@ceremony
def claim_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    owner = passkeys.finish_claim(request.session, data.get("credential"), person(request))
    login(request, owner, backend=BACKEND)
    messages.success(request, f"You own this town now, {owner.name}. You decide for every agent that visits it.")
    return {"next": "/hall/agents"}


# Django's own refusals, in the hall's words.


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    say = "This page was open too long, or came from somewhere else, so the town did not act on it. Reload the page and try again."
    return _refuse(request, say, 403)


# The hall's own files (CSS, JavaScript): a handful of small files, served by the town itself so
# that no page depends on anyone else's server.


@require_GET
def static_file(request: HttpRequest, path: str) -> HttpResponse:
    found = finders.find(path) if path.startswith("hall/") and ".." not in path.split("/") else None
    if not isinstance(found, str):
        raise Http404(path)
    data = Path(found).read_bytes()
    etag = '"' + hashlib.sha256(data).hexdigest()[:20] + '"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(data, content_type=mimetypes.guess_type(found)[0] or "application/octet-stream")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response
