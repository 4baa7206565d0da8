"""The hall's defences: CSRF on every POST, frames denied on every response, its own origin and
address only, strict cookies, and a production configuration that `check --deploy` finds clean."""

import html
import logging
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, reverse

from clockford.town import limits
from clockford.town.models import Tally
from hall import http
from hall.models import Account
from hall.tests.conftest import HOST, ORIGIN, Visitor
from hall.urls import urlpatterns
from tests.support import clear_of_a_window_edge

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

SAMPLES: dict[str, Any] = {
    "passkey_id": 1,
    "connection_id": 1,
    "passport_id": "PP-2345678923",
    "code": "x" * 32,
    "path": "hall/hall.css",
    "hold_id": "H-2345678923AB",
    "letter_id": "L-2345678923AB",
    "plan_id": "PL-2345678923AB",
    "report_id": "R-2345678923AB",
    "dispute_id": "D-23456789",
    "request_id": "AR-2345678923AB",
    "closure_id": "C-2345678923AB",
    "job_id": "J-2345678923",
    "ask_id": "DA-2345678923AB",
    "deed_id": "DE-2345678923AB",
    "certificate_id": "C-2345678923AB",
    "invite_id": 1,
    "token": "x" * 32,
}


def every_hall_url() -> list[str]:
    urls = []
    for p in urlpatterns:
        assert isinstance(p, URLPattern)
        kwargs = {name: SAMPLES[name] for name in p.pattern.converters}
        urls.append(reverse(f"hall:{p.name}", kwargs=kwargs))
    return urls


def owner() -> Account:
    return Account.objects.create_account("Olive", is_owner=True, is_staff=True)


def frames_denied(r: Any) -> bool:
    csp = [d.strip() for d in r.headers.get("Content-Security-Policy", "").split(";")]
    return r.headers.get("X-Frame-Options") == "DENY" and "frame-ancestors 'none'" in csp


def test_the_url_list_is_the_whole_hall() -> None:
    urls = every_hall_url()
    assert len(urls) == len(urlpatterns) == 87
    assert "/hall/jobs/J-2345678923/end" in urls and "/hall/account/close" in urls and "/hall/push/subscribe" in urls
    assert "/hall/signin/finish" in urls and "/hall/passkeys/1/remove/finish" in urls
    assert "/hall/passkeys/add/confirm" in urls
    assert "/hall/agents/PP-2345678923/box/empty" in urls
    assert "/hall/agents/PP-2345678923/gauge" in urls
    assert "/hall/agents/PP-2345678923/runs" in urls
    assert "/hall/staff/walls" in urls
    assert "/hall/staff/close" in urls and "/hall/closures/C-2345678923AB/finish" in urls
    assert "/hall/certificates/C-2345678923AB/finish" in urls
    assert "/hall/deeds/asks/DA-2345678923AB/finish" in urls and "/hall/deeds/DE-2345678923AB/check" in urls
    assert "/hall/holds/H-2345678923AB/rewrite/begin" in urls
    assert "/hall/invites/1/revoke" in urls and f"/hall/invite/{'x' * 32}/begin" in urls


def takes_posts(url: str) -> bool:
    """Whether a hall address takes POST: the Allow of its 405 to a PUT, asked without the CSRF check."""
    return Client(HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN).put(url)["Allow"] == "POST"


