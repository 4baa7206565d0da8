"""The hall as an authorization server: what a person is asked to approve, and connecting the client
once the person approves it (what a client may register is hall/oauth_register.py; hall/connected.py
keeps the clients a person has connected).

The OAuth machinery is django-oauth-toolkit's (codes, PKCE, token rotation); this module holds the
town's rules around it: one resource (the town's /mcp URL), one scope (town), PKCE with S256 only,
public clients only, http redirects only to loopback, and a consent that names the client and its
redirect host and is signed with a passkey whose challenge commits to it.
"""

import hashlib
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from oauth2_provider.exceptions import FatalClientError, OAuthToolkitError
from oauth2_provider.oauth2_backends import get_oauthlib_core
from oauthlib.oauth2.rfc6749 import errors

from clockford.town import signing
from clockford.town.models import lock, locked
from hall import oauth_register, oauth_tokens
from hall.connected import room_for, too_many_clients
from hall.http import Refused
from hall.models import Account, Client, Connection

# The authorization request a person is asked to approve, and connecting once it is approved.


class BadClient(Exception):
    """The request names no client the town knows, or a redirect URI the client did not register:
    nothing may be sent back to it, so the person is told on the page."""

    def __init__(self, say: str) -> None:
        super().__init__(say)
        self.say = say


class NotSentBack(Exception):
    """A request refused after its client and redirect URI are known: RFC 6749 would send the refusal
    back to the redirect URI at once. But anyone may register a client with any https redirect URI,
    and an authorization server should send a person on by itself only to addresses it trusts (RFC 9700
    section 4.11.2): the person is shown what was wrong, with a link back that carries the refusal
    (error, error_description, state, iss), which they may follow."""

    def __init__(self, redirect_uri: str, error: str, description: str, state: str | None) -> None:
        super().__init__(description)
        self.error = error
        self.description = description
        self.uri = _sent_back(redirect_uri, error, description, state)
        self.host = redirect_host(redirect_uri)

    def plain_words(self) -> str:
        """What was wrong with the app's request, for the person."""
        why = PLAIN_WORDS.get(self.error, "The app that sent you here asked in a way this town does not accept.")
        return f"{why} If you return, it is told: “{self.description}”"


# The refusals an authorization request may meet, as the person reads them (RFC 6749 section 4.1.2.1,
# RFC 8707's invalid_target).
PLAIN_WORDS = {
    "invalid_request": "The app that sent you here made a request this town cannot use.",
    "invalid_scope": "The app that sent you here asked for more than entering this town.",
    "invalid_target": "The app that sent you here did not ask to enter this town.",
    "unsupported_response_type": "The app that sent you here asked to be answered in a way this town does not use.",
    "unauthorized_client": "The app that sent you here may not ask this of the town.",
}


# What the town says of a refusal oauthlib made without a description of its own.
SAID = {
    "invalid_scope": "This town grants the scope town only.",
    "unsupported_response_type": "This town answers with a code only.",
}


def _sent_back(redirect_uri: str, error: str, description: str, state: str | None) -> str:
    """The redirect URI carrying a refusal (RFC 6749 section 4.1.2.1, with RFC 9207's iss)."""
    params = [("error", error), ("error_description", description)]
    if state:
        params.append(("state", state))
    params.append(("iss", oauth_tokens.issuer()))
    return answer_at(redirect_uri, params)


def answer_at(redirect_uri: str, params: list[tuple[str, str]]) -> str:
    """The redirect URI with the town's answer added to its query, the URI's own query kept byte for byte
    (RFC 6749 section 3.1.2: it MUST be retained). oauthlib decoded and wrote it again, so a registered
    `?y=a%20b&z` came back as `?y=a+b&z=`. Its names never include the answer's own (registration refuses
    them: oauth_register.ANSWER_NAMES)."""
    base, mark, fragment = redirect_uri.partition("#")
    joint = "" if base.endswith(("?", "&")) else "&" if "?" in base else "?"
    return base + joint + urlencode(params, quote_via=quote) + mark + fragment


def redirect_host(redirect_uri: str) -> str:
    """The host a person returns to, with its port when the URI names one."""
    parts = urlsplit(redirect_uri)
    return parts.netloc.lower() if parts.port else (parts.hostname or "")


