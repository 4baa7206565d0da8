"""The hall as an authorization server: what an agent's client may register, what a person is asked to
approve, and connecting the client once the person approves it (hall/connected.py keeps the clients a
person has connected).

The OAuth machinery is django-oauth-toolkit's (codes, PKCE, token rotation); this module holds the
town's rules around it: one resource (the town's /mcp URL), one scope (town), PKCE with S256 only,
public clients only, http redirects only to loopback, and a consent that names the client and its
redirect host and is signed with a passkey whose challenge commits to it.
"""

import datetime as dt
import hashlib
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.http import HttpRequest
from django.utils import timezone
from oauth2_provider.exceptions import FatalClientError, OAuthToolkitError
from oauth2_provider.oauth2_backends import get_oauthlib_core
from oauth2_provider.validators import AllowedURIValidator
from oauthlib.common import add_params_to_uri
from oauthlib.oauth2.rfc6749 import errors
from oauthlib.uri_validate import is_absolute_uri

from clockford.town import limits, signing, words
from clockford.town.models import lock
from hall import oauth_tokens
from hall.connected import room_for, too_many_clients
from hall.http import Refused
from hall.models import Account, Client, Connection, is_loopback
from hall.town import clean_words

CLIENT_NAME_CHARS = 60
REDIRECT_URIS_MAX = 5
URI_CHARS = 2000
# The check django-oauth-toolkit's Application.clean makes of each redirect URI.
TOOLKIT_URIS = AllowedURIValidator(["https", "http"], name="redirect uri", allow_path=True, allow_query=True)


