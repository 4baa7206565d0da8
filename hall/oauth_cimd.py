"""Client ID Metadata Documents: which client URLs the town fetches, and how.

A client may name itself by the https URL of a JSON document describing it; the town fetches that
document when it first meets the URL (django-oauth-toolkit's CIMD support). Fetching a URL a stranger
chose is a request the town makes on their behalf, so it is limited to:

- hosts listed in CLOCKFORD_CIMD_HOSTS (a shared town lists the client publishers it accepts, in
  ALLOWED_HOSTS syntax, e.g. ".example.com"): fetched by the toolkit's SSRF-hardened fetcher, which
  resolves the name once, connects only to public addresses, follows no redirect, and stops after
  5 seconds or 16 KiB;
- documents served on this machine (https://localhost:PORT/...), only when CLOCKFORD_CIMD_LOOPBACK_CA
  names the one certificate authority trusted for them. This is what tests serve; an operator never
  needs it.

Every other URL is refused before anything is fetched, and the client looks unknown.
"""

import functools
import json
from typing import Any
from urllib.parse import urlsplit

import urllib3
from django.conf import settings
from django.http.request import validate_host
from oauth2_provider.cimd import CIMDError, SafeMetadataFetcher, _effective_max_age, _validate_client_id_url
from oauth2_provider.settings import oauth2_settings

from hall.models import is_loopback


def _loopback_allowed(host: str) -> bool:
    return bool(settings.CIMD_LOOPBACK_CA) and is_loopback(host)


def host_allowed(client_id: str) -> bool:
    host = urlsplit(client_id).hostname or ""
    return _loopback_allowed(host) or (bool(host) and validate_host(host, list(settings.CIMD_HOSTS)))


class AllowedHosts:
    """CIMD_REGISTRATION_PERMISSION_CLASSES: only the hosts above, checked before any fetch."""

    def has_permission(self, request: Any, client_id: str) -> bool:
        return host_allowed(client_id)


class TownFetcher(SafeMetadataFetcher):
    """The toolkit's fetcher for public hosts; for loopback, one connection to this machine trusting
    only the configured authority. Either way the document's redirect URIs must be https, or http on
    a loopback address, and its name must be plain words."""

    def fetch(self, client_id: str) -> tuple[dict[str, Any], int]:
        parsed = _validate_client_id_url(client_id)
        host = parsed.hostname or ""
        if not host_allowed(client_id):
            raise CIMDError("client_id host is not one this town fetches from")
        if _loopback_allowed(host):
            document, max_age = self._fetch_loopback(parsed.hostname or "", parsed.port or 443, parsed)
        else:
            document, max_age = super().fetch(client_id)
        self._check(document)
        return document, max_age

    def _fetch_loopback(self, host: str, port: int, parsed: Any) -> tuple[dict[str, Any], int]:
        import ssl

        context = ssl.create_default_context(cafile=settings.CIMD_LOOPBACK_CA)
        timeout = oauth2_settings.CIMD_FETCH_TIMEOUT_SECONDS
        pool = urllib3.HTTPSConnectionPool(
            host=host,
            port=port,
            timeout=urllib3.Timeout(connect=timeout, read=timeout, total=timeout),
            retries=False,
            maxsize=1,
            ssl_context=context,
            server_hostname=host,
        )
        path = parsed.path + (f"?{parsed.query}" if parsed.query else "")
        try:
            response = pool.urlopen(
                "GET",
                path,
                headers={"Host": parsed.netloc, "Accept": "application/json"},
                redirect=False,
                preload_content=False,
            )
            try:
                document: dict[str, Any]
                document, max_age = self._read_document(response)
                return document, max_age
            finally:
                response.release_conn()
        except urllib3.exceptions.HTTPError as exc:
            raise CIMDError(f"could not fetch client_id document: {exc}") from exc
        finally:
            pool.close()

    def _read_document(self, response: Any) -> tuple[dict[str, Any], int]:
        """The toolkit's reading of the answer (its status, type and size, then one JSON object, in the
        toolkit's words), but parsed once, with each member named once, as a registration's body is read
        (oauth_register.metadata): parsers differ on which of two members counts, and the toolkit's
        took the last, so a document naming `redirect_uris` twice meant one thing here and another to a
        reader taking the first. (The toolkit's parse, then a second to find a member named twice, read
        each document twice.)"""
        if response.status != 200:
            raise CIMDError(f"client_id document returned HTTP {response.status}")
        media_type = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if media_type != "application/json" and not (
            media_type.startswith("application/") and media_type.endswith("+json")
        ):
            raise CIMDError(f"client_id document is not JSON (Content-Type: {media_type!r})")
        most = oauth2_settings.CIMD_MAX_DOCUMENT_SIZE
        body = response.read(most + 1)
        if len(body) > most:
            raise CIMDError("client_id document exceeds the maximum allowed size")
        # Imported here: the toolkit imports this module with the settings, before the town's models.
        from hall import oauth_register

        twice: list[str] = []
        try:
            document = json.loads(body, object_pairs_hook=functools.partial(oauth_register.pairs_once, twice))
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            raise CIMDError("client_id document is not valid JSON") from exc
        if not isinstance(document, dict):
            raise CIMDError("client_id document must be a JSON object")
        if twice:
            raise CIMDError(f"the client_id document names {twice[0]} more than once")
        return document, _effective_max_age(response.headers.get("Cache-Control"))

    def _check(self, document: dict[str, Any]) -> None:
        from hall import oauth_register

        uris = document.get("redirect_uris")
        if isinstance(uris, list):
            for uri in uris:
                problem = oauth_register.redirect_problem(uri)
                if problem:
                    raise CIMDError(problem)
        name = document.get("client_name", "")
        if isinstance(name, str) and name:
            problem = oauth_register.name_problem(name)
            if problem:
                raise CIMDError(problem)