@dataclass(frozen=True)
class Consent:
    client: Client
    redirect_uri: str
    state: str
    code_challenge: str

    @property
    def redirect_host(self) -> str:
        return redirect_host(self.redirect_uri)

    @property
    def by_url(self) -> bool:
        return self.client.registration_source == Client.RegistrationSource.CIMD

    def statement(self) -> dict[str, Any]:
        """What the person approves, in full: the passkey's challenge commits to it."""
        return {
            "approve": "connect a client to your account",
            "issuer": oauth_tokens.issuer(),
            "client_id": self.client.client_id,
            "client_name": self.client.name,
            "redirect_uri": self.redirect_uri,
            "redirect_host": self.redirect_host,
            "scope": oauth_tokens.SCOPE,
            "resource": oauth_tokens.resource(),
            "state": self.state,
            "code_challenge": self.code_challenge,
            "code_challenge_method": "S256",
        }

    def credentials(self) -> dict[str, Any]:
        return {
            "client_id": self.client.client_id,
            "redirect_uri": self.redirect_uri,
            "response_type": oauth_tokens.RESPONSE_TYPE,
            "state": self.state,
            "code_challenge": self.code_challenge,
            "code_challenge_method": "S256",
            "resource": [oauth_tokens.resource()],
        }

    def denied(self) -> str:
        """Where the person goes on when they decline: back to the app at once, since they acted."""
        return _sent_back(self.redirect_uri, "access_denied", "The person declined.", self.state)


S256_CHALLENGE = re.compile(r"[A-Za-z0-9_-]{43}")
# RFC 3986 section 2.1: a percent sign always begins an escape of two hex digits.
BROKEN_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def statement_text(consent: Consent) -> str:
    return signing.canonical_json(consent.statement()).decode()


def statement_digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def read_authorization(request: HttpRequest) -> Consent:
    """The authorization request in this request's query string, checked the toolkit's way and the
    town's: a known client and its exact redirect URI, response_type code (oauthlib's code grant and
    the town's validator refuse any other), PKCE with S256, scope town, and the town's resource named.
    Raises BadClient or NotSentBack."""
    if BROKEN_ESCAPE.search(request.META.get("QUERY_STRING", "")):
        # oauthlib reads the query itself and raises ValueError (not an OAuth error) on an escape such
        # as %zz, which was a 500. Nothing can be sent back to a request the town cannot read.
        raise BadClient(
            "The request the app sent you with is not a well-formed address (a % is not followed by two hex "
            "digits), so the town cannot read it. Nothing was connected. Go back to the app and start again."
        )
    # RFC 6749 section 3.1: no parameter is sent twice. oauthlib refuses five of them repeated (and only
    # from the query of a request without a body); any other it read as its last, so a challenge or
    # method sent twice was the later one. Those five leave the town nothing it may send back to.
    twice = _repeated(request)
    if twice in FATAL_TWICE:
        raise BadClient(
            f"The request the app sent you with names {twice} more than once, so the town cannot tell which it "
            "meant. Nothing was connected. Go back to the app and start again."
        )
    try:
        scopes, credentials = get_oauthlib_core().validate_authorization_request(request)
    except FatalClientError as error:
        raise BadClient(_fatal_words(error)) from error
    except OAuthToolkitError as error:
        e = error.oauthlib_error
        if not e.redirect_uri:
            raise BadClient(_fatal_words(error)) from error
        _answerable(e.redirect_uri)
        if twice:
            raise NotSentBack(
                e.redirect_uri, "invalid_request", _sent_twice(twice), getattr(e, "state", None)
            ) from error
        description = e.description or SAID.get(e.error, e.error)
        raise NotSentBack(e.redirect_uri, e.error, description, getattr(e, "state", None)) from error
    redirect_uri = credentials["redirect_uri"]
    state = credentials.get("state") or ""
    _answerable(redirect_uri)
    if twice:
        raise NotSentBack(redirect_uri, "invalid_request", _sent_twice(twice), state)
    if credentials.get("code_challenge_method") != "S256" or not credentials.get("code_challenge"):
        raise NotSentBack(redirect_uri, "invalid_request", "PKCE with S256 is required.", state)
    if not S256_CHALLENGE.fullmatch(credentials["code_challenge"]):
        # RFC 7636 section 4.2: an S256 challenge is a SHA-256 digest in base64url, 43 characters. Any
        # other could never be redeemed: refused now, not after the person has consented.
        raise NotSentBack(
            redirect_uri,
            "invalid_request",
            "The code_challenge is not an S256 challenge (43 base64url characters).",
            state,
        )
    if list(scopes) != [oauth_tokens.SCOPE]:
        raise NotSentBack(redirect_uri, "invalid_scope", "This town grants the scope town only.", state)
    if request.GET.getlist("resource") != [oauth_tokens.resource()]:
        raise NotSentBack(
            redirect_uri,
            "invalid_target",
            f"Name this town's resource, and only it: resource={oauth_tokens.resource()}",
            state,
        )
    client = Client.objects.get(client_id=credentials["client_id"])
    return Consent(client=client, redirect_uri=redirect_uri, state=state, code_challenge=credentials["code_challenge"])