@pytest.mark.parametrize("signed_in", [False, True])
def test_every_hall_post_without_its_csrf_token_is_refused(signed_in: bool) -> None:
    client = Client(enforce_csrf_checks=True, HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    if signed_in:
        client.force_login(owner())
    posts = [url for url in every_hall_url() if takes_posts(url)]
    assert len(posts) > 40, len(posts)
    for url in posts:
        r = client.post(url, "{}", content_type="application/json")
        assert r.status_code == 403, url
        assert "the town did not act on it" in html.unescape(r.content.decode()), url
        assert frames_denied(r), url


@pytest.mark.parametrize("signed_in", [False, True])
def test_a_method_an_address_does_not_take_is_refused_as_such_not_as_a_stale_form(signed_in: bool) -> None:
    """Django's CSRF check runs before any view, so a PUT, a DELETE or a PATCH (or a POST to a page) was
    answered "This page was open too long, or came from somewhere else" (403), though no address of
    the hall takes it: over real HTTP, where the check is made (Django's test client skips it unless
    told). It is the 405 the address gives, with its Allow header and words that say why."""
    client = Client(enforce_csrf_checks=True, HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    if signed_in:
        client.force_login(owner())
    allowed = set()
    for url in every_hall_url():
        sent = [client.put(url), client.delete(url), client.patch(url), client.generic("PROPFIND", url)]
        if not takes_posts(url):
            sent.append(client.post(url, "{}", content_type="application/json"))
        for r in sent:
            assert r.status_code == 405, (r.request["REQUEST_METHOD"], url, r.status_code)
            allowed.add(r["Allow"])
            say = http.ONLY_READ if r["Allow"] == "GET, HEAD" else http.ONLY_SENT
            assert say in html.unescape(r.content.decode()), (r.request["REQUEST_METHOD"], url)
            assert frames_denied(r), url
    assert allowed == {"GET, HEAD", "POST"}, allowed


def test_the_same_post_with_its_token_goes_through() -> None:
    client = Client(enforce_csrf_checks=True, HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    client.get("/hall/")
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    r = client.post("/hall/signin/begin", "{}", content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert r.status_code == 200 and r.json()["ok"] is True


def test_a_ceremony_sent_a_multipart_form_is_refused_in_the_halls_words(settings: Any) -> None:
    """A ceremony reads JSON; a form sent as multipart, token and origin in order, is a request it
    cannot read. The door's reading of the form left no body for the ceremony: a 500 and a traceback."""
    settings.CLOCKFORD_SIGN_IN = True  # for /oauth/authorize/begin
    client = Client(enforce_csrf_checks=True, HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    client.get("/hall/")
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    form = "--x\r\nContent-Disposition: form-data; name=a\r\n\r\nb\r\n--x--\r\n"
    for url in ("/hall/signup/begin", "/hall/signin/begin", "/oauth/authorize/begin"):
        r = client.post(url, form, "multipart/form-data; boundary=x", HTTP_X_CSRFTOKEN=token)
        assert (r.status_code, r.json()) == (400, {"ok": False, "say": http.UNREADABLE}), url


@pytest.mark.parametrize("signed_in", [False, True])
def test_every_hall_response_denies_frames(signed_in: bool) -> None:
    client = Client(HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    if signed_in:
        client.force_login(owner())
    seen = set()
    for url in every_hall_url():
        for r in (client.get(url), client.post(url, "{}", content_type="application/json")):
            assert frames_denied(r), (url, r.status_code)
            seen.add(r.status_code)
    # Pages, redirects, refusals, the plain 404 and wrong methods alike.
    assert {200, 302, 404, 405} <= seen, seen


def test_a_signed_in_persons_pages_are_cached_nowhere() -> None:
    """Every page the hall draws for a signed-in person says no-store (their holds, their letters, an
    invite link shown once): no shared cache keeps them, and the browser's own does not either."""
    client = Client(HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    olive = owner()
    pages = 0
    for url in every_hall_url():
        for method in (client.get, client.post):
            client.force_login(olive)  # again: one of the posts is the sign-out
            r = method(url, "{}", content_type="application/json") if method == client.post else method(url)
            # Pages and the ceremonies' JSON; not the scripts and styles every visitor gets alike.
            if r.status_code == 200 and r["Content-Type"].startswith(("text/html", "application/json")):
                pages += 1
                assert "no-store" in r.get("Cache-Control", ""), (url, r.get("Cache-Control"))
    assert pages > 10, pages


def test_a_signed_in_persons_refusals_drawn_outside_the_halls_views_are_cached_nowhere() -> None:
    """The page for an address the hall has no page at, and the refusal of a POST without its CSRF
    token, are drawn by no view of the hall (Django's 404 handler, its CSRF check), yet carry the
    person's name and account number like every hall page: stored by no cache either."""
    client = Client(enforce_csrf_checks=True, HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    olive = owner()
    client.force_login(olive)
    answers = [
        client.get("/hall/no-such-page", HTTP_ACCEPT="text/html"),
        client.get("/oauth/no-such-page", HTTP_ACCEPT="text/html"),
        client.post("/hall/signout", HTTP_ACCEPT="text/html"),
        client.post("/hall/invites/make", HTTP_ACCEPT="text/html"),
    ]
    assert [r.status_code for r in answers] == [404, 404, 403, 403]
    for r in answers:
        assert olive.handle in r.content.decode(), r.content[:200]
        assert "no-store" in r.get("Cache-Control", ""), (r.request["PATH_INFO"], r.get("Cache-Control"))
    # Signed out, the same pages are everyone's, and say nothing of caching.
    client.logout()
    assert not client.get("/hall/no-such-page", HTTP_ACCEPT="text/html").has_header("Cache-Control")


def test_a_post_from_another_origin_or_none_is_refused(ada: Visitor) -> None:
    client = Client(enforce_csrf_checks=True, HTTP_HOST=HOST)
    client.get("/hall/")
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    post = {"content_type": "application/json", "HTTP_X_CSRFTOKEN": token}
    r = client.post("/hall/signin/begin", "{}", HTTP_ORIGIN="http://evil.example", **post)
    assert r.status_code == 403 and "the town did not act on it" in html.unescape(r.content.decode())
    r = client.post("/hall/signin/begin", "{}", **post)
    assert r.status_code == 403
    assert r.json() == {"ok": False, "say": f"The hall takes requests only from its own pages at {settings.HALL_URL}."}


def test_the_hall_answers_only_at_its_own_address() -> None:
    # Browsers refuse passkeys on an IP address: a loopback town's hall lives at localhost.
    assert settings.TOWN_URL == "http://127.0.0.1:7433"
    assert (settings.HALL_URL, settings.HALL_RP_ID) == ("http://localhost:7433", "localhost")
    elsewhere = Client(HTTP_HOST="127.0.0.1:7433", HTTP_ORIGIN="http://127.0.0.1:7433")
    r = elsewhere.get("/hall/agents?page=2")
    assert (r.status_code, r.url) == (302, "http://localhost:7433/hall/agents?page=2")
    r = elsewhere.post("/hall/signin/begin", "{}", content_type="application/json")
    assert r.status_code == 403
    assert r.json()["say"] == "The hall answers only at http://localhost:7433."


def test_an_address_too_long_to_send_on_to_the_hall_is_a_bad_request(caplog: pytest.LogCaptureFixture) -> None:
    # At the loopback IP a GET is sent on to the hall's address; past Django's longest redirect it was
    # a DisallowedRedirect, logged with its traceback for every visitor who asked with a long query.
    elsewhere = Client(HTTP_HOST="127.0.0.1:7433")
    with caplog.at_level(logging.INFO):
        r = elsewhere.get("/hall/?x=" + "y" * 20_000)
        wide = elsewhere.get("/hall/signup?x=" + "é" * 6_000)  # 12,000 bytes, 36,000 characters as a URL
    for answer in (r, wide):
        assert (answer.status_code, answer.content) == (400, b"Bad request.")
        assert answer["Content-Type"] == "text/plain; charset=utf-8"
    # Django's one line for a 400, and nothing of a refused redirect, nor any traceback.
    assert not [rec for rec in caplog.records if rec.name.startswith("django.security") or rec.exc_info]
    assert elsewhere.get("/hall/?x=" + "y" * 2_000).status_code == 302


def test_a_signed_out_page_too_long_to_remember_sends_to_the_front_door(caplog: pytest.LogCaptureFixture) -> None:
    # The front door remembers the page asked for in its query: past Django's longest redirect that was
    # a DisallowedRedirect with its traceback in the log. The front door alone, then.
    client = Client(HTTP_HOST=HOST)
    with caplog.at_level(logging.INFO):
        r = client.get("/hall/holds/H-" + "A" * 17_000)
        query = client.get("/hall/agents?x=" + "y" * 17_000)
    assert (r.status_code, r.url, query.status_code, query.url) == (302, "/hall/", 302, "/hall/")
    assert not [rec for rec in caplog.records if rec.name.startswith("django.security") or rec.exc_info]
    assert client.get("/hall/holds/H-ABC").url == "/hall/?next=/hall/holds/H-ABC"


def test_the_hall_cookies_are_strict(visitor: Visitor) -> None:
    visitor.client.get("/hall/")
    assert visitor.sign_up("Ada")[0] == 200
    session = visitor.client.cookies[settings.SESSION_COOKIE_NAME]
    csrf = visitor.client.cookies[settings.CSRF_COOKIE_NAME]
    assert session["samesite"] == "Strict" and session["httponly"] is True
    assert csrf["samesite"] == "Strict"


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("CLOCKFORD_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, "DJANGO_SETTINGS_MODULE": "clockford.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.heavy
def test_check_deploy_is_clean_with_production_settings(tmp_path: Path) -> None:
    production = {
        "CLOCKFORD_URL": "https://town.example",
        "CLOCKFORD_SECRET_KEY": secrets.token_urlsafe(50),
        "CLOCKFORD_VAR": str(tmp_path),
        "CLOCKFORD_TRUSTED_PROXIES": "127.0.0.1",
    }
    done = manage(production, "check", "--deploy", "--fail-level", "WARNING")
    assert (done.returncode, done.stdout.strip(), done.stderr.strip()) == (
        0,
        "System check identified no issues (0 silenced).",
        "",
    )
    shown = manage(
        production,
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings as s; print(s.HALL_URL, s.HALL_RP_ID, 'town.example' in s.ALLOWED_HOSTS, "
        "s.SESSION_COOKIE_NAME, s.CSRF_COOKIE_NAME, s.SESSION_COOKIE_SECURE, s.SECURE_SSL_REDIRECT)",
    )
    assert shown.stdout.split() == [
        "https://town.example",
        "town.example",
        "True",
        "__Host-clockford-session",
        "__Host-clockford-csrf",
        "True",
        "True",
    ], shown.stderr


@pytest.mark.heavy
def test_check_deploy_warns_of_an_https_town_that_names_no_proxy(tmp_path: Path) -> None:
    # Only a proxy serves the town over https, and the town believes no proxy it was not told of: its
    # X-Forwarded-Proto unread, every request would go to the front door.
    production = {
        "CLOCKFORD_URL": "https://town.example",
        "CLOCKFORD_SECRET_KEY": secrets.token_urlsafe(50),
        "CLOCKFORD_VAR": str(tmp_path),
    }
    done = manage(production, "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 1
    assert (
        "?: (clockford.W001) CLOCKFORD_URL is https and CLOCKFORD_TRUSTED_PROXIES names no proxy: the town "
        "believes no proxy's X-Forwarded-Proto, so it sends every request to the front door.\n"
        "\tHINT: Name the proxy in front of the town: CLOCKFORD_TRUSTED_PROXIES=127.0.0.1 for one on this machine."
    ) in done.stderr
    assert done.stderr.count("(clockford.") == 1 and "(security." not in done.stderr


@pytest.mark.heavy
def test_check_deploy_is_not_clean_over_plain_http(tmp_path: Path) -> None:
    # The same check on the embedded town's plain-http settings finds what production must add,
    # so the clean result above is the production settings' doing.
    done = manage({"CLOCKFORD_VAR": str(tmp_path)}, "check", "--deploy", "--fail-level", "WARNING")
    assert done.returncode == 1
    assert "security.W004" in done.stderr and "security.W012" in done.stderr


@pytest.mark.parametrize("signed_in", [False, True])
def test_every_hall_page_answers_head_as_it_answers_get_and_refuses_other_methods_in_words(signed_in: bool) -> None:
    """A link checker or a monitor asks HEAD: it gets the page's status and headers, no body. A method an
    address does not take is a 405 with its Allow header and a page that says why, never an empty one."""
    client = Client(HTTP_HOST=HOST, HTTP_ORIGIN=ORIGIN)
    olive = owner()
    refused = {}
    for url in every_hall_url():
        if signed_in:
            client.force_login(olive)  # again: one of the posts is the sign-out
        got, head = client.get(url), client.head(url)
        assert (head.status_code, head.getvalue()) == (got.status_code, b""), url  # the export is streamed
        assert head.get("Location") == got.get("Location"), url
        for r in (got, client.post(url, "{}", content_type="application/json"), client.put(url)):
            if r.status_code == 405:
                refused[url] = r["Allow"]
                text = html.unescape(r.content.decode())
                assert "<h1>Not done</h1>" in text or r.json()["ok"] is False, (url, text)
    # Pages take GET and HEAD; forms and ceremonies only POST, and say so to whoever opens them.
    assert refused["/hall/letters/L-2345678923AB/read"] == "POST"
    assert refused["/hall/letters/L-2345678923AB"] == "GET, HEAD"
    assert set(refused.values()) == {"POST", "GET, HEAD"}
    r = client.get("/hall/signout")
    assert r.status_code == 405 and r["Allow"] == "POST"
    assert (
        "This address acts only when a button on a page of the hall sends it, so opening it changes nothing. "
        "Go back to the hall and use the button there." in html.unescape(r.content.decode())
    )
    r = client.put("/hall/", HTTP_ACCEPT="text/html")
    assert r.status_code == 405 and r["Allow"] == "GET, HEAD"
    assert "This is a page of the hall, only to be opened and read: nothing sent to it is taken." in html.unescape(
        r.content.decode()
    )
    r = client.get("/hall/signin/begin", HTTP_ACCEPT="application/json")
    assert r.status_code == 405 and r.json() == {"ok": False, "say": http.ONLY_SENT}


def test_a_ceremony_begun_signed_out_keeps_its_session_minutes_and_a_sign_in_its_whole_age() -> None:
    """Begun signed out, a passkey ceremony's session row lives 15 minutes, not the 7 days of a sign-in:
    a script's begins cannot pile rows up for a week. Signing in gives the session its whole age again."""
    visitor = Visitor()
    visitor.options("/hall/signin/begin")
    assert visitor.client.session.get_expiry_age() == http.SIGNED_OUT_SECONDS
    status, data = visitor.sign_up("Ada")
    assert status == 200 and data["ok"] is True, data
    assert visitor.client.session.get_expiry_age() == settings.SESSION_COOKIE_AGE
    visitor.sign_out()
    visitor.sign_in()
    assert visitor.account is not None
    assert visitor.client.session.get_expiry_age() == settings.SESSION_COOKIE_AGE


def test_an_address_s_ceremonies_are_counted_apart_from_its_agents_calls(settings: Any) -> None:
    """Each begin and each finish of a passkey ceremony counts against the address, on a key of its own:
    past CEREMONIES_PER_ADDRESS in a window the address is told to wait, whatever its agents did on
    /mcp meanwhile, and its agents' count is left as it was."""
    settings.CLOCKFORD = {**settings.CLOCKFORD, "CEREMONIES_PER_ADDRESS": 3}
    clear_of_a_window_edge(settings.CLOCKFORD["REQUEST_WINDOW_SECONDS"], 5)
    visitor = Visitor()
    for _ in range(3):
        visitor.options("/hall/signin/begin")
    r = visitor.client.post("/hall/signin/begin", "{}", content_type="application/json")
    assert (r.status_code, r.json()) == (429, {"ok": False, "say": limits.TOO_MANY})
    assert 1 <= int(r["Retry-After"]) <= settings.CLOCKFORD["REQUEST_WINDOW_SECONDS"]
    assert not Tally.objects.filter(pk=limits.address_key("127.0.0.1")).exists()
    assert Tally.objects.get(pk=limits.ceremony_key("127.0.0.1")).requests == 4
