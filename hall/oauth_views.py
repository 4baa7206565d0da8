"""The authorization server's addresses, and the hall's page of connected clients.

Metadata (RFC 8414 for the hall as issuer, RFC 9728 for /mcp in its root and path forms), the JWKS,
anonymous registration (RFC 7591), the token and revocation endpoints (django-oauth-toolkit's), and
the consent page, which a person answers with a passkey. On a town without sign-in none of these
exist: they answer 404 like any other unknown path.
"""

import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.models import get_refresh_token_model
from oauth2_provider.views import RevokeTokenView, TokenView

from clockford.credentials import secret_digest
from clockford.reads import reads_only
from clockford.town import limits
from clockford.town.limits import TOO_MANY
from clockford.town.models import lock
from hall import oauth, oauth_register, oauth_tokens, passkeys
from hall.connected import clients_of, limit, live_connections, revoke, room_for, shown_name, too_many_clients
from hall.cors import open_to_browsers
from hall.http import (
    REFUSES_FIRST,
    Refused,
    at_the_hall,
    ceremony,
    page_only,
    person,
    post_only,
    refuse,
    refused_first,
    signed_in_page,
    signed_in_post,
)
from hall.models import Account
from hall.town import town_has_sign_in

View = Callable[..., HttpResponseBase]


def with_sign_in(view: View) -> View:
    """The view exists only on a town with sign-in; elsewhere it is an unknown path."""

    def absent(request: HttpRequest) -> HttpResponseBase | None:
        if town_has_sign_in():
            return refused_first(view, request)
        return HttpResponse("Not found.", status=404, content_type="text/plain; charset=utf-8")

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not town_has_sign_in():
            return HttpResponse("Not found.", status=404, content_type="text/plain; charset=utf-8")
        return view(request, *args, **kwargs)

    wrapped.__dict__[REFUSES_FIRST] = absent
    return wrapped


# The metadata and the keys are read by programs, not people: any method but GET and HEAD is the 405 of
# the town's addresses that only read (clockford/reads.py), exempt from the CSRF check, which answered a
# PUT with the hall's page about a form left open too long.
# Registration, tokens and revocation answer any method but POST as /mcp does (below); the consent
# page and its Deny answer in the hall's words (hall/http.py allows).
# All of these but the consent page are open to pages of any origin, without credentials, and answer
# OPTIONS as a browser's preflight (hall/cors.py), before the 405s below see it.