# Parameters whose repetition leaves no client, redirect URI or state the town may answer to.
FATAL_TWICE = ("client_id", "redirect_uri", "response_type", "scope", "state")


def _answerable(redirect_uri: str) -> None:
    """A redirect URI kept before registration refused one whose query names an answer's parameter (a
    second state or error beside the town's) is answered on the hall's page only."""
    if oauth_register.answer_names_in(redirect_uri):
        raise BadClient(
            "The app that sent you here registered an address to return you to that already carries an answer "
            f"({', '.join(oauth_register.answer_names_in(redirect_uri))}), so the town's answer could be misread "
            "there. Nothing was connected. Go back to the app and start again."
        )


def _repeated(request: HttpRequest) -> str | None:
    """The first parameter the authorization request's query names more than once (resource may name
    several, RFC 8707: the town refuses any but its own one as invalid_target)."""
    return next((k for k, v in request.GET.lists() if len(v) > 1 and k != "resource"), None)


def _sent_twice(name: str) -> str:
    # A name is the app's own words: one that is not a plain parameter name is not repeated to the person.
    named = name if re.fullmatch(r"[A-Za-z0-9_]{1,40}", name) else "a parameter"
    return f"Send each parameter once: {named} was sent more than once (RFC 6749 section 3.1)."


FORGOTTEN = (
    "The town forgot this app's registration while you were deciding (it makes room by forgetting apps nobody "
    "connected within an hour). Nothing was connected. Go back to the app and start again."
)


def _fatal_words(error: OAuthToolkitError) -> str:
    e = error.oauthlib_error
    if isinstance(e, errors.InvalidClientIdError | errors.InvalidClientError):
        why = "The app that sent you here is not registered with this town."
    elif isinstance(e, errors.MissingClientIdError):
        why = "The app that sent you here did not say which app it is."
    elif isinstance(e, errors.MissingRedirectURIError):
        why = "The app that sent you here did not say where to return you."
    elif isinstance(e, errors.InvalidRedirectURIError | errors.MismatchingRedirectURIError):
        why = "The app that sent you here asked to return you to an address it did not register."
    else:
        why = (
            f"The request the app sent you with cannot be used ({getattr(e, 'description', '') or 'no reason given'})."
        )
    return f"{why} Nothing was connected. Go back to the app and start again."


def connect(
    request: HttpRequest, account: Account, consent: Consent, text: str, passkey_id: int, assertion: dict[str, Any]
) -> str:
    """Record the person's consent and make the authorization code: returns the URI that hands the
    client its code (with state and iss). Refused when the account has no room for another client."""
    with transaction.atomic():
        # Locking the account makes two consents of one person take turns, so the limit holds.
        lock(Account.objects.filter(pk=account.pk))
        # The client's row too: a registration making room forgets the oldest clients nobody connected,
        # skipping a locked one (hall/oauth_register.py); one it forgot meanwhile is gone, and said so.
        if not list(locked(Client.objects.filter(pk=consent.client.pk)).values_list("pk", flat=True)):
            raise Refused(FORGOTTEN, status=409)
        if not room_for(account, consent.client):
            raise Refused(too_many_clients(), status=409)
        now = timezone.now()
        Connection.objects.update_or_create(
            account=account,
            client=consent.client,
            defaults={
                "redirect_host": consent.redirect_host,
                "approved_at": now,
                "revoked_at": None,
                "statement": text,
                "assertion": assertion,
                "passkey_id": passkey_id,
            },
        )
        request.user = account
        try:
            uri, _, _, _ = get_oauthlib_core().create_authorization_response(
                request, scopes=[oauth_tokens.SCOPE], credentials=consent.credentials(), allow=True
            )
        except OAuthToolkitError as error:
            e = error.oauthlib_error
            raise Refused(f"The town could not finish connecting the client ({e.description or e.error}).") from error
    # oauthlib (and the toolkit, adding iss) wrote the redirect URI's own query again: the answer's
    # parameters, the last of their names there, are added to the URI as it was registered.
    made = dict(parse_qsl(urlsplit(str(uri)).query, keep_blank_values=True))
    return answer_at(consent.redirect_uri, [(k, made[k]) for k in ("code", "state", "iss") if made.get(k)])
