"""What an agent's client may register with the hall as authorization server (RFC 7591, anonymous), and
the checks a client's own metadata document passes too (hall/oauth_cimd.py): public clients only, https
redirects (plain http to loopback only), a plain name, a limit per address and a bounded room for
clients nobody has connected yet. hall/oauth.py asks a person to approve a client and connects it."""

import datetime as dt
import json
import math
import re
import unicodedata
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from oauth2_provider.validators import AllowedURIValidator
from oauthlib.uri_validate import is_absolute_uri

from clockford.town import limits, words
from clockford.town.models import lock_name, locked
from hall import oauth_tokens
from hall.http import Refused
from hall.models import Client, is_loopback
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
    if named := answer_names_in(uri):
        return (
            f"{uri[:200]}: a redirect URI's own query may not name {', '.join(named)}: the town adds "
            "code, state, error, error_description and iss to it when it answers, and a second one would be "
            "read in place of the town's."
        )
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


# The parameters an authorization response adds to a redirect URI (RFC 6749 section 4.1.2 and 4.1.2.1,
# RFC 9207): a registered URI already naming one would carry two, and a client reading the first would
# read the registered one (a fixed state that always matches, an error on every success).
ANSWER_NAMES = ("code", "state", "error", "error_description", "error_uri", "iss")


def answer_names_in(uri: str) -> list[str]:
    """The answer's parameter names that `uri`'s own query already holds."""
    held = {name for name, _ in parse_qsl(urlsplit(uri).query, keep_blank_values=True)}
    return [name for name in ANSWER_NAMES if name in held]


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
    lock_name("clockford-registrations")


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
        # Locked, skipping any a person's consent holds (hall/oauth.py connect locks its client): a client
        # being connected right now is neither waited for nor forgotten under it.
        oldest = list(
            locked(unconnected.order_by("created", "pk"), skip_locked=True, of=("self",)).values_list("pk", "created")[
                :over
            ]
        )
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


class _NamedTwice(ValueError):
    pass


def _each_name_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    names = [name for name, _ in pairs]
    if len(set(names)) < len(names):
        raise _NamedTwice(next(n for n in names if names.count(n) > 1))
    return dict(pairs)


def _named(twice: _NamedTwice) -> str:
    return str(twice) if re.fullmatch(r"[A-Za-z0-9_]{1,40}", str(twice)) else "a member"


def metadata(body: bytes) -> Any:
    """A registration's JSON, or None when it is not JSON. A member named twice is refused: parsers
    differ on which one counts (Python's took the last), and RFC 6749 section 3.1 sends each parameter once."""
    try:
        return json.loads(body, object_pairs_hook=_each_name_once)
    except _NamedTwice as twice:
        raise OAuthRefused("invalid_client_metadata", f"The body names {_named(twice)} more than once.") from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None


def pairs_once(twice: list[str], pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object_pairs_hook for a JSON document read in one parse (a client's metadata document,
    hall/oauth_cimd.py): its object, and in `twice` the first member it finds named twice (in the words
    a refusal may say), for the same reason as a registration's body. The parse goes on, so that a
    document that is no JSON object is refused as such first, as before."""
    try:
        return _each_name_once(pairs)
    except _NamedTwice as named:
        if not twice:
            twice.append(_named(named))
        return dict(pairs)


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
