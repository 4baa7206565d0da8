"""RFC 7591 registration refuses a redirect URI with whitespace or a control character as
invalid_redirect_uri (a 400 with the RFC's JSON body), never a 500, and never keeps one URI as two.

The town keeps a client's redirect URIs as one space-separated string (django-oauth-toolkit's
field), so a URI holding any character str.split() splits on would come back as two URIs."""

import datetime as dt
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client as DjangoClient
from django.utils import timezone

from hall import oauth_register
from hall.models import Client
from hall.tests.oauth_agent import Agent, DjangoWeb

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sign_in")]

# Every kind of character that would split one stored URI into two, or that no URL may hold.
UNSAFE = [
    "https://app.example/cb https://evil.example/cb",
    "http://127.0.0.1:9/cb\thttp://127.0.0.1:9/other",
    "http://127.0.0.1:9/cb\n",
    " http://127.0.0.1:9/cb",
    "http://127.0.0.1:9/c\rb",
    "http://127.0.0.1:9/c\x1fb",
    "http://127.0.0.1:9/c\x7fb",
    "http://127.0.0.1:9/c\x85b",
    "http://127.0.0.1:9/c\xa0b",
    "http://127.0.0.1:9/c\u2028b",
    "http://127.0.0.1:9/c\u3000b",
    "http://127.0.0.1:9/c\u200bb",
    "http://127.0.0.1:9/c\u202eb",
]


@pytest.mark.parametrize("uri", UNSAFE)
def test_a_redirect_uri_with_whitespace_or_a_control_character_is_invalid_redirect_uri(uri: str) -> None:
    agent = Agent(DjangoWeb(settings.HALL_URL), settings.MCP_RESOURCE_URL)
    r = agent.register(redirect_uris=[uri])
    assert r.status == 400, (uri, r.status, r.text[:300])
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert set(body) == {"error", "error_description"} and body["error"] == "invalid_redirect_uri", body
    assert body["error_description"] == (
        "A redirect URI may hold no spaces, line breaks or other invisible characters."
    )
    assert not Client.objects.exists()


def test_a_good_uri_beside_a_bad_one_registers_nothing() -> None:
    agent = Agent(DjangoWeb(settings.HALL_URL), settings.MCP_RESOURCE_URL)
    r = agent.register(redirect_uris=["http://127.0.0.1:9/cb", "http://127.0.0.1:9/a b"])
    assert (r.status, r.json()["error"]) == (400, "invalid_redirect_uri")
    assert not Client.objects.exists()


def test_a_public_client_is_kept_without_hashing_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    # The toolkit hashes a client's secret as it saves it (PBKDF2, about half a second of CPU), and a
    # public client's secret is empty: a registration spent that inside its write transaction.
    import oauth2_provider.models

    def no_hashing(*args: object, **kwargs: object) -> str:
        raise AssertionError("a public client's empty secret was hashed")

    monkeypatch.setattr(oauth2_provider.models, "make_password", no_hashing)
    agent = Agent(DjangoWeb(settings.HALL_URL), settings.MCP_RESOURCE_URL)
    r = agent.register(redirect_uris=["http://127.0.0.1:9/cb"])
    assert r.status == 201, r.text[:300]
    assert Client.objects.get().client_type == Client.CLIENT_PUBLIC


def test_registered_uris_come_back_exactly_as_sent() -> None:
    agent = Agent(DjangoWeb(settings.HALL_URL), settings.MCP_RESOURCE_URL)
    uris = ["http://127.0.0.1:9/cb", "https://app.example/back?to=%20here", "http://[::1]:8/x"]
    r = agent.register(redirect_uris=uris)
    assert r.status == 201, r.text
    assert r.json()["redirect_uris"] == uris


@pytest.mark.parametrize(
    "uri",
    [
        "https://café.example/cb",
        "http://127.0.0.1:9/cb?x=é",
        "https://[bad/cb",
        "http://127.0.0.1:99999/cb",
        "https://app.example:0/cb",
        "https://app.example/\\cb",
        "https:///cb",
        "https://app.example/" + "x" * 1990,
        "javascript://app.example/%0aalert(1)",
        "https://app.example/cb%20https://evil.example/cb",
    ],
)
def test_an_odd_but_visible_redirect_uri_is_answered_not_a_fault(uri: str) -> None:
    """Whatever the URI, registration answers 201 or a 400 with the RFC body: never a 500."""
    agent = Agent(DjangoWeb(settings.HALL_URL), settings.MCP_RESOURCE_URL)
    r = agent.register(redirect_uris=[uri])
    assert r.status in (201, 400), (uri, r.status, r.text[:300])
    if r.status == 400:
        assert r.json()["error"] in ("invalid_redirect_uri", "invalid_client_metadata"), r.text
    else:
        assert r.json()["redirect_uris"] == [uri]


