"""The public addresses that only read answer HEAD as GET, and refuse every other method in words, as
the hall's pages and the API do; a POST is refused as a method, not as a stale form."""

import pytest
from django.test import Client

from clockford.reads import ONLY_READ
from districts.town_hall.models import CensusState

pytestmark = pytest.mark.django_db

READS = ["/", "/town/now", "/feed", "/feed.atom", "/static/public/map.js", "/status", "/metrics", "/favicon.ico"]


@pytest.mark.parametrize("url", READS)
def test_head_is_answered_as_get_without_the_body(demo: CensusState, url: str) -> None:
    client = Client(REMOTE_ADDR="127.0.0.1")
    got, head = client.get(url), client.head(url)
    assert got.status_code in (200, 301)
    assert (head.status_code, head.content) == (got.status_code, b"")
    assert head["Content-Type"] == got["Content-Type"]
    assert head["X-Frame-Options"] == "DENY" and head["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("url", READS)
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options", "trace"])
def test_any_other_method_is_refused_in_words_with_its_allow_header(demo: CensusState, url: str, method: str) -> None:
    # The CSRF check is on, as in the running town: a POST without a token is still a 405, not the
    # hall's page for a form that was open too long.
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR="127.0.0.1")
    r = getattr(client, method)(url)
    assert r.status_code == 405, (method, url)
    assert r["Allow"] == "GET, HEAD"
    assert r.content.decode() == ONLY_READ
    assert r["Content-Type"] == "text/plain; charset=utf-8"
    assert r["X-Frame-Options"] == "DENY" and "frame-ancestors 'none'" in r["Content-Security-Policy"]
