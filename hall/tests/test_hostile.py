"""Hostile requests at every address of the hall: odd ids in the path, every HTTP method, bodies
that are not what a page sends, odd query strings. Whatever arrives, the hall answers in its own
voice (a page, a redirect, a refusal, "Not found."), never a server error, and changes nothing it
was not asked to change by its own pages."""

import json
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from districts.testing import visit
from hall.models import Account
from hall.tests.conftest import HOST, ORIGIN
from hall.tests.test_decisions import agent_of
from hall.tests.test_security import SAMPLES, owner
from hall.urls import urlpatterns

pytestmark = pytest.mark.django_db

# Values for a string in the path: too long, not ASCII, an encoded NUL or slash, SQL's quote, an id
# of the right shape for no thing, a traversal.
ODD_IDS = [
    "x" * 5000,
    "H-ÄÖÜ‮23",
    "%00",
    "%2F..%2F..%2Fetc%2Fpasswd",
    "1' OR '1'='1",
    "H-AAAAAAAAAAAA",
    "..",
    "%E2%80%8B",
]
# ...and for an integer in the path (Django's <int:> takes digits only).
ODD_INTS = [0, 2**63, 10**30]

# Bodies a page never sends: empty, not JSON, JSON of every other shape, fields of the wrong type,
# a credential that is no credential, a form, something large.
ODD_BODIES: list[tuple[str, str]] = [
    ("", "application/json"),
    ("not json", "application/json"),
    ("[]", "application/json"),
    ("null", "application/json"),
    ('"a string"', "application/json"),
    ("1e999", "application/json"),
    ('{"name": 5, "credential": [], "text": {"a": 1}, "answer": null}', "application/json"),
    ('{"credential": "x", "name": "' + "n" * 10000 + '"}', "application/json"),
    ('{"credential": {"id": 5, "rawId": null, "response": "x", "type": []}}', "application/json"),
    ('{"credential": {"id": "AAAA", "rawId": "AAAA", "response": {}, "type": "public-key"}}', "application/json"),
    ('{"subscription": {"endpoint": 5, "keys": "x"}, "days": "many", "page": -1}', "application/json"),
    ('{"\\ud800": "\\udfff"}', "application/json"),
    ("name=Ada&credential=x&text=%00", "application/x-www-form-urlencoded"),
    ("\xff\xfe", "text/plain"),
]

ODD_QUERIES = [
    "page=-1",
    "page=abc",
    "page=" + "9" * 40,
    "next=//evil.example/",
    "next=/\\evil.example",
    "next=https://evil.example",
    "state=" + "s" * 3000 + "&code=%00",
    "again=1&resource=x&resource=y",
    "page=%00",
]

METHODS = ["get", "head", "put", "patch", "delete", "options", "trace"]


def urls_with(values: dict[str, list[Any]]) -> list[str]:
    """Every hall URL, once for each odd value of each of its path's parameters."""
    urls = []
    for p in urlpatterns:
        assert isinstance(p, URLPattern)
        names = list(p.pattern.converters)
        for name in names:
            for odd in values["int" if isinstance(SAMPLES[name], int) else "str"]:
                kwargs = {n: SAMPLES[n] for n in names} | {name: odd}
                if name == "path":  # the static route takes a path: its odd values are paths
                    kwargs[name] = f"hall/{odd}"
                try:
                    urls.append(reverse(f"hall:{p.name}", kwargs=kwargs))
                except Exception:  # a value the route cannot hold (a NUL in a str) is not an address
                    continue
    return urls


def sample_urls() -> list[str]:
    return [
        reverse(f"hall:{p.name}", kwargs={n: SAMPLES[n] for n in p.pattern.converters})
        for p in urlpatterns
        if isinstance(p, URLPattern)
    ]


def answered(r: Any, what: str) -> None:
    assert r.status_code < 500, (what, r.status_code, r.content[:300])
    assert r.headers.get("X-Frame-Options") == "DENY", what


