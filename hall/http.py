"""What every hall page and passkey ceremony shares over HTTP: the hall's own address, who is signed
in, refusals in the person's words, and the JSON halves of a ceremony.

Every view is wrapped by `at_the_hall`: the hall answers only at its own address (passkeys are bound
to it) and takes POSTs only from its own origin. Django's CSRF middleware checks every POST's token
as well, and the settings deny framing (X-Frame-Options and CSP frame-ancestors) on every response.
"""

import json
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.encoding import iri_to_uri
from django.utils.http import MAX_URL_REDIRECT_LENGTH, url_has_allowed_host_and_scheme

from clockford.town import limits
from clockford.town.tooling import NotAllowed, NotFound
from hall.drawn import changed_hands, sent_mark
from hall.models import Account

View = Callable[..., HttpResponseBase]

SIGNED_OUT = "You are signed out. Sign in with your passkey and try again."
UNREADABLE = "The hall could not read that request. Reload the page and try again."
# A 405's words, beside its Allow header (Django's own 405 is an empty page).
ONLY_READ = "This is a page of the hall, only to be opened and read: nothing sent to it is taken."
ONLY_SENT = (
    "This address acts only when a button on a page of the hall sends it, so opening it changes nothing. "
    "Go back to the hall and use the button there."
)


class Refused(Exception):
    """A request the hall will not do. `say` tells the person why, and what to do instead."""

    def __init__(self, say: str, status: int = 400, failure: bool = False) -> None:
        super().__init__(say)
        self.say = say
        self.status = status
        # A passkey that failed its check: counted against the caller's address, and repeated
        # failures hold the address back (clockford/town/limits.py).
        self.failure = failure


def hall_origin() -> str:
    """scheme://host[:port] of the hall: the only origin passkey answers and POSTs may come from."""
    return str(settings.HALL_URL)


def _hall_netlocs() -> set[str]:
    parts = urlsplit(settings.HALL_URL)
    netloc = parts.netloc.lower()
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return {netloc} | ({f"{netloc}:{default}"} if parts.port is None and default else set())


def wants_json(request: HttpRequest) -> bool:
    return request.content_type == "application/json" or "application/json" in request.headers.get("Accept", "")


def refuse(request: HttpRequest, say: str, status: int, back: str | None = None) -> HttpResponse:
    """A refusal as the asker reads it: {ok: false, say} for the pages' scripts, a page for a person,
    whose link to the hall leads back to `back` (a hall path) once they are in."""
    if wants_json(request):
        return JsonResponse({"ok": False, "say": say}, status=status)
    front = reverse("hall:front") + ("?" + urlencode({"next": back}, safe="/") if back else "")
    return render(request, "hall/refused.html", {"say": say, "not_found": status == 404, "front": front}, status=status)


def came_from(request: HttpRequest) -> str | None:
    """The hall page a form was sent from (its Referer's path, on the hall's own origin), if any."""
    referer = urlsplit(request.headers.get("Referer", ""))
    if f"{referer.scheme}://{referer.netloc}" != hall_origin():
        return None
    return safe_next(referer.path + (f"?{referer.query}" if referer.query else ""))


def at_the_hall(view: View) -> View:
    """Serve the hall only at HALL_URL, and take POSTs only from the hall's own origin.

    A GET at another allowed address (a loopback IP, where browsers refuse passkeys) is sent to the
    hall's address; anything else from elsewhere is refused, with words.
    """

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.get_host().lower() not in _hall_netlocs():
            if request.method in ("GET", "HEAD"):
                there = settings.HALL_URL + request.get_full_path()
                if len(iri_to_uri(there)) > MAX_URL_REDIRECT_LENGTH:
                    # Django refuses to send it (DisallowedRedirect, logged with its traceback for any
                    # visitor who asked with a long query): no page of the hall reads such an address.
                    return HttpResponse("Bad request.", status=400, content_type="text/plain; charset=utf-8")
                return redirect(there)
            return refuse(request, f"The hall answers only at {settings.HALL_URL}.", 403)
        if request.method == "POST" and request.headers.get("Origin") != hall_origin():
            return refuse(request, f"The hall takes requests only from its own pages at {settings.HALL_URL}.", 403)
        # A signed-in person's page is cached nowhere: hall/lifetime.py (`unstored`) says so of every
        # answer they get, the pages Django draws past any view too.
        return view(request, *args, **kwargs)

    return wrapped