class OAuthRefused(Exception):
    """An OAuth request refused with an RFC error code (JSON body) and the words for it."""

    def __init__(self, error: str, description: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.error = error
        self.description = description
        self.status = status
        self.retry_after = retry_after


# What a client may say about itself.


def _invisible(c: str) -> bool:
    """A character no redirect URI may hold: whitespace of any kind (str.split() would cut the
    stored list there) and control, format or unassigned characters (a URL carries them escaped)."""
    return c.isspace() or unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def redirect_problem(uri: Any) -> str | None:
    """Why a redirect URI is refused, or None: https anywhere, plain http on loopback only."""
    if not isinstance(uri, str) or not uri or len(uri) > URI_CHARS:
        return "Each redirect URI must be a URL of at most 2000 characters."
    # A client's redirect URIs are kept as one space-separated string, so a URI with a space in it
    # would come back as two; and urlsplit quietly drops tabs and line breaks, so this comes first.
    if any(_invisible(c) for c in uri):
        return "A redirect URI may hold no spaces, line breaks or other invisible characters."
    try:
        parts = urlsplit(uri)
        parts.port  # noqa: B018 (an out-of-range port raises here)
    except ValueError:
        return f"{uri[:200]} is not a URL."
    if parts.scheme not in ("https", "http") or not parts.hostname:
        return f"{uri[:200]}: a redirect URI must be an https URL, or http on this machine's own address."
    if parts.scheme == "http" and not is_loopback(parts.hostname):
        return (
            f"{uri[:200]}: plain http is allowed only for this machine's own addresses (127.0.0.1, [::1], localhost)."
        )
    # urlsplit reports an empty fragment and user name ("cb#", "https://@host") as none at all.
    if "#" in uri or "@" in parts.netloc:
        return f"{uri[:200]}: a redirect URI carries no fragment and no user name."
    # The toolkit checks every URI again when the client is kept (Client.full_clean), and more
    # strictly than urlsplit: a host name must be one ("-a.com", "[v1.x]" and over-long names are not).
    try:
        TOOLKIT_URIS(uri)
    except ValidationError:
        return f"{uri[:200]} is not a URL."
    # oauthlib reads the redirect URI of every authorization request as RFC 3986 spells a URI, ASCII
    # only: one it cannot read is refused there, on the consent page, as a URI the client never
    # registered. A client is told so here, when it registers, not after a person was sent to it.
    if not is_absolute_uri(uri):
        if not uri.isascii():
            return (
                f"{uri[:200]}: write a redirect URI in ASCII, its host name in the xn-- form and any other "
                "character percent-encoded."
            )
        return f"{uri[:200]} is not a URL."
    return None


def name_problem(name: str) -> str | None:
    try:
        clean_words(name, "A client's name", CLIENT_NAME_CHARS)
    except Refused as refused:
        return refused.say
    return None


def _one_registration_at_a_time() -> None:
    """Registrations take turns between counting and keeping, so two at once cannot both be the last
    one an address's limit (or the town's room for unconnected clients) allows. On PostgreSQL a
    transaction-scoped advisory lock (no row to lock: the client counted is the one not kept yet);
    SQLite's IMMEDIATE transactions already run one writer at a time."""
    if connection.vendor == "postgresql":
        with connection.cursor() as c:
            c.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", ["clockford-registrations"])


def _rate_limited(address: str) -> None:
    _one_registration_at_a_time()
    now = timezone.now()
    recent = Client.objects.filter(registered_from=address, created__gt=now - REGISTRATION_WINDOW).count()
    if recent >= settings.CLOCKFORD["REGISTRATIONS_PER_ADDRESS"]:
        raise OAuthRefused("temporarily_unavailable", "Too many requests. Try again later.", 429, retry_after=3600)
    # Registrations nobody connected within a day are swept; the town keeps a bounded number of the rest.
    unconnected = Client.objects.filter(
        registration_source=Client.RegistrationSource.DCR, connections__isnull=True, passports__isnull=True
    )
    stale = unconnected.filter(created__lt=now - dt.timedelta(days=1)).values_list("pk", flat=True)[:200]
    Client.objects.filter(pk__in=list(stale)).delete()
    waiting = Client.objects.filter(registration_source=Client.RegistrationSource.DCR, connections__isnull=True)
    over = waiting.count() - settings.CLOCKFORD["UNCONNECTED_CLIENTS_MAX"] + 1
    if over > 0:
        # At the cap, the oldest that have waited out the window are forgotten to make room: a flood of
        # registrations pushes out its own, never a client registered within the hour (a person may be
        # connecting it now). Refused only when none is that old. A client forgotten has left its
        # address's count already, so its address registers no sooner for it: keeping the town full
        # takes UNCONNECTED_CLIENTS_MAX / REGISTRATIONS_PER_ADDRESS addresses (IPv6 /64s) every hour.
        oldest = list(unconnected.order_by("created", "pk").values_list("pk", "created")[:over])
        if len(oldest) < over or oldest[-1][1] > now - REGISTRATION_WINDOW:
            # Room comes when enough of them have waited the hour (or, if too few may ever be forgotten,
            # in ten minutes, to ask again).
            room = oldest[-1][1] + REGISTRATION_WINDOW - now if len(oldest) == over else dt.timedelta(minutes=10)
            raise OAuthRefused(
                "temporarily_unavailable",
                "The town has no room for another visitor right now. Try again later.",
                503,
                retry_after=max(1, math.ceil(room.total_seconds())),
            )
        Client.objects.filter(pk__in=[pk for pk, _ in oldest]).delete()


# The window of REGISTRATIONS_PER_ADDRESS, and how long a registered client nobody has connected yet
# is kept however full the town is: time for a person to come to the consent page, make an account
# and allow it.
REGISTRATION_WINDOW = dt.timedelta(hours=1)


def register(data: Any, address: str) -> Client:
    """RFC 7591 registration, anonymous: a public client for the authorization code grant."""
    if not isinstance(data, dict):
        raise OAuthRefused("invalid_client_metadata", "The body must be a JSON object.")
    uris = data.get("redirect_uris")
    if not isinstance(uris, list) or not 1 <= len(uris) <= REDIRECT_URIS_MAX:
        raise OAuthRefused("invalid_redirect_uri", f"redirect_uris must list 1 to {REDIRECT_URIS_MAX} URLs.")
    for uri in uris:
        if problem := redirect_problem(uri):
            raise OAuthRefused("invalid_redirect_uri", problem)
    grants = data.get("grant_types", [oauth_tokens.GRANT_TYPES[0]])
    if (
        not isinstance(grants, list)
        or oauth_tokens.GRANT_TYPES[0] not in grants
        or set(grants) - set(oauth_tokens.GRANT_TYPES)
    ):
        raise OAuthRefused(
            "invalid_client_metadata", f"grant_types may hold {' and '.join(oauth_tokens.GRANT_TYPES)} only."
        )
    responses = data.get("response_types", [oauth_tokens.RESPONSE_TYPE])
    if responses != [oauth_tokens.RESPONSE_TYPE]:
        raise OAuthRefused("invalid_client_metadata", f'response_types must be ["{oauth_tokens.RESPONSE_TYPE}"].')
    name = data.get("client_name", "")
    if not isinstance(name, str):
        raise OAuthRefused("invalid_client_metadata", "client_name must be a string.")
    if name and (problem := name_problem(name)):
        raise OAuthRefused("invalid_client_metadata", problem)
    # An IPv6 address counts by its /64, as at every limit per address (clockford/town/limits.py).
    address = limits.counted_as(address)
    with transaction.atomic():
        _rate_limited(address)
        # Every agent app is a public client: it keeps no secret, and PKCE guards its codes.
        client = Client(
            name=words.for_keeping(name.strip()),
            redirect_uris=" ".join(uris),
            client_type=Client.CLIENT_PUBLIC,
            authorization_grant_type=Client.GRANT_AUTHORIZATION_CODE,
            registration_source=Client.RegistrationSource.DCR,
            client_secret="",
            # Nothing to hash: the toolkit would run its password hasher (half a second of CPU) over
            # the empty secret, inside this transaction and, on SQLite, its write lock.
            hash_client_secret=False,
            registered_from=address[:64],
        )
        try:
            client.full_clean(exclude=["client_secret"])
        except ValidationError as invalid:
            # redirect_problem makes the toolkit's checks first; this is in case it ever misses one.
            if "redirect_uris" in invalid.message_dict:
                raise OAuthRefused("invalid_redirect_uri", "A redirect URI is not one the town can keep.") from None
            raise OAuthRefused("invalid_client_metadata", "The town cannot keep this client as sent.") from None
        client.save()
    return client


def registration_reply(client: Client) -> dict[str, Any]:
    reply: dict[str, Any] = {
        "client_id": client.client_id,
        "client_id_issued_at": int(client.created.timestamp()),
        "redirect_uris": client.redirect_uris.split(),
        "grant_types": list(oauth_tokens.GRANT_TYPES),
        "response_types": [oauth_tokens.RESPONSE_TYPE],
        "token_endpoint_auth_method": "none",
        "scope": oauth_tokens.SCOPE,
    }
    if client.name:
        reply["client_name"] = client.name
    return reply


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
    return add_params_to_uri(redirect_uri, params)


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


def statement_text(consent: Consent) -> str:
    return signing.canonical_json(consent.statement()).decode()


def statement_digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def read_authorization(request: HttpRequest) -> Consent:
    """The authorization request in this request's query string, checked the toolkit's way and the
    town's: a known client and its exact redirect URI, response_type code (oauthlib's code grant and
    the town's validator refuse any other), PKCE with S256, scope town, and the town's resource named.
    Raises BadClient or NotSentBack."""
    try:
        scopes, credentials = get_oauthlib_core().validate_authorization_request(request)
    except FatalClientError as error:
        raise BadClient(_fatal_words(error)) from error
    except OAuthToolkitError as error:
        e = error.oauthlib_error
        if not e.redirect_uri:
            raise BadClient(_fatal_words(error)) from error
        description = e.description or SAID.get(e.error, e.error)
        raise NotSentBack(e.redirect_uri, e.error, description, getattr(e, "state", None)) from error
    redirect_uri = credentials["redirect_uri"]
    state = credentials.get("state") or ""
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
    return str(uri)