@pytest.fixture(params=["signed out", "owner and staff"])
def client(request: Any) -> Client:
    c = Client(HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    if request.param != "signed out":
        c.force_login(owner(), backend="hall.backends.PasskeyBackend")
    return c


def test_odd_ids_in_the_path_get_an_answer(client: Client) -> None:
    urls = urls_with({"str": ODD_IDS, "int": ODD_INTS})
    assert len(urls) > 3 * len(urlpatterns)
    for url in urls:
        answered(client.get(url), f"GET {url[:120]}")
        answered(client.post(url, "{}", content_type="application/json"), f"POST {url[:120]}")


def test_every_method_gets_an_answer(client: Client) -> None:
    for url in sample_urls():
        for method in METHODS:
            answered(getattr(client, method)(url), f"{method.upper()} {url}")


def test_odd_bodies_get_an_answer(client: Client) -> None:
    for url in sample_urls():
        for body, kind in ODD_BODIES:
            answered(client.post(url, body, content_type=kind), f"POST {url} {body[:40]!r}")


def test_odd_queries_get_an_answer_and_never_send_a_person_elsewhere(client: Client) -> None:
    for url in sample_urls():
        for query in ODD_QUERIES:
            r = client.get(f"{url}?{query}")
            answered(r, f"GET {url}?{query[:60]}")
            where = urlsplit(r.headers.get("Location", ""))
            assert where.netloc in ("", HOST) and not where.path.startswith("//"), (url, query, where)


def test_a_begun_ceremony_answered_with_junk_decides_nothing(client: Client) -> None:
    """Every */begin then its */finish with answers that are no passkey's: a refusal, no change."""
    finishes = [u for u in sample_urls() if u.endswith("/finish")]
    for url in finishes:
        begin = url.removesuffix("/finish") + "/begin"
        client.post(begin, json.dumps({"name": "Ada"}), content_type="application/json")
        for body, kind in ODD_BODIES:
            r = client.post(url, body, content_type=kind)
            answered(r, f"POST {url} {body[:40]!r}")
            if r.headers.get("Content-Type", "").startswith("application/json"):
                assert r.json().get("ok") is not True, (url, body[:40], r.json())


# The rest of the town's site beside the hall: the authorization server, the public town, the read
# API (its integers in the path and the query), /status and /metrics.
SITE = [
    "/",
    "/town/now",
    "/feed",
    "/feed.atom",
    "/static/public/x",
    "/.well-known/oauth-authorization-server",
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-protected-resource/mcp",
    "/.well-known/jwks.json",
    "/oauth/register",
    "/oauth/token",
    "/oauth/revoke",
    "/oauth/authorize",
    "/oauth/authorize/begin",
    "/oauth/authorize/finish",
    "/oauth/authorize/deny",
    "/api/census",
    "/api/census/lots",
    "/api/census/lots/1",
    "/api/census/lots/" + "9" * 40,
    "/api/census/lots/-1",
    "/api/map",
    "/api/feed",
    "/api/counts",
    "/api/archive/checkpoint",
    "/api/archive/checkpoints",
    "/api/archive/checkpoints/" + "9" * 40,
    "/api/archive/proof/0",
    "/api/archive/proof/" + "9" * 40,
    "/api/archive/consistency",
    "/api/docs/x",
    "/api/docs/..%2F..%2Fsettings.py",
    "/status",
    "/metrics",
    "/favicon.ico",
]
SITE_QUERIES = [
    *ODD_QUERIES,
    "first=2&second=1",
    "first=" + "9" * 40 + "&second=" + "9" * 40,
    "first=-1&second=x",
    "response_type=code&client_id=%00&redirect_uri=javascript:alert(1)&code_challenge=x&resource=x",
    "client_id=" + "c" * 5000 + "&redirect_uri=http://evil.example/&state=<script>",
]


def test_the_rest_of_the_site_answers_every_method_body_and_query(client: Client) -> None:
    for url in SITE:
        for method in METHODS:
            answered(getattr(client, method)(url), f"{method.upper()} {url}")
        for body, kind in ODD_BODIES:
            answered(client.post(url, body, content_type=kind), f"POST {url} {body[:40]!r}")
        for query in SITE_QUERIES:
            r = client.get(f"{url}?{query}")
            answered(r, f"GET {url}?{query[:60]}")
            where = urlsplit(r.headers.get("Location", ""))
            assert where.netloc in ("", HOST) and not where.scheme.startswith("javascript"), (url, query, where)
            assert b"<script>" not in r.content or url in ("/", "/town/now", "/feed"), (url, query)


def test_a_host_django_cannot_read_gets_bad_request_in_the_towns_words() -> None:
    # Two Host headers arrive joined by a comma; no name of the town is spelled that way.
    r = Client(HTTP_HOST=f"{HOST},evil.example", HTTP_ORIGIN=ORIGIN).get("/hall/")
    assert (r.status_code, r.content, r.headers["Content-Type"]) == (400, b"Bad request.", "text/plain; charset=utf-8")
    assert r.headers["X-Frame-Options"] == "DENY"


# Markup an agent might write, hoping a person's page runs it: every piece must reach the page as text.
MARKUP = '"\'><img src=x onerror=alert(1)><script>alert(2)</script></textarea><a href="javascript:alert(3)">x</a>'
RAW = (b"<img src=x", b"<script>alert", b"</textarea><a", b'href="javascript:')


@pytest.mark.usefixtures("sign_in")
def test_an_agents_markup_reaches_every_page_of_its_person_as_text(ada: Any) -> None:
    """An agent whose client name and pennant are markup writes markup in a note, a letter, a held
    notice, a plan's channel, a report and a broadcast: the person's pages show it escaped."""
    agent = agent_of(ada, client_name=MARKUP[:60], pennant=MARKUP[:40])
    assert not visit(agent, "remember", key="x", value=MARKUP).is_error
    visit(agent, "send_letter", subject=MARKUP[:80], body=MARKUP)
    visit(agent, "post_notice", text=MARKUP)
    visit(agent, "declare_plan", steps=[{"tool": "broadcast", "channel": "ch", "times": 1}], hours=1)
    visit(agent, "broadcast", channel="ch", text=MARKUP)
    visit(agent, "report_suspicious_instruction", quote=MARKUP, where=MARKUP[:120], errand=MARKUP)
    pages = [
        "/hall/",
        "/hall/agents",
        f"/hall/agents/{agent.pk}/box",
        f"/hall/agents/{agent.pk}/gauge",
        f"/hall/agents/{agent.pk}/runs",
        "/hall/letters",
        "/hall/jobs",
        "/hall/account",
    ]
    front = ada.client.get("/hall/").content.decode()
    linked = sorted(set(re.findall(r'href="(/hall/(?:holds|letters|plans|reports)/[^"/]+)"', front)))
    assert len(linked) >= 3, linked  # the held notice, the letter, the plan at least
    for url in pages + linked:
        r = ada.client.get(url)
        assert r.status_code == 200, (url, r.status_code)
        for raw in RAW:
            assert raw not in r.content, (url, raw)
    # Staff read reports and sightings from every agent: the docket shows them as text too.
    Account.objects.filter(pk=ada.account.pk).update(is_staff=True)
    r = ada.client.get("/hall/staff")
    assert r.status_code == 200 and b"onerror=alert(1)" in r.content  # the report is on the docket, escaped
    for raw in RAW:
        assert raw not in r.content, raw
    export = ada.client.get("/hall/account/export")
    assert export.status_code == 200 and export.headers["Content-Type"].startswith("application/json")


HIDDEN_NAME = "claude\u202eedoc\u202c\u200b-helper"


@pytest.mark.usefixtures("sign_in")
def test_a_client_name_with_hidden_characters_is_drawn_on_every_page_that_names_it(ada: Any) -> None:
    """clientInfo.name is the agent's client's own words: a right-to-left override or a zero-width
    space in it would make the name a person reads another than the one it is, as in an agent's notice.
    Every page that names the client draws them as tokens, as it draws an agent's words."""
    agent = agent_of(ada, client_name=HIDDEN_NAME)
    visit(agent, "post_notice", text="Meet at the well at noon.")
    front = ada.client.get("/hall/").content.decode()
    held = sorted(set(re.findall(r'href="(/hall/holds/[^"/]+)"', front)))
    assert held, "the notice waits for its person"
    for url in ["/hall/", "/hall/agents", f"/hall/agents/{agent.pk}/box", *held]:
        text = ada.client.get(url).content.decode()
        assert "\u202e" not in text and "\u200b" not in text and "\u202c" not in text, url
        assert '<mark class="hidden-char" title="A hidden character">⟦U+202E⟧</mark>edoc' in text, url