# The attribute by which a view names what it refuses before it reads anything the request sends, however
# many wrappers are outside it (functools.wraps copies it outwards): a method it does not take (`allows`),
# an address a town without sign-in does not have (hall/oauth_views.py with_sign_in). Django's CSRF check
# runs before any view and would answer these as a stale form; hall/views.py csrf_failure asks this first.
REFUSES_FIRST = "hall_refuses_first"


def refused_first(view: object, request: HttpRequest) -> HttpResponse | None:
    """What `view` refuses this request before reading it (a 405, a 404), if it does."""
    refuses = getattr(view, REFUSES_FIRST, None)
    answer = refuses(request) if callable(refuses) else None
    return answer if isinstance(answer, HttpResponse) else None


def allows(*methods: str) -> Callable[[View], View]:
    """Django's require_http_methods, with the refusal of any other method in the hall's words: a page for a
    person, {ok: false, say} for a page's script. A page answers HEAD as it answers GET; the server sends
    no body with it (uvicorn, as Django's runserver and test client do)."""
    say = ONLY_SENT if "GET" not in methods else ONLY_READ

    def refuses(request: HttpRequest) -> HttpResponse | None:
        if request.method in methods:
            return None
        refused = refuse(request, say, 405)
        refused["Allow"] = ", ".join(methods)
        return refused

    def wrap(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            return refuses(request) or view(request, *args, **kwargs)

        wrapped.__dict__[REFUSES_FIRST] = refuses
        return wrapped

    return wrap


# A page: read by GET (and HEAD, which changes nothing either). A change: only a form's or script's POST.
page_only = allows("GET", "HEAD")
post_only = allows("POST")


def safe_next(value: str | None) -> str | None:
    """Where to go after signing in or up: a path of the hall's own origin ("/hall/holds/H-…", or the
    consent page's "/oauth/authorize?…"), or None. Never another site, however the address is spelled
    ("//host", "/\\host", a scheme), and never a control character."""
    if not value or not value.startswith("/") or value.startswith(("//", "/\\")):
        return None
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        return None
    if not url_has_allowed_host_and_scheme(value, allowed_hosts=None, require_https=False):
        return None
    return value


def next_of(request: HttpRequest) -> str | None:
    """The safe `next` a request names in its query, if any."""
    return safe_next(request.GET.get("next"))


def comes_back(request: HttpRequest) -> str:
    """The front door, remembering the page a signed-out person asked for so they come back to it; the
    front door alone for an address too long to remember (Django sends no redirect past
    MAX_URL_REDIRECT_LENGTH, and no page of the hall has such an address)."""
    front = reverse("hall:front")
    there = front + "?" + urlencode({"next": request.get_full_path()}, safe="/")
    return there if len(iri_to_uri(there)) <= MAX_URL_REDIRECT_LENGTH else front


def person(request: HttpRequest) -> Account | None:
    user = request.user
    return user if isinstance(user, Account) and user.is_authenticated else None


def account_or_refuse(request: HttpRequest) -> Account:
    """The signed-in account, for a ceremony's JSON half (which has no front door to send anyone to)."""
    account = person(request)
    if account is None:
        raise Refused(SIGNED_OUT, status=403)
    return account


def signed_in(view: Callable[..., HttpResponseBase]) -> View:
    """The view gets the signed-in account; anyone else is sent to the front door (or refused)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        account = person(request)
        # A form of a page drawn for another account than the one signed in now (hall/drawn.py).
        why = changed_hands(account, sent_mark(request)) if request.method == "POST" else None
        if why is not None:
            return refuse(request, why, 403, came_from(request) if account is None else None)
        if account is None:
            if request.method in ("GET", "HEAD"):
                return redirect(comes_back(request))
            # A form sent after the sign-in ended (a letter's page marks it read by itself, hours later
            # in a background tab): signing in again leads back to the page it came from.
            return refuse(request, SIGNED_OUT, 403, came_from(request))
        return view(request, account, *args, **kwargs)

    return wrapped


def signed_in_page(view: Callable[..., HttpResponseBase]) -> View:
    """A page (GET, HEAD) of the hall for the signed-in person: the view gets their account."""
    return at_the_hall(page_only(signed_in(view)))


def signed_in_post(view: Callable[..., HttpResponseBase]) -> View:
    """A form's POST to the hall by the signed-in person: the view gets their account."""
    return at_the_hall(post_only(signed_in(view)))


def fetched[T](fetch: Callable[[Account, str], T]) -> Callable[[Callable[..., HttpResponseBase]], View]:
    """Under `signed_in_page` or `signed_in_post`: the view gets, in place of its route's one id, the thing
    `fetch` finds by it for the signed-in account; what fetch refuses (no such thing or not theirs: 404;
    not allowed: 403; or the hall's own Refused) is the refusal page, in the person's words."""

    def wrap(view: Callable[..., HttpResponseBase]) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, account: Account, **route: str) -> HttpResponseBase:
            (item_id,) = route.values()
            try:
                thing = fetch(account, item_id)
            except NotFound as missing:
                return refuse(request, missing.say, 404)
            except NotAllowed as barred:
                return refuse(request, barred.say, 403)
            except Refused as refused:
                return refuse(request, refused.say, refused.status)
            return view(request, account, thing)

        return wrapped

    return wrap


