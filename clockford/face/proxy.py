"""Behind a reverse proxy: whose address a request is, and whether it came over https.

A proxy in front of the town connects from its own address, so every request would seem to come from
the proxy, and over plain http. The proxy says who connected (X-Forwarded-For) and how
(X-Forwarded-Proto); the town believes it only when the request comes from a proxy it trusts
(CLOCKFORD_TRUSTED_PROXIES: addresses or networks). Then the scope's client becomes the address the
proxy names and its scheme https when the proxy says so, so that the limits per address, /metrics's
loopback rule, the front door and Django's https detection all see the visitor, not the proxy. From any
other peer both headers are dropped before anything reads them: a visitor cannot name itself.

One proxy hop: the town reads the last address of X-Forwarded-For and the last value of
X-Forwarded-Proto, the ones its proxy added (the proxy is told to set each header to what it saw, not
to append to what the visitor sent), and passes on only that value of X-Forwarded-Proto, so that
nothing after it reads the visitor's own claim.
"""

import functools
import ipaddress
from collections.abc import MutableMapping
from typing import Any

from django.conf import settings

FORWARDED = (b"x-forwarded-for", b"x-forwarded-proto")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.cache
def _trusted(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)


def trusted(peer: str) -> bool:
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in net for net in _trusted(tuple(settings.CLOCKFORD_TRUSTED_PROXIES)))


def _last(value: bytes) -> str:
    return value.decode("latin-1").split(",")[-1].strip()


# The visitor a trusted proxy forwarded for, when the address it names cannot be read: someone, never
# the proxy itself (which on this machine is loopback, and /metrics serves loopback).
UNKNOWN = "unknown"


def visitor(named: str) -> str:
    """The address a proxy names, in the forms proxies write it: "198.51.100.7", "198.51.100.7:4711",
    "2001:db8::1", "[2001:db8::1]:4711"; UNKNOWN for anything else (empty, "unknown", an obfuscated
    name)."""
    if named.startswith("["):
        inside, closed, _ = named[1:].partition("]")
        named = inside if closed else ""
    elif named.count(":") == 1:
        named = named.partition(":")[0]
    try:
        return str(ipaddress.ip_address(named))
    except ValueError:
        return UNKNOWN


def through(scope: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """The scope as the visitor made it: rewritten from a trusted proxy's headers, or with them dropped."""
    if scope.get("type") not in ("http", "websocket"):
        return scope
    headers = scope.get("headers") or []
    if not any(k in FORWARDED for k, _ in headers):
        return scope
    client = scope.get("client")
    if not (client and trusted(str(client[0]))):
        return {**scope, "headers": [(k, v) for k, v in headers if k not in FORWARDED]}
    scope = dict(scope)
    passed_on = [(k, v) for k, v in headers if k != b"x-forwarded-proto"]
    for k, v in headers:
        if k == b"x-forwarded-for":
            # Whatever it names, the request is the visitor's, not the proxy's. Were an address the
            # town cannot read (empty, garbage) to leave the proxy's own address standing, a proxy on
            # this machine would make its visitor loopback, and /metrics would be served to them.
            scope["client"] = (visitor(_last(v)), 0)
        elif k == b"x-forwarded-proto" and _last(v).lower() in ("https", "http"):
            secure = _last(v).lower() == "https"
            scope["scheme"] = (
                ("https" if secure else "http") if scope["type"] == "http" else ("wss" if secure else "ws")
            )
            # The header passed on names the one scheme believed here: Django (SECURE_PROXY_SSL_HEADER)
            # and the front door (clockford/face/checks.py) read a header's first value, which from a
            # proxy that adds its own after the visitor's ("https, http") is the visitor's claim.
            passed_on.append((k, b"https" if secure else b"http"))
    scope["headers"] = passed_on
    return scope


def check_named_for_https(**_: Any) -> list[Any]:
    """`check --deploy`: an https town names its proxy. Nothing but a proxy serves the town over https,
    and a town that believes no proxy cannot believe its X-Forwarded-Proto, so every request would be
    sent to the front door (403), as a town upgraded from the days every peer of this machine was
    believed would find."""
    from django.core.checks import Warning  # noqa: PLC0415 (only where Django's checks run)

    if not settings.TOWN_URL.startswith("https://") or settings.CLOCKFORD_TRUSTED_PROXIES:
        return []
    return [
        Warning(
            "CLOCKFORD_URL is https and CLOCKFORD_TRUSTED_PROXIES names no proxy: the town believes no "
            "proxy's X-Forwarded-Proto, so it sends every request to the front door.",
            hint="Name the proxy in front of the town: CLOCKFORD_TRUSTED_PROXIES=127.0.0.1 for one on this machine.",
            id="clockford.W001",
        )
    ]
