"""X-Forwarded-For and X-Forwarded-Proto count only from a trusted proxy (clockford/face/proxy.py)."""

import io

import pytest
from django.core.handlers.asgi import ASGIRequest
from django.test import RequestFactory, override_settings

from clockford.face.proxy import through
from clockford.metrics.views import metrics


def scope(peer: str, *headers: tuple[bytes, bytes]) -> dict:
    return {"type": "http", "scheme": "http", "client": (peer, 5555), "headers": [(b"host", b"t"), *headers]}


FORWARDED = ((b"x-forwarded-for", b"198.51.100.7"), (b"x-forwarded-proto", b"https"))


@override_settings(CLOCKFORD_TRUSTED_PROXIES=["10.9.0.0/24"])
def test_it_takes_the_visitors_address_and_scheme_from_a_trusted_proxy() -> None:
    s = through(scope("10.9.0.5", *FORWARDED))
    assert s["client"] == ("198.51.100.7", 0) and s["scheme"] == "https"
    # The last address is the one the proxy saw; whatever the visitor claimed before it is not.
    s = through(scope("10.9.0.5", (b"x-forwarded-for", b"127.0.0.1, 198.51.100.8")))
    assert s["client"] == ("198.51.100.8", 0)
    ws = through({**scope("10.9.0.5", *FORWARDED), "type": "websocket", "scheme": "ws"})
    assert ws["scheme"] == "wss"


@override_settings(CLOCKFORD_TRUSTED_PROXIES=["10.9.0.0/24"])
def test_the_headers_of_anyone_else_are_dropped() -> None:
    s = through(scope("203.0.113.9", *FORWARDED))
    assert s["client"] == ("203.0.113.9", 5555) and s["scheme"] == "http"
    assert s["headers"] == [(b"host", b"t")]


@override_settings(CLOCKFORD_TRUSTED_PROXIES=[])
def test_a_town_that_trusts_no_proxy_believes_no_header() -> None:
    s = through(scope("127.0.0.1", *FORWARDED))
    assert s["client"] == ("127.0.0.1", 5555) and s["headers"] == [(b"host", b"t")]


def test_by_default_no_peer_is_trusted_not_even_one_on_this_machine() -> None:
    """A town no proxy is named for believes no one: a program on this machine cannot name itself
    another address, nor claim https (a proxy on this machine is named: 127.0.0.1)."""
    for peer in ("127.0.0.1", "::1"):
        s = through(scope(peer, *FORWARDED))
        assert (s["client"], s["scheme"], s["headers"]) == ((peer, 5555), "http", [(b"host", b"t")]), peer


@override_settings(CLOCKFORD_TRUSTED_PROXIES=["127.0.0.1", "::1"])
def test_a_proxy_named_on_this_machine_is_trusted() -> None:
    s = through(scope("::1", (b"x-forwarded-for", b"198.51.100.7")))
    assert s["client"] == ("198.51.100.7", 0)


@override_settings(CLOCKFORD_TRUSTED_PROXIES=["127.0.0.0/8"])
def test_an_address_named_with_a_port_is_read_and_one_that_cannot_be_read_is_never_the_proxys() -> None:
    for named, address in (
        (b"198.51.100.7:4711", "198.51.100.7"),
        (b"[2001:db8::1]:4711", "2001:db8::1"),
        (b"[2001:db8::1]", "2001:db8::1"),
        (b"2001:db8::1", "2001:db8::1"),
        (b"garbage", "unknown"),
        (b"unknown", "unknown"),
        (b"_hidden", "unknown"),
        (b"", "unknown"),
        (b"198.51.100.7, ", "unknown"),
        (b"[::1", "unknown"),
    ):
        s = through(scope("127.0.0.1", (b"x-forwarded-for", named)))
        assert s["client"] == (address, 0), named


@pytest.mark.django_db
@override_settings(CLOCKFORD_TRUSTED_PROXIES=["127.0.0.0/8"], CLOCKFORD_METRICS_TOKEN="")
def test_metrics_are_refused_to_a_visitor_the_proxy_names_unreadably() -> None:
    for named in (b"203.0.113.9:4711", b"garbage", b""):
        client = through(scope("127.0.0.1", (b"x-forwarded-for", named)))["client"]
        request = RequestFactory().get("/metrics", REMOTE_ADDR=client[0])
        assert metrics(request).status_code == 403, named


@override_settings(
    CLOCKFORD_TRUSTED_PROXIES=["10.9.0.0/24"], SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https")
)
def test_everything_after_the_proxy_reads_the_one_scheme_it_believed() -> None:
    """A proxy that adds its X-Forwarded-Proto after the visitor's own ("https, http": the visitor claimed
    https over plain http) is read by its last value, as X-Forwarded-For is. Django (its
    SECURE_PROXY_SSL_HEADER) and the front door (clockford/face/checks.py) read a header's first value,
    so the scope passed on names that one value alone: none of them takes the visitor's claim for https."""
    for sent, scheme in ((b"https, http", "http"), (b"http, https", "https"), (b"https", "https"), (b"ftp", "http")):
        s = through(scope("10.9.0.5", (b"x-forwarded-proto", sent)))
        request = ASGIRequest({**s, "path": "/", "method": "GET", "query_string": b""}, io.BytesIO())
        assert (s["scheme"], request.scheme) == (scheme, scheme), sent
        assert [v for k, v in s["headers"] if k == b"x-forwarded-proto"] == (
            [scheme.encode()] if sent != b"ftp" else []
        )
