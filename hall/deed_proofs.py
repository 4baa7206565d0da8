"""Proofs of ownership for the Realty Office (docs/realty.md), the way the official registry proves a
namespace, checked by the hall for a person and again by the sweep:

- `io.github.<owner>`: the person signs in to GitHub as <owner> (OAuth authorization code flow with
  the app the operator configured: CLOCKFORD_GITHUB_*). The re-check asks GitHub's API whether the
  account's id still has that login.
- a reverse-DNS namespace (`com.example`): a TXT record `clockford-deed=<token>` on the domain
  (example.com), read through CLOCKFORD_DEED_RESOLVER, or an https file
  `https://example.com/.well-known/clockford-deed.json` holding `{"clockford-deed": "<token>"}` (or a
  list of tokens). The file is fetched by the CIMD fetcher (hall/oauth_cimd.py: https only, to the
  namespace's own domain and nowhere else, public addresses only, no redirects, 5 seconds, 16 KiB).

The token is the account's for that domain (districts.realty.services.proof_token): another account's
record proves nothing for this one.
"""

import json
import logging
import secrets
import socket
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import dns.exception
import dns.resolver
from django.conf import settings
from oauth2_provider.cimd import CIMDError, SafeMetadataFetcher, _validate_client_id_url

from districts.realty import services as realty
from hall.oauth_cimd import TownFetcher

log = logging.getLogger(__name__)

TIMEOUT = 5.0
GITHUB_NOT_CONFIGURED = (
    "GitHub proof is not configured in this town: its operator has not registered a GitHub OAuth app "
    "(CLOCKFORD_GITHUB_CLIENT_ID and CLOCKFORD_GITHUB_CLIENT_SECRET). A namespace under io.github cannot be "
    "proven here until they do."
)


@dataclass(frozen=True)
class Found:
    """What a check found: whether the proof stands, the evidence it rests on, and why not in words."""

    ok: bool
    evidence: dict[str, Any]
    why: str = ""


# -- DNS ---------------------------------------------------------------------------------------------


def resolver() -> dns.resolver.Resolver:
    """The resolver the town reads TXT records from: CLOCKFORD_DEED_RESOLVER, or the system's."""
    configured = settings.DEED_RESOLVER.strip()
    if not configured:
        r = dns.resolver.Resolver()
    else:
        r = dns.resolver.Resolver(configure=False)
        host, _, port = configured.rpartition(":") if configured.count(":") == 1 else (configured, "", "")
        r.nameservers = [socket.gethostbyname(host) if not host[:1].isdigit() else host]
        if port:
            r.port = int(port)
    r.lifetime = TIMEOUT
    r.timeout = TIMEOUT
    return r


def txt_values(domain: str) -> list[str]:
    try:
        answer = resolver().resolve(domain, "TXT")
    except (dns.exception.DNSException, OSError):
        return []
    values = []
    for rdata in answer:
        values.append(b"".join(rdata.strings).decode("utf-8", "replace"))
    return values


def check_dns(account: Any, domain: str) -> Found:
    token = realty.proof_token(account, domain)
    if f"{realty.TOKEN_PREFIX}{token}" in txt_values(domain):
        return Found(True, {"domain": domain, "record": "TXT"})
    return Found(False, {}, f"No TXT record {realty.TOKEN_PREFIX}{token} was found on {domain}.")


# -- HTTPS -------------------------------------------------------------------------------------------


def _loopback_answer(domain: str) -> bool:
    """Only in a test town (CLOCKFORD_CIMD_LOOPBACK_CA and CLOCKFORD_DEED_LOOPBACK_PORT set): whether the
    deed resolver answers the domain with loopback addresses alone."""
    if not (settings.CIMD_LOOPBACK_CA and settings.DEED_LOOPBACK_PORT and settings.DEED_RESOLVER):
        return False
    try:
        answer = resolver().resolve(domain, "A")
    except (dns.exception.DNSException, OSError):
        return False
    addresses = [r.address for r in answer]
    return bool(addresses) and all(a.startswith("127.") for a in addresses)


def well_known(domain: str) -> dict[str, Any]:
    """The domain's /.well-known/ file, fetched by the CIMD fetcher; CIMDError when it cannot be."""
    url = f"https://{domain}{realty.WELL_KNOWN}"
    parsed = _validate_client_id_url(url)
    if _loopback_answer(domain):
        document, _ = TownFetcher()._fetch_loopback("localhost", settings.DEED_LOOPBACK_PORT, parsed)
    else:
        document, _ = SafeMetadataFetcher().fetch(url)
    return document