# URIs urlsplit reads but the toolkit would not keep (a bad host name, an empty fragment or user
# name, a zone in an IPv6 address, a host name over 253 characters).
NOT_KEPT = [
    "https://-a.com/cb",
    "https://[v1.x]/cb",
    "https://example.com/cb#",
    "https://@example.com/cb",
    "https://[fe80::1%25eth0]/cb",
    "https://" + "a." * 130 + "example/cb",
]


@pytest.mark.parametrize("uri", NOT_KEPT)
def test_a_redirect_uri_the_toolkit_would_not_keep_is_invalid_redirect_uri(uri: str) -> None:
    agent = Agent(DjangoWeb(settings.HALL_URL), settings.MCP_RESOURCE_URL)
    r = agent.register(redirect_uris=[uri])
    assert r.status == 400, (uri, r.status, r.text[:300])
    body = r.json()
    assert set(body) == {"error", "error_description"} and body["error"] == "invalid_redirect_uri", body
    assert body["error_description"].startswith(uri[:200])
    assert not Client.objects.exists()


def test_a_registration_full_clean_refuses_is_invalid_redirect_uri(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(oauth_register, "redirect_problem", lambda uri: None)  # as if it missed a check
    agent = Agent(DjangoWeb(settings.HALL_URL), settings.MCP_RESOURCE_URL)
    r = agent.register(redirect_uris=["https://-a.com/cb"])
    assert (r.status, r.json()["error"]) == (400, "invalid_redirect_uri")
    assert not Client.objects.exists()


def test_json_nested_too_deep_to_read_is_invalid_client_metadata(client: DjangoClient) -> None:
    r = client.post("/oauth/register", "[" * 20_000, "application/json", HTTP_HOST=urlsplit(settings.HALL_URL).netloc)
    assert (r.status_code, r.json()["error"]) == (400, "invalid_client_metadata")
    assert not Client.objects.exists()


# A form sent as multipart, as a program that mistook the endpoint for a form's might send one.
MULTIPART = "multipart/form-data; boundary=x"
FORM = "--x\r\nContent-Disposition: form-data; name=a\r\n\r\nb\r\n--x--\r\n"


def test_a_form_sent_as_multipart_is_invalid_client_metadata(client: DjangoClient) -> None:
    # The door parsed the form (clockford/nul.py), which once left nothing for the view to read as JSON:
    # a 500 and a traceback.
    r = client.post("/oauth/register", FORM, MULTIPART, HTTP_HOST=urlsplit(settings.HALL_URL).netloc)
    assert (r.status_code, r.json()) == (
        400,
        {"error": "invalid_client_metadata", "error_description": "The body must be a JSON object."},
    )
    assert not Client.objects.exists()


# URIs urlsplit and the toolkit take, but oauthlib cannot read when an authorization request names
# them: registered, they could never be used (the consent page said the app asked to return the
# person to an address it did not register).
UNREADABLE = [
    ("https://\u0430pple.example/cb", "write a redirect URI in ASCII"),
    ("https://app.example/caf\u00e9", "write a redirect URI in ASCII"),
    ("https://app.example/cb?to=\u00e9", "write a redirect URI in ASCII"),
    ("http://[::ffff:127.0.0.1]:9/cb", "is not a URL."),
    ("https://app.example/c{b}", "is not a URL."),
]


@pytest.mark.parametrize(("uri", "words"), UNREADABLE)
def test_a_redirect_uri_no_authorization_request_could_use_is_refused_at_registration(uri: str, words: str) -> None:
    agent = Agent(DjangoWeb(settings.HALL_URL), settings.MCP_RESOURCE_URL)
    r = agent.register(redirect_uris=[uri])
    assert (r.status, r.json()["error"]) == (400, "invalid_redirect_uri"), (uri, r.text[:300])
    assert words in r.json()["error_description"]
    assert not Client.objects.exists()


@pytest.mark.parametrize(
    "uri",
    [
        "https://xn--pple-43d.example/cb",
        "https://app.example/caf%C3%A9?to=%20here",
        "http://127.0.0.1:9/cb",
        "http://[::1]:8/x",
        "https://app.example/cb;v=1",
    ],
)
def test_every_redirect_uri_registration_takes_reaches_the_consent_page(uri: str) -> None:
    web = DjangoWeb(settings.HALL_URL)
    agent = Agent(web, settings.MCP_RESOURCE_URL, redirect_uri=uri)
    assert agent.register().status == 201
    page = web.get(agent.authorize_url())
    assert page.status == 200, (uri, page.status, page.text[:300])
    assert "Connect" in page.text


def _register_from(client: DjangoClient, address: str) -> Any:
    body = {"redirect_uris": ["http://127.0.0.1:9/callback"], "client_name": "Errand Runner"}
    return client.post(
        "/oauth/register", body, "application/json", HTTP_HOST=urlsplit(settings.HALL_URL).netloc, REMOTE_ADDR=address
    )


def test_an_ipv6_address_registers_as_its_64_and_a_mapped_ipv4_as_its_ipv4(client: DjangoClient, settings: Any) -> None:
    """Every IPv6 address counted alone: one host, which usually holds a whole /64, registered 20 clients
    from each of its addresses, enough to fill the town's room for unconnected clients (5000) by itself."""
    settings.CLOCKFORD = {**settings.CLOCKFORD, "REGISTRATIONS_PER_ADDRESS": 2}
    assert _register_from(client, "2001:db8:1:2::1").status_code == 201
    assert _register_from(client, "2001:db8:1:2:ffff:ffff:ffff:ffff").status_code == 201
    r = _register_from(client, "2001:db8:1:2:abcd::5")
    assert (r.status_code, r["Retry-After"], r.json()) == (
        429,
        "3600",
        {"error": "temporarily_unavailable", "error_description": "Too many requests. Try again later."},
    )
    assert _register_from(client, "2001:db8:1:3::1").status_code == 201  # the next /64 is another host
    assert sorted(Client.objects.values_list("registered_from", flat=True)) == [
        "2001:db8:1:2::/64",
        "2001:db8:1:2::/64",
        "2001:db8:1:3::/64",
    ]
    # An IPv4 address written as IPv6 (::ffff:a.b.c.d, as a dual-stack server may report it) is that address.
    assert _register_from(client, "203.0.113.7").status_code == 201
    assert _register_from(client, "::ffff:203.0.113.7").status_code == 201
    assert _register_from(client, "::ffff:cb00:7107").status_code == 429
    assert Client.objects.filter(registered_from="203.0.113.7").count() == 2


def test_at_its_room_the_town_forgets_the_oldest_unconnected_clients_past_the_hour(
    client: DjangoClient, settings: Any
) -> None:
    """The room for unconnected clients was filled by anyone able to register from enough addresses,
    and every registration then refused until the day-old sweep. At the room's limit, the oldest
    unconnected clients registered over an hour ago are forgotten to make room; one registered within
    the hour (a person may be connecting it now) never is, and the town refuses only when none is that
    old."""
    settings.CLOCKFORD = {**settings.CLOCKFORD, "UNCONNECTED_CLIENTS_MAX": 3}
    for i in range(3):
        assert _register_from(client, f"198.51.100.{i}").status_code == 201
    first, second, third = Client.objects.order_by("created", "pk")
    now = timezone.now()
    Client.objects.filter(pk=first.pk).update(created=now - dt.timedelta(minutes=90))
    Client.objects.filter(pk=second.pk).update(created=now - dt.timedelta(minutes=61))
    Client.objects.filter(pk=third.pk).update(created=now - dt.timedelta(minutes=59))
    r = _register_from(client, "198.51.100.9")
    assert r.status_code == 201
    assert set(Client.objects.values_list("pk", flat=True)) == {second.pk, third.pk, Client.objects.latest("pk").pk}
    assert _register_from(client, "198.51.100.10").status_code == 201
    assert not Client.objects.filter(pk=second.pk).exists() and Client.objects.filter(pk=third.pk).exists()
    # Now none has waited an hour: the town has no room until the oldest has, in a minute.
    r = _register_from(client, "198.51.100.11")
    assert (r.status_code, r["Retry-After"], r.json()) == (
        503,
        "60",
        {
            "error": "temporarily_unavailable",
            "error_description": "The town has no room for another visitor right now. Try again later.",
        },
    )
    assert Client.objects.count() == 3 and Client.objects.filter(pk=third.pk).exists()