def posts_only(view: View) -> View:
    """An endpoint a program POSTs to: any other method is 001's 405, "Method not allowed." in plain
    text with its Allow header, as /mcp answers one. Django's (require_POST's, and the toolkit's views')
    was an empty HTML page, and the toolkit's answered OPTIONS with a 200 (now a preflight's 204, hall/cors.py)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST":
            return HttpResponse(
                "Method not allowed.", status=405, content_type="text/plain; charset=utf-8", headers={"Allow": "POST"}
            )
        return view(request, *args, **kwargs)

    return wrapped


def _public_json(data: dict[str, Any], status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status)
    response["Cache-Control"] = "public, max-age=300"
    return response


@with_sign_in
@open_to_browsers("GET")
@reads_only
def server_metadata(request: HttpRequest) -> JsonResponse:
    """RFC 8414: the hall as authorization server. Its issuer has no path, so this is the only address."""
    issuer = oauth_tokens.issuer()
    return _public_json(
        {
            "issuer": issuer,
            "authorization_endpoint": f"{issuer}/oauth/authorize",
            "token_endpoint": f"{issuer}/oauth/token",
            "registration_endpoint": f"{issuer}/oauth/register",
            "revocation_endpoint": f"{issuer}/oauth/revoke",
            "jwks_uri": f"{issuer}/.well-known/jwks.json",
            "scopes_supported": [oauth_tokens.SCOPE],
            "response_types_supported": [oauth_tokens.RESPONSE_TYPE],
            "response_modes_supported": ["query"],
            "grant_types_supported": list(oauth_tokens.GRANT_TYPES),
            "token_endpoint_auth_methods_supported": ["none"],
            "revocation_endpoint_auth_methods_supported": ["none"],
            "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": True,
            "client_id_metadata_document_supported": True,
        }
    )


@with_sign_in
@open_to_browsers("GET")
@reads_only
def resource_metadata(request: HttpRequest) -> JsonResponse:
    """RFC 9728: /mcp, at the root and in the path form (/.well-known/oauth-protected-resource/mcp)."""
    return _public_json(
        {
            "resource": oauth_tokens.resource(),
            "authorization_servers": [oauth_tokens.issuer()],
            "scopes_supported": [oauth_tokens.SCOPE],
            "bearer_methods_supported": ["header"],
            "resource_name": settings.HALL_NAME,
        }
    )


@with_sign_in
@open_to_browsers("GET")
@reads_only
def jwks(request: HttpRequest) -> JsonResponse:
    return _public_json(oauth_tokens.jwks())


def _oauth_error(refused: oauth_register.OAuthRefused) -> JsonResponse:
    response = JsonResponse({"error": refused.error, "error_description": refused.description}, status=refused.status)
    if refused.retry_after:
        response["Retry-After"] = str(refused.retry_after)
    response["Cache-Control"] = "no-store"
    return response


@csrf_exempt
@with_sign_in
@open_to_browsers("POST")
@posts_only
def register(request: HttpRequest) -> JsonResponse:
    """RFC 7591, anonymous and rate-limited per address: any agent app may register, and only a person's
    passkey connects it to anything."""
    address = request.META.get("REMOTE_ADDR", "unknown")
    # An address held back after repeated failures (here or at /mcp) is told to wait, and each refused
    # registration counts as one failure (clockford/town/limits.py).
    over = limits.held(address)
    if over is None:
        try:
            client = oauth_register.register(oauth_register.metadata(request.body), address)
        except oauth_register.OAuthRefused as refused:
            over = limits.failed(address)
            if over is None:
                return _oauth_error(refused)
    if over is not None:
        return _oauth_error(
            oauth_register.OAuthRefused("temporarily_unavailable", TOO_MANY, 429, retry_after=over.retry_after)
        )
    response = JsonResponse(oauth_register.registration_reply(client), status=201)
    response["Cache-Control"] = "no-store"
    return response


def each_once(view: View) -> View:
    """RFC 6749 section 3.2: a parameter of a token or revocation request sent more than once is
    invalid_request (resource may name several, RFC 8707): oauthlib read most of them as the last sent
    (a revocation's token among them). Parameters come in the body: oauthlib refused a query too, but
    at the token endpoint in a body the toolkit labelled text/html."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        twice = next((k for k, v in request.POST.lists() if len(v) > 1 and k != "resource"), None)
        if request.META.get("QUERY_STRING"):
            said = "Send the parameters in the body, not in the query (RFC 6749 section 3.2)."
        elif twice is not None:
            said = f"Send {twice if re.fullmatch(r'[A-Za-z0-9_]{1,40}', twice) else 'each parameter'} once."
        else:
            return view(request, *args, **kwargs)
        response = JsonResponse({"error": "invalid_request", "error_description": said}, status=400)
        response["Cache-Control"] = "no-store"
        return response

    return wrapped


class _TokenView(TokenView):
    """django-oauth-toolkit's token view, without its device flow: the town serves no device grant, and
    the toolkit's view read one before oauthlib saw the request (404 "device_not_found", and a 500
    when no device_code was sent). oauthlib answers it as every grant the town does not serve."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        verifier = request.POST.get("code_verifier")
        if verifier is not None and not CODE_VERIFIER.fullmatch(verifier):
            # RFC 7636 section 4.1: oauthlib compared any string with the challenge, so a client that
            # made its verifier of one letter (guessable from its challenge) had its code redeemed.
            return JsonResponse(
                {
                    "error": "invalid_request",
                    "error_description": "A code_verifier is 43 to 128 characters: letters, digits, - . _ ~ (RFC 7636).",
                },
                status=400,
            )
        presented = request.POST.get("refresh_token")
        if request.POST.get("grant_type") != "refresh_token" or not presented:
            return _as_json(self.authorization_flow_token_response(request))
        # One refresh token is redeemed by one request at a time. Two at once both passed the toolkit's
        # check that it was unused; the second then took the toolkit's grace path, which hands back the
        # first one's tokens, read from storage that keeps only their digests: a 500, and the reuse went
        # unnoticed. In turn, the second finds it used, and its whole family is revoked.
        with transaction.atomic():
            lock(get_refresh_token_model().objects.filter(token_checksum=secret_digest(presented)))
            return _as_json(self.authorization_flow_token_response(request))


def _as_json(response: HttpResponseBase) -> HttpResponseBase:
    """oauthlib labels the errors it finds while it checks a request (JSON, no-store), but not one raised
    after (a code spent by another request between this one's check and its own spending): the toolkit
    sent that one's JSON as text/html, with nothing to keep it out of caches."""
    if response.status_code >= 400 and response["Content-Type"].startswith("text/html"):
        response["Content-Type"] = "application/json"
        response["Cache-Control"] = "no-store"
    return response


# RFC 7636 section 4.1: what a code verifier is made of, and how long it is.
CODE_VERIFIER = re.compile(r"[A-Za-z0-9._~-]{43,128}")


token = with_sign_in(csrf_exempt(open_to_browsers("POST")(posts_only(each_once(_TokenView.as_view())))))
revoke_token = with_sign_in(csrf_exempt(open_to_browsers("POST")(posts_only(each_once(RevokeTokenView.as_view())))))


# Consent.


def _consenting(view: Callable[[HttpRequest, oauth.Consent], HttpResponseBase]) -> View:
    """The view gets the authorization request as the consent page reads it, unless there is another
    answer to give: a client the town will not serve is refused here; a request it can answer to the
    app is refused on a page of its own, whose link back to the app the person may follow."""

    @wraps(view)
    def wrapped(request: HttpRequest) -> HttpResponseBase:
        try:
            consent = oauth.read_authorization(request)
        except oauth.BadClient as bad:
            return refuse(request, bad.say, 400)
        except oauth.NotSentBack as back:
            return render(
                request,
                "hall/authorize_refused.html",
                {"say": back.plain_words(), "back": back.uri, "host": back.host},
                status=400,
            )
        return view(request, consent)

    return wrapped


def _query(request: HttpRequest) -> str:
    return request.META.get("QUERY_STRING", "")


@at_the_hall
@with_sign_in
@page_only
@_consenting
def authorize(request: HttpRequest, consent: oauth.Consent) -> HttpResponseBase:
    """The consent page: who asks, where the person returns to, what it may do; Allow with a passkey."""
    account = person(request)
    connected = account is not None and live_connections(account).filter(client=consent.client).exists()
    return render(
        request,
        "hall/authorize.html",
        {
            "consent": consent,
            "name": shown_name(consent.client),
            "named": bool(consent.client.name),
            "account": account,
            "connected": connected,
            "no_room": account is not None and not room_for(account, consent.client),
            "too_many": too_many_clients(),
            "limit": limit(),
            "query": _query(request),
            "town": settings.HALL_NAME,
        },
    )


def _consent_or_refuse(request: HttpRequest) -> oauth.Consent:
    try:
        return oauth.read_authorization(request)
    except oauth.BadClient as bad:
        raise Refused(bad.say) from bad
    except oauth.NotSentBack as back:
        raise Refused(
            "This request can no longer be approved: the app or what it asked for changed. Nothing was connected; "
            "go back to the app and start again."
        ) from back


@with_sign_in
@ceremony
def authorize_begin(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    consent = _consent_or_refuse(request)
    account = person(request)
    if account is not None and not room_for(account, consent.client):
        raise Refused(too_many_clients(), status=409)
    return {"options": passkeys.begin_approval(request.session, oauth.statement_text(consent), account)}


@with_sign_in
@ceremony
def authorize_finish(request: HttpRequest, data: dict[str, Any]) -> dict[str, Any]:
    consent = _consent_or_refuse(request)
    approval = passkeys.finish_approval(request.session, data.get("credential"), person(request))
    text = oauth.statement_text(consent)
    if approval.statement != text:
        raise Refused(
            "What you approved is not what the app asks now: the request or the app changed since the page was "
            "drawn. Nothing was connected; reload the page to see the request as it is."
        )
    account: Account = approval.passkey.account
    uri = oauth.connect(request, account, consent, text, approval.passkey.pk, approval.assertion)
    return {"next": uri}


@at_the_hall
@with_sign_in
@post_only
@_consenting
def authorize_deny(request: HttpRequest, consent: oauth.Consent) -> HttpResponseBase:
    return HttpResponseRedirect(consent.denied())


# Connected clients.


@signed_in_page
def clients(request: HttpRequest, account: Account) -> HttpResponse:
    return render(
        request,
        "hall/clients.html",
        {
            "connected": [(c, shown_name(c.connection.client)) for c in clients_of(account)],
            "limit": limit(),
            "nav": "clients",
        },
    )


@signed_in_post
def client_revoke(request: HttpRequest, account: Account, connection_id: int) -> HttpResponse:
    try:
        revoke(account, connection_id)
    except Refused as refused:
        return refuse(request, refused.say, refused.status)
    messages.success(
        request,
        # The app's self-chosen name is its own words: never in the hall's sentence (a name such as
        # "✓ Approved ..." would read as the hall's). The list it leaves shows what is still connected.
        "Disconnected the app. Its tokens stopped working now; to come back, it must ask you again.",
    )
    return redirect("hall:clients")