def check_https(account: Any, domain: str) -> Found:
    token = realty.proof_token(account, domain)
    where = f"https://{domain}{realty.WELL_KNOWN}"
    try:
        document = well_known(domain)
    except CIMDError as exc:
        return Found(False, {}, f"{where} could not be read ({exc}).")
    held = document.get("clockford-deed")
    tokens = held if isinstance(held, list) else [held]
    if token in tokens:
        return Found(True, {"domain": domain, "file": where})
    return Found(False, {}, f"{where} does not hold the token {token}.")


# -- GitHub ------------------------------------------------------------------------------------------


def github_configured() -> bool:
    return bool(settings.GITHUB_CLIENT_ID and settings.GITHUB_CLIENT_SECRET)


def github_redirect_uri() -> str:
    return settings.HALL_URL + "/hall/deeds/github"


def github_authorize_url(state: str) -> str:
    query = urllib.parse.urlencode(
        {
            "client_id": settings.GITHUB_CLIENT_ID,
            "redirect_uri": github_redirect_uri(),
            "state": state,
            "scope": "",
            "allow_signup": "false",
        }
    )
    return f"{settings.GITHUB_AUTHORIZE_URL}?{query}"


def new_state() -> str:
    return secrets.token_urlsafe(24)


def _json(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> Any:
    """GET (or POST `data` to) the operator's own configured GitHub-style server: never an address an
    agent or a person chose, and only over http(s)."""
    if urllib.parse.urlsplit(url).scheme not in ("https", "http"):
        raise ValueError("the GitHub URLs must be https")
    request = urllib.request.Request(url, data=data, headers=headers or {})  # noqa: S310 (scheme checked above)
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310 (scheme checked above)
        return json.loads(response.read(65536))


def github_user(code: str) -> dict[str, Any]:
    """Trade the authorization code for a token, then ask who signed in: {id, login}."""
    body = urllib.parse.urlencode(
        {
            "client_id": settings.GITHUB_CLIENT_ID,
            "client_secret": settings.GITHUB_CLIENT_SECRET,
            "code": code,
            "redirect_uri": github_redirect_uri(),
        }
    ).encode()
    token = _json(settings.GITHUB_TOKEN_URL, body, {"Accept": "application/json"}).get("access_token")
    if not isinstance(token, str) or not token:
        raise ValueError("GitHub gave no access token")
    user = _json(
        f"{settings.GITHUB_API_URL}/user",
        headers={"Accept": "application/vnd.github+json", "Authorization": f"Bearer {token}"},
    )
    if not isinstance(user, dict) or not isinstance(user.get("login"), str) or not isinstance(user.get("id"), int):
        raise ValueError("GitHub did not say who signed in")
    return {"id": user["id"], "login": user["login"]}


def check_github_login(owner: str, user: dict[str, Any]) -> Found:
    if str(user.get("login", "")).casefold() == owner.casefold():
        return Found(True, {"githubId": user["id"], "login": user["login"]})
    return Found(False, {}, f"You signed in to GitHub as {user.get('login')}, not as {owner}.")


def recheck_github(deed_evidence: dict[str, Any], owner: str) -> Found:
    """Whether the GitHub account that proved the deed still has the owner's login."""
    try:
        user = _json(
            f"{settings.GITHUB_API_URL}/user/{int(deed_evidence['githubId'])}",
            headers={"Accept": "application/vnd.github+json"},
        )
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return Found(False, {}, "the GitHub account that proved it is gone")
        raise
    return check_github_login(owner, user if isinstance(user, dict) else {})


# -- Re-checks (the sweep, and the hall's "check again") --------------------------------------------


def recheck_one(deed: Any) -> Any:
    """Check a deed's proof again: checkedAt moves on, or the deed lapses. A proof that cannot be
    reached right now (GitHub down) leaves the deed as it was, for the next re-check."""
    space = realty.namespace_of(deed.namespace + "/")
    account = deed.account
    try:
        if deed.method == "github":
            found = recheck_github(deed.evidence, space.owner)
        elif deed.method == "dns":
            found = check_dns(account, space.owner)
        else:
            found = check_https(account, space.owner)
    except (OSError, ValueError) as exc:
        log.warning("deed %s could not be re-checked: %s", deed.id, exc)
        return deed
    return realty.do_checked(deed, found.ok, f"the proof is gone: {found.why}"[:200])


def recheck(now: datetime) -> dict[str, int]:
    """For the sweep (CLOCKFORD_TIDY): re-check the deeds whose proof is older than the re-check period.
    It removes no rows, so it names no table in what the sweep removed; a deed whose proof is gone
    lapses, and the log says so."""
    for deed in realty.due_for_check(now):
        checked = recheck_one(deed)
        if checked.lapsed_at is not None:
            log.info("deed %s for lot %s lapsed: %s", checked.id, checked.lot, checked.lapse)
    return {}