def parsed(body: bytes) -> Any:
    """The JSON a request's body holds, or None for a body that is not JSON."""
    try:
        return json.loads(body)
    # Deeply nested arrays make the parser itself run out of stack: unreadable all the same.
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def json_body(request: HttpRequest, unreadable: str = UNREADABLE) -> dict[str, Any]:
    """A JSON object a page's script sent; anything else is refused with `unreadable`."""
    data = parsed(request.body or b"{}")
    if not isinstance(data, dict):
        raise Refused(unreadable)
    return data


def text(data: dict[str, Any], key: str) -> str:
    """A string a ceremony's body sent under `key`, or "" for anything else."""
    value = data.get(key, "")
    return value if isinstance(value, str) else ""


# How long a session begun signed out lasts: its ceremony's five minutes and a margin to finish it.
SIGNED_OUT_SECONDS = 15 * 60


def ceremony(step: Callable[..., dict[str, Any]]) -> View:
    """A JSON half of a passkey ceremony: a refusal is {ok: false, say} with its status."""

    @wraps(step)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        address = request.META.get("REMOTE_ADDR", "unknown")
        over = limits.held(address) or limits.count_ceremony(address)
        if over is None:
            try:
                data = json_body(request)
                # Sent from a page drawn for another account than the one signed in now (hall/drawn.py):
                # refused before the step looks anything up for whoever is signed in.
                why = changed_hands(person(request), sent_mark(request, data))
                if why is not None:
                    raise Refused(why, 403)
                answer = JsonResponse({"ok": True, **step(request, data, *args, **kwargs)})
                if not request.user.is_authenticated:
                    # A ceremony begun signed out makes a session row, its ceremony bound to it
                    # (hall/sessions.py): kept as long as a sign-in lasts (7 days), a script's begins
                    # would pile rows up. A sign-in takes the whole age again (hall/lifetime.py).
                    request.session.set_expiry(SIGNED_OUT_SECONDS)
                return answer
            except Refused as refused:
                over = limits.failed(address) if refused.failure else None
                if over is None:
                    return JsonResponse({"ok": False, "say": refused.say}, status=refused.status)
        # Held back after repeated failures (passkeys here, tokens at /mcp, registrations), or past the
        # ceremonies an address may begin and finish in a window.
        response = JsonResponse({"ok": False, "say": limits.TOO_MANY}, status=429)
        response["Retry-After"] = str(over.retry_after)
        return response

    return at_the_hall(post_only(wrapped))
